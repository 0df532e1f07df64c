import AubadeFace
import Testing

/// The scenes the face shows, and what touches on them ask the clock: the bodies kiosk.js sends.
@Suite("Face: scenes and touches")
struct FaceSceneTests {
    typealias F = FaceFixtures

    static func tap(_ id: String, _ scene: FaceScene, _ inputs: FaceInputs) -> FaceAction? {
        guard let button = scene.button(id) else {
            Issue.record("no button \(id) in \(scene.buttons.map(\.id))")
            return nil
        }
        return FaceAction.touch(x: button.rect.centre.x, y: button.rect.centre.y, on: scene, inputs)
    }

    @Test("The day face: time, date, next alarm, what plays, warning, controls; each button's command")
    func day() throws {
        var state = F.state(F.fullJSON)
        state.zone = "UTC"
        let inputs = F.inputs(state)
        let scene = FaceScene.make(inputs)
        #expect(scene.background == FacePalette.background)
        let clock = try #require(scene.text("07:42"))
        #expect(clock.color == FacePalette.ink && clock.weight == .light)
        #expect(scene.text("Tuesday 24 November") != nil)
        #expect(scene.text("Next alarm: Work, tomorrow 07:00") != nil)
        #expect(scene.text("FIP — playing · Miles Davis — So What · sleep 30 min") != nil)
        #expect(scene.text("The clock's time is not synchronised.") != nil)
        #expect(scene.text("35") != nil)
        #expect(scene.text("Reconnecting…") == nil)
        #expect(
            scene.pictures == [
                FaceScene.Picture(stationID: 3, rect: scene.pictures.first?.rect ?? FaceRect(x: 0, y: 0, w: 0, h: 0))
            ])
        #expect(
            Set(scene.buttons.map(\.id)) == [
                "play", "stations", "volume-down", "volume-up", "sleep-15", "sleep-30", "sleep-60", "output-shaker",
                "output-lamp", "pair",
            ])
        #expect(scene.button("play")?.label == "Stop")
        #expect(scene.button("output-lamp")?.fill == FacePalette.ink)  // on: pressed
        #expect(Self.tap("play", scene, inputs)?.command == FaceCommand("POST", "/player/stop"))
        #expect(Self.tap("volume-up", scene, inputs)?.command == FaceCommand("POST", "/player/volume", #"{"volume":40}"#))
        #expect(Self.tap("volume-down", scene, inputs)?.command == FaceCommand("POST", "/player/volume", #"{"volume":30}"#))
        #expect(
            Self.tap("sleep-30", scene, inputs)?.command == FaceCommand("POST", "/sleep", #"{"seconds":1800,"source":"FIP"}"#))
        #expect(Self.tap("output-lamp", scene, inputs)?.command == FaceCommand("POST", "/outputs/lamp", #"{"on":false}"#))
        #expect(Self.tap("output-shaker", scene, inputs)?.command == FaceCommand("POST", "/outputs/shaker", #"{"on":true}"#))
        #expect(Self.tap("stations", scene, inputs) == FaceAction(ui: FaceUI(pickerOpen: true)))
        let pair = Self.tap("pair", scene, inputs)
        #expect(pair == FaceAction(command: FaceCommand("POST", "/pair/code"), ui: FaceUI(pairingOpen: true)))
        #expect(FaceAction.touch(x: 1, y: 479, on: scene, inputs) == nil)  // beside every button
    }

    @Test("Nothing plays: Play the chosen station; the volume at its ends asks nothing")
    func idle() {
        let inputs = F.inputs(F.state(F.minimalJSON), ui: FaceUI(chosenStation: "France Culture"))
        let scene = FaceScene.make(inputs)
        #expect(scene.button("play")?.label == "Play France Culture")
        #expect(scene.button("volume-up") == nil)
        #expect(scene.text("No alarm set") != nil)
        #expect(Self.tap("play", scene, inputs)?.command == FaceCommand("POST", "/player/play", #"{"source":"France Culture"}"#))
        var loud = F.state(F.minimalJSON)
        loud.radio = .init(source: "FIP", volume: 100)
        #expect(FaceAction.pressed("volume-up", F.inputs(loud)) == nil)
        let none = F.inputs(F.state(F.minimalJSON), stations: [])
        #expect(FaceScene.make(none).button("play") == nil)
        #expect(FaceScene.make(none).text("No stations") != nil)
    }

    @Test("The night face: dim digits on black, no buttons; any touch only wakes it")
    func night() throws {
        var state = F.state(F.fullJSON)
        state.dimmed = true
        let inputs = F.inputs(state)
        let scene = FaceScene.make(inputs)
        #expect(scene.background == FacePalette.night)
        #expect(scene.buttons.isEmpty)
        let clock = try #require(scene.texts.first { $0.weight == .light })
        #expect(clock.color == FacePalette.nightInk)
        #expect(!scene.texts.contains { $0.text.hasPrefix("FIP") })
        #expect(FaceAction.touch(x: 400, y: 240, on: scene, inputs) == FaceAction(command: .wake))
        // A touch where the day face's Stop (radio) was: still only the wake.
        let day = FaceScene.make(F.inputs(F.state(F.fullJSON)))
        let play = try #require(day.button("play"))
        #expect(FaceAction.touch(x: play.rect.centre.x, y: play.rect.centre.y, on: scene, inputs) == FaceAction(command: .wake))
    }

    @Test("Ringing: large Stop and Snooze only, even on a dimmed state; a ring test has no Snooze")
    func ringing() throws {
        let inputs = F.inputs(F.state(F.ringingJSON))
        let scene = FaceScene.make(inputs)
        #expect(Set(scene.buttons.map(\.id)) == ["snooze", "stop"])
        let stop = try #require(scene.button("stop"))
        #expect(stop.rect.w * stop.rect.h > 800 * 480 / 4)
        #expect(Self.tap("stop", scene, inputs)?.command == FaceCommand("POST", "/alarm/stop"))
        #expect(Self.tap("snooze", scene, inputs)?.command == FaceCommand("POST", "/alarm/snooze"))
        var test = F.state(F.ringingJSON)
        test.ringing?.test = true
        let testScene = FaceScene.make(F.inputs(test))
        #expect(testScene.buttons.map(\.id) == ["stop"])
        #expect(testScene.text("07:42  Ring test") != nil)
        // Portrait: one above the other.
        let portrait = FaceScene.make(F.inputs(F.state(F.ringingJSON), width: 480, height: 800))
        let s = try #require(portrait.button("snooze")), p = try #require(portrait.button("stop"))
        #expect(s.rect.maxY <= p.rect.y && s.rect.w == p.rect.w)
    }

    @Test("The wake-up check: \"Are you up?\" and one button; any touch answers it")
    func wakeCheck() {
        var state = F.state(F.minimalJSON)
        state.wakeCheck = .init(id: 7, name: "Work")
        let inputs = F.inputs(state)
        let scene = FaceScene.make(inputs)
        #expect(scene.text("Are you up?") != nil)
        #expect(scene.buttons.map(\.id) == ["up"])
        #expect(Self.tap("up", scene, inputs)?.command == .wake)
        #expect(FaceAction.touch(x: 0, y: 0, on: scene, inputs)?.command == .wake)
    }

    @Test("The picker: a tile per station, logos where there are some; a tap plays it and closes the picker")
    func picker() {
        let inputs = F.inputs(F.state(F.minimalJSON), ui: FaceUI(pickerOpen: true))
        let scene = FaceScene.make(inputs)
        #expect(scene.buttons.map(\.id) == ["picker-close", "station-3", "station-4", "station-5"])
        #expect(scene.pictures.map(\.stationID) == [3])
        #expect(scene.text("F") != nil && scene.text("R") != nil)  // initials of the stations without a logo
        let pick = Self.tap("station-5", scene, inputs)
        #expect(pick?.command == FaceCommand("POST", "/player/play", #"{"source":"Radio \"Nova\""}"#))
        #expect(pick?.ui == FaceUI(pickerOpen: false, chosenStation: "Radio \"Nova\""))
        #expect(Self.tap("picker-close", scene, inputs)?.ui == FaceUI())
        // Ringing closes it.
        var ringing = F.state(F.minimalJSON)
        ringing.ringing = F.ringing
        #expect(FaceScene.make(F.inputs(ringing, ui: FaceUI(pickerOpen: true))).button("picker-close") == nil)
    }

    @Test("Pairing: the code in two halves and how long it is valid; Close")
    func pairing() {
        let inputs = F.inputs(F.state(F.fullJSON), ui: FaceUI(pairingOpen: true))
        let scene = FaceScene.make(inputs)
        #expect(scene.text("123 456") != nil)
        #expect(scene.text("Valid for 5 min") != nil)
        #expect(scene.buttons.map(\.id) == ["pair-close"])
        #expect(Self.tap("pair-close", scene, inputs)?.ui == FaceUI())
        let asking = FaceScene.make(F.inputs(F.state(F.minimalJSON), ui: FaceUI(pairingOpen: true)))
        #expect(asking.text("Asking the clock for a code…") != nil)
    }

    @Test("The link down: \"Reconnecting…\", the time still shown; before any state, no alarm line")
    func reconnecting() {
        let scene = FaceScene.make(F.inputs(F.state(F.minimalJSON), linkUp: false))
        #expect(scene.text("Reconnecting…") != nil)
        #expect(scene.text("07:42") != nil)
        let first = FaceScene.make(F.inputs(nil, linkUp: false))
        #expect(first.text("07:42") != nil && first.text("Reconnecting…") != nil && first.text("No alarm set") == nil)
    }

    @Test("A sunrise: the sky behind, the digits in ink, as the daemon sent them")
    func sunrise() {
        var state = F.state(F.minimalJSON)
        state.sunrise = .init(permille: 600, sky: "#C4603A", ink: "#FFD9B0")
        let scene = FaceScene.make(F.inputs(state))
        #expect(scene.background == FaceColor(0xc4, 0x60, 0x3a))
        #expect(scene.text("07:42")?.color == FaceColor(0xff, 0xd9, 0xb0))
    }

    @Test("Repaint: at the next minute, or the sleep timer's next whole minute")
    func repaint() {
        let inputs = F.inputs(F.state(F.minimalJSON))
        #expect(inputs.nextRepaint == 1_795_506_180)
        var state = F.state(F.minimalJSON)
        state.radio = .init(source: "FIP", endsAt: F.now + 125)
        // 125 s left shows "3 min"; at 120 s left it shows "2 min".
        #expect(F.inputs(state).nextRepaint == F.now + 5)
        let half = FaceInputs(
            state: nil, now: 100, linkUp: false, zone: FaceZone(identifier: "half", fixedOffset: 1830), width: 8, height: 8)
        let expected: Double = 150  // local 1930 s: 10 s into a minute
        #expect(half.nextRepaint == expected)
    }

    @Test("A refused command: the clock's sentence on the face (under the next alarm, or under the ringing line)")
    func refusal() {
        let body = Array(#"{"error":{"kind":"refused","message":"Nothing rings."}}"#.utf8)
        #expect(FaceCommand.refusal(status: 409, body: body) == "Nothing rings.")
        #expect(FaceCommand.refusal(status: 500, body: []) == "The clock refused (HTTP 500).")
        #expect(FaceCommand.refusal(status: 0, body: []) == "The clock did not answer.")
        #expect(FaceCommand.refusal(status: 201, body: []) == nil)
        let ui = FaceUI(message: "Nothing rings.")
        #expect(FaceScene.make(F.inputs(F.state(F.minimalJSON), ui: ui)).text("Nothing rings.")?.color == FacePalette.warnInk)
        #expect(FaceScene.make(F.inputs(F.state(F.ringingJSON), ui: ui)).text("Nothing rings.") != nil)
    }

    @Test("Warnings: the first on one line, the count of the others apart")
    func warnings() {
        var state = F.state(F.minimalJSON)
        state.warnings = ["First.", "Second.", "Third."]
        let scene = FaceScene.make(F.inputs(state))
        #expect(scene.text("First.") != nil && scene.text("+2") != nil && scene.text("Second.") == nil)
    }
}
