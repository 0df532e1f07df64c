import AubadeCore
import Testing

/// Short and long presses (each saying when it began, for R15) and the action mapping.
@Suite("Input: presses and button actions")
struct InputPressTests {
    static func ms(_ value: Int) -> Duration { .milliseconds(value) }

    struct PressCase: Sendable, CustomTestStringConvertible {
        let name: String
        let down: Int
        let up: Int
        let ticks: [Int]
        let expected: [(PressClassifier.Kind, Int)]
        var testDescription: String { name }
    }

    static let pressCases: [PressCase] = [
        PressCase(name: "short press", down: 0, up: 300, ticks: [], expected: [(.short, 300)]),
        PressCase(name: "just under the long-press time is short", down: 0, up: 999, ticks: [500], expected: [(.short, 999)]),
        PressCase(
            name: "long press reported at the threshold while held", down: 0, up: 3000, ticks: [500, 1000, 2000],
            expected: [(.long, 1000)]),
        PressCase(name: "long press reported at release without ticks", down: 0, up: 1500, ticks: [], expected: [(.long, 1500)]),
        PressCase(
            name: "a long hold is one long press", down: 0, up: 5000, ticks: [1000, 2000],
            expected: [(.long, 1000)]),
        PressCase(
            name: "a press that began late reports its own start", down: 300, up: 400, ticks: [], expected: [(.short, 400)]),
    ]

    @Test(arguments: pressCases)
    func classify(_ c: PressCase) {
        var p = PressClassifier(longPress: .seconds(1))
        var out: [PressClassifier.Press] = []
        out += p.pressed(at: Self.ms(c.down))
        for t in c.ticks { out += p.tick(at: Self.ms(t)) }
        out += p.released(at: Self.ms(c.up))
        // Every press says when the button went down: the alarm engine judges held-at-start on it (R15).
        #expect(out == c.expected.map { PressClassifier.Press(kind: $0.0, time: Self.ms($0.1), pressedAt: Self.ms(c.down)) })
    }

    @Test func anInitiallyHeldButtonCountsOnlyAfterItsRelease() {
        var p = PressClassifier(longPress: .seconds(1), initiallyHeld: true)
        #expect(p.isIgnoringHeldPress)
        var out = p.tick(at: .seconds(5))
        out += p.released(at: .seconds(6))
        out += p.pressed(at: .seconds(7))
        #expect(out.isEmpty)
        let press = p.released(at: .milliseconds(7100))
        #expect(press == [PressClassifier.Press(kind: .short, time: .milliseconds(7100), pressedAt: .seconds(7))])
    }

    // MARK: the panel: debounce + classification + mapping

    func edge(_ role: ButtonRole, _ pressed: Bool, _ t: Int, initial: Bool = false) -> ButtonEdge {
        ButtonEdge(role: role, pressed: pressed, time: Self.ms(t), isInitial: initial)
    }

    /// Feeds edges and ticks at every deadline, as the service would.
    func drive(_ panel: inout ButtonPanel, _ edges: [ButtonEdge], until end: Int) -> [ButtonPanel.Command] {
        var out: [ButtonPanel.Command] = []
        func tick(before limit: Duration) {
            while let d = panel.nextDeadline, d <= limit { out += panel.tick(at: d) }
        }
        for e in edges {
            tick(before: e.time - .nanoseconds(1))
            out += panel.handle(e)
        }
        tick(before: Self.ms(end))
        return out
    }

    @Test func aBouncySnoozePressIsOneSnooze() {
        var panel = ButtonPanel()
        let out = drive(
            &panel,
            [
                edge(.snooze, true, 0), edge(.snooze, false, 3), edge(.snooze, true, 5),
                edge(.snooze, false, 250), edge(.snooze, true, 252), edge(.snooze, false, 254),
            ],
            until: 2000)
        #expect(out.map(\.action) == [.snooze])
        #expect(out.first?.kind == .short)
    }

    @Test func eachSleepPressAddsFifteenMinutesAndALongPressCancels() {
        var panel = ButtonPanel()
        var edges: [ButtonEdge] = []
        for i in 0..<3 { edges += [edge(.sleep, true, i * 500), edge(.sleep, false, i * 500 + 100)] }
        edges += [edge(.sleep, true, 3000), edge(.sleep, false, 5000)]
        let out = drive(&panel, edges, until: 6000)
        #expect(out.map(\.action) == [.sleep(addMinutes: 15), .sleep(addMinutes: 15), .sleep(addMinutes: 15), .sleepCancel])
        #expect(out.last?.time == Self.ms(4000))  // at the threshold, while still held
    }

