public import Foundation
import Glibc
import Synchronization

/// Every program a test starts — the built `aubade` and `aubade-waker`, Icecast and ezstream, Python servers,
/// sox, lame, curl, gcc — is started here, one way, so none of them can outlive the test process or ignore it:
///
/// - a clean start: no signal blocked, every signal's disposition the default (a thread of the test process
///   may have SIGTERM, SIGINT and SIGHUP blocked, and a child inherits its spawning thread's mask), and no
///   descriptor but the three standard ones (a pipe end leaked into another test's daemon would keep that
///   test's reader from ever seeing the end of its output);
/// - its own process group, killed whole (SIGKILL) when the value goes away;
/// - it dies with the test process, even one killed with SIGKILL or crashed: the kernel sends it SIGKILL when
///   its parent goes (`PR_SET_PDEATHSIG`, set by util-linux's `setpriv --pdeathsig` just before the program is
///   executed). The kernel means the parent *thread*, so every child is spawned from one thread that lives as
///   long as the process (`Spawner`), never from a pool or helper thread that may end first. A parent that died
///   before the signal was armed is caught too: the program is executed through `sh`, which checks that its
///   parent is still the test process and otherwise exits instead;
/// - a private runtime folder (`AUBADE_RUNTIME_DIR`) unless the test names one: a test daemon never announces
///   itself where the user's clock does, and a test's CLI never finds the user's clock. The folder is removed
///   when the program has ended.
///
/// The exit is collected on a thread of its own (`waitpid`), so waiting never blocks the cooperative pool.
public final class ChildProcess: Sendable {
    /// What a standard stream of the child is connected to.
    public enum Stream: Sendable {
        case null
        case pipe
    }

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    public let pid: pid_t
    /// The read ends of the child's stdout and stderr, when they were asked for as pipes.
    public let stdout: FileHandle?
    public let stderr: FileHandle?

    /// Set once the child has ended (before it is reaped: its pid, and so its process group, stay its own
    /// while `signal` may still use them).
    private let status = Locked<Int32?>(nil)
    private let changes = ChangeSignal()

