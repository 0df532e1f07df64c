import AubadeCore
import Foundation

/// Reads `StreamTitle` out of an ICY metadata block such as `StreamTitle='Artist - Song';StreamUrl='';`.
///
/// Real stations send titles with apostrophes and semicolons inside (`Guns N' Roses`, `Song; Live`),
/// Latin-1 instead of UTF-8, and NUL padding. A value ends at the first `';` that is followed by the end of
/// the block or by another `Key='` field; without such an end, at the last quote. Invalid UTF-8 is read as
/// Latin-1 (what SHOUTcast servers commonly send). The title is made plain (`OutsideText`, R40): control and
/// bidirectional characters dropped, line breaks and runs of spaces one space, NUL padding gone, at most
/// `maxTitle` characters.
public enum ICYMetadata {
    /// The longest title kept, in characters (a block may hold 4080 bytes).
    public static let maxTitle = 200

    /// The title, or nil when the block has no `StreamTitle` (an empty title is returned as "").
    public static func streamTitle(in block: [UInt8]) -> String? {
        let text = decode(block)
        guard let start = text.range(of: "StreamTitle='") else { return nil }
        let rest = text[start.upperBound...]
        var end = rest.endIndex
        var search = rest.startIndex
        var found = false
        while let close = rest[search...].range(of: "';") {
            let after = rest[close.upperBound...]
            if after.allSatisfy({ $0 == "\0" || $0.isWhitespace }) || startsWithField(after) {
                end = close.lowerBound
                found = true
                break
            }
            search = close.upperBound
        }
        if !found, let lastQuote = rest.lastIndex(of: "'") { end = lastQuote }
        return OutsideText.clean(String(rest[rest.startIndex..<end]), limit: maxTitle)
    }

    /// UTF-8 when valid, otherwise Latin-1 byte by byte.
    static func decode(_ bytes: [UInt8]) -> String {
        if let s = String(validating: bytes, as: UTF8.self) { return s }
        return String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) }))
    }

    private static func startsWithField(_ s: Substring) -> Bool {
        var name = 0
        for ch in s {
            if ch.isLetter || ch == "_" {
                name += 1
                continue
            }
            return name > 0 && ch == "="
        }
        return false
    }
}
