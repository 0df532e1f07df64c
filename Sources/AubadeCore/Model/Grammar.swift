import Foundation

/// The forms of the values people give the clock, as regular expressions. The API's OpenAPI document carries
/// these same strings as its `pattern`s (a test holds the two equal), so what the document allows and what the
/// parsers here accept are one thing. They use only what ICU (NSRegularExpression), Python's `re` and
/// ECMA-262 read alike: anchors, literal characters, character classes and ranges, groups, alternation and
/// counted repetition — no `\s` or `\d` (each engine means something else by them), no flags (letters are
/// matched case-insensitively by spelling both cases), no look-around.
///
/// White space around a value is dropped where the parsers drop it (`trimmingSpaces`: Unicode's White_Space
/// property, scalar by scalar), and the patterns allow exactly that.
public enum Grammar {
    /// Unicode's White_Space characters, as a class body.
    static let whiteSpace = "\t-\r \u{85}\u{A0}\u{1680}\u{2000}-\u{200A}\u{2028}\u{2029}\u{202F}\u{205F}\u{3000}"
    /// Control characters (general category Cc), as a class body.
    static let control = "\u{0}-\u{1F}\u{7F}-\u{9F}"

    /// A time of day, "H:MM" or "HH:MM", 00:00–23:59 (`LocalTime`).
    public static let time = "^" + ws("([01]?[0-9]|2[0-3]):[0-5][0-9]") + "$"

    /// A date, "YYYY-MM-DD", that exists (29 February in leap years only), from 1970 on (`LocalDate`).
    public static let date = "^" + dateBody + "$"

    /// One date or a range of them, "YYYY-MM-DD..YYYY-MM-DD" (`DayOffFields`).
    public static let dateRange = "^" + dateBody + "(\\.\\." + dateBody + ")?$"

    /// An instant with its offset, "YYYY-MM-DDTHH:MM:SS" and "Z" or "+HH:MM"/"-HH:MM" (up to 18 hours), on a date
    /// as `date` takes it: the API's `at`.
    public static let instant =
        "^" + dateBody + "T([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](Z|[+-](0[0-9]|1[0-7]):[0-5][0-9]|[+-]18:00)$"

    private static let dateBody: String = {
        let year = "(19[7-9][0-9]|[2-9][0-9]{3})"
        let leapYear = "(19(7[26]|8[048]|9[26])|[2-9][0-9](0[48]|[2468][048]|[13579][26])|([2468][048]|[3579][26])00)"
        return "(" + year + "-((0[13578]|1[02])-(0[1-9]|[12][0-9]|3[01])|(0[469]|11)-(0[1-9]|[12][0-9]|30)"
            + "|02-(0[1-9]|1[0-9]|2[0-8]))|" + leapYear + "-02-29)"
    }()

    /// A day of the week by name, any case: "mon" or "monday", with "tues", "weds", "thur", "thurs" (`Weekday`).
    public static let weekday = "^" + ws(dayName) + "$"

    /// The days an alarm repeats on (`Recurrence`): "once", or words and ranges of days separated by commas or
    /// spaces — "mon-fri", "sat,sun", "daily", "weekdays", "weekends", "mon wed fri" — any case.
    public static let days: String = {
        let token =
            "(" + caseless(["daily", "everyday", "all", "weekdays", "workdays", "weekends", "weekend"]) + "|"
            + dayName + "(-" + dayName + ")?)"
        let list = "[, ]*" + token + "([, ]+" + token + ")*[, ]*"
        return "^" + ws("(" + caseless(["once"]) + "|" + list + ")") + "$"
    }()

    /// An IPv6 address as RFC 4291 writes it (eight groups of 1–4 hex digits, or fewer around one `::`), without an
    /// embedded IPv4 part or a zone: what a bracketed host may hold (a `[e0A:e:::b50E:4:8]` is no address).
    static let ipv6: String = {
        let h = "[0-9A-Fa-f]{1,4}"
        return "("
            + [
                "(\(h):){7}\(h)", "(\(h):){1,7}:", "(\(h):){1,6}:\(h)", "(\(h):){1,5}(:\(h)){1,2}",
                "(\(h):){1,4}(:\(h)){1,3}", "(\(h):){1,3}(:\(h)){1,4}", "(\(h):){1,2}(:\(h)){1,5}", "\(h):(:\(h)){1,6}",
                ":((:\(h)){1,7}|:)",
            ].joined(separator: "|") + ")"
    }()

    /// An http(s) stream or calendar address (`StreamURL`, R32): scheme, a host (a name, an IPv4 address or a
    /// bracketed IPv6 one), an optional port, then path, query and fragment of RFC 3986's characters — printable
    /// ASCII, anything else percent-encoded; no user name or password. At most 2048 characters.
    public static let streamURL: String = {
        let pct = "%[0-9A-Fa-f]{2}"
        let sub = "A-Za-z0-9._~!$&'()*+,;="
        let host = "(\\[" + ipv6 + "\\]|([" + sub + "-]|" + pct + ")+)"
        let pchar = "([" + sub + ":@-]|" + pct + ")"
        let tail = "(/" + pchar + "*)*(\\?(" + pchar + "|[/?])*)?(#(" + pchar + "|[/?])*)?"
        return "^" + caseless(["http"]) + "[Ss]?://" + host + "(:[0-9]{1,5})?" + tail + "$"
    }()

    /// A name people give an alarm, station, programme, day off or token (`Names`): some character that is not
    /// white space, no control character; the document adds `maxLength` 64 (Unicode scalars).
    public static let name = "^[^" + control + "]*[^" + control + whiteSpace + "][^" + control + "]*$"

    /// Whether `text` is wholly of the form `pattern` (one of the above).
    public static func matches(_ text: String, _ pattern: String) -> Bool {
        guard let regex = try? NSRegularExpression(pattern: pattern) else { return false }
        let range = NSRange(text.startIndex..., in: text)
        return regex.firstMatch(in: text, options: [.anchored, .withoutAnchoringBounds], range: range)?.range == range
    }

    private static let dayName =
        "("
        + caseless([
            "monday", "mon", "tuesday", "tues", "tue", "wednesday", "weds", "wed", "thursday", "thurs", "thur",
            "thu", "friday", "fri", "saturday", "sat", "sunday", "sun",
        ]) + ")"

    /// `words` as alternatives, each letter in either case: "([Mm][Oo][Nn]|…)".
    private static func caseless(_ words: [String]) -> String {
        "("
            + words.map { word in
                word.map { c in c.isLetter ? "[" + c.uppercased() + c.lowercased() + "]" : String(c) }.joined()
            }.joined(separator: "|") + ")"
    }

    /// `core` with the white space the parsers drop allowed around it.
    private static func ws(_ core: String) -> String { "[" + whiteSpace + "]*" + core + "[" + whiteSpace + "]*" }
}
