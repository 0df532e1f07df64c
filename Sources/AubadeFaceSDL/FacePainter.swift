public import AubadeFace
import CSDL2

/// Paints `FaceScene`s in a window with SDL's software renderer: filled boxes, buttons and their labels, the
/// stations' logos, text with SDL_ttf. Each text run's texture is kept while the scenes still show it and freed the
/// first frame they do not; logos are kept per station until replaced. Main thread only (SDL is not thread-safe).
public final class FacePainter {
    let window: OpaquePointer
    let renderer: OpaquePointer
    let fonts: FaceFonts
    private var texts: [TextKey: Texture] = [:]
    private var logos: [Int64: Texture] = [:]

    struct TextKey: Hashable {
        var text: String
        var size: Int
        var weight: FaceScene.Weight
        var color: FaceColor
        var width: Int
    }

    struct Texture {
        var texture: OpaquePointer
        var w: Int32
        var h: Int32
    }

    /// A window of `width`×`height` (or fullscreen at the display's size: KMSDRM on a board), with the software
    /// renderer; `font`: one font file for all text, nil for DejaVu Sans.
    public init(width: Int, height: Int, fullscreen: Bool = false, font: String? = nil) throws(FaceSDLError) {
        // SDL_WINDOWPOS_UNDEFINED (a macro Swift does not import): SDL_WINDOWPOS_UNDEFINED_MASK | 0.
        let undefined: Int32 = 0x1FFF_0000
        let flags = fullscreen ? SDL_WINDOW_FULLSCREEN_DESKTOP.rawValue : SDL_WINDOW_SHOWN.rawValue
        guard let window = SDL_CreateWindow("Aubade", undefined, undefined, Int32(width), Int32(height), flags) else {
            throw FaceSDLError("SDL_CreateWindow")
        }
        guard let renderer = SDL_CreateRenderer(window, -1, SDL_RENDERER_SOFTWARE.rawValue) else {
            let error = FaceSDLError("SDL_CreateRenderer")
            SDL_DestroyWindow(window)
            throw error
        }
        self.window = window
        self.renderer = renderer
        fonts = FaceFonts(file: font)
        SDL_ShowCursor(fullscreen ? 0 : 1)
    }

    deinit {
        for t in texts.values { SDL_DestroyTexture(t.texture) }
        for t in logos.values { SDL_DestroyTexture(t.texture) }
        SDL_DestroyRenderer(renderer)
        SDL_DestroyWindow(window)
    }

    /// The size scenes are made at: the renderer's output in pixels.
    public var size: (width: Int, height: Int) {
        var w: Int32 = 0
        var h: Int32 = 0
        SDL_GetRendererOutputSize(renderer, &w, &h)
        return (Int(w), Int(h))
    }

    /// How many text textures are kept now (a test of the cache: only the current scene's).
    public var cachedTexts: Int { texts.count }

    /// Decodes a station's logo (PNG, JPEG, … as SDL_image reads them) and keeps it for its pictures; false when the
    /// bytes are not an image.
    @discardableResult
    public func setLogo(stationID: Int64, bytes: [UInt8]) -> Bool {
        let surface = bytes.withUnsafeBytes { raw -> UnsafeMutablePointer<SDL_Surface>? in
            guard let base = raw.baseAddress, let rw = SDL_RWFromConstMem(base, Int32(raw.count)) else { return nil }
            return IMG_Load_RW(rw, 1)
        }
        guard let surface else { return false }
        defer { SDL_FreeSurface(surface) }
        guard let texture = SDL_CreateTextureFromSurface(renderer, surface) else { return false }
        if let old = logos[stationID] { SDL_DestroyTexture(old.texture) }
        logos[stationID] = Texture(texture: texture, w: surface.pointee.w, h: surface.pointee.h)
        return true
    }

    /// Whether a logo is kept for the station.
    public func hasLogo(stationID: Int64) -> Bool { logos[stationID] != nil }

