import AubadeHandoff
import Glibc

/// `aubade-waker --outputs-off`: every output the daemon lists in `<db>.next-alarm` (the bed shaker, the lamp, as
/// its config had them) driven to its inactive level and released — what the clock's unit runs after the daemon
/// ends in any way (`ExecStopPost=`). A killed daemon cannot do it itself, and a Raspberry Pi's pin keeps its last
/// level once the kernel lets go of the line. This binary for it, not `aubade`: small, static and without
/// Foundation, it starts at once on the smallest board and shares nothing with the daemon that just failed (R35).
/// One line on stdout per output; exit 1 when one could not be driven (another program holds it), else 0 — no
/// file, or no output in it, is nothing to do.
enum WakerOutputsOff {
    static func run(_ options: WakerOptions) -> Int32 {
        let files = HandoffFiles(database: options.database)
        var next = NextAlarmFile()
        guard let bytes = files.read(files.nextAlarm), next.read(bytes) else {
            print("No next-alarm file beside \(options.database): the daemon drove no output.")
            return 0
        }
        guard !next.outputs.isEmpty else {
            print("No output is configured.")
            return 0
        }
        let lines = WakerOutputLines()
        lines.prepare(next, startNanos: WakerClock.monotonicNanos())
        var failed = 0
        lines.request { i, code in
            let o = lines.lines[i].spec
            if code != 0 {
                failed += 1
                print(
                    "Output \(o.line.string) (\(o.name.string)) could not be driven inactive: \(String(cString: strerror(code)))."
                )
            }
        }
        for l in lines.lines where l.line == nil && !l.given {
            failed += 1
            print(
                "Output \(l.spec.line.string) (\(l.spec.name.string)) could not be driven inactive: it is held by another program."
            )
        }
        let held = lines.lines.filter { $0.line != nil }.map(\.spec)
        lines.releaseAll()  // requested inactive, set inactive, released
        for o in held {
            print(
                "Output \(o.line.string) (\(o.name.string)) is inactive (\(o.activeLow ? "high, active-low" : "low")) and released."
            )
        }
        return failed == 0 ? 0 : 1
    }
}
