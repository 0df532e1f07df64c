import AubadeHandoff
import AubadeTesting
import Foundation
import Testing

/// "Nothing it does allocates after start" (R35), measured: the real `aubade-waker` under a preloaded
/// `malloc` counter (built here with gcc), which prints how many allocations the process made when it exits.
/// A waker that re-reads its files and re-arms forty times ends with the same count as one that armed once;
/// one that rings four seconds, the same as one that rang one second (opening the card, alsa-lib's own work,
/// is the same in both).
@Suite("Second waker: nothing allocated after start (R35)", .serialized)
struct WakerAllocationTests {
    static let counter = """
        #define _GNU_SOURCE
        #include <stddef.h>
        #include <stdio.h>
        #include <unistd.h>
        extern void *__libc_malloc(size_t);
        extern void *__libc_calloc(size_t, size_t);
        extern void *__libc_realloc(void *, size_t);
        extern void *__libc_memalign(size_t, size_t);
        static long count;
        static void add(void) { __atomic_add_fetch(&count, 1, __ATOMIC_RELAXED); }
        void *malloc(size_t n) { add(); return __libc_malloc(n); }
        void *calloc(size_t a, size_t b) { add(); return __libc_calloc(a, b); }
        void *realloc(void *p, size_t n) { add(); return __libc_realloc(p, n); }
        int posix_memalign(void **p, size_t a, size_t n) { add(); *p = __libc_memalign(a, n); return *p ? 0 : 12; }
        void *aligned_alloc(size_t a, size_t n) { add(); return __libc_memalign(a, n); }
        void *memalign(size_t a, size_t n) { add(); return __libc_memalign(a, n); }
        __attribute__((destructor)) static void report(void) {
            char b[64]; int k = snprintf(b, sizeof b, "MALLOCS %ld\\n", count); write(2, b, k);
        }
        """

    /// 08:00 tomorrow, Unix ms: the fake instant every run starts at.
    static let start: Int64 = {
        let day: Int64 = 86_400_000
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        return (now / day + 1) * day + 8 * 3_600_000
    }()

    struct Folder {
        let dir: TemporaryDirectory
        let shim: String
        let waker: String
        var db: String { dir.file("clock.sqlite") }

        init() async throws {
            dir = try TemporaryDirectory("waker-alloc")
            guard let waker = ProcessRunner.builtExecutable("aubade-waker") else {
                throw RigError("aubade-waker is not built beside the tests.")
            }
            self.waker = waker
            try WakerAllocationTests.counter.write(toFile: dir.file("count.c"), atomically: true, encoding: .utf8)
            shim = dir.file("count.so")
            let cc = try await ProcessRunner.run("/usr/bin/gcc", ["-shared", "-fPIC", "-O2", "-o", shim, dir.file("count.c")])
            guard cc.status == 0 else { throw RigError("gcc failed: \(cc.stderr)") }
        }

        /// Writes the daemon's next-alarm file with one alarm due at `due`, as the daemon would (`written` = n).
        func nextAlarm(due: Int64, written: Int64) throws {
            var file = NextAlarmFile()
            file.daemon = ProcessIdentity(pid: 1, startTicks: 1)
            file.written = written
            file.device = LongText("file:'\(dir.file("card.raw"))',raw")
            file.entries = (0..<8).map { k in
                let at = due + Int64(k) * 86_400_000
                return HandoffEntry(alarm: 1, occurrence: at, due: at, volume: 90, durationSeconds: 600, name: ShortText("Work"))
            }
            let w = TextWriter(capacity: 16_384)
            file.write(to: w)
            let rc = HandoffIO.replace(db + ".next-alarm", with: w.bytes)
            guard rc == 0 else { throw RigError("writing the next-alarm file: errno \(rc)") }
        }

        func start() async throws -> EventProcess {
            try await EventProcess(
                waker,
                [
                    "--json", "--db", db, "--grace", "1s", "--fake-time",
                    Date(timeIntervalSince1970: Double(WakerAllocationTests.start) / 1000).formatted(.iso8601),
                ],
                environment: ["LD_PRELOAD": shim])
        }

        /// Stops the waker and returns its allocation count.
        func count(_ w: EventProcess) async throws -> Int {
            w.signal(SIGTERM)
            #expect(await w.waitForExit() == 0)
            guard let line = w.errorOutput.split(separator: "\n").first(where: { $0.hasPrefix("MALLOCS ") }),
                let n = Int(line.dropFirst(8))
            else { throw RigError("no count in \(w.errorOutput)") }
            return n
        }
    }

    @Test func rearmingAllocatesNothing() async throws {
        var counts: [Int] = []
        for rewrites in [0, 40] {
            let f = try await Folder()
            let first = Self.start + 3_600_000
            try f.nextAlarm(due: first, written: 0)
            let w = try await f.start()
            _ = try #require(await w.wait(for: "armed"))
            for n in stride(from: 1, through: rewrites, by: 1) {
                let due = first + Int64(n) * 60_000
                try f.nextAlarm(due: due, written: Int64(n))
                _ = try #require(await w.wait(for: "armed") { WakerRig.number($0, "occurrence") == Double(due) / 1000 })
            }
            counts.append(try await f.count(w))
        }
        #expect(counts[0] == counts[1], "allocations: armed once \(counts[0]), re-armed 40 times \(counts[1])")
    }

    @Test func ringingAllocatesNothingPerChunk() async throws {
        var counts: [Int] = []
        for seconds in [1.0, 4.0] {
            let f = try await Folder()
            try f.nextAlarm(due: Self.start + 500, written: 0)
            let w = try await f.start()
            _ = try #require(await w.wait(for: "device"))
            let card = f.dir.file("card.raw")
            let deadline = ContinuousClock.now + EventProcess.watchdog
            while Signal.frames(card) < Int(seconds * Double(Signal.rate)) && ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(100))
            }
            #expect(Signal.frames(card) >= Int(seconds * Double(Signal.rate)))
            counts.append(try await f.count(w))
        }
        #expect(counts[0] == counts[1], "allocations: rang 1 s \(counts[0]), rang 4 s \(counts[1])")
    }
}