    /// Held-at-start (R15) is the alarm engine's rule alone (`AlarmScheduler.stopPressed(pressedAt:)`); the
    /// panel's part is to say, with every command, when the press began on the edges' clock.
    @Test func aCommandSaysWhenItsPressBegan() {
        var panel = ButtonPanel()
        var out = drive(&panel, [edge(.stop, true, 0)], until: 400)
        #expect(panel.isDown(.stop))
        out += drive(&panel, [edge(.stop, false, 4000)], until: 5000)
        #expect(out.map(\.action) == [.stop] && out.map(\.pressedAt) == [Self.ms(0)])
        out = drive(&panel, [edge(.stop, true, 6000), edge(.stop, false, 6200)], until: 7000)
        #expect(out.map(\.pressedAt) == [Self.ms(6000)] && out.map(\.time) == [Self.ms(6200)])
    }

    @Test func aPressStillBeingDebouncedKeepsTheTimeItBegan() {
        var panel = ButtonPanel()
        var out = panel.handle(edge(.stop, true, 490))
        out += drive(&panel, [edge(.stop, false, 3000)], until: 4000)  // the debounce window ended at 520
        #expect(out.map(\.pressedAt) == [Self.ms(490)])
    }

    @Test func aButtonDownWhenItsLineWasRequestedIsIgnoredUntilReleased() {
        var panel = ButtonPanel()
        var out = panel.handle(edge(.snooze, true, 0, initial: true))
        out += drive(&panel, [edge(.snooze, false, 5000)], until: 6000)  // a stuck button finally let go
        #expect(out.isEmpty)
        out += drive(&panel, [edge(.snooze, true, 7000), edge(.snooze, false, 7100)], until: 8000)
        #expect(out.map(\.action) == [.snooze])
    }

    @Test func nextDeadlineIsTheEarliestPendingDecision() {
        var panel = ButtonPanel()
        let idle = panel.nextDeadline
        #expect(idle == nil)
        _ = panel.handle(edge(.snooze, true, 100))
        #expect(panel.nextDeadline == Self.ms(130))
        _ = panel.tick(at: Self.ms(130))
        #expect(panel.nextDeadline == Self.ms(1100))
        _ = panel.handle(edge(.stop, true, 200))
        #expect(panel.nextDeadline == Self.ms(230))
    }

    @Test func theMappingIsData() {
        let custom = ButtonMapping(short: [.stop: .none, .snooze: .snooze], long: [.stop: .stop])
        var panel = ButtonPanel(settings: .init(debounce: .milliseconds(10), longPress: .milliseconds(2000), mapping: custom))
        let out = drive(
            &panel,
            [
                edge(.stop, true, 0), edge(.stop, false, 500), edge(.stop, true, 1000),
                edge(.stop, false, 4000), edge(.volumeUp, true, 5000), edge(.volumeUp, false, 5100),
            ],
            until: 6000)
        #expect(out.map(\.action) == [.none, .stop, .none])
        #expect(out.map(\.kind) == [.short, .long, .short])
        #expect(ButtonMapping.standard.action(for: .snooze, .long) == .snooze)  // no long entry: the short action
        #expect(ButtonMapping.standard.action(for: .volumeDown, .short) == .volumeDown)
        #expect(ButtonMapping.standard.action(for: .playPause, .short) == .playPause)
    }

    @Test(arguments: [
        "none", "snooze", "stop", "play-pause", "sleep+15", "sleep+1", "sleep+120", "sleep-cancel",
        "volume-up", "volume-down",
    ])
    func actionsRoundTripThroughTheirNames(_ name: String) throws {
        #expect(try ButtonAction(parsing: name).name == name)
        #expect(try ButtonAction(parsing: " \(name.uppercased()) ").name == name)
    }

    @Test(arguments: ["", "sleep", "sleep+0", "sleep+121", "sleep+x", "dismiss"])
    func unknownActionsAreOneSentence(_ name: String) {
        #expect {
            try ButtonAction(parsing: name)
        } throws: { error in
            let message = (error as? ValidationError)?.message ?? ""
            return message.hasPrefix("Button action '\(name)' is unknown;") && message.hasSuffix(".")
        }
    }
}
