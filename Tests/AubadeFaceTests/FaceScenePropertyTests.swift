import AubadeFace
import PropertyBased
import Testing

/// The scene's promises as properties, over screens from 240 to 1920 pixels a side and states drawn at random:
/// every button on the screen and none over another; Stop (and Snooze, unless a ring test) whenever something rings,
/// its centre asking POST /alarm/stop; a dimmed face only ever woken; the next repaint always ahead, at most 60 s.
@Suite("Face: scenes and touches, as properties")
struct FaceScenePropertyTests {
    struct Case: Sendable, CustomStringConvertible {
        var inputs: FaceInputs
        var touch: (x: Int, y: Int)
        var description: String {
            "\(inputs.width)×\(inputs.height) ringing \(inputs.state?.ringing?.test.description ?? "no") dimmed "
                + "\(inputs.state?.dimmed ?? false) ui \(inputs.ui) radio \(inputs.state?.radio != nil) "
                + "stations \(inputs.stations.count) outputs \(inputs.state?.outputs.count ?? 0) touch \(touch) now \(inputs.now)"
        }
    }

    static let cases = Generator<Case, Shrink.None<Case>> { rng in
        let width = Int.random(in: 240...1920, using: &rng)
        let height = Int.random(in: 240...1920, using: &rng)
        let now = Double.random(in: 0...4_000_000_000, using: &rng)
        var state = FaceState(now: now, zone: "UTC")
        if Int.random(in: 0..<3, using: &rng) == 0 {
            state.ringing = FaceState.Ringing(alarms: [.init(id: 1, name: "Alarm")], test: Bool.random(using: &rng))
        }
        state.dimmed = Bool.random(using: &rng)
        if Int.random(in: 0..<5, using: &rng) == 0 { state.wakeCheck = .init(id: 1, name: "Alarm") }
        if Bool.random(using: &rng) {
            let sleep = Bool.random(using: &rng) ? now + Double.random(in: 0...7200, using: &rng) : nil
            state.radio = .init(source: "FIP", endsAt: sleep, volume: Int.random(in: 1...100, using: &rng), stationId: 1)
        }
        state.outputs = [.init(name: "shaker", on: Bool.random(using: &rng)), .init(name: "lamp", on: Bool.random(using: &rng))]
            .prefix(Int.random(in: 0...2, using: &rng)).map { $0 }
        state.warnings = Array(
            repeating: "A warning that is rather long, to be cut off", count: Int.random(in: 0...2, using: &rng))
        if Bool.random(using: &rng) {
            state.pairing = .init(code: "123456", expiresAt: now + Double.random(in: -10...300, using: &rng))
        }
        let stations = (0..<Int.random(in: 0...60, using: &rng)).map {
            FaceStation(id: Int64($0), name: "Station \($0)", hasLogo: Bool.random(using: &rng))
        }
        let ui = FaceUI(
            pickerOpen: Bool.random(using: &rng), pickerPage: Int.random(in: -1...4, using: &rng),
            pairingOpen: Bool.random(using: &rng))
        let inputs = FaceInputs(
            state: Int.random(in: 0..<10, using: &rng) == 0 ? nil : state, now: now, linkUp: Bool.random(using: &rng),
            zone: FaceZone(identifier: "fixed", fixedOffset: Int.random(in: -12...14, using: &rng) * 1800), ui: ui,
            stations: stations, onAir: Bool.random(using: &rng) ? onAir(now, &rng) : nil, width: width, height: height)
        return Case(inputs: inputs, touch: (Int.random(in: 0..<width, using: &rng), Int.random(in: 0..<height, using: &rng)))
    }

    /// What is on air: now, next (reserved or not, with an id or not), or both.
    static func onAir(_ now: Double, _ rng: inout some RandomNumberGenerator) -> FaceOnAir {
        let begins = now - Double.random(in: 0...3600, using: &rng)
        let ends = now + Double.random(in: 1...7200, using: &rng)
        let current = FaceProgramme(id: 1, name: "A programme with a rather long name", begins: begins, ends: ends)
        let next = FaceProgramme(
            id: Bool.random(using: &rng) ? 2 : nil, name: "Next", begins: ends, ends: ends + 3600,
            reserved: Bool.random(using: &rng))
        return switch Int.random(in: 0..<3, using: &rng) {
        case 0: FaceOnAir(station: "Station 1", now: current, next: nil)
        case 1: FaceOnAir(station: nil, now: nil, next: next)
        default: FaceOnAir(station: "Station 1", now: current, next: next)
        }
    }

    @Test("Every button lies inside the screen, has room, and no two overlap")
    func buttonsInside() async {
        await propertyCheck(count: 400, input: Self.cases) { c in
            let scene = FaceScene.make(c.inputs)
            let screen = FaceRect(x: 0, y: 0, w: c.inputs.width, h: c.inputs.height)
            for (i, a) in scene.buttons.enumerated() {
                #expect(a.rect.x >= 0 && a.rect.y >= 0 && a.rect.maxX <= screen.w && a.rect.maxY <= screen.h, "\(a.id) \(a.rect)")
                #expect(a.rect.w >= 20 && a.rect.h >= 8, "\(a.id) \(a.rect)")
                for b in scene.buttons[(i + 1)...] {
                    #expect(!a.rect.intersects(b.rect), "\(a.id) \(a.rect) overlaps \(b.id) \(b.rect)")
                }
            }
            #expect(Set(scene.buttons.map(\.id)).count == scene.buttons.count)
        }
    }

