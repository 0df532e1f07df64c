import AubadeCore
import AubadeFace
import AubadeFaceSDL
import CSDL2
import Glibc
import Testing

/// The face as painted: SDL's offscreen driver and software renderer, the pixels read back. One SDL for the process
/// and the tests one at a time (SDL is not thread-safe).
@Suite("Face: pixels through SDL's offscreen driver", .serialized)
struct FacePixelTests {
    typealias F = FaceFixtures

    /// SDL started once for the test process, on the offscreen driver (no display, no GPU).
    static let started: Bool = {
        setenv("SDL_VIDEODRIVER", "offscreen", 1)
        do {
            try FaceSDL.start(driver: "offscreen")
            return true
        } catch {
            Issue.record("SDL did not start: \(error)")
            return false
        }
    }()

    struct Frame {
        var width: Int
        var argb: [UInt32]
        func at(_ x: Int, _ y: Int) -> FaceColor {
            let p = argb[y * width + x]
            return FaceColor(UInt8(p >> 16 & 0xff), UInt8(p >> 8 & 0xff), UInt8(p & 0xff))
        }
        /// How many pixels of `rect` are exactly `color`.
        func count(_ color: FaceColor, in rect: FaceRect) -> Int {
            var n = 0
            for y in rect.y..<rect.maxY {
                for x in rect.x..<rect.maxX where at(x, y) == color { n += 1 }
            }
            return n
        }
    }

    static func paint(_ painter: FacePainter, _ scene: FaceScene) -> Frame {
        painter.paint(scene)
        let frame = painter.pixels()
        return Frame(width: frame.width, argb: frame.argb)
    }

    static func painter(_ w: Int = 800, _ h: Int = 480) throws -> FacePainter {
        try #require(started)
        return try FacePainter(width: w, height: h)
    }

    /// Every pixel an independent SDL_ttf rendering of `run` covers fully is painted in its colour, where the painter
    /// centres it in its rect; returns how many.
    static func glyphsMatch(_ run: FaceScene.Text, _ frame: Frame, font path: String) throws -> Int {
        let font = try #require(TTF_OpenFont(path, Int32(run.size)))
        defer { TTF_CloseFont(font) }
        let color = SDL_Color(r: run.color.r, g: run.color.g, b: run.color.b, a: 255)
        let rendered = try #require(TTF_RenderUTF8_Blended(font, run.text, color))
        defer { SDL_FreeSurface(rendered) }
        let surface = try #require(SDL_ConvertSurfaceFormat(rendered, SDL_PIXELFORMAT_ARGB8888.rawValue, 0))
        defer { SDL_FreeSurface(surface) }
        let w = Int(surface.pointee.w), h = Int(surface.pointee.h), pitch = Int(surface.pointee.pitch)
        let x0 = run.rect.x + (run.rect.w - w) / 2, y0 = run.rect.y + (run.rect.h - h) / 2
        let pixels = try #require(surface.pointee.pixels).assumingMemoryBound(to: UInt8.self)
        var solid = 0
        var wrong = 0
        for y in 0..<h {
            for x in 0..<w {
                let p = UnsafeRawPointer(pixels + y * pitch + x * 4).loadUnaligned(as: UInt32.self)
                guard p >> 24 == 0xff else { continue }
                solid += 1
                if frame.at(x0 + x, y0 + y) != run.color { wrong += 1 }
            }
        }
        #expect(wrong == 0, "\(wrong) of \(solid) glyph pixels of \(run.text) not in \(run.color)")
        return solid
    }

    static let light = "/usr/share/fonts/truetype/dejavu/DejaVuSans-ExtraLight.ttf"

    @Test("The time's digits are drawn where the scene puts them; 07:42 and 07:43 differ only in the time's box")
    func digits() throws {
        let painter = try Self.painter()
        var state = F.state(F.minimalJSON)
        let first = FaceScene.make(F.inputs(state))
        let a = Self.paint(painter, first)
        let clock = try #require(first.text("07:42"))
        #expect(try Self.glyphsMatch(clock, a, font: Self.light) > 500)
        #expect(a.count(FacePalette.ink, in: clock.rect) > 500)
        #expect(a.at(2, 2) == FacePalette.background)
        state.now += 60
        let second = FaceScene.make(F.inputs(state))
        let b = Self.paint(painter, second)
        #expect(second.text("07:43")?.rect == clock.rect)
        var changed = 0
        for y in 0..<480 {
            for x in 0..<800 where a.argb[y * 800 + x] != b.argb[y * 800 + x] {
                changed += 1
                #expect(clock.rect.contains(x: x, y: y), "pixel (\(x), \(y)) changed outside the time")
                if changed > 20_000 { break }
            }
        }
        #expect(changed > 100)
        // The texts no longer shown are freed: one texture per text run of the scene.
        #expect(painter.cachedTexts == Set(second.texts.map(\.text)).count + Set(second.buttons.map(\.label)).count)
    }

