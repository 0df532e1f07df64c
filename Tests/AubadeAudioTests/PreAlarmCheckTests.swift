import AubadeCore
import AubadeTesting
import Foundation
import Testing

@testable import AubadeAudio

/// The pre-alarm check's station probe (R20) against the fault server: it waits for the network (no polling),
/// so a failure ends the wait as soon as it is reported, and the timeout ends it when nothing comes.
@Suite("Pre-alarm check: the station probe (R20)")
struct PreAlarmCheckTests {
    @Test func aStationThatPlaysPasses() async throws {
        let f = try await CurlTransferTests.Fixture()
        let url = try StreamURL(parsing: f.base + "/mp3")
        let problem = await withWatchdog(.seconds(120)) {
            await PreAlarmCheck.decodeOneSecond(url, allowLoopback: true, timeout: .seconds(60))
        }
        #expect(problem == .some(nil))
    }

    /// Connection refused: the fetcher reports it and would try again in a second; the probe's wait for data is
    /// woken by the report, so it answers then and not at its (hour-long) timeout — the watchdog would end a
    /// probe that slept through it.
    @Test func aFailureEndsTheWaitWithoutWaitingForTheTimeout() async throws {
        let url = try StreamURL(parsing: "http://127.0.0.1:9/station")
        let problem = await withWatchdog(.seconds(120)) {
            await PreAlarmCheck.decodeOneSecond(url, allowLoopback: true, timeout: .seconds(3600))
        }
        let answered = try #require(problem, "the probe slept through the failure")
        let reason = try #require(answered, "an unreachable station passed")
        #expect(!reason.contains("gave no audio"), "\(reason)")
    }

    @Test func aStationThatSendsNothingFailsAtTheTimeout() async throws {
        let f = try await CurlTransferTests.Fixture()
        let url = try StreamURL(parsing: f.base + "/stall?after=0")
        let problem = await withWatchdog(.seconds(120)) {
            await PreAlarmCheck.decodeOneSecond(url, allowLoopback: true, timeout: .seconds(2))
        }
        #expect(problem == .some("the station gave no audio within 2 s."))
    }
}
