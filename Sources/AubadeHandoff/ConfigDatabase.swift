/// The one thing the second waker needs from the daemon's TOML config: `[paths] database`, so that it finds the
/// handoff files beside the database (R35). The waker links no TOML library (it stays small and imports no
/// Foundation), so this reads only that key — in a `[paths]` table, or as a dotted `paths.database` key at the
/// top — as a basic ("…", with \" and \\ escapes) or literal ('…') string. Anything else in the file is skipped;
/// `aubade run --check-config` is what judges the whole file.
public enum ConfigDatabase {
    /// The configured database path in the config text, or nil when the key is absent or not a string.
    public static func find(in text: UnsafeRawBufferPointer) -> LongText? {
        var atTop = true
        var inPaths = false
        var found: LongText?
        HandoffLine.forEach(in: text) { raw in
            let line = trimmed(raw.bytes)
            guard let first = line.first, first != UInt8(ascii: "#") else { return true }
            if first == UInt8(ascii: "[") {
                inPaths = isTable(line, "paths")
                atTop = false
                return true
            }
            var rest: UnsafeRawBufferPointer?
            if inPaths {
                rest = afterKey(line, "database")
            } else if atTop, let dotted = afterKey(line, "paths.database") {
                rest = dotted
            }
            if let rest, let value = stringValue(rest) { found = value }
            return true
        }
        return found
    }

    /// `line` without leading and trailing spaces, tabs and a carriage return.
    static func trimmed(_ line: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        var start = 0
        var end = line.count
        while start < end, isBlank(line[start]) { start += 1 }
        while end > start, isBlank(line[end - 1]) || line[end - 1] == 0x0D { end -= 1 }
        return UnsafeRawBufferPointer(rebasing: line[start..<end])
    }

    private static func isBlank(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 }

    /// Whether the line is the table header `[name]` (spaces allowed inside the brackets).
    private static func isTable(_ line: UnsafeRawBufferPointer, _ name: StaticString) -> Bool {
        guard line.count >= 2, line[0] == UInt8(ascii: "["), line[1] != UInt8(ascii: "[") else { return false }
        guard let close = line.firstIndex(of: UInt8(ascii: "]")) else { return false }
        return equals(trimmed(UnsafeRawBufferPointer(rebasing: line[1..<close])), name)
    }

    /// What follows `key =` on the line (trimmed), or nil when the line sets another key.
    private static func afterKey(_ line: UnsafeRawBufferPointer, _ key: StaticString) -> UnsafeRawBufferPointer? {
        guard let eq = line.firstIndex(of: UInt8(ascii: "=")) else { return nil }
        var name = trimmed(UnsafeRawBufferPointer(rebasing: line[0..<eq]))
        if name.count >= 2, name.first == UInt8(ascii: "\""), name.last == UInt8(ascii: "\"") {
            name = UnsafeRawBufferPointer(rebasing: name[1..<(name.count - 1)])
        }
        guard equals(name, key) else { return nil }
        return trimmed(UnsafeRawBufferPointer(rebasing: line[(eq + 1)...]))
    }

    /// A TOML basic or literal string at the start of `value`; nil for anything else.
    static func stringValue(_ value: UnsafeRawBufferPointer) -> LongText? {
        guard let quote = value.first, quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else { return nil }
        var out = LongText()
        var i = 1
        while i < value.count {
            let b = value[i]
            if b == quote { return out }
            if quote == UInt8(ascii: "\""), b == UInt8(ascii: "\\"), i + 1 < value.count {
                i += 1
                switch value[i] {
                case UInt8(ascii: "\\"), UInt8(ascii: "\""): out.append(value[i])
                case UInt8(ascii: "t"): out.append(0x09)
                default: return nil  // \n, \u… have no place in a path
                }
            } else {
                out.append(b)
            }
            i += 1
        }
        return nil
    }

    private static func equals(_ bytes: UnsafeRawBufferPointer, _ word: StaticString) -> Bool {
        guard bytes.count == word.utf8CodeUnitCount else { return false }
        for k in 0..<bytes.count where bytes[k] != word.utf8Start[k] { return false }
        return true
    }
}