    /// `environment` entries are added to (or, with "", removed from) this process's environment; unless it
    /// names `AUBADE_RUNTIME_DIR`, the child gets a private one. As the user `nobody` (`asNobody`) when the
    /// tests run as root (Icecast refuses root).
    public init(
        _ executable: String, _ arguments: [String], environment: [String: String] = [:],
        currentDirectory: String? = nil, stdout: Stream = .null, stderr: Stream = .null,
        asNobody: Bool = false
    ) async throws {
        var env = ProcessInfo.processInfo.environment
        let runtime = environment["AUBADE_RUNTIME_DIR"] == nil ? ChildProcess.privateRuntimeFolder() : nil
        env["AUBADE_RUNTIME_DIR"] = runtime
        for (k, v) in environment { env[k] = v.isEmpty ? nil : v }
        var prefix = [Spawner.setpriv]
        if asNobody && getuid() == 0 { prefix += ["--reuid=65534", "--regid=65534", "--clear-groups"] }
        // PR_SET_PDEATHSIG is kept across execve (it is cleared only by a set-user-ID program, and by a change of
        // credentials: `setpriv` arms it after changing them).
        let argv =
            prefix + [
                "--pdeathsig", "KILL", "--", "/bin/sh", "-c", ChildProcess.parentCheck, "\(getpid())",
                executable,
            ] + arguments
        let request = Spawner.Request(
            argv: argv, environment: env.map { "\($0.key)=\($0.value)" },
            currentDirectory: currentDirectory, stdout: stdout == .pipe, stderr: stderr == .pipe)
        let spawned = try await Spawner.shared.spawn(request)
        pid = spawned.pid
        self.stdout = spawned.stdout.map { FileHandle(fileDescriptor: $0, closeOnDealloc: true) }
        self.stderr = spawned.stderr.map { FileHandle(fileDescriptor: $0, closeOnDealloc: true) }
        let (pid, status, changes) = (pid, status, changes)
        let reaper = Thread {
            // Waits for the end without reaping it, then reaps it and notes the status under the lock `signal`
            // takes: until it is reaped its pid (and group) cannot be anyone else's, so no signal ever reaches
            // a process that merely reused the number.
            var info = siginfo_t()
            while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) != 0 && errno == EINTR {}
            var raw: Int32 = 0
            status.withLock { s in
                while waitpid(pid, &raw, 0) < 0 && errno == EINTR {}
                s = ChildProcess.exitStatus(raw)
            }
            if let runtime { try? FileManager.default.removeItem(atPath: runtime) }
            changes.bump()
        }
        reaper.name = "aubade-test-reaper"
        reaper.start()
    }

    /// Kills the child's whole process group, unless it has ended already.
    deinit { signalGroup(SIGKILL) }

    /// The exit status once the child ended: its exit code, or the number of the signal that ended it.
    public var exitStatus: Int32? { status.withLock { $0 } }

    /// Sends `sig` to the child, unless it has ended already.
    public func signal(_ sig: Int32) {
        status.withLock { if $0 == nil { _ = kill(pid, sig) } }
    }

    /// Sends `sig` to the child's process group (the child and whatever it started), unless it has ended.
    public func signalGroup(_ sig: Int32) {
        status.withLock { if $0 == nil { _ = kill(-pid, sig) } }
    }

    /// Waits for the child to end; its status, or nil if it still runs after `timeout` (a watchdog) or the task
    /// is cancelled.
    public func waitForExit(timeout: Duration = .seconds(90)) async -> Int32? {
        let deadline = ContinuousClock.now + timeout
        while true {
            let seen = changes.generation
            if let status = exitStatus { return status }
            if ContinuousClock.now >= deadline || Task.isCancelled { return nil }
            await changes.wait(past: seen, until: deadline)
        }
    }

    /// As `Process.terminationStatus`: the exit code, or the signal that ended it.
    static func exitStatus(_ raw: Int32) -> Int32 {
        let signal = raw & 0x7f
        return signal == 0 ? (raw >> 8) & 0xff : signal
    }

    /// Run by `sh` between `setpriv` and the program: `$0` is the test process's pid. If the test process died
    /// before `setpriv` armed the parent-death signal, the parent is someone else by now, and nothing starts.
    static let parentCheck = #"[ "$PPID" = "$0" ] || exit 125; exec "$@""#

    private static let runtimeFolders = Atomic<Int>(0)

    /// A runtime folder no one else uses (not created: the daemon makes it when it announces itself).
    static func privateRuntimeFolder() -> String {
        let n = runtimeFolders.add(1, ordering: .relaxed).newValue
        return "\(FileManager.default.temporaryDirectory.path)/aubade-test-run-\(getpid())-\(n)"
    }
}

/// The one thread every child is spawned from: it lives as long as the process, so the parent-death signal
/// of a child fires when the test process goes, and only then (`PR_SET_PDEATHSIG` follows the spawning thread).
final class Spawner: Sendable {
    struct Request: Sendable {
        var argv: [String]
        var environment: [String]
        var currentDirectory: String?
        var stdout: Bool
        var stderr: Bool
    }

    struct Spawned: Sendable {
        var pid: pid_t
        var stdout: Int32?
        var stderr: Int32?
    }

    static let setpriv = "/usr/bin/setpriv"
    static let shared = Spawner()

    private let queue = Mutex<[@Sendable () -> Void]>([])
    private let ready = DispatchSemaphore(value: 0)

