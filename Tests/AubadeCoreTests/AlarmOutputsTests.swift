import AubadeCore
import Testing

/// An alarm's own timing of its outputs (`--shaker`, `--lamp`): its words, which outputs are on how long into the
/// ring, and when the next comes on.
@Suite("Outputs: an alarm's timing")
struct AlarmOutputsTests {
    static let words: [(String, OutputTiming?)] = [
        ("ladder", nil), ("LADDER", nil), ("now", .now), ("off", .off), ("after:2m", .after(seconds: 120)),
        ("after:0s", .now), ("after:90s", .after(seconds: 90)),
    ]

    @Test(arguments: words)
    func itsWordsReadBack(text: String, timing: OutputTiming?) throws {
        #expect(try OutputTiming.alarmValue(parsing: text) == timing)
        let again = try OutputTiming.alarmValue(parsing: OutputTiming.alarmText(timing))
        #expect(again == timing)
    }

    @Test(arguments: ["sometimes", "after:", "after:2h", "after:-1s", ""])
    func otherWordsAreRefusedInOneSentence(text: String) {
        #expect(throws: ValidationError.self) { try OutputTiming.alarmValue(parsing: text) }
    }

    @Test func whichAreOnFollowsEachTimingAndTheTopTurnsOnAllButOff() {
        var a = Alarm(name: "A", time: try! LocalTime(hour: 7, minute: 0), recurrence: .weekly(.all))
        let both: [OutputName] = [.shaker, .lamp]
        #expect(a.outputsOn(both, after: .seconds(600), atTop: false).isEmpty, "by default only at the top")
        #expect(a.outputsOn(both, after: .zero, atTop: true) == [.shaker, .lamp])
        (a.shaker, a.lamp) = (.now, .after(seconds: 120))
        #expect(a.outputsOn(both, after: .zero, atTop: false) == [.shaker])
        #expect(a.outputsOn(both, after: .seconds(119), atTop: false) == [.shaker])
        #expect(a.outputsOn(both, after: .seconds(120), atTop: false) == [.shaker, .lamp])
        #expect(a.outputsOn([.lamp], after: .seconds(0), atTop: false).isEmpty, "only the outputs the clock has")
        #expect(a.nextOutputTime(both, after: .zero) == .seconds(120))
        #expect(a.nextOutputTime(both, after: .seconds(120)) == nil)
        a.shaker = .off
        #expect(a.outputsOn(both, after: .seconds(600), atTop: true) == [.lamp], "off is off at the top too")
    }
}