    /// Draws `scene` (not yet shown: `present()`); text that cannot be drawn is left out, never stops the face.
    public func paint(_ scene: FaceScene) {
        fill(FaceRect(x: 0, y: 0, w: scene.width, h: scene.height), scene.background, whole: true)
        for box in scene.boxes { fill(box.rect, box.color) }
        var used = Set<TextKey>()
        var fontsUsed = Set<FaceFonts.Key>()
        for button in scene.buttons {
            fill(button.rect, button.fill)
            let run = FaceScene.Text(
                text: button.label, size: button.size, weight: .regular, color: button.ink, rect: button.rect.inset(4, 0),
                align: .centre)
            draw(run, &used, &fontsUsed)
        }
        for picture in scene.pictures { draw(picture) }
        for run in scene.texts { draw(run, &used, &fontsUsed) }
        for (key, t) in texts where !used.contains(key) {
            SDL_DestroyTexture(t.texture)
            texts[key] = nil
        }
        fonts.close(except: fontsUsed)
    }

    /// Shows what was painted.
    public func present() {
        SDL_RenderPresent(renderer)
    }

    func fill(_ r: FaceRect, _ c: FaceColor, whole: Bool = false) {
        SDL_SetRenderDrawColor(renderer, c.r, c.g, c.b, 255)
        if whole {
            SDL_RenderClear(renderer)
        } else {
            var rect = SDL_Rect(x: Int32(r.x), y: Int32(r.y), w: Int32(r.w), h: Int32(r.h))
            SDL_RenderFillRect(renderer, &rect)
        }
    }

    func draw(_ picture: FaceScene.Picture) {
        guard let logo = logos[picture.stationID], logo.w > 0, logo.h > 0 else { return }
        let r = picture.rect
        let scale = min(Double(r.w) / Double(logo.w), Double(r.h) / Double(logo.h))
        let w = Int32(Double(logo.w) * scale)
        let h = Int32(Double(logo.h) * scale)
        var target = SDL_Rect(x: Int32(r.x) + (Int32(r.w) - w) / 2, y: Int32(r.y) + (Int32(r.h) - h) / 2, w: w, h: h)
        SDL_RenderCopy(renderer, logo.texture, nil, &target)
    }

    func draw(_ run: FaceScene.Text, _ used: inout Set<TextKey>, _ fontsUsed: inout Set<FaceFonts.Key>) {
        guard !run.text.isEmpty, run.rect.w > 0 else { return }
        let key = TextKey(text: run.text, size: run.size, weight: run.weight, color: run.color, width: run.rect.w)
        fontsUsed.insert(FaceFonts.Key(weight: run.weight, size: max(1, min(run.size, 1000))))
        guard let t = texts[key] ?? render(key) else { return }
        texts[key] = t
        used.insert(key)
        let r = run.rect
        let x =
            switch run.align {
            case .leading: Int32(r.x)
            case .centre: Int32(r.x) + (Int32(r.w) - t.w) / 2
            case .trailing: Int32(r.maxX) - t.w
            }
        var target = SDL_Rect(x: x, y: Int32(r.y) + (Int32(r.h) - t.h) / 2, w: t.w, h: t.h)
        SDL_RenderCopy(renderer, t.texture, nil, &target)
    }

    /// The text of `key` as a texture, cut off with "…" to its width.
    func render(_ key: TextKey) -> Texture? {
        guard let font = try? fonts.font(key.weight, key.size) else { return nil }
        let text = Self.fitted(key.text, font, key.width)
        guard !text.isEmpty else { return nil }
        let color = SDL_Color(r: key.color.r, g: key.color.g, b: key.color.b, a: 255)
        guard let surface = TTF_RenderUTF8_Blended(font, text, color) else { return nil }
        defer { SDL_FreeSurface(surface) }
        guard let texture = SDL_CreateTextureFromSurface(renderer, surface) else { return nil }
        return Texture(texture: texture, w: surface.pointee.w, h: surface.pointee.h)
    }

    /// `text`, or as much of it as fits `width` pixels followed by "…".
    static func fitted(_ text: String, _ font: OpaquePointer, _ width: Int) -> String {
        var w: Int32 = 0
        var h: Int32 = 0
        guard TTF_SizeUTF8(font, text, &w, &h) == 0, Int(w) > width else { return text }
        var ellipsis: Int32 = 0
        TTF_SizeUTF8(font, "…", &ellipsis, &h)
        var extent: Int32 = 0
        var count: Int32 = 0
        guard TTF_MeasureUTF8(font, text, Int32(width) - ellipsis, &extent, &count) == 0, count > 0 else { return "" }
        return String(String.UnicodeScalarView(text.unicodeScalars.prefix(Int(count)))) + "…"
    }
}
