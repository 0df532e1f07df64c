import AubadeCore
import Foundation
import TOMLKit

/// Walks a parsed TOML table section by section, type-checking each known key and remembering which keys
/// it consumed so that the rest can be reported as unknown. A value that cannot be used never stops the
/// walk (R36): it becomes a `ConfigProblem` naming its key, its line and what is used instead, the key keeps
/// its default, and every other key is still read. `ConfigLoader` decides whether problems are fatal.
///
/// Where keys depend on each other the fallback follows the dependency:
/// - a section that is not a table (`http = 5`) leaves every key of that section at its default;
/// - a button line that cannot be used falls back to the button's default line, unless another button in
///   the file already uses that line: then the button is off ("") rather than fighting over one line;
/// - `[shake] source` that cannot be used falls back to "none", so `device` is read but not used; with
///   `source = "gpio"`, a `device` that is not a line spec falls back to "", which means no vibration switch;
/// - a misspelt button in `[buttons.short_press]` / `[buttons.long_press]` is one ignored entry, and a bad
///   action keeps that button's default action (for a long press with none: the short press's action).
struct ConfigReader {
    let table: TOMLTable
    let lines: SourceLines
    let name: String
    /// What could not be used, in reading order.
    private(set) var problems: [ConfigProblem] = []
    private var consumed: Set<String> = []
    /// Sections already reported as not being tables (each is reported once).
    private var brokenSections: Set<String> = []

    init(table: TOMLTable, text: String, name: String) {
        self.table = table
        self.lines = SourceLines(text)
        self.name = name
    }

    mutating func read() -> Configuration {
        var c = Configuration()
        c.paths.database = string("paths", "database", c.paths.database, nonEmpty: true)

        c.http.bind = string("http", "bind", c.http.bind, nonEmpty: true)
        c.http.port = int("http", "port", c.http.port, in: 1...65535)
        c.http.openReads = bool("http", "open_reads", c.http.openReads)
        c.http.allowedHosts = checked("http", "allowed_hosts", c.http.allowedHosts) { v in
            guard let list = v.array else {
                return .failure(Rejection("must be a list of names in quotes, like [\"clock.home\"]"))
            }
            var names: [String] = []
            for item in list {
                guard let name = item.string, !name.isEmpty else {
                    return .failure(Rejection("must be a list of names in quotes, like [\"clock.home\"]"))
                }
                names.append(name)
            }
            return .success(names)
        }

        c.audio.device = string("audio", "device", c.audio.device, nonEmpty: true)
        c.audio.alternateDevice = string("audio", "alternate_device", c.audio.alternateDevice)
        c.audio.allowLocalStreams = bool("audio", "allow_local_streams", c.audio.allowLocalStreams)
        c.audio.hlsMaxKbps = int("audio", "hls_max_kbps", c.audio.hlsMaxKbps, in: 16...10_000)

        c.clock.timeZone = checked("clock", "time_zone", c.clock.timeZone) { v in
            Self.text(v).flatMap { zone in
                zone.isEmpty || (try? Alarm.validTimeZone(zone)) != nil
                    ? .success(zone)
                    : .failure(Rejection("is not a known time zone; use a tz database name such as \"Europe/Berlin\""))
            }
        }

        c.alarm.ladder = checked("alarm", "ladder", c.alarm.ladder) { v in
            Self.text(v).flatMap { text in
                do throws(ValidationError) {
                    return .success(try LadderPlan(parsing: text))
                } catch {
                    return .failure(
                        Rejection(
                            "must be \"default\", \"off\" or steps like \"step=2m,rounds=5\": \(error.message.hasSuffix(".") ? String(error.message.dropLast()) : error.message)"
                        ))
                }
            }
        }

        readButtons(&c.buttons)
        readShake(&c.shake)
        readOutputs(&c.outputs, buttons: c.buttons)
        c.display.backlight = string("display", "backlight", c.display.backlight, nonEmpty: true)
        c.display.sunriseSeconds = checked("display", "sunrise", c.display.sunriseSeconds) { v in
            Self.text(v).flatMap { text in
                guard let seconds = try? AlarmPatch.sunriseSeconds(parsing: text), Alarm.sunriseRange.contains(seconds) else {
                    return .failure(Rejection("must be a duration from 0m to 2h, like \"20m\""))
                }
                return .success(seconds)
            }
        }
        c.calendars.refreshSeconds = checked("calendars", "refresh", c.calendars.refreshSeconds, Self.refreshPeriod)
        c.podcasts.refreshSeconds = checked("podcasts", "refresh", c.podcasts.refreshSeconds, Self.refreshPeriod)
        c.calendars.horizonDays = int("calendars", "horizon_days", c.calendars.horizonDays, in: 14...3660)
        readMQTT(&c.mqtt)
        c.verify.microphone = string("verify", "microphone", c.verify.microphone)
        c.verify.selfTestHour = int("verify", "self_test_hour", c.verify.selfTestHour, in: SelfTestSchedule.daytime)
        c.directory.enabled = bool("directory", "enabled", c.directory.enabled)
        c.directory.servers = checked("directory", "servers", c.directory.servers) { v in
            let form = "must be a list of http(s) server addresses, like [\"https://de2.api.radio-browser.info\"]"
            guard let items = v.array.map({ Array($0) }) else { return .failure(Rejection(form)) }
            var servers: [String] = []
            for item in items {
                guard let text = item.string, (try? StreamURL(parsing: text)) != nil else { return .failure(Rejection(form)) }
                servers.append(text.hasSuffix("/") ? String(text.dropLast()) : text)
            }
            return .success(servers)
        }
        return c
    }

