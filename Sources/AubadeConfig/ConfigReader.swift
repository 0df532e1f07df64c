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
    }

    private mutating func readShake(_ s: inout Configuration.Shake) throws(ConfigError) {
        s.source = try choice("shake", "source", s.source, ["none", "iio", "evdev", "gpio"])
        s.device = try string("shake", "device", s.device)
        if s.source == "gpio" { s.device = try line("shake", "device", s.device) }
        s.threshold = try double("shake", "threshold", s.threshold, in: 0.1...100)
        s.sustainSeconds = try double("shake", "sustain_seconds", s.sustainSeconds, in: 0.5...10)
        s.sampleRateHz = try int("shake", "sample_rate_hz", s.sampleRateHz, in: 5...400)
    }

    /// Keys present in the file that nothing read, as "unknown key 'x.y' at line N" sentences.
    func unknownKeys() -> [String] {
        var out: [String] = []
        for section in table.keys.sorted() {
            guard let sub = table[section]?.table else {
                if !consumed.contains(section) { out.append(unknown(section, lines.line(section: nil, key: section))) }
                continue
            }
            if !ConfigReader.sections.contains(section) {
                out.append(unknown("[\(section)]", lines.line(ofSection: section)))
                continue
            }
            for key in sub.keys.sorted() where !consumed.contains("\(section).\(key)") {
                out.append(unknown("\(section).\(key)", lines.line(section: section, key: key)))
            }
        }
        return out
    }

    private static let sections: Set<String> = ["paths", "http", "audio", "clock", "buttons", "shake"]

    private func unknown(_ key: String, _ line: Int?) -> String {
        "Config file \(name): unknown key \(key)\(line.map { " at line \($0)" } ?? "") is ignored."
    }

    // MARK: typed getters

    private mutating func value(_ section: String, _ key: String) throws(ConfigError) -> (any TOMLValueConvertible)? {
        guard let node = table[section] else { return nil }
        guard let sub = node.table else { throw bad(section, nil, "must be a table like [\(section)]") }
        consumed.insert("\(section).\(key)")
        return sub[key]
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
        let full = key.map { "\(section).\($0)" } ?? section
        let where_ = (key.map { lines.line(section: section, key: $0) } ?? lines.line(ofSection: section))
            .map { " at line \($0)" } ?? ""
        return ConfigError("Config file \(name): \(full)\(where_) \(problem).")
    }
}
