import AubadeHandoff
import Glibc

/// `aubade-waker [--db <path>] [--config <path>] [--grace 60s] [--fake-time <ISO-8601>] [--json] [--check]`.
/// Read once at start (the only place the waker allocates freely). Bad input is one sentence and exit 2.
struct WakerOptions {
    /// The database whose handoff files the waker reads (`<db>.next-alarm`, `<db>.heartbeat`) and writes
    /// (`<db>.waker`): `--db`, else the config's `[paths] database`, else the daemon's default.
    var database = "/var/lib/aubade/aubade.sqlite"
    var graceMilliseconds: Int64 = 60_000
    /// The waker's wall clock starts here (Unix ms) and then advances with the monotonic clock.
    var fakeStart: Int64?
    var json = false
    var check = false
    var outputsOff = false

    static let defaultDatabase = "/var/lib/aubade/aubade.sqlite"
    static let defaultConfig = "/etc/aubade/aubade.toml"
    /// The grace may be as short as a second (tests) and as long as half an hour.
    static let graceRange: ClosedRange<Int64> = 1_000...1_800_000

    static let usage = """
        usage: aubade-waker [--db <path>] [--config <path>] [--grace 60s] [--fake-time <ISO-8601>] [--json] [--check]
               aubade-waker --outputs-off [--db <path>] [--config <path>]

        The second waker (R35): it sounds the built-in tone when the clock's daemon has not made an alarm heard
        within the grace after its time. It reads <db>.next-alarm and <db>.heartbeat, which the daemon writes.
          --db <path>          the clock's database, which locates those files (default: the config's
                               [paths] database, else /var/lib/aubade/aubade.sqlite)
          --config <path>      the clock's config (default: $AUBADE_CONFIG, else /etc/aubade/aubade.toml if present)
          --grace <duration>   how long after an alarm's time the daemon has to make it heard (default 60s; 1s-30m)
          --fake-time <ISO>    start the waker's wall clock at this instant, as `aubade run --fake-time` (tests)
          --json               one JSON event per line on stdout (armed, ringing, stopped, ...)
          --check              print what it would do now and exit (1 when there is no next-alarm file to read)
          --outputs-off        drive the outputs the daemon lists in <db>.next-alarm (a bed shaker, a lamp) to
                               their inactive level, release them and exit (1 when one could not be): the clock's
                               unit runs it after the daemon ends in any way
        Signals: SIGUSR1 stops a ring (`aubade stop` sends it), SIGUSR2 snoozes it (`aubade snooze`).
        """

    struct Bad: Error {
        let sentence: String
    }

    /// Parses the command line and the config. Throws `Bad` with one sentence for the user.
    static func parse(_ args: [String]) throws(Bad) -> WakerOptions {
        var o = WakerOptions()
        var db: String?
        var config: String?
        var i = 1
        func value(_ name: String) throws(Bad) -> String {
            i += 1
            guard i < args.count else { throw Bad(sentence: "\(name) needs a value.") }
            return args[i]
        }
        while i < args.count {
            switch args[i] {
            case "--db": db = try value("--db")
            case "--config": config = try value("--config")
            case "--grace":
                let text = try value("--grace")
                guard let ms = parseDuration(text), graceRange.contains(ms) else {
                    throw Bad(sentence: "--grace '\(text)' must be a duration from 1s to 30m, like 60s or 2m.")
                }
                o.graceMilliseconds = ms
            case "--fake-time":
                let text = try value("--fake-time")
                guard let ms = parseISO8601(text) else {
                    throw Bad(sentence: "--fake-time '\(text)' is not an ISO-8601 instant like 2026-01-05T07:59:55Z.")
                }
                o.fakeStart = ms
            case "--json": o.json = true
            case "--check": o.check = true
            case "--outputs-off": o.outputsOff = true
            case "-h", "--help":
                print(usage)
                exit(0)
            default:
                throw Bad(sentence: "Unknown argument '\(args[i])'; see aubade-waker --help.")
            }
            i += 1
        }
        if let db {
            guard !db.isEmpty else { throw Bad(sentence: "--db needs a path.") }
            o.database = db
        } else if let found = try configDatabase(explicit: config) {
            o.database = found
        }
        guard o.database.utf8.count < 240 else { throw Bad(sentence: "The database path \(o.database) is too long.") }
        return o
    }

