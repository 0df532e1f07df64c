import AubadeCore
import Foundation
import TOMLKit

/// Walks a parsed TOML table section by section, type-checking each known key and remembering which keys
/// it consumed so that the rest can be reported as unknown.
struct ConfigReader {
    let table: TOMLTable
    let lines: SourceLines
    let name: String
    private var consumed: Set<String> = []

    init(table: TOMLTable, text: String, name: String) {
        self.table = table
        self.lines = SourceLines(text)
        self.name = name
    }

    mutating func read() throws(ConfigError) -> Configuration {
        var c = Configuration()
        c.paths.database = try string("paths", "database", c.paths.database, nonEmpty: true)

        c.http.bind = try string("http", "bind", c.http.bind, nonEmpty: true)
        c.http.port = try int("http", "port", c.http.port, in: 1...65535)

        c.audio.device = try string("audio", "device", c.audio.device, nonEmpty: true)
        c.audio.alternateDevice = try string("audio", "alternate_device", c.audio.alternateDevice)
        c.audio.allowLocalStreams = try bool("audio", "allow_local_streams", c.audio.allowLocalStreams)

        c.clock.timeZone = try string("clock", "time_zone", c.clock.timeZone)
        if !c.clock.timeZone.isEmpty {
            guard (try? Alarm.validTimeZone(c.clock.timeZone)) != nil else {
                throw bad("clock", "time_zone", "is not a known time zone; use a tz database name such as \"Europe/Berlin\"")
            }
        }

        try readButtons(&c.buttons)
        try readShake(&c.shake)
        return c
    }

    private mutating func readButtons(_ b: inout Configuration.Buttons) throws(ConfigError) {
        b.snooze = try line("buttons", "snooze", b.snooze)
        b.stop = try line("buttons", "stop", b.stop)
        b.playPause = try line("buttons", "play_pause", b.playPause)
        b.sleep = try line("buttons", "sleep", b.sleep)
        b.volumeUp = try line("buttons", "volume_up", b.volumeUp)
        b.volumeDown = try line("buttons", "volume_down", b.volumeDown)
        b.activeLow = try bool("buttons", "active_low", b.activeLow)
        b.bias = try choice("buttons", "bias", b.bias, ["pull-up", "pull-down", "disable", "as-is"])
        b.debounceMilliseconds = try int("buttons", "debounce_ms", b.debounceMilliseconds, in: 0...500)
        b.longPressMilliseconds = try int("buttons", "long_press_ms", b.longPressMilliseconds, in: 200...10000)
        b.mapping.short = try actions("buttons.short_press", b.mapping.short)
        b.mapping.long = try actions("buttons.long_press", b.mapping.long, unsetting: true)
    }

    private mutating func readShake(_ s: inout Configuration.Shake) throws(ConfigError) {
        s.source = try choice("shake", "source", s.source, ["none", "iio", "evdev", "gpio"])
        s.device = try string("shake", "device", s.device)
        if s.source == "gpio" { s.device = try line("shake", "device", s.device) }
        s.threshold = try double("shake", "threshold", s.threshold, in: 0.1...100)
        s.sustainSeconds = try double("shake", "sustain_seconds", s.sustainSeconds, in: 0.5...10)
        s.sampleRateHz = try int("shake", "sample_rate_hz", s.sampleRateHz, in: 5...400)
        s.pulsesPerWindow = try int("shake", "pulses_per_window", s.pulsesPerWindow, in: 2...100)
        s.pulseWindowSeconds = try double("shake", "pulse_window_seconds", s.pulseWindowSeconds, in: 0.1...2)
        s.response.whenShakeToStop = try shakeAction("shake", "on_shake_to_stop_alarm", s.response.whenShakeToStop)
        s.response.otherwise = try shakeAction("shake", "on_other_alarm", s.response.otherwise)
    }

    /// A `[buttons.short_press]`-style table: each key a button (named as in `[buttons]`), each value an
    /// action; buttons not listed keep `defaults`. With `unsetting`, "" removes a button's entry (a long press
    /// then does what the short press does). Every key here names a button, so an unknown one is an error
    /// rather than a warning: a misspelt button would silently keep an action its owner meant to change.
    private mutating func actions(_ s: String, _ defaults: [ButtonRole: ButtonAction], unsetting: Bool = false)
        throws(ConfigError) -> [ButtonRole: ButtonAction]
    {
        guard let sub = try subtable(s) else { return defaults }
        let path = s.split(separator: ".").map(String.init)
        let keys = sub.keys.map { (line: lines.line(path: path + [$0]) ?? .max, key: $0) }
            .sorted { ($0.line, $0.key) < ($1.line, $1.key) }.map(\.key)  // the first problem in the file is reported
        var out = defaults
        for key in keys {
            guard let role = ButtonRole.allCases.first(where: { $0.configKey == key }) else {
                throw bad(s, key, "is not a button; the buttons are \(Self.roleNames)")
            }
            let text = try string(s, key, "")
            if unsetting && text.trimmingCharacters(in: .whitespaces).isEmpty {
                out[role] = nil
                continue
            }
            guard let action = try? ButtonAction(parsing: text) else {
                let unset = unsetting ? ", or \"\" for the short press's action" : ""
                throw bad(s, key, "must be one of \(Self.actionNames)\(unset), not \"\(text)\"")
            }
            out[role] = action
        }
        return out
    }

    private static let roleNames: String = {
        let keys = ButtonRole.allCases.map(\.configKey)
        return keys.dropLast().joined(separator: ", ") + " and " + keys[keys.count - 1]
    }()