    private mutating func readMQTT(_ m: inout Configuration.MQTT) {
        m.broker = checked("mqtt", "broker", m.broker) { v in
            Self.text(v).flatMap { text in
                text.isEmpty || BrokerAddress(parsing: text) != nil ? .success(text) : .failure(Rejection(BrokerAddress.form))
            }
        }
        m.username = string("mqtt", "username", m.username)
        m.passwordFile = string("mqtt", "password_file", m.passwordFile)
        m.caFile = string("mqtt", "ca_file", m.caFile)
        m.clientID = checked("mqtt", "client_id", m.clientID) { v in
            Self.text(v).flatMap { text in
                text.utf8.count <= 64 && !text.contains(where: { $0.isWhitespace || $0 == "/" || $0 == "+" || $0 == "#" })
                    ? .success(text) : .failure(Rejection("must be at most 64 characters without spaces, /, + or #"))
            }
        }
        let topic = { (text: String) -> Result<String, Rejection> in
            text.isEmpty
                || (!text.hasPrefix("/") && !text.hasSuffix("/") && !text.contains(where: { $0 == "+" || $0 == "#" }))
                ? .success(text) : .failure(Rejection("must be a topic without + or # and without a / at either end"))
        }
        m.topicPrefix = checked("mqtt", "topic_prefix", m.topicPrefix) { v in Self.text(v).flatMap(topic) }
        m.discoveryPrefix = checked("mqtt", "discovery_prefix", m.discoveryPrefix) { v in
            Self.text(v, nonEmpty: true).flatMap(topic)
        }
        m.deviceName = string("mqtt", "device_name", m.deviceName)
        m.preAlarmSeconds = checked("mqtt", "pre_alarm", m.preAlarmSeconds) { v in
            let items: [any TOMLValueConvertible] = v.array.map { Array($0) } ?? [v]
            var leads: [Int] = []
            for item in items {
                guard let text = item.string, let seconds = try? DurationText.seconds(parsing: text, field: "pre_alarm"),
                    (60...21_600).contains(seconds)
                else {
                    return .failure(
                        Rejection("must be a lead from 1m to 6h, or a list of them, like \"15m\" or [\"30m\", \"10m\"]"))
                }
                leads.append(seconds)
            }
            return .success(leads)
        }
    }

    private mutating func readButtons(_ b: inout Configuration.Buttons) {
        readButtonLines(&b)
        b.activeLow = bool("buttons", "active_low", b.activeLow)
        b.bias = choice("buttons", "bias", b.bias, ["pull-up", "pull-down", "disable", "as-is"])
        b.debounceMilliseconds = int("buttons", "debounce_ms", b.debounceMilliseconds, in: 0...500)
        b.longPressMilliseconds = int("buttons", "long_press_ms", b.longPressMilliseconds, in: 200...10000)
        b.mapping.short = actions("buttons.short_press", b.mapping.short)
        b.mapping.long = actions("buttons.long_press", b.mapping.long, unsetting: true)
    }