    @Test("With the on-air lines present, the buttons stay on the screen and apart; Reserve toggles the next programme")
    func onAirButtonsApart() async {
        await propertyCheck(count: 400, input: Self.cases) { c in
            var inputs = c.inputs
            inputs.onAir =
                inputs.onAir
                ?? FaceOnAir(
                    station: "FIP", now: FaceProgramme(id: 1, name: "Now", begins: inputs.now - 60, ends: inputs.now + 60),
                    next: FaceProgramme(id: 2, name: "Next", begins: inputs.now + 60, ends: inputs.now + 3600))
            let scene = FaceScene.make(inputs)
            for (i, a) in scene.buttons.enumerated() {
                #expect(
                    a.rect.x >= 0 && a.rect.y >= 0 && a.rect.maxX <= inputs.width && a.rect.maxY <= inputs.height,
                    "\(a.id) \(a.rect)")
                #expect(a.rect.w >= 20 && a.rect.h >= 8, "\(a.id) \(a.rect)")
                for b in scene.buttons[(i + 1)...] {
                    #expect(!a.rect.intersects(b.rect), "\(a.id) \(a.rect) overlaps \(b.id) \(b.rect)")
                }
            }
            // The lines never under a button, and none above the screen.
            let lines = scene.texts.filter { $0.text.hasPrefix("Now") || $0.text.hasPrefix("Next ") }
            for line in lines {
                #expect(line.rect.y >= 0, "\(line.text) \(line.rect)")
                #expect(!scene.buttons.contains { $0.rect.intersects(line.rect) }, "\(line.text) \(line.rect)")
            }
            // On the clock's face by day, the toggle whenever the next programme has an id.
            let clockFace =
                inputs.state != nil && inputs.state?.ringing == nil && !inputs.asking && !inputs.dimmed
                && !inputs.ui.pairingOpen && !(inputs.ui.pickerOpen && !inputs.stations.isEmpty)
            if clockFace, let next = inputs.onAir?.next, let id = next.id {
                guard let reserve = scene.button("reserve") else {
                    Issue.record("no Reserve")
                    return
                }
                let action = FaceAction.touch(x: reserve.rect.centre.x, y: reserve.rect.centre.y, on: scene, inputs)
                #expect(action?.command?.path == "/programmes/\(id)/reserve")
                #expect(action?.command?.method == (next.reserved ? "DELETE" : "POST"))
            } else if !clockFace || inputs.onAir?.next?.id == nil {
                #expect(scene.button("reserve") == nil)
            }
        }
    }

    @Test("Something rings: Stop, and Snooze unless a ring test; Stop's centre asks POST /alarm/stop")
    func ringingHasStop() async {
        await propertyCheck(count: 300, input: Self.cases) { c in
            guard let ringing = c.inputs.state?.ringing else { return }
            let scene = FaceScene.make(c.inputs)
            guard let stop = scene.button("stop") else {
                Issue.record("no Stop")
                return
            }
            #expect((scene.button("snooze") != nil) == !ringing.test)
            let action = FaceAction.touch(x: stop.rect.centre.x, y: stop.rect.centre.y, on: scene, c.inputs)
            #expect(action?.command == FaceCommand("POST", "/alarm/stop"))
            if let snooze = scene.button("snooze") {
                let a = FaceAction.touch(x: snooze.rect.centre.x, y: snooze.rect.centre.y, on: scene, c.inputs)
                #expect(a?.command == FaceCommand("POST", "/alarm/snooze"))
            }
        }
    }

    @Test("A touch anywhere on a dimmed face only ever asks POST /display/wake")
    func dimmedOnlyWakes() async {
        await propertyCheck(count: 300, input: Self.cases) { c in
            guard c.inputs.dimmed else { return }
            let scene = FaceScene.make(c.inputs)
            // No buttons, but for "Are you up?" (which any touch answers, with the same request).
            #expect(scene.buttons.isEmpty || c.inputs.asking)
            let action = FaceAction.touch(x: c.touch.x, y: c.touch.y, on: scene, c.inputs)
            #expect(action == FaceAction(command: .wake))
        }
    }

    @Test("The next repaint is always ahead, and at most 60 s away")
    func repaintAhead() async {
        await propertyCheck(count: 500, input: Self.cases) { c in
            let next = c.inputs.nextRepaint
            #expect(next > c.inputs.now && next <= c.inputs.now + 60, "\(next - c.inputs.now)")
            // The clock's digits do not change before it.
            let before = next - 0.001
            if before > c.inputs.now {
                #expect(FaceText.clock(before, c.inputs.zone) == FaceText.clock(c.inputs.now, c.inputs.zone))
            }
        }
    }
}