    private init() {
        let thread = Thread { [self] in
            while true {
                ready.wait()
                if let job = queue.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) { job() }
            }
        }
        thread.name = "aubade-test-spawner"
        thread.start()
    }

    func spawn(_ request: Request) async throws -> Spawned {
        let result: Result<Spawned, ChildProcess.Failure> = await withCheckedContinuation { continuation in
            queue.withLock { $0.append { continuation.resume(returning: Spawner.run(request)) } }
            ready.signal()
        }
        return try result.get()
    }

    /// `posix_spawn` with a clean signal mask, default dispositions, a new process group, /dev/null or a pipe
    /// for each standard stream and every other descriptor closed. Runs on the spawner thread.
    private static func run(_ request: Request) -> Result<Spawned, ChildProcess.Failure> {
        guard let closeFrom = closeFrom else {
            return .failure(
                ChildProcess.Failure(
                    description: "posix_spawn_file_actions_addclosefrom_np is missing (glibc 2.34 or later is needed)."))
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }

        var none = sigset_t(), all = sigset_t()
        sigemptyset(&none)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))

        // Pipes are close-on-exec: only the copy at 1 or 2 reaches the child.
        var ends: [(read: Int32, write: Int32)?] = [nil, nil]
        for (i, wanted) in [request.stdout, request.stderr].enumerated() where wanted {
            // Made here, on the one thread that spawns, and closed in every child (`closeFrom`) anyway.
            var fds: [Int32] = [-1, -1]
            guard pipe(&fds) == 0, fcntl(fds[0], F_SETFD, FD_CLOEXEC) == 0, fcntl(fds[1], F_SETFD, FD_CLOEXEC) == 0 else {
                for fd in fds where fd >= 0 { close(fd) }
                for end in ends.compactMap({ $0 }) { close(end.read); close(end.write) }
                return .failure(ChildProcess.Failure(description: "pipe2 failed: \(String(cString: strerror(errno)))"))
            }
            ends[i] = (fds[0], fds[1])
        }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        for (i, end) in ends.enumerated() {
            if let end {
                posix_spawn_file_actions_adddup2(&actions, end.write, Int32(i + 1))
            } else {
                posix_spawn_file_actions_addopen(&actions, Int32(i + 1), "/dev/null", O_WRONLY, 0)
            }
        }
        _ = closeFrom(&actions, 3)
        if let dir = request.currentDirectory {
            guard let chdir = changeDirectory else {
                return .failure(
                    ChildProcess.Failure(
                        description: "posix_spawn_file_actions_addchdir_np is missing (glibc 2.29 or later is needed)."))
            }
            _ = dir.withCString { chdir(&actions, $0) }
        }

        var pid: pid_t = 0
        let rc = withCStrings(request.argv) { argv in
            withCStrings(request.environment) { envp in
                posix_spawn(&pid, setpriv, &actions, &attributes, argv, envp)
            }
        }
        for end in ends.compactMap({ $0 }) { close(end.write) }
        guard rc == 0 else {
            for end in ends.compactMap({ $0 }) { close(end.read) }
            return .failure(
                ChildProcess.Failure(
                    description: "\(request.argv.joined(separator: " ")) could not be started: \(String(cString: strerror(rc)))"))
        }
        return .success(Spawned(pid: pid, stdout: ends[0]?.read, stderr: ends[1]?.read))
    }

    /// glibc's `posix_spawn_file_actions_addclosefrom_np` and `…_addchdir_np`: GNU extensions Swift's Glibc
    /// module does not declare, looked up by name.
    private typealias ActionWithInt = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    private typealias ActionWithPath =
        @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32
    private static let closeFrom: ActionWithInt? = symbol("posix_spawn_file_actions_addclosefrom_np")
    private static let changeDirectory: ActionWithPath? = symbol("posix_spawn_file_actions_addchdir_np")

    private static func symbol<F>(_ name: String) -> F? {
        guard let address = dlsym(nil, name) else { return nil }  // nil: RTLD_DEFAULT
        return unsafeBitCast(address, to: F.self)
    }

    /// `strings` as a NULL-terminated array of C strings, for the duration of `body`.
    private static func withCStrings<R>(_ strings: [String], _ body: ([UnsafeMutablePointer<CChar>?]) -> R) -> R {
        let pointers = strings.map { strdup($0) } + [nil]
        defer { for p in pointers { free(p) } }
        return body(pointers)
    }
}
