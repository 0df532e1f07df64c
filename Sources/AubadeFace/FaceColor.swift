/// An opaque colour, 8 bits a channel.
public struct FaceColor: Sendable, Hashable, CustomStringConvertible {
    public var r: UInt8
    public var g: UInt8
    public var b: UInt8

    public init(_ r: UInt8, _ g: UInt8, _ b: UInt8) {
        self.r = r
        self.g = g
        self.b = b
    }

    /// The colour of "#rrggbb" (either case), or nil when `text` is not one.
    public init?(hex text: String) {
        let digits = Array(text.utf8)
        guard digits.count == 7, digits[0] == UInt8(ascii: "#") else { return nil }
        func byte(_ i: Int) -> UInt8? {
            guard let high = Self.nibble(digits[i]), let low = Self.nibble(digits[i + 1]) else { return nil }
            return high << 4 | low
        }
        guard let r = byte(1), let g = byte(3), let b = byte(5) else { return nil }
        self.init(r, g, b)
    }

    static func nibble(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    public var description: String {
        let digits = Array("0123456789abcdef")
        return "#" + String([r, g, b].flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 15)]] })
    }
}

/// The kiosk's palette (kiosk.css): day white on near-black, the night face's dim warm grey on black.
public enum FacePalette {
    public static let background = FaceColor(0x0c, 0x0f, 0x14)
    public static let ink = FaceColor(0xf4, 0xf1, 0xea)
    public static let muted = FaceColor(0xa9, 0xad, 0xb6)
    public static let line = FaceColor(0x2c, 0x31, 0x3b)
    public static let button = FaceColor(0x1b, 0x20, 0x29)
    public static let accent = FaceColor(0x7f, 0xb2, 0xf0)
    public static let warnBackground = FaceColor(0x3d, 0x31, 0x13)
    public static let warnInk = FaceColor(0xf6, 0xd9, 0x8e)
    public static let night = FaceColor(0, 0, 0)
    public static let nightInk = FaceColor(0x6e, 0x5a, 0x43)
    public static let nightMuted = FaceColor(0x4a, 0x3e, 0x30)
    public static let stop = FaceColor(0xe0, 0x64, 0x3f)
    public static let stopInk = FaceColor(0x1a, 0x09, 0x04)
    public static let snooze = FaceColor(0x2f, 0x6f, 0xbd)
    public static let snoozeInk = FaceColor(0xff, 0xff, 0xff)
    public static let on = FaceColor(0x2e, 0x7d, 0x4f)
}
