/// Text that comes from outside the clock — a podcast's feed, the station directory, a station's ICY title, a
/// calendar — made plain where it enters, so that what is kept, shown and printed is already safe (R40):
///
/// - control characters (C0, C1, DEL) go; a tab, a line break (LF, CR, VT, FF, NEL) and the line and paragraph
///   separators (U+2028, U+2029) become a space;
/// - the bidirectional controls go (embeddings and overrides U+202A–U+202E, isolates U+2066–U+2069, the marks
///   U+200E, U+200F and U+061C), and so does every other format character (zero-width space, soft hyphen, byte-order
///   mark, invisible operators, tags) except the two joiners (U+200C, U+200D: emoji sequences, Persian, Indic
///   scripts), the prepended concatenation marks (U+0600–U+0605 and their like: visible signs over the digits that
///   follow) and the tags of a subdivision flag (🏴 and at most 8 tags);
/// - noncharacters (U+FFFE, U+FDD0…) go;
/// - a run of white space becomes one space (a lone no-break space stays as it is), and the text is trimmed;
/// - at most `limit` characters (grapheme clusters, so an emoji or a letter and its accents are never split).
///
/// Everything else — letters of any script, marks, digits, punctuation, symbols, emoji — is kept as it came.
/// Cleaning twice gives what cleaning once gave.
public enum OutsideText {
    /// `text` made plain, at most `limit` characters.
    public static func clean(_ text: String, limit: Int) -> String {
        guard limit > 0 else { return "" }
        var kept = String.UnicodeScalarView()
        var count = 0  // scalars kept: never fewer than characters
        var space: Unicode.Scalar?  // the run of white space seen since the last kept scalar, as it will be written
        var flag = FlagTags()
        for scalar in text.unicodeScalars {
            switch judge(scalar, flag: &flag) {
            case .dropped:
                continue
            case .space(let written):
                space = space == nil ? written : " "
            case .kept:
                if let s = space, count > 0 {
                    kept.append(s)
                    count += 1
                }
                space = nil
                kept.append(scalar)
                count += 1
            }
        }
        let plain = String(kept)
        return count <= limit ? plain : cut(plain, to: limit)
    }

    /// What becomes of one scalar.
    enum Verdict: Equatable {
        case kept, dropped
        /// White space, written as this scalar when it stands alone.
        case space(Unicode.Scalar)
    }

    static func judge(_ scalar: Unicode.Scalar, flag: inout FlagTags) -> Verdict {
        if FlagTags.isTag(scalar) { return flag.takes(scalar) ? .kept : .dropped }
        flag.follow(scalar)
        let properties = scalar.properties
        switch properties.generalCategory {
        case .control: return properties.isWhitespace ? .space(" ") : .dropped
        case .lineSeparator, .paragraphSeparator: return .space(" ")
        case .format:
            return properties.isJoinControl || prependedMarks.contains(scalar.value) ? .kept : .dropped
        default: break
        }
        if properties.isNoncharacterCodePoint { return .dropped }
        return properties.isWhitespace ? .space(scalar) : .kept
    }

    /// The format characters that are visible signs spanning the digits after them (Unicode's
    /// Prepended_Concatenation_Mark): the Arabic number signs, the Syriac abbreviation mark, the Kaithi number signs.
    static let prependedMarks: Set<UInt32> = [
        0x0600, 0x0601, 0x0602, 0x0603, 0x0604, 0x0605, 0x06DD, 0x070F, 0x0890, 0x0891, 0x08E2, 0x110BD, 0x110CD,
    ]

    /// The first `limit` characters of already plain `text`, trimmed again (the cut may end on a space).
    private static func cut(_ text: String, to limit: Int) -> String {
        guard text.count > limit else { return text }
        var scalars = String(text.prefix(limit)).unicodeScalars
        while let last = scalars.last, last.properties.isWhitespace { scalars.removeLast() }
        return String(scalars)
    }
}

extension OutsideText {
    /// The tags (U+E0020–U+E007F) that spell a subdivision flag after 🏴 (U+1F3F4), such as England's: kept only
    /// there, and at most 8 of them (a flag needs at most 7), so tags never carry hidden text.
    struct FlagTags {
        /// How many tags the current flag has kept; nil when the scalar before was not the flag or one of its tags.
        private var taken: Int?

        static func isTag(_ scalar: Unicode.Scalar) -> Bool { (0xE0020...0xE007F).contains(scalar.value) }

        /// Whether `tag` belongs to the flag before it.
        mutating func takes(_ tag: Unicode.Scalar) -> Bool {
            guard let n = taken, n < 8 else { return false }
            taken = tag.value == 0xE007F ? nil : n + 1  // CANCEL TAG ends the flag
            return true
        }

        /// A scalar that is not a tag: a new flag starts, or none.
        mutating func follow(_ scalar: Unicode.Scalar) { taken = scalar.value == 0x1F3F4 ? 0 : nil }
    }
}
