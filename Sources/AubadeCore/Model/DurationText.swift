/// Parses and prints durations as people type them: "90s", "15m", "1h", "1h30m".
public enum DurationText {
    /// Seconds in `text`. A bare number is refused, so "15" can't silently mean seconds or minutes.
    public static func seconds(parsing text: String, field: String) throws(ValidationError) -> Int {
        let s = text.trimmingSpaces.lowercased()
        var total = 0
        var number = ""
        var sawUnit = false
        for ch in s {
            if ch.isASCIIDigit {
                number.append(ch)
                guard number.count <= 6 else { throw invalid(text, field) }
                continue
            }
            guard let value = Int(number) else { throw invalid(text, field) }
            switch ch {
            case "h": total += value * 3600
            case "m": total += value * 60
            case "s": total += value
            default: throw invalid(text, field)
            }
            number = ""
            sawUnit = true
        }
        guard number.isEmpty, sawUnit else {
            if !number.isEmpty, !sawUnit {
                throw ValidationError("\(field) '\(text)' needs a unit, like 15m, 90s or 1h30m.")
            }
            throw invalid(text, field)
        }
        return total
    }

    /// Whole minutes in `text` ("9m", "1h"); seconds that do not make whole minutes are refused.
    public static func wholeMinutes(parsing text: String, field: String) throws(ValidationError) -> Int {
        let seconds = try seconds(parsing: text, field: field)
        guard seconds % 60 == 0 else { throw ValidationError("\(field) '\(text)' must be whole minutes, like 9m.") }
        return seconds / 60
    }

    /// Seconds in `text`, required to lie in `range`.
    public static func seconds(parsing text: String, field: String, in range: ClosedRange<Int>) throws(ValidationError) -> Int {
        let value = try seconds(parsing: text, field: field)
        guard range.contains(value) else {
            throw ValidationError(
                "\(field) '\(text)' is out of range; use \(format(range.lowerBound)) to \(format(range.upperBound)).")
        }
        return value
    }

    /// Shortest exact form: 900 → "15m", 5400 → "1h30m", 45 → "45s", 0 → "0s".
    public static func format(_ seconds: Int) -> String {
        if seconds == 0 { return "0s" }
        var out = ""
        let h = seconds / 3600, m = seconds % 3600 / 60, s = seconds % 60
        if h > 0 { out += "\(h)h" }
        if m > 0 { out += "\(m)m" }
        if s > 0 { out += "\(s)s" }
        return out
    }

    private static func invalid(_ text: String, _ field: String) -> ValidationError {
        ValidationError("\(field) '\(text)' is not a duration; write it like 15m, 90s or 1h30m.")
    }
}