    private static let actionNames: String = {
        let r = ButtonAction.sleepMinutesRange
        let before: [ButtonAction] = [.none, .snooze, .stop, .playPause]
        let after: [ButtonAction] = [.sleepCancel, .volumeUp, .volumeDown]
        return (before.map { "\"\($0.name)\"" } + ["\"sleep+N\" (N from \(r.lowerBound) to \(r.upperBound) minutes)"]
            + after.map { "\"\($0.name)\"" }).joined(separator: ", ")
    }()

    private mutating func shakeAction(_ s: String, _ k: String, _ d: ShakeResponse.Action) throws(ConfigError)
        -> ShakeResponse.Action
    {
        let text = try choice(s, k, d.rawValue, ShakeResponse.Action.allCases.map(\.rawValue))
        return ShakeResponse.Action(rawValue: text) ?? d
    }

    /// Keys present in the file that nothing read, as "unknown key 'x.y' at line N" sentences; a table that
    /// is not one of `sections` (at any depth) is reported once, as "[x.y]".
    func unknownKeys() -> [String] {
        var out: [String] = []
        collectUnknown(in: table, path: [], into: &out)
        return out
    }

    private func collectUnknown(in t: TOMLTable, path: [String], into out: inout [String]) {
        for key in t.keys.sorted() {
            let full = (path + [key]).joined(separator: ".")
            if let sub = t[key]?.table {
                if ConfigReader.sections.contains(full) {
                    collectUnknown(in: sub, path: path + [key], into: &out)
                } else {
                    out.append(unknown("[\(full)]", lines.line(path: path + [key])))
                }
            } else if !consumed.contains(full) {
                out.append(unknown(full, lines.line(path: path + [key])))
            }
        }
    }

    private static let sections: Set<String> = ["paths", "http", "audio", "clock", "buttons", "buttons.short_press",
                                                "buttons.long_press", "shake"]

    private func unknown(_ key: String, _ line: Int?) -> String {
        "Config file \(name): unknown key \(key)\(line.map { " at line \($0)" } ?? "") is ignored."
    }

    // MARK: typed getters

    /// `key` of the table at the dotted path `section`; nil when either is absent.
    private mutating func value(_ section: String, _ key: String) throws(ConfigError) -> (any TOMLValueConvertible)? {
        guard let sub = try subtable(section) else { return nil }
        consumed.insert("\(section).\(key)")
        return sub[key]
    }

    /// The table at a dotted path ("buttons.short_press"); nil when absent, an error when something else is there.
    private func subtable(_ path: String) throws(ConfigError) -> TOMLTable? {
        var current = table
        var walked: [String] = []
        for part in path.split(separator: ".").map(String.init) {
            walked.append(part)
            guard let node = current[part] else { return nil }
            guard let sub = node.table else {
                let name = walked.joined(separator: ".")
                throw bad(name, nil, "must be a table like [\(name)]")
            }
            current = sub
        }
        return current
    }

    private mutating func string(_ s: String, _ k: String, _ d: String, nonEmpty: Bool = false) throws(ConfigError) -> String {
        guard let v = try value(s, k) else { return d }
        guard let text = v.string else { throw bad(s, k, "must be a string in quotes") }
        if nonEmpty && text.isEmpty { throw bad(s, k, "must not be empty") }
        return text
    }

    private mutating func int(_ s: String, _ k: String, _ d: Int, in range: ClosedRange<Int>) throws(ConfigError) -> Int {
        guard let v = try value(s, k) else { return d }
        guard let n = v.int else { throw bad(s, k, "must be a whole number") }
        guard range.contains(n) else { throw bad(s, k, "must be from \(range.lowerBound) to \(range.upperBound), not \(n)") }
        return n
    }

    private mutating func double(_ s: String, _ k: String, _ d: Double, in range: ClosedRange<Double>) throws(ConfigError) -> Double {
        guard let v = try value(s, k) else { return d }
        guard let x = v.double ?? v.int.map(Double.init) else { throw bad(s, k, "must be a number") }
        guard range.contains(x) else { throw bad(s, k, "must be from \(range.lowerBound) to \(range.upperBound), not \(x)") }
        return x
    }

    private mutating func bool(_ s: String, _ k: String, _ d: Bool) throws(ConfigError) -> Bool {
        guard let v = try value(s, k) else { return d }
        guard let b = v.bool else { throw bad(s, k, "must be true or false") }
        return b
    }

    private mutating func choice(_ s: String, _ k: String, _ d: String, _ options: [String]) throws(ConfigError) -> String {
        let text = try string(s, k, d)
        guard options.contains(text) else {
            throw bad(s, k, "must be one of \(options.map { "\"\($0)\"" }.joined(separator: ", ")), not \"\(text)\"")
        }
        return text
    }

    /// A GPIO line: a name ("GPIO17"), "chip:offset" ("gpiochip0:17") or "" for none.
    private mutating func line(_ s: String, _ k: String, _ d: String) throws(ConfigError) -> String {
        let text = try string(s, k, d)
        guard GPIOLineSpec(text) != nil else {
            throw bad(s, k, "must be a line name like \"GPIO17\", a chip and offset like \"gpiochip0:17\", or \"\"")
        }
        return text
    }

    private func bad(_ section: String, _ key: String?, _ problem: String) -> ConfigError {
        let path = section.split(separator: ".").map(String.init) + (key.map { [$0] } ?? [])
        let where_ = lines.line(path: path).map { " at line \($0)" } ?? ""
        return ConfigError("Config file \(name): \(path.joined(separator: "."))\(where_) \(problem).")
    }
}