    /// The buttons' GPIO lines. A line that cannot be used falls back to the button's default line — unless a
    /// button that was read fine already uses it, when the button is off instead.
    private mutating func readButtonLines(_ b: inout Configuration.Buttons) {
        let keys: [(path: WritableKeyPath<Configuration.Buttons, String>, key: String)] = [
            (\.snooze, "snooze"), (\.stop, "stop"), (\.playPause, "play_pause"), (\.sleep, "sleep"),
            (\.volumeUp, "volume_up"), (\.volumeDown, "volume_down"),
        ]
        var rejected: [(path: WritableKeyPath<Configuration.Buttons, String>, key: String, reason: String)] = []
        for (path, key) in keys {
            guard let v = value("buttons", key) else { continue }
            switch Self.text(v).flatMap(Self.gpioLine) {
            case .success(let text): b[keyPath: path] = text
            case .failure(let rejection): rejected.append((path, key, rejection.reason))
            }
        }
        for (path, key, reason) in rejected {
            let fallback = b[keyPath: path]
            let spec = GPIOLineSpec(fallback)
            let owner = keys.first { other in
                other.path != path && !rejected.contains { $0.path == other.path } && spec != GPIOLineSpec.none
                    && GPIOLineSpec(b[keyPath: other.path]) == spec
            }
            if let owner {
                b[keyPath: path] = ""
                report(
                    "buttons", key, reason,
                    fallback:
                        "its default \(Self.literal(fallback)) is already the \(owner.key) button's line, so this button is off")
            } else {
                report("buttons", key, reason, fallback: "the default \(Self.literal(fallback)) is used")
            }
        }
    }

    private mutating func readShake(_ s: inout Configuration.Shake) {
        s.source = choice("shake", "source", s.source, ["none", "iio", "evdev", "gpio"])
        let device = string("shake", "device", s.device)
        if s.source == "gpio", case .failure(let rejection) = Self.gpioLine(device) {
            report(
                "shake", "device", rejection.reason,
                fallback: "the default \(Self.literal(s.device)) is used, so there is no vibration switch")
        } else {
            s.device = device
        }
        s.threshold = double("shake", "threshold", s.threshold, in: 0.1...100)
        s.sustainSeconds = double("shake", "sustain_seconds", s.sustainSeconds, in: 0.5...10)
        s.sampleRateHz = int("shake", "sample_rate_hz", s.sampleRateHz, in: 5...400)
        s.pulsesPerWindow = int("shake", "pulses_per_window", s.pulsesPerWindow, in: 2...100)
        s.pulseWindowSeconds = double("shake", "pulse_window_seconds", s.pulseWindowSeconds, in: 0.1...2)
        s.response.whenShakeToStop = shakeAction("shake", "on_shake_to_stop_alarm", s.response.whenShakeToStop)
        s.response.otherwise = shakeAction("shake", "on_other_alarm", s.response.otherwise)
    }

    /// `[outputs.shaker]` and `[outputs.lamp]`, each a table (`line`, `active_low`, `pattern`) or, shorter, the line
    /// alone (`[outputs] shaker = "GPIO16"`). Every key of `[outputs]` names an output, so a misspelt one is a
    /// problem, not an unknown-key warning (an output its owner meant to wire would silently stay off). A line
    /// that cannot be used, or that a button or the other output already uses, leaves that output off: a clock
    /// never drives a line it reads a button from.
    private mutating func readOutputs(_ o: inout Configuration.Outputs, buttons: Configuration.Buttons) {
        guard let section = subtable("outputs") else { return }
        for key in section.keys.sorted() where OutputName(rawValue: key) == nil {
            consumed.insert("outputs.\(key)")
            let names = OutputName.allCases.map(\.rawValue).joined(separator: " and ")
            report("outputs", key, "is not an output; the outputs are \(names)", fallback: "this entry is ignored")
        }
        var taken: [(GPIOLineSpec, String)] = [
            (buttons.snooze, "snooze"), (buttons.stop, "stop"), (buttons.playPause, "play_pause"),
            (buttons.sleep, "sleep"), (buttons.volumeUp, "volume_up"), (buttons.volumeDown, "volume_down"),
        ].compactMap { text, key in GPIOLineSpec(text).flatMap { $0 == .none ? nil : ($0, "the \(key) button's") } }
        for name in OutputName.allCases {
            let s = "outputs.\(name.rawValue)"
            let key: String?  // nil: the shorthand
            if let shorthand = section[name.rawValue], shorthand.table == nil {
                consumed.insert(s)
                key = nil
                switch Self.text(shorthand).flatMap(Self.gpioLine) {
                case .success(let text): o[name].line = text
                case .failure(let r): report("outputs", name.rawValue, r.reason, fallback: "the output is off")
                }
            } else {
                key = "line"
                let line = checked(s, "line", o[name].line) { v in Self.text(v).flatMap(Self.gpioLine) }
                o[name].line = line
                o[name].activeLow = bool(s, "active_low", o[name].activeLow)
                let pattern = checked(s, "pattern", o[name].pattern.description) { v in
                    Self.text(v).flatMap { text in
                        (try? OutputPattern(parsing: text)) != nil
                            ? .success(text)
                            : .failure(
                                Rejection(
                                    "must be \"steady\" or on/off milliseconds from \(OutputPattern.halfRange.lowerBound) to \(OutputPattern.halfRange.upperBound), like \"500/500\""
                                ))
                    }
                }
                o[name].pattern = (try? OutputPattern(parsing: pattern)) ?? o[name].pattern
            }
            guard let spec = GPIOLineSpec(o[name].line), spec != .none else { continue }
            if let owner = taken.first(where: { $0.0 == spec }) {
                let (section, k) = key == nil ? ("outputs", name.rawValue) : (s, "line")
                report(section, k, "is \(owner.1) line", fallback: "the output is off")
                o[name].line = ""
            } else {
                taken.append((spec, "the \(name.rawValue)'s"))
            }
        }
    }

