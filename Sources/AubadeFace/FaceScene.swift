/// A rectangle in pixels, origin top left.
public struct FaceRect: Sendable, Hashable, CustomStringConvertible {
    public var x: Int
    public var y: Int
    public var w: Int
    public var h: Int

    public init(x: Int, y: Int, w: Int, h: Int) {
        self.x = x
        self.y = y
        self.w = w
        self.h = h
    }

    public var maxX: Int { x + w }
    public var maxY: Int { y + h }
    public var centre: (x: Int, y: Int) { (x + w / 2, y + h / 2) }

    public func contains(x px: Int, y py: Int) -> Bool { px >= x && px < maxX && py >= y && py < maxY }

    public func intersects(_ other: FaceRect) -> Bool {
        x < other.maxX && other.x < maxX && y < other.maxY && other.y < maxY
    }

    /// The rectangle `dx`, `dy` in from each side.
    public func inset(_ dx: Int, _ dy: Int) -> FaceRect {
        FaceRect(x: x + dx, y: y + dy, w: max(0, w - 2 * dx), h: max(0, h - 2 * dy))
    }

    public var description: String { "(\(x),\(y) \(w)×\(h))" }
}

/// The face's scene: what the screen shows at one size, in paint order — the background, filled boxes, pictures
/// (stations' logos), text runs, then the buttons (a box and its label) on top.
public struct FaceScene: Sendable, Hashable {
    /// The three weights of DejaVu Sans the face uses.
    public enum Weight: Sendable, Hashable { case light, regular, bold }

    public enum Align: Sendable, Hashable { case leading, centre, trailing }

    public struct Box: Sendable, Hashable {
        public var rect: FaceRect
        public var color: FaceColor

        public init(rect: FaceRect, color: FaceColor) {
            self.rect = rect
            self.color = color
        }
    }

    /// A line of text, its height `size` pixels, vertically centred in `rect` and aligned in it; cut off with "…"
    /// when it is wider.
    public struct Text: Sendable, Hashable {
        public var text: String
        public var size: Int
        public var weight: Weight
        public var color: FaceColor
        public var rect: FaceRect
        public var align: Align

        public init(text: String, size: Int, weight: Weight, color: FaceColor, rect: FaceRect, align: Align) {
            self.text = text
            self.size = size
            self.weight = weight
            self.color = color
            self.rect = rect
            self.align = align
        }
    }

    /// A button: its identity (what a touch on it asks), its rectangle (also where it is touched), its label.
    public struct Button: Sendable, Hashable {
        public var id: String
        public var rect: FaceRect
        public var label: String
        public var fill: FaceColor
        public var ink: FaceColor
        public var size: Int

        public init(id: String, rect: FaceRect, label: String, fill: FaceColor, ink: FaceColor, size: Int) {
            self.id = id
            self.rect = rect
            self.label = label
            self.fill = fill
            self.ink = ink
            self.size = size
        }
    }

    /// A station's logo, fitted in `rect` (aspect kept).
    public struct Picture: Sendable, Hashable {
        public var stationID: Int64
        public var rect: FaceRect

        public init(stationID: Int64, rect: FaceRect) {
            self.stationID = stationID
            self.rect = rect
        }
    }

    public var width: Int
    public var height: Int
    public var background: FaceColor
    public var boxes: [Box] = []
    public var pictures: [Picture] = []
    public var texts: [Text] = []
    public var buttons: [Button] = []

    public init(width: Int, height: Int, background: FaceColor) {
        self.width = width
        self.height = height
        self.background = background
    }

    /// The button under (x, y), the last painted first.
    public func button(at x: Int, _ y: Int) -> Button? {
        buttons.last { $0.rect.contains(x: x, y: y) }
    }

    /// The button named `id`.
    public func button(_ id: String) -> Button? {
        buttons.first { $0.id == id }
    }

    /// The text run showing exactly `text`.
    public func text(_ text: String) -> Text? {
        texts.first { $0.text == text }
    }
}
