import AubadeCore
import Foundation
import Testing

/// The morning report of an occurrence the second waker rang (R35): one line that says the daemon did not answer,
/// how the waker's ring ended, and nothing the daemon did after it claimed as its own.
@Suite("Morning report: the second waker (R35)")
struct MorningReportSecondWakerTests {
    typealias R = MorningReportTests

    static func waker(_ end: String) throws -> String {
        "\(try R.dueDetail()), round 0, rang 2026-06-01T05:01:00Z to 2026-06-01T05:03:00Z on default, \(end), waker_ring=1/1"
    }

    static let cases: [(end: String, line: String)] = [
        ("end=stop by=button", "Work 07:00 — the daemon did not answer; the second waker rang, stopped by button"),
        ("end=stop by=cli", "Work 07:00 — the daemon did not answer; the second waker rang, stopped from the command line"),
        (
            "end=duration by=-",
            "Work 07:00 — the daemon did not answer; the second waker rang, auto-silenced (on the second waker, after its duration)"
        ),
        ("end=snooze by=button", "Work 07:00 — the daemon did not answer; the second waker rang, snoozed 1×, still snoozed"),
    ]

    @Test(arguments: cases)
    func aRingOfTheWakerIsOneLine(end: String, line: String) throws {
        let events = [try R.event(65, .secondWaker, try Self.waker(end))]
        #expect(try R.report(events).lines == [line])
    }

    @Test func theDaemonsLateCatchUpAfterTheWakerIsNotClaimedAsItsOwnStart() throws {
        let d = try R.dueDetail()
        let events = [
            try R.event(600, .rangLate, d + ", 10 min late"),
            try R.event(600.5, .secondWaker, try Self.waker("end=stop by=cli")),
            try R.event(600.6, .dismissed, d + ", " + HistoryDetail.dismissed(by: .cli)),
        ]
        #expect(
            try R.report(events).lines == [
                "Work 07:00 — the daemon did not answer; the second waker rang, stopped from the command line"
            ])
    }
}