    /// `[paths] database` from the config the daemon would read: `--config`, else `$AUBADE_CONFIG`, else
    /// /etc/aubade/aubade.toml when present. A config named with --config that cannot be read is bad input;
    /// the others, when missing, mean the built-in default (as for the daemon).
    private static func configDatabase(explicit: String?) throws(Bad) -> String? {
        var path = explicit
        if path == nil, let env = getenv("AUBADE_CONFIG"), env.pointee != 0 { path = String(cString: env) }
        if path == nil, access(defaultConfig, R_OK) == 0 { path = defaultConfig }
        guard let path else { return nil }
        var buffer = [UInt8](repeating: 0, count: 256 * 1024)
        let n = buffer.withUnsafeMutableBytes { HandoffIO.read(path, into: $0) }
        guard n >= 0 else {
            if explicit != nil {
                throw Bad(sentence: "The config \(path) cannot be read (\(String(cString: strerror(Int32(-n))))).")
            }
            return nil
        }
        return buffer[0..<n].withUnsafeBytes { ConfigDatabase.find(in: $0) }.map { $0.string }
    }

    /// "60s", "1m30s", "2m", "500ms", "90" (seconds) → milliseconds.
    static func parseDuration(_ text: String) -> Int64? {
        let b = Array(text.utf8)
        guard !b.isEmpty else { return nil }
        var total: Int64 = 0
        var i = 0
        while i < b.count {
            var n: Int64 = 0
            let start = i
            while i < b.count, b[i] >= 48, b[i] <= 57 {
                n = n * 10 + Int64(b[i] - 48)
                guard n < 1_000_000_000 else { return nil }
                i += 1
            }
            guard i > start else { return nil }
            var end = i
            while end < b.count, b[end] >= 97, b[end] <= 122 { end += 1 }
            let unit = b[i..<end]
            let factor: Int64
            if unit.isEmpty, end == b.count {
                factor = 1000
            } else if unit.elementsEqual("ms".utf8) {
                factor = 1
            } else if unit.elementsEqual("s".utf8) {
                factor = 1000
            } else if unit.elementsEqual("m".utf8) {
                factor = 60_000
            } else if unit.elementsEqual("h".utf8) {
                factor = 3_600_000
            } else {
                return nil
            }
            total += n * factor
            i = end
        }
        return total
    }

    /// "2026-01-05T07:59:55Z", "…T07:59:55.250+01:00" → Unix ms.
    static func parseISO8601(_ text: String) -> Int64? {
        let b = Array(text.utf8)
        func num(_ from: Int, _ count: Int) -> Int64? {
            guard from + count <= b.count else { return nil }
            var v: Int64 = 0
            for k in from..<(from + count) {
                guard b[k] >= 48 && b[k] <= 57 else { return nil }
                v = v * 10 + Int64(b[k] - 48)
            }
            return v
        }
        guard b.count >= 20, b[4] == 45, b[7] == 45, b[10] == 84 || b[10] == 116, b[13] == 58, b[16] == 58,
            let y = num(0, 4), let mo = num(5, 2), let d = num(8, 2), let h = num(11, 2), let mi = num(14, 2),
            let s = num(17, 2), (1...12).contains(mo), (1...31).contains(d), h < 24, mi < 60, s < 61
        else { return nil }
        var i = 19
        var ms: Int64 = 0
        if i < b.count, b[i] == 46 {
            i += 1
            var scale: Int64 = 100
            while i < b.count, b[i] >= 48 && b[i] <= 57 {
                ms += Int64(b[i] - 48) * scale
                scale /= 10
                i += 1
            }
        }
        guard i < b.count else { return nil }
        var offset: Int64 = 0
        if b[i] == 90 || b[i] == 122 {
            i += 1
        } else if b[i] == 43 || b[i] == 45, let oh = num(i + 1, 2), i + 3 < b.count, b[i + 3] == 58, let om = num(i + 4, 2) {
            offset = (oh * 60 + om) * 60_000 * (b[i] == 45 ? -1 : 1)
            i += 6
        } else {
            return nil
        }
        guard i == b.count else { return nil }
        let days = daysFromCivil(y, mo, d)
        return ((days * 86_400 + h * 3600 + mi * 60 + s) * 1000 + ms) - offset
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's days_from_civil).
    static func daysFromCivil(_ y0: Int64, _ m: Int64, _ d: Int64) -> Int64 {
        let y = m <= 2 ? y0 - 1 : y0
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }
}
