extension OutsideText {
    /// `text` as it came, for one line of the log: a backslash written `\\`, a tab, line feed and carriage return
    /// `\t`, `\n`, `\r`, and every other control, format (the bidirectional controls among them) or separator
    /// character `\u{…}` with its hexadecimal code — so a received message can never start a line of its own nor
    /// turn the rest of the line around. At most `limit` characters of `text`, then "…".
    public static func escaped(_ text: String, limit: Int) -> String {
        var out = ""
        for scalar in text.prefix(max(0, limit)).unicodeScalars {
            switch scalar {
            case "\\": out += "\\\\"
            case "\t": out += "\\t"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            default:
                switch scalar.properties.generalCategory {
                case .control, .format, .lineSeparator, .paragraphSeparator:
                    out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
                default:
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return text.count > limit ? out + "…" : out
    }
}
