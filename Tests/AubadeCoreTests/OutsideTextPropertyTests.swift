import AubadeCore
import Foundation
import PropertyBased
import Testing

/// `OutsideText.clean` (R40) on random hostile text — controls, line breaks, bidirectional and other format
/// characters, tags, noncharacters and every kind of white space mixed into letters of many scripts, emoji and
/// random scalars — and on random ordinary text. The forbidden classes are judged here independently of the
/// code: by Unicode's general category and the listed bidirectional controls.
@Suite("Outside text: property tests")
struct OutsideTextPropertyTests {
    static let words = [
        "News", "Ünïcödé", "日本語", "Привет", "مرحبا", "שלום", "नमस्ते", "ไทย", "한국어", "Ελληνικά", "می\u{200C}خواهم",
        "e\u{301}", "Ångström", "2026-11-25", "42",
    ]
    static let emoji = [
        "👍", "👍🏽", "👨‍👩‍👧‍👦", "🏳️‍🌈", "🇫🇷", "🇩🇪", "1️⃣", "❤️", "🏴\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F}",
    ]
    static let punctuation = ["!", "?", ".", ",", ";", ":", "'", "\"", "(", ")", "«", "»", "—", "…", "¿", "&", "#", "%", "-"]
    /// What an attacker mixes in.
    static let hostile: [Unicode.Scalar] =
        ["\t", "\n", "\r", "\u{0B}", "\u{0C}", "\u{85}", "\u{2028}", "\u{2029}", " ", "\u{A0}", "\u{3000}", "\u{2003}"]
        + (0x00...0x1F).map { Unicode.Scalar($0)! } + (0x7F...0x9F).map { Unicode.Scalar($0)! }
        + (Array(0x202A...0x202E) + Array(0x2066...0x2069) + [0x200E, 0x200F, 0x061C]).map { Unicode.Scalar($0)! }
        + [0x200B, 0x200C, 0x200D, 0xAD, 0xFEFF, 0x2060, 0x2064, 0x206A, 0xFFF9, 0xE0001, 0xE0041, 0xE007F, 0x1F3F4]
        .map { Unicode.Scalar($0)! }
        + [0xFFFE, 0xFFFF, 0xFDD0, 0x1FFFE, 0xE000, 0x0301, 0x0600, 0xFE0F].map { Unicode.Scalar($0)! }

    struct Sample: Sendable, CustomStringConvertible {
        var text: String
        var limit: Int
        var description: String { "limit \(limit): \(text.unicodeScalars.map { String($0.value, radix: 16) })" }
    }

    static let hostileText = Generator<Sample, Shrink.None<Sample>> { rng in
        func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &rng) }
        var text = ""
        for _ in 0..<int(0...60) {
            switch int(0...9) {
            case 0...2: text += words[int(0...(words.count - 1))]
            case 3: text += emoji[int(0...(emoji.count - 1))]
            case 4: text += punctuation[int(0...(punctuation.count - 1))]
            case 5:
                // Any scalar at all (surrogates are not scalars: skipped).
                if let s = Unicode.Scalar(UInt32(int(0...0x10FFFF))) { text.unicodeScalars.append(s) }
            default:
                for _ in 0..<int(1...3) { text.unicodeScalars.append(hostile[int(0...(hostile.count - 1))]) }
            }
        }
        return Sample(text: text, limit: [0, 1, 2, 5, 40, 200, 1000][int(0...6)])
    }

    static let ordinaryText = Generator<Sample, Shrink.None<Sample>> { rng in
        func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &rng) }
        let pools = [words, emoji, punctuation]
        var tokens: [String] = []
        for _ in 0..<int(1...40) {
            let pool = pools[[0, 0, 0, 1, 2][int(0...4)]]
            tokens.append(pool[int(0...(pool.count - 1))])
        }
        // Words separated by single spaces (or none): nothing for the cleaning to take away.
        let text = tokens.enumerated().map { i, t in i > 0 && int(0...3) > 0 ? " " + t : t }.joined()
        return Sample(text: text, limit: int(1...300))
    }

    /// The format characters that may stay: the joiners (U+200C, U+200D) and the prepended concatenation marks.
    static let visibleFormat: Set<UInt32> = [
        0x200C, 0x200D, 0x0600, 0x0601, 0x0602, 0x0603, 0x0604, 0x0605, 0x06DD, 0x070F, 0x0890, 0x0891, 0x08E2, 0x110BD, 0x110CD,
    ]

    /// The scalars no cleaned text may hold, judged without the code's help; `tags` counts the tags since a 🏴.
    static func forbidden(_ s: Unicode.Scalar, tags: inout Int?) -> Bool {
        if (0xE0020...0xE007F).contains(s.value) {
            guard let n = tags, n < 8 else { return true }
            tags = s.value == 0xE007F ? nil : n + 1
            return false
        }
        tags = s.value == 0x1F3F4 ? 0 : nil
        let bidi: Set<UInt32> = [0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069, 0x200E, 0x200F, 0x061C]
        if bidi.contains(s.value) || s.properties.isNoncharacterCodePoint { return true }
        switch s.properties.generalCategory {
        case .control, .lineSeparator, .paragraphSeparator: return true
        case .format: return !Self.visibleFormat.contains(s.value)
        default: return false
        }
    }

    @Test("never a forbidden scalar, no run of spaces, trimmed, within the limit, the same when cleaned again")
    func hostileTextComesOutPlain() async {
        await propertyCheck(count: 500, input: Self.hostileText) { sample in
            let plain = OutsideText.clean(sample.text, limit: sample.limit)
            var tags: Int?
            let bad = plain.unicodeScalars.filter { Self.forbidden($0, tags: &tags) }
            #expect(bad.isEmpty, "\(bad.map { String($0.value, radix: 16) }) in \(sample)")
            let spaces = zip(plain.unicodeScalars, plain.unicodeScalars.dropFirst()).filter {
                $0.properties.isWhitespace && $1.properties.isWhitespace
            }
            #expect(spaces.isEmpty, "\(sample)")
            #expect(plain.unicodeScalars.first?.properties.isWhitespace != true, "\(sample)")
            #expect(plain.unicodeScalars.last?.properties.isWhitespace != true, "\(sample)")
            #expect(plain.count <= sample.limit, "\(plain.count) characters for \(sample)")
            #expect(OutsideText.clean(plain, limit: sample.limit) == plain, "\(sample)")
        }
    }

    @Test("ordinary text — letters of any script, emoji, punctuation — is kept, cut only between characters")
    func ordinaryTextIsKept() async {
        await propertyCheck(count: 500, input: Self.ordinaryText) { sample in
            let plain = OutsideText.clean(sample.text, limit: sample.limit)
            if sample.text.count <= sample.limit {
                #expect(plain == sample.text, "\(sample)")
            } else {
                var cut = String(sample.text.prefix(sample.limit))
                while cut.last == " " { cut.removeLast() }
                #expect(plain == cut, "\(sample)")
            }
        }
    }
}
