import AubadeTesting
import Foundation
import Testing

/// Nobody sleeps through it, end to end: the real `aubade run` on the ALSA `file` card with `--fake-time`. An
/// unanswered alarm climbs its ladder step by step — each level measured on the card — and ends `unanswered`
/// rather than auto-silenced; a wake-up check after a Stop chimes on the card, rings the alarm again when nobody
/// answers, and is answered by the next Stop. The shortest steps the clock allows (30 s, a 1-minute check) keep
/// these to about two minutes each; the rounds and their rests (five minutes apart at least) are proven on the
/// fake clock (`AlarmRunTests`) and, on the real timeline, by the second waker (`WakerEndToEndTests`).
@Suite("Daemon end to end: the ladder and the wake-up check")
struct LadderDaemonTests {
    typealias Clock = DaemonTests.Clock
    /// The watchdog of a wait that spans steps of the ladder or the check's minute: generous, never a bound the
    /// test asserts.
    static let patience: Duration = .seconds(300)

    @Test func anUnansweredAlarmClimbsStepByStepOnTheCardAndEndsUnanswered() async throws {
        let c = try Clock()
        let radio = try await DaemonTests.Radio(in: c.dir)
        try await c.run(["station", "add", "--name", "Test FM", "--url", radio.base + "/fast"])
        // The station (a 440 Hz sine) at volume 50, no fade; its ladder: 30-s steps, no rounds after the climb.
        // Expected on the card: the station → 6 dB louder (volume 65) → the tone (880 Hz beeps) at full volume →
        // the same at the top (with the outputs, which this clock has none of) → unanswered.
        let id = try await c.addAlarm([
            "--source", "Test FM", "--volume", "50", "--fade-in", "0s", "--duration", "1m",
            "--ladder", "step=30s,rounds=0",
        ])
        let d = try await c.daemon(lead: 10)
        _ = try #require(await d.wait(for: "ready"))
        let ringing = try #require(await d.wait(for: "ringing"))
        #expect(ringing["alarm"] as? Int == Int(id))
        let climbs = try #require(await d.wait(for: "climbed", count: 3, timeout: Self.patience), "\(d.output.suffix(10))")
        #expect(climbs.count == 3)
        _ = try #require(await d.wait(for: "escalated"))
        let end = try #require(await d.wait(for: "unanswered", timeout: Self.patience), "\(d.output.suffix(10))")
        // Not after the alarm's 1-minute duration: after the four steps of its climb.
        let rang = try #require(DaemonTests.number(ringing, "t"))
        let ended = try #require(DaemonTests.number(end, "t"))
        #expect(ended - rang >= 120, "ended \(ended - rang) s after it rang")
        #expect(d.position(of: "auto-silenced") == nil)
        #expect(try DaemonTests.position(d, "escalated") < DaemonTests.position(d, "unanswered"))
        let stopped = try #require(await d.wait(for: "stopped"))
        #expect(stopped["reason"] as? String == "unanswered" && stopped["by"] as? String == "auto")
        d.signal(SIGTERM)
        #expect(await d.waitForExit() == 0)

        // The levels on the card, each step's middle (away from the changes).
        let pcm = c.alarmPCM()
        #expect(pcm.count >= 2 * 115 * Signal.rate, "\(pcm.count / 2) frames of the alarm")
        func window(_ from: Double, _ to: Double) -> ArraySlice<Int16> {
            let (a, b) = (2 * Int(from * Double(Signal.rate)), 2 * Int(to * Double(Signal.rate)))
            return pcm[min(a, pcm.count)..<min(b, pcm.count)]
        }
        let (own, louder, tone, top) = (window(5, 25), window(35, 55), window(65, 85), window(95, 115))
        let levels = [own, louder, tone, top].map { Signal.rmsDBFS($0) }
        figure(
            "ladder on the card: own, louder, tone, top (dBFS)", levels.map { String(format: "%.1f", $0) }.joined(separator: ", ")
        )
        #expect(Signal.isTone(440, over: 880, in: own) && Signal.isTone(440, over: 880, in: louder), "the station first")
        #expect(abs((levels[1] - levels[0]) - 6) < 1, "louder by \(levels[1] - levels[0]) dB")
        #expect(Signal.isTone(880, over: 440, in: tone) && Signal.isTone(880, over: 440, in: top), "then the tone")
        // The tone at full volume: the classic tone measures −14.4 dBFS on the card at 100, −18.4 at 90 (the
        // tone's floor for an alarm's own tone, R18) — each volume step 0.4 dB.
        #expect(levels[2] > -16, "the tone at \(levels[2]) dBFS is not at full volume")
        #expect(abs(levels[3] - levels[2]) < 1, "the top step sounds as the tone")
        let kinds = try c.history().map(\.kind)
        #expect(kinds.filter { $0 == "climbed" }.count == 3 && kinds.last == "unanswered", "\(kinds)")
        #expect(!kinds.contains("auto-silenced"))
    }

    @Test func aWakeUpCheckChimesRingsAgainUnansweredAndIsAnsweredByTheNextStop() async throws {
        let c = try Clock()
        let id = try await c.addAlarm(["--source", "tone", "--wake-check", "1m"])
        let d = try await c.daemon(lead: 10)
        _ = try #require(await d.wait(for: "ready"))
        _ = try #require(await d.wait(for: "ringing"))
        #expect(await c.waitForAlarmAudio(seconds: 1))
        #expect(try await c.run(["stop"]).status == 0)
        _ = try #require(await d.wait(for: "dismissed"))
        let stoppedAt = c.cardFrames
        // A minute later: the question, as a soft chime on the card.
        let asked = try #require(await d.wait(for: "wake-check", timeout: Self.patience), "\(d.output.suffix(10))")
        #expect(asked["alarm"] as? Int == Int(id))
        #expect(await c.waitForCard(seconds: Double(stoppedAt) / Double(Signal.rate) + 2))
        let after = Array(c.pcm()[(2 * stoppedAt)...])
        #expect(Signal.rmsDBFS(after[...]) > -60, "the chime reached the card")
        // Nobody answers within 60 s: the alarm rings again.
        let again = try #require(await d.wait(for: "fell-back-asleep", timeout: Self.patience), "\(d.output.suffix(10))")
        #expect(again["alarm"] as? Int == Int(id))
        let rings = try #require(await d.wait(for: "ringing", count: 2))
        #expect(rings.last?["cause"] as? String == "wake-check", "\(rings)")
        // Stopped again; the next question is answered by a Stop (as any button would): woke, nothing rings.
        #expect(try await c.run(["stop"]).status == 0)
        _ = try #require(await d.wait(for: "wake-check", count: 2, timeout: Self.patience))
        let answer = try await c.run(["stop", "--json"])
        #expect(answer.status == 0, "\(answer.stderr)")
        let woke = try #require(await d.wait(for: "woke"))
        #expect(woke["alarm"] as? Int == Int(id))
        let status = try await c.run(["status", "--json"])
        let report = try #require(try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any])
        #expect(report["ringing"] == nil || report["ringing"] is NSNull, "\(report)")
        d.signal(SIGTERM)
        #expect(await d.waitForExit() == 0)
        let kinds = try c.history().map(\.kind)
        let order = ["dismissed", "wake-check", "fell-back-asleep", "dismissed", "wake-check", "woke"]
        #expect(kinds.filter { order.contains($0) } == order, "\(kinds)")
    }
}