    /// A `[buttons.short_press]`-style table: each key a button (named as in `[buttons]`), each value an
    /// action; buttons not listed keep `defaults`. With `unsetting`, "" removes a button's entry (a long press
    /// then does what the short press does). Every key here names a button, so an unknown one is a problem
    /// rather than an unknown-key warning (a misspelt button would silently keep an action its owner meant to
    /// change): that entry is ignored.
    private mutating func actions(_ s: String, _ defaults: [ButtonRole: ButtonAction], unsetting: Bool = false)
        -> [ButtonRole: ButtonAction]
    {
        guard let sub = subtable(s) else { return defaults }
        var out = defaults
        for key in sub.keys.sorted() {
            guard let role = ButtonRole.allCases.first(where: { $0.configKey == key }) else {
                consumed.insert("\(s).\(key)")
                report(s, key, "is not a button; the buttons are \(Self.roleNames)", fallback: "this entry is ignored")
                continue
            }
            guard let v = value(s, key) else { continue }
            let parsed: Result<ButtonAction?, Rejection> = Self.text(v).flatMap { text in
                if unsetting && text.trimmingCharacters(in: .whitespaces).isEmpty { return .success(nil) }
                guard let action = try? ButtonAction(parsing: text) else {
                    let unset = unsetting ? ", or \"\" for the short press's action" : ""
                    return .failure(Rejection("must be one of \(Self.actionNames)\(unset), not \"\(text)\""))
                }
                return .success(action)
            }
            switch parsed {
            case .success(let action):
                out[role] = action
            case .failure(let rejection):
                let fallback =
                    defaults[role].map { "the default \"\($0.name)\" is used" }
                    ?? "the default is used: a long press does what the short press does"
                report(s, key, rejection.reason, fallback: fallback)
            }
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
        return
            (before.map { "\"\($0.name)\"" } + ["\"sleep+N\" (N from \(r.lowerBound) to \(r.upperBound) minutes)"]
            + after.map { "\"\($0.name)\"" }).joined(separator: ", ")
    }()

    private mutating func shakeAction(_ s: String, _ k: String, _ d: ShakeResponse.Action) -> ShakeResponse.Action {
        let text = choice(s, k, d.rawValue, ShakeResponse.Action.allCases.map(\.rawValue))
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
                } else if !consumed.contains(full) {
                    out.append(unknown("[\(full)]", lines.line(path: path + [key])))
                }
            } else if !consumed.contains(full) {
                out.append(unknown(full, lines.line(path: path + [key])))
            }
        }
    }

    private static let sections: Set<String> = [
        "paths", "http", "audio", "clock", "alarm", "buttons", "buttons.short_press",
        "buttons.long_press", "shake", "display", "calendars", "mqtt", "directory", "podcasts",
        "outputs", "outputs.shaker", "outputs.lamp", "verify",
    ]

    /// A refresh period: a duration from 15 minutes to 30 days.
    private static func refreshPeriod(_ v: any TOMLValueConvertible) -> Result<Int, Rejection> {
        Self.text(v).flatMap { text in
            guard let seconds = try? DurationText.seconds(parsing: text, field: "refresh"),
                (900...2_592_000).contains(seconds)
            else {
                return .failure(Rejection("must be a duration from 15m to 720h, like \"24h\""))
            }
            return .success(seconds)
        }
    }

    private func unknown(_ key: String, _ line: Int?) -> String {
        "Config file \(name): unknown key \(key)\(line.map { " at line \($0)" } ?? "") is ignored."
    }

    // MARK: typed getters

    /// Why a value in the file cannot be used: the predicate of the problem's sentence ("must be a number").
    struct Rejection: Error {
        let reason: String
        init(_ reason: String) { self.reason = reason }
    }

    /// `key` of the table at the dotted path `section`; nil when either is absent (or the section is not a
    /// table, which is then a problem).
    private mutating func value(_ section: String, _ key: String) -> (any TOMLValueConvertible)? {
        guard let sub = subtable(section) else { return nil }
        consumed.insert("\(section).\(key)")
        return sub[key]
    }

    /// The table at a dotted path ("buttons.short_press"); nil when absent, and nil with one problem when
    /// something else is there (every key of that section then keeps its default).
    private mutating func subtable(_ path: String) -> TOMLTable? {
        var current = table
        var walked: [String] = []
        for part in path.split(separator: ".").map(String.init) {
            walked.append(part)
            guard let node = current[part] else { return nil }
            guard let sub = node.table else {
                let name = walked.joined(separator: ".")
                consumed.insert(name)
                if brokenSections.insert(name).inserted {
                    report(name, nil, "must be a table like [\(name)]", fallback: "every key of [\(name)] uses its default")
                }
                return nil
            }
            current = sub
        }
        return current
    }

    /// The value at `s`.`k` as `check` accepts it; `d` when absent, and `d` with a problem when `check`
    /// rejects it.
    private mutating func checked<T>(
        _ s: String, _ k: String, _ d: T,
        _ check: (any TOMLValueConvertible) -> Result<T, Rejection>
    ) -> T {
        guard let v = value(s, k) else { return d }
        switch check(v) {
        case .success(let x):
            return x
        case .failure(let rejection):
            report(s, k, rejection.reason, fallback: "the default \(Self.literal(d)) is used")
            return d
        }
    }

    private mutating func string(_ s: String, _ k: String, _ d: String, nonEmpty: Bool = false) -> String {
        checked(s, k, d) { Self.text($0, nonEmpty: nonEmpty) }
    }

    private mutating func int(_ s: String, _ k: String, _ d: Int, in range: ClosedRange<Int>) -> Int {
        checked(s, k, d) { v in
            guard let n = v.int else { return .failure(Rejection("must be a whole number")) }
            guard range.contains(n) else {
                return .failure(Rejection("must be from \(range.lowerBound) to \(range.upperBound), not \(n)"))
            }
            return .success(n)
        }
    }

    private mutating func double(_ s: String, _ k: String, _ d: Double, in range: ClosedRange<Double>) -> Double {
        checked(s, k, d) { v in
            guard let x = v.double ?? v.int.map(Double.init) else { return .failure(Rejection("must be a number")) }
            guard range.contains(x) else {
                return .failure(Rejection("must be from \(range.lowerBound) to \(range.upperBound), not \(x)"))
            }
            return .success(x)
        }
    }

    private mutating func bool(_ s: String, _ k: String, _ d: Bool) -> Bool {
        checked(s, k, d) { v in v.bool.map { .success($0) } ?? .failure(Rejection("must be true or false")) }
    }

    private mutating func choice(_ s: String, _ k: String, _ d: String, _ options: [String]) -> String {
        checked(s, k, d) { v in
            Self.text(v).flatMap { text in
                options.contains(text)
                    ? .success(text)
                    : .failure(
                        Rejection(
                            "must be one of \(options.map { "\"\($0)\"" }.joined(separator: ", ")), not \"\(text)\""))
            }
        }
    }

    private static func text(_ v: any TOMLValueConvertible, nonEmpty: Bool = false) -> Result<String, Rejection> {
        guard let text = v.string else { return .failure(Rejection("must be a string in quotes")) }
        if nonEmpty && text.isEmpty { return .failure(Rejection("must not be empty")) }
        return .success(text)
    }

    /// A GPIO line: a name ("GPIO17"), "chip:offset" ("gpiochip0:17") or "" for none.
    private static func gpioLine(_ text: String) -> Result<String, Rejection> {
        GPIOLineSpec(text) != nil
            ? .success(text)
            : .failure(Rejection("must be a line name like \"GPIO17\", a chip and offset like \"gpiochip0:17\", or \"\""))
    }

    /// A default as it would be written in the file: strings in quotes, numbers and booleans as they are.
    private static func literal<T>(_ value: T) -> String {
        guard let text = value as? String else { return "\(value)" }
        let escaped = text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
        return "\"\(escaped)\""
    }

    private mutating func report(_ section: String, _ key: String?, _ reason: String, fallback: String) {
        let path = section.split(separator: ".").map(String.init) + (key.map { [$0] } ?? [])
        problems.append(
            ConfigProblem(
                file: name, key: path.joined(separator: "."), line: lines.line(path: path),
                reason: reason, fallback: fallback))
    }
}
