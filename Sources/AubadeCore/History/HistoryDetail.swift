public import Foundation

/// The `detail` texts of the event history that are read back by programs (the morning report): how to
/// write them, and tolerant parsers that return nil for text they don't recognise instead of failing.
///
/// Formats: an occurrence as "due 2026-03-29T01:30:00Z" (ISO 8601, UTC; also "occurrence …"), time to
/// audible as "after_ms=850", a fallback as "to=tone reason=<sentence>", a dismissal as "by=button", the
/// alarms one started ringing with (R38) as "with alarm 3" or "with alarms 1, 3". Other words may surround
/// them, separated by spaces or commas. A ring is recorded as "due <ISO>[, N min late][, with alarms …]".
public enum HistoryDetail {
    /// Where an alarm fell back to (R16).
    public enum FallbackTarget: String, CaseIterable, Hashable, Sendable {
        /// The station's alternate URL.
        case alternate
        /// The built-in tone (R17).
        case tone
    }

    /// "due <ISO 8601>": which occurrence an event is about.
    public static func due(_ occurrence: Date) -> String {
        "due \(occurrence.formatted(.iso8601))"
    }

    /// "after_ms=850": sound reached the device this long after the alarm started.
    public static func audible(after delay: Duration) -> String {
        let c = delay.components
        let ms = max(0, c.seconds * 1000 + c.attoseconds / 1_000_000_000_000_000)
        return "after_ms=\(ms)"
    }

    /// "late_ms=3 by=device": the alarm's first frame reached the card this long after its second (negative:
    /// before it), measured as `timing` says.
    public static func onset(late: Duration, timing: OnsetTiming) -> String {
        "late_ms=\(milliseconds(late)) by=\(timing.rawValue)"
    }

    /// The onset of an "late_ms=…" detail; nil when there is none.
    public static func onsetLate(in detail: String) -> Duration? {
        for word in detail.split(whereSeparator: { $0 == " " || $0 == "," || $0 == ";" }) where word.hasPrefix("late_ms=") {
            if let ms = Int64(word.dropFirst("late_ms=".count)) { return .milliseconds(ms) }
        }
        return nil
    }

    /// `d` in whole milliseconds, rounded to the nearest.
    static func milliseconds(_ d: Duration) -> Int64 {
        Int64((d / .milliseconds(1)).rounded())
    }

    /// "day off: Christmas Day": why an occurrence was skipped (the alarm skips days off).
    public static func dayOff(_ name: String) -> String {
        "day off: \(name)"
    }

    /// The name after "day off:", up to the end of the detail; nil when the detail names no day off.
    public static func dayOff(in detail: String) -> String? {
        guard let range = detail.range(of: "day off: ") else { return nil }
        let name = detail[range.upperBound...].trimmingSpaces
        return name.isEmpty ? nil : name
    }

    /// "to=tone reason=The station sent a web page, not audio."
    public static func fallback(to target: FallbackTarget, reason: String) -> String {
        "to=\(target.rawValue) reason=\(reason)"
    }

    /// "to=louder round=0": the step an unanswered alarm's ladder climbed to, in which round.
    public static func climbed(to step: LadderStep, round: Int) -> String {
        "to=\(step) round=\(round)"
    }

    /// "round=1": the round of its ladder in which an unanswered alarm reached the top.
    public static func escalated(round: Int) -> String {
        "round=\(round)"
    }

    /// The round of "round=1" or "to=louder round=0", nil when the detail names none.
    public static func round(in detail: String) -> Int? {
        detail.split(separator: " ").first { $0.hasPrefix("round=") }.flatMap { Int($0.dropFirst(6)) }
    }

    /// The step of "to=louder round=0" (as written).
    public static func climbedTo(in detail: String) -> String? {
        guard detail.hasPrefix("to=") else { return nil }
        let rest = detail.dropFirst(3)
        return String(rest.range(of: " round=").map { rest[..<$0.lowerBound] } ?? rest)
    }

    /// "by=button": what stopped the alarm.
    public static func dismissed(by input: DismissInput) -> String {
        "by=\(input.rawValue)"
    }

    /// "with alarm 3" / "with alarms 1, 3": the alarms that were already ringing when this one started, so
    /// that it rang together with them (R38). Ids in the order given.
    public static func ringing(with ids: [Int64]) -> String {
        (ids.count == 1 ? "with alarm " : "with alarms ") + ids.map(String.init).joined(separator: ", ")
    }

    /// The ids of "with alarm 3" / "with alarms 1, 3" (an "and" between them allowed), in the order written;
    /// empty when the detail names none.
    public static func ringingWith(in detail: String) -> [Int64] {
        let words = detail.split(whereSeparator: { $0 == " " || $0 == "," || $0 == ";" })
        for (index, (word, next)) in zip(words, words.dropFirst()).enumerated()
        where word.lowercased() == "with" && (next.lowercased() == "alarm" || next.lowercased() == "alarms") {
            var ids: [Int64] = []
            for token in words.dropFirst(index + 2) {
                if token.lowercased() == "and" { continue }
                let digits = token.reversed().drop(while: { ":.)".contains($0) }).reversed()
                guard let id = Int64(String(digits)), id >= 0 else { break }
                ids.append(id)
            }
            if !ids.isEmpty { return ids }
        }
        return []
    }

    /// The occurrence named by "due <ISO>" or "occurrence <ISO>" (a trailing ":", "." or ")" allowed), if
    /// the detail has one that parses.
    public static func occurrence(in detail: String) -> Date? {
        let words = detail.split(whereSeparator: { $0 == " " || $0 == "," || $0 == ";" })
        for (word, next) in zip(words, words.dropFirst()) where word == "due" || word == "occurrence" {
            let token = next.reversed().drop(while: { ":.)".contains($0) }).reversed()
            if let date = try? Date(String(token), strategy: .iso8601) { return date }
        }
        return nil
    }

    /// The delay of "after_ms=<n>", if present and a whole number ≥ 0.
    public static func audibleDelay(in detail: String) -> Duration? {
        for word in detail.split(whereSeparator: { $0 == " " || $0 == "," || $0 == ";" })
        where word.hasPrefix("after_ms=") {
            if let ms = Int64(word.dropFirst("after_ms=".count)), ms >= 0 { return .milliseconds(ms) }
        }
        return nil
    }

    /// The target and reason of a fallback detail. Text not in the "to=… reason=…" form is all reason
    /// (target nil); an unknown target is kept as written.
    public static func fallback(in detail: String) -> (target: String?, reason: String) {
        let text = detail.trimmingSpaces
        guard text.hasPrefix("to=") else { return (nil, text) }
        let afterKey = text.dropFirst("to=".count)
        let target = afterKey.prefix(while: { !$0.isWhitespace && $0 != "," })
        var rest = afterKey.dropFirst(target.count).drop(while: { $0.isWhitespace || $0 == "," })
        if rest.hasPrefix("reason=") { rest = rest.dropFirst("reason=".count) }
        return (target.isEmpty ? nil : String(target), rest.trimmingSpaces)
    }

    /// The input named in a dismissal detail ("by=button", or the bare word, as the engine writes "shake"),
    /// the first one when several appear; nil when none does.
    public static func dismissInput(in detail: String) -> DismissInput? {
        let words = detail.lowercased().split(whereSeparator: { !$0.isLetter })
        for word in words {
            if let input = DismissInput(rawValue: String(word)) { return input }
        }
        return nil
    }
}
