import AubadeCore
import Foundation

/// The title an ID3v2 tag carries (its `TIT2` frame, with `TPE1` before it when there is one: "Artist - Title"):
/// what HLS stations send as timed metadata, at the head of each packed-audio segment or in the transport
/// stream's metadata stream. Versions 2.3 and 2.4; text in Latin-1, UTF-16 (with its byte-order mark, or big
/// endian) or UTF-8; made plain where it enters (`OutsideText`, R40). Nil when the tag has no title. Pure.
public enum ID3Title {
    public static func title(inTag bytes: [UInt8]) -> String? {
        guard let length = StreamContent.id3TagLength(bytes), bytes[3] == 3 || bytes[3] == 4 else { return nil }
        let end = min(length, bytes.count)
        var i = 10
        if bytes[5] & 0x40 != 0, i + 4 <= end {  // an extended header: skipped
            let size = bytes[3] == 4 ? syncsafe(bytes, i) : bigEndian(bytes, i) + 4
            i += max(size, 4)
        }
        var frames: [String: String] = [:]
        while i + 10 <= end {
            let id = String(decoding: bytes[i..<(i + 4)], as: UTF8.self)
            guard id.utf8.allSatisfy({ (0x41...0x5A).contains($0) || (0x30...0x39).contains($0) }) else { break }
            let size = bytes[3] == 4 ? syncsafe(bytes, i + 4) : bigEndian(bytes, i + 4)
            let body = i + 10
            guard size > 0, body + size <= end else { break }
            if id == "TIT2" || id == "TPE1" { frames[id] = text(Array(bytes[body..<(body + size)])) }
            i = body + size
        }
        guard let title = frames["TIT2"], !title.isEmpty else { return nil }
        let whole = frames["TPE1"].map { $0.isEmpty ? title : "\($0) - \(title)" } ?? title
        return OutsideText.clean(whole, limit: ICYMetadata.maxTitle)
    }

    /// A text frame's body: its encoding byte, then the text (the first string, where several are NUL-separated).
    static func text(_ body: [UInt8]) -> String {
        guard let encoding = body.first else { return "" }
        let raw = Array(body.dropFirst())
        switch encoding {
        case 1, 2:
            var units: [UInt16] = []
            var littleEndian = false
            var start = 0
            if raw.count >= 2, encoding == 1 {
                if raw[0] == 0xFF && raw[1] == 0xFE { littleEndian = true; start = 2 }
                if raw[0] == 0xFE && raw[1] == 0xFF { start = 2 }
            }
            var j = start
            while j + 1 < raw.count {
                let unit = littleEndian ? UInt16(raw[j]) | UInt16(raw[j + 1]) << 8 : UInt16(raw[j]) << 8 | UInt16(raw[j + 1])
                if unit == 0 { break }
                units.append(unit)
                j += 2
            }
            return String(decoding: units, as: UTF16.self)
        case 3:
            return String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
        default:
            return String(String.UnicodeScalarView(raw.prefix(while: { $0 != 0 }).map { Unicode.Scalar($0) }))
        }
    }

    static func syncsafe(_ b: [UInt8], _ i: Int) -> Int { b[i..<(i + 4)].reduce(0) { $0 << 7 | Int($1 & 0x7F) } }
    static func bigEndian(_ b: [UInt8], _ i: Int) -> Int { b[i..<(i + 4)].reduce(0) { $0 << 8 | Int($1) } }
}