    @Test("A sunrise at 25 %, 60 % and 97.5 %: the core's sky behind, the digits in its ink", arguments: [0.25, 0.6, 0.975])
    func sunrise(progress: Double) throws {
        let painter = try Self.painter()
        var state = F.state(F.minimalJSON)
        let sky = SunriseCurve.sky(at: progress), ink = SunriseCurve.ink(at: progress)
        state.sunrise = .init(permille: Int(progress * 1000), sky: sky, ink: ink)
        let scene = FaceScene.make(F.inputs(state))
        let frame = Self.paint(painter, scene)
        let skyColor = try #require(FaceColor(hex: sky)), inkColor = try #require(FaceColor(hex: ink))
        #expect(frame.at(1, 1) == skyColor)
        #expect(frame.at(799, 479) == skyColor)
        let clock = try #require(scene.text("07:42"))
        #expect(clock.color == inkColor)
        #expect(try Self.glyphsMatch(clock, frame, font: Self.light) > 500)
        #expect(frame.count(inkColor, in: clock.rect) > 500)
    }

    @Test("The ringing face: Stop and Snooze in their colours at their rects, their labels in their ink")
    func ringing() throws {
        let painter = try Self.painter()
        let scene = FaceScene.make(F.inputs(F.state(F.ringingJSON)))
        let frame = Self.paint(painter, scene)
        for (id, fill, ink) in [
            ("stop", FacePalette.stop, FacePalette.stopInk), ("snooze", FacePalette.snooze, FacePalette.snoozeInk),
        ] {
            let button = try #require(scene.button(id))
            let r = button.rect
            #expect(frame.at(r.x + 2, r.y + 2) == fill && frame.at(r.maxX - 3, r.maxY - 3) == fill, "\(id)")
            #expect(frame.count(fill, in: r) > r.w * r.h / 2, "\(id)")
            let label = FaceScene.Text(
                text: button.label, size: button.size, weight: .regular, color: ink, rect: r.inset(4, 0), align: .centre)
            #expect(try Self.glyphsMatch(label, frame, font: "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf") > 200, "\(id)")
        }
    }

    @Test("A station's logo, decoded from its bytes, is drawn in its tile; the night face is black and dim")
    func logoAndNight() throws {
        let painter = try Self.painter(480, 800)
        #expect(!painter.setLogo(stationID: 3, bytes: Array("not an image".utf8)))
        #expect(painter.setLogo(stationID: 3, bytes: Self.redBMP))
        let scene = FaceScene.make(F.inputs(F.state(F.minimalJSON), width: 480, height: 800, ui: FaceUI(pickerOpen: true)))
        let frame = Self.paint(painter, scene)
        let picture = try #require(scene.pictures.first)
        #expect(frame.at(picture.rect.centre.x, picture.rect.centre.y) == FaceColor(255, 0, 0))
        var night = F.state(F.minimalJSON)
        night.dimmed = true
        let dark = FaceScene.make(F.inputs(night, width: 480, height: 800))
        let darkFrame = Self.paint(painter, dark)
        #expect(darkFrame.at(0, 0) == FacePalette.night)
        let clock = try #require(dark.text("07:42"))
        #expect(darkFrame.count(FacePalette.nightInk, in: clock.rect) > 200)
        #expect(darkFrame.count(FacePalette.ink, in: FaceRect(x: 0, y: 0, w: 480, h: 800)) == 0)
    }

    @Test("Frames saved as BMP read back as the same picture")
    func bmp() throws {
        let painter = try Self.painter(320, 240)
        let scene = FaceScene.make(F.inputs(F.state(F.ringingJSON), width: 320, height: 240))
        let frame = Self.paint(painter, scene)
        let path = "/tmp/aubade-face-test-\(getpid()).bmp"
        defer { unlink(path) }
        try painter.saveBMP(path)
        let loaded = try #require(SDL_LoadBMP_RW(SDL_RWFromFile(path, "rb"), 1))
        defer { SDL_FreeSurface(loaded) }
        #expect(loaded.pointee.w == 320 && loaded.pointee.h == 240)
        let converted = try #require(SDL_ConvertSurfaceFormat(loaded, SDL_PIXELFORMAT_ARGB8888.rawValue, 0))
        defer { SDL_FreeSurface(converted) }
        let stop = try #require(scene.button("stop")).rect
        let pixels = try #require(converted.pointee.pixels)
        let p = pixels.load(fromByteOffset: Int(converted.pointee.pitch) * (stop.y + 2) + (stop.x + 2) * 4, as: UInt32.self)
        #expect(FaceColor(UInt8(p >> 16 & 0xff), UInt8(p >> 8 & 0xff), UInt8(p & 0xff)) == frame.at(stop.x + 2, stop.y + 2))
    }

    /// A 4×4 red picture, 24-bit BMP.
    static let redBMP: [UInt8] = {
        func le32(_ v: Int) -> [UInt8] { [UInt8(v & 0xff), UInt8(v >> 8 & 0xff), UInt8(v >> 16 & 0xff), UInt8(v >> 24 & 0xff)] }
        func le16(_ v: Int) -> [UInt8] { [UInt8(v & 0xff), UInt8(v >> 8 & 0xff)] }
        let rows = Array(repeating: [UInt8]([0, 0, 255]), count: 16).flatMap { $0 }  // BGR, rows of 12 bytes
        var bytes: [UInt8] = Array("BM".utf8) + le32(54 + rows.count) + le32(0) + le32(54)
        bytes += le32(40) + le32(4) + le32(4) + le16(1) + le16(24) + le32(0) + le32(rows.count) + le32(2835) + le32(2835)
        bytes += le32(0) + le32(0)
        return bytes + rows
    }()
}
