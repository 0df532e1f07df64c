import AubadeCore
import Testing

/// Debouncing (R15): raw edges with kernel timestamps in, clean presses and releases out.
@Suite("Input: debounce")
struct InputDebounceTests {
    /// Feeds `edges` (pressed, ms) the way the service does: before each edge, and at the end, it ticks at
    /// the debouncer's deadline when that comes first. Returns the accepted changes as (pressed, ms).
    static func run(window ms: Int, _ edges: [(Bool, Int)], until end: Int = 10_000) -> [Change] {
        var d = Debouncer(window: .milliseconds(ms))
        var out: [Change] = []
        func tick(before limit: Duration) {
            while let deadline = d.deadline, deadline <= limit, let c = d.tick(at: deadline) { out.append(Change(c)) }
        }
        for (pressed, t) in edges {
            tick(before: .milliseconds(t) - .nanoseconds(1))
            out += d.edge(pressed: pressed, at: .milliseconds(t)).map(Change.init)
        }
        tick(before: .milliseconds(end))
        return out
    }

    struct Change: Equatable, CustomStringConvertible {
        var pressed: Bool
        var ms: Int
        init(_ pressed: Bool, _ ms: Int) { (self.pressed, self.ms) = (pressed, ms) }
        init(_ c: Debouncer.Change) { self.init(c.pressed, Int(c.time / .milliseconds(1))) }
        var description: String { "\(pressed ? "down" : "up")@\(ms)" }
    }

    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let window: Int
        let edges: [(Bool, Int)]
        let expected: [(Bool, Int)]
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(
            name: "clean press and release", window: 30, edges: [(true, 0), (false, 200)],
            expected: [(true, 0), (false, 200)]),
        Case(
            name: "bouncing contacts give one press and one release, timed at the last bounce", window: 30,
            edges: [(true, 0), (false, 2), (true, 4), (false, 5), (true, 7), (false, 300), (true, 301), (false, 303)],
            expected: [(true, 7), (false, 303)]),
        Case(
            name: "a glitch shorter than the window is ignored", window: 30, edges: [(true, 100), (false, 110)],
            expected: []),
        Case(
            name: "a press of exactly the window counts", window: 30, edges: [(true, 0), (false, 30)],
            expected: [(true, 0), (false, 30)]),
        Case(
            name: "a press one millisecond shorter does not", window: 30, edges: [(true, 0), (false, 29)],
            expected: []),
        Case(
            name: "a repeated level restarts the settle time", window: 30, edges: [(true, 0), (true, 20)],
            expected: [(true, 20)]),
        Case(
            name: "an edge with an older timestamp is clamped, not reordered", window: 30,
            edges: [(true, 100), (false, 90)], expected: []),
        Case(
            name: "a zero window passes every change at once", window: 0, edges: [(true, 0), (false, 1), (true, 2)],
            expected: [(true, 0), (false, 1), (true, 2)]),
        Case(
            name: "noise on a released line never becomes a press", window: 30,
            edges: (0..<50).map { ($0 % 2 == 0, $0 * 10) }, expected: []),
        Case(
            name: "two separate presses", window: 30,
            edges: [(true, 0), (false, 100), (true, 500), (false, 2500)],
            expected: [(true, 0), (false, 100), (true, 500), (false, 2500)]),
    ]

    @Test(arguments: cases)
    func debounce(_ c: Case) {
        #expect(Self.run(window: c.window, c.edges) == c.expected.map { Change($0.0, $0.1) })
    }

    @Test func aChangeIsReportedAtTheNextEdgeWhenNoTickCame() {
        var d = Debouncer(window: .milliseconds(30))
        #expect(d.edge(pressed: true, at: .milliseconds(0)).isEmpty)
        #expect(d.deadline == .milliseconds(30))
        let out = d.edge(pressed: false, at: .milliseconds(500))
        #expect(out == [Debouncer.Change(pressed: true, time: .zero)])
        #expect(d.level == true)
        #expect(d.deadline == .milliseconds(530))
    }

    @Test func resetTakesTheLevelWithoutReportingIt() {
        var d = Debouncer(window: .milliseconds(30))
        _ = d.edge(pressed: true, at: .zero)
        d.reset(level: true, at: .milliseconds(5))
        #expect(d.deadline == nil)
        #expect(d.tick(at: .seconds(1)) == nil)
        #expect(d.level == true)
    }
}
