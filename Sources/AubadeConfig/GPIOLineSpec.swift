import Foundation

/// How the config names a GPIO line: by the name the kernel gives it, or by chip and offset.
public enum GPIOLineSpec: Equatable, Sendable {
    case none
    case named(String)
    case chipOffset(chip: String, offset: Int)

    public init?(_ text: String) {
        let t = text.trimmingCharacters(in: .whitespaces)
        if t.isEmpty {
            self = .none
            return
        }
        if let colon = t.lastIndex(of: ":") {
            let chip = String(t[..<colon])
            guard !chip.isEmpty, let offset = Int(t[t.index(after: colon)...]), (0...1023).contains(offset) else { return nil }
            self = .chipOffset(chip: chip, offset: offset)
            return
        }
        guard t.count <= 64, !t.contains(where: { $0.isWhitespace }) else { return nil }
        self = .named(t)
    }
}
