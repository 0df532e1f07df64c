/// The measures of a scene at one size: margins, gaps, a button's height and the text sizes, from the screen's
/// size alone — so 800×480 landscape and 480×800 or 720×1280 portrait all lay out from the same rules.
struct FaceLayout {
    let width: Int
    let height: Int
    let landscape: Bool
    let padX: Int
    let padY: Int
    let gap: Int
    let buttonHeight: Int
    let lineHeight: Int
    let labelSize: Int
    let lineSize: Int

    init(width: Int, height: Int) {
        self.width = max(width, 1)
        self.height = max(height, 1)
        landscape = width >= height
        let short = min(self.width, self.height)
        padX = max(2, self.width * 3 / 100)
        padY = max(2, self.height * 2 / 100)
        gap = max(2, short / 60)
        buttonHeight = max(8, landscape ? self.height * 12 / 100 : self.height * 7 / 100)
        lineHeight = max(8, landscape ? self.height * 6 / 100 : self.height * 35 / 1000)
        labelSize = max(6, min(buttonHeight * 40 / 100, short / 18))
        lineSize = max(6, lineHeight * 72 / 100)
    }

    /// The screen less its margins.
    var content: FaceRect { FaceRect(x: padX, y: padY, w: width - 2 * padX, h: height - 2 * padY) }

    /// One slot of a row of controls: a button, or a text between buttons (the volume's value).
    enum Slot {
        case button(id: String, label: String)
        case text(String)
    }

    /// `slots` side by side across `rect`, equal widths, `gap` apart.
    func row(_ slots: [Slot], in rect: FaceRect, fill: FaceColor, ink: FaceColor, into scene: inout FaceScene) {
        guard !slots.isEmpty else { return }
        let n = slots.count
        let each = (rect.w - gap * (n - 1)) / n
        for (i, slot) in slots.enumerated() {
            let r = FaceRect(x: rect.x + i * (each + gap), y: rect.y, w: each, h: rect.h)
            switch slot {
            case .button(let id, let label):
                scene.buttons.append(.init(id: id, rect: r, label: label, fill: fill, ink: ink, size: labelSize))
            case .text(let text):
                scene.texts.append(.init(text: text, size: labelSize, weight: .regular, color: ink, rect: r, align: .centre))
            }
        }
    }
}
