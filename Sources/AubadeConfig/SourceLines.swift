import Foundation

/// Finds the line of a `[section]` header or a `key =` assignment in TOML text (tables nested to any depth),
/// for messages.
/// TOMLKit reports positions only for syntax errors, so this scans the text the way a person would.
struct SourceLines {
    private let lines: [Substring]

    init(_ text: String) {
        lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    }

    func line(ofSection section: String) -> Int? {
        lines.firstIndex { header(of: $0) == section }.map { $0 + 1 }
    }

    /// The 1-based line where `key` is assigned inside `section` (nil section: before the first header).
    func line(section: String?, key: String) -> Int? {
        var current: String? = nil
        for (i, raw) in lines.enumerated() {
            if let h = header(of: raw) {
                current = h
                continue
            }
            guard current == section else { continue }
            let text = raw.trimmingCharacters(in: .whitespaces)
            guard let eq = text.firstIndex(of: "=") else { continue }
            var k = text[..<eq].trimmingCharacters(in: .whitespaces)
            if k.count >= 2, k.first == "\"", k.last == "\"" { k = String(k.dropFirst().dropLast()) }
            if k == key { return i + 1 }
        }
        return nil
    }

    /// The line that defines the table or key at `path` (["buttons", "short_press", "stop"]): its `[a.b]`
    /// header, its assignment under its table's header or as a dotted key under a header further up, or
    /// failing those (an inline table) the line of the table that holds it.
    func line(path: [String]) -> Int? {
        guard !path.isEmpty else { return nil }
        if let n = line(ofSection: path.joined(separator: ".")) { return n }
        for split in stride(from: path.count - 1, through: 0, by: -1) {
            let section = split == 0 ? nil : path[..<split].joined(separator: ".")
            if let n = line(section: section, key: path[split...].joined(separator: ".")) { return n }
        }
        return line(path: Array(path.dropLast()))
    }

    private func header(of raw: Substring) -> String? {
        let t = raw.trimmingCharacters(in: .whitespaces)
        guard t.hasPrefix("["), !t.hasPrefix("[["), let close = t.firstIndex(of: "]") else { return nil }
        return t[t.index(after: t.startIndex)..<close].trimmingCharacters(in: .whitespaces)
    }
}
