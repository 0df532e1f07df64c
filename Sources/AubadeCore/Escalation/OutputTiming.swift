/// When an alarm's output comes on (`alarm add/edit --shaker now|after:2m|off`, `--lamp …`): with the ring
/// (`now`), a while after the ring started (`after:<duration>`, up to an hour), or never for this alarm
/// (`off`). Counted from the ring's start on the monotonic clock; a person's stop or snooze switches it off.
public enum OutputTiming: Hashable, Sendable, CustomStringConvertible {
    case off
    case now
    case after(seconds: Int)

    /// An output may be asked to wait from 1 s to an hour.
    public static let afterRange = 1...3600

    public var description: String {
        switch self {
        case .off: "off"
        case .now: "now"
        case .after(let seconds): "after:\(DurationText.format(seconds))"
        }
    }

    /// Reads what `description` writes ("after:0s" is `now`); anything else is refused in one sentence.
    public init(parsing text: String) throws(ValidationError) {
        let t = text.trimmingSpaces.lowercased()
        switch t {
        case "off": self = .off
        case "now": self = .now
        default:
            let form = "An output comes on \"now\", \"after:<duration>\" (1s to 1h, like after:2m) or \"off\", not '\(text)'."
            guard t.hasPrefix("after:") else { throw ValidationError(form) }
            let duration = String(t.dropFirst("after:".count))
            guard let seconds = try? DurationText.seconds(parsing: duration, field: "after") else { throw ValidationError(form) }
            if seconds == 0 {
                self = .now
                return
            }
            guard OutputTiming.afterRange.contains(seconds) else { throw ValidationError(form) }
            self = .after(seconds: seconds)
        }
    }

    /// How long after the ring's start the output comes on; nil for `off`.
    public var delay: Duration? {
        switch self {
        case .off: nil
        case .now: .zero
        case .after(let seconds): .seconds(seconds)
        }
    }

    /// Whether the output is on `elapsed` after the ring started.
    public func isOn(after elapsed: Duration) -> Bool {
        guard let delay else { return false }
        return elapsed >= delay
    }
}

extension OutputTiming {
    /// An alarm's text for an output: "ladder" (nil: at its ladder's top step only, the default), "now",
    /// "after:<duration>" or "off" (never for this alarm, its ladder's top included).
    public static func alarmText(_ timing: OutputTiming?) -> String { timing?.description ?? "ladder" }

    /// Reads `alarmText`'s words; anything else is refused in one sentence.
    public static func alarmValue(parsing text: String) throws(ValidationError) -> OutputTiming? {
        if text.trimmingSpaces.lowercased() == "ladder" { return nil }
        do throws(ValidationError) {
            return try OutputTiming(parsing: text)
        } catch {
            throw ValidationError(
                "An output comes on \"ladder\" (at the top step, the default), \"now\", \"after:<duration>\" (1s to 1h) or \"off\", not '\(text)'."
            )
        }
    }
}

extension Alarm {
    /// What this alarm says of `name`: nil — at its ladder's top step only.
    public func timing(of name: OutputName) -> OutputTiming? {
        switch name {
        case .shaker: shaker
        case .lamp: lamp
        }
    }

    /// The outputs among `available` that are on `elapsed` after its ring began: those whose timing has come (with
    /// `soundAfter`, those left to the top from the ring's start), and at its ladder's top (`atTop`) every one it
    /// does not turn `off`.
    public func outputsOn(_ available: [OutputName], after elapsed: Duration, atTop: Bool) -> Set<OutputName> {
        Set(
            available.filter { name in
                let t = ringTiming(of: name)
                return (t?.isOn(after: elapsed) ?? false) || (atTop && t != .off)
            })
    }

    /// How long after its ring began the next of `available` comes on by its timing, later than `elapsed`; nil
    /// when none will.
    public func nextOutputTime(_ available: [OutputName], after elapsed: Duration) -> Duration? {
        available.compactMap { ringTiming(of: $0)?.delay }.filter { $0 > elapsed }.min()
    }
}

/// "Vibrate first, sound after" (`alarm add/edit --sound-after 1m`): how long an alarm's ring stays silent, its
/// outputs (the bed shaker, the lamp) alone waking the sleeper, before its sound starts (`Alarm.soundAfter`). The
/// ring begins at the alarm's time (Stop and Snooze work, the clock shows it ringing); the sound, its ladder, its
/// audibility watch and the microphone begin at time + this. Text: a duration from 1s to 10m ("30s", "1m"), or
/// "off" (or 0) for none.
public enum SoundAfter {
    /// Silent for at most ten minutes: a sleeper the outputs did not wake still gets the sound.
    public static let range = 1...600

    /// Reads `text(_:)`'s words: nil for "off", "0", "0s" (the sound starts with the ring); anything else outside
    /// 1s to 10m is refused in one sentence naming it.
    public static func value(parsing text: String) throws(ValidationError) -> Duration? {
        let t = text.trimmingSpaces.lowercased()
        if t == "off" || t == "0" { return nil }
        guard let seconds = try? DurationText.seconds(parsing: t, field: "sound-after"),
            seconds == 0 || range.contains(seconds)
        else {
            throw ValidationError("--sound-after is a duration from 1s to 10m, like 1m, or \"off\", not '\(text)'.")
        }
        return seconds == 0 ? nil : .seconds(seconds)
    }

    /// "off", or the duration ("1m", "1m30s").
    public static func text(_ value: Duration?) -> String {
        value.map { DurationText.format(seconds($0)) } ?? "off"
    }

    /// Whole seconds of a sound-after.
    public static func seconds(_ value: Duration) -> Int { Int(value.components.seconds) }

    /// The alarm's rule: a sound-after in range, and an output of its own that comes on before the sound (its
    /// shaker or lamp at the ladder's top, `now`, or `after:` sooner) — both `off`, it would be a silent alarm.
    static func check(_ alarm: Alarm) throws(ValidationError) {
        guard let wait = alarm.soundAfter else { return }
        let seconds = seconds(wait)
        guard range.contains(seconds), wait == .seconds(seconds) else {
            throw ValidationError("--sound-after is a duration from 1s to 10m, not \(DurationText.format(max(0, seconds))).")
        }
        guard alarm.vibratesFirst(OutputName.allCases) else {
            throw ValidationError(
                "--sound-after \(DurationText.format(seconds)) needs the shaker or the lamp to come on before the sound, not both off or later.",
                kind: .unprocessable)
        }
    }
}

extension Alarm {
    /// With `soundAfter`, an output left to its ladder's top (nil) comes on with the ring instead: something that
    /// is not sound wakes the sleeper first.
    public func ringTiming(of name: OutputName) -> OutputTiming? {
        let t = timing(of: name)
        return t == nil && soundAfter != nil ? .now : t
    }

    /// Whether, of `available` (the outputs the clock holds), one comes on before its sound would start: only
    /// then does its ring begin silent (`soundAfter`); otherwise the sound starts at once (never a silent alarm).
    public func vibratesFirst(_ available: [OutputName]) -> Bool {
        guard let wait = soundAfter else { return false }
        return available.contains { name in ringTiming(of: name)?.delay.map { $0 < wait } ?? false }
    }
}

extension OutputTiming: Codable {
    /// As its text ("now", "after:2m", "off").
    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        do throws(ValidationError) {
            self = try OutputTiming(parsing: text)
        } catch {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: error.message))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(description)
    }
}
