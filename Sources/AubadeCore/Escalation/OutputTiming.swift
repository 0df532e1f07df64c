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

    /// The outputs among `available` that are on `elapsed` after its ring began: those whose timing has come, and
    /// at its ladder's top (`atTop`) every one it does not turn `off`.
    public func outputsOn(_ available: [OutputName], after elapsed: Duration, atTop: Bool) -> Set<OutputName> {
        Set(
            available.filter { name in
                let t = timing(of: name)
                return (t?.isOn(after: elapsed) ?? false) || (atTop && t != .off)
            })
    }

    /// How long after its ring began the next of `available` comes on by its timing, later than `elapsed`; nil
    /// when none will.
    public func nextOutputTime(_ available: [OutputName], after elapsed: Duration) -> Duration? {
        available.compactMap { timing(of: $0)?.delay }.filter { $0 > elapsed }.min()
    }
}

/// "Vibrate first, sound after" (`alarm add/edit --sound-after 1m`): how long an alarm stays silent after its
/// time, its outputs alone waking the sleeper, before its sound starts. `0s` (the default) sounds at once.
/// Text: a duration from 0s to 30m ("1m", "90s"), or "now" for 0s.
public struct SoundAfter: Hashable, Sendable, CustomStringConvertible {
    public let seconds: Int

    /// Silent for at most half an hour: a sleeper the outputs did not wake still gets the sound.
    public static let range = 0...1800
    public static let atOnce = SoundAfter(uncheckedSeconds: 0)

    init(uncheckedSeconds: Int) {
        seconds = uncheckedSeconds
    }

    public init(seconds: Int) throws(ValidationError) {
        guard SoundAfter.range.contains(seconds) else {
            throw ValidationError("The sound may wait 0s to 30m after the outputs, not \(DurationText.format(max(0, seconds))).")
        }
        self.seconds = seconds
    }

    public init(parsing text: String) throws(ValidationError) {
        let t = text.trimmingSpaces.lowercased()
        if t == "now" {
            self = .atOnce
            return
        }
        guard let seconds = try? DurationText.seconds(parsing: t, field: "sound-after"), SoundAfter.range.contains(seconds)
        else {
            throw ValidationError("--sound-after is a duration from 0s to 30m, like 1m, or \"now\", not '\(text)'.")
        }
        self.seconds = seconds
    }

    public var description: String { DurationText.format(seconds) }

    /// Whether the sound plays `elapsed` after the alarm's start.
    public func sounds(after elapsed: Duration) -> Bool { elapsed >= .seconds(seconds) }
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
