import AubadeCore
import AubadeTesting
import Foundation
import Testing

/// An alarm's sunrise through the real daemon: `aubade run --fake-time` on a temp database, the ALSA `file` plugin
/// as its card, and a fake sysfs backlight tree (`--backlight-root`) whose brightness file is read while a
/// two-minute sunrise runs in (fake) real time. The night (dimming 22:00–09:00 at 10 %) holds the screen dim
/// until the sunrise begins; every level written is a step of the perceptual curve, none falls, the last is full
/// when the alarm rings; Stop returns the face to the night; a graceful end puts the backlight back.
@Suite("Daemon end to end: the sunrise on a fake backlight", .serialized)
struct SunriseDaemonTests {
    static let maxBrightness = 255

    /// A fake /sys/class/backlight/panel under `dir`, at full brightness; returns the root and the brightness file.
    static func panel(in dir: TemporaryDirectory) throws -> (root: String, brightness: String) {
        let root = dir.file("sysfs")
        let panel = root + "/sys/class/backlight/panel"
        try FileManager.default.createDirectory(atPath: panel, withIntermediateDirectories: true)
        try "\(maxBrightness)\n".write(toFile: panel + "/max_brightness", atomically: true, encoding: .utf8)
        try "\(maxBrightness)\n".write(toFile: panel + "/brightness", atomically: true, encoding: .utf8)
        try "raw\n".write(toFile: panel + "/type", atomically: true, encoding: .utf8)
        return (root, panel + "/brightness")
    }

    static func read(_ file: String) -> Int? {
        (try? String(contentsOfFile: file, encoding: .utf8)).flatMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    }

    @Test func aTwoMinuteSunriseRaisesTheBacklightStepByStepToFullAtTheAlarm() async throws {
        let c = try DaemonTests.Clock()
        for (key, value) in [("dimFrom", "22:00"), ("dimUntil", "09:00"), ("dimLevel", "10")] {
            let r = try await c.run(["settings", "set", key, value])
            #expect(r.status == 0, "\(r.stderr)")
        }
        let id = try await c.addAlarm(["--source", "tone", "--sunrise", "2m", "--duration", "5m"])
        let listed = try await c.run(["alarm", "list", "--json"])
        #expect(listed.stdout.contains("\"sunriseSeconds\" : 120") || listed.stdout.contains("\"sunriseSeconds\":120"))
        let panel = try Self.panel(in: c.dir)
        let night = BacklightReading.raw(percent: 10, maxBrightness: Self.maxBrightness)
        // Every level the sunrise may write: its 120 steps (progress in thousandths) of the perceptual curve from
        // the night's 10 %.
        let steps = (1...120).map {
            BacklightReading.raw(
                percent: SunriseCurve.percent(at: Double($0 * 1000 / 120) / 1000, from: 10),
                maxBrightness: Self.maxBrightness)
        }
        let d = try await c.daemon(lead: 150, extra: ["--backlight-root", panel.root])
        let watchdog: Duration = .seconds(400)
        #expect(await d.wait(for: "ready") != nil)
        _ = try #require(await d.wait(for: "display", where: { $0["reason"] as? String == "night" }))

        // Read the brightness file until the alarm rings: every new value in order, and every reading.
        var seen: [Int] = []
        var readings: [Int] = []
        let deadline = ContinuousClock.now + watchdog
        while d.position(of: "ringing") == nil, ContinuousClock.now < deadline, d.exitStatus == nil {
            if let value = Self.read(panel.brightness) {
                if value != seen.last { seen.append(value) }
                if d.position(of: "sunrise") != nil { readings.append(value) }
            }
            if d.position(of: "sunrise") != nil, seen.count == 1 || seen.count % 20 == 0 {
                let status = try await c.run(["status", "--json"])
                if seen.count > 1 { #expect(status.stdout.contains("sunrise"), "\(status.stdout)") }
            }
            try await Task.sleep(for: .milliseconds(200))
        }
        let began = try #require(await d.wait(for: "sunrise", timeout: .seconds(1), where: { $0["state"] as? String == "began" }))
        #expect(began["alarm"] as? Int == Int(id) && began["lead_s"] as? Int == 120)
        let ringing = try #require(await d.wait(for: "ringing", timeout: .seconds(1)))
        #expect(ringing["alarm"] as? Int == Int(id))
        #expect(try DaemonTests.position(d, "sunrise") < DaemonTests.position(d, "ringing"))
        // The alarm lights the screen fully in its turn (if the last step had not already).
        for _ in 0..<50 where Self.read(panel.brightness) != Self.maxBrightness {
            try await Task.sleep(for: .milliseconds(100))
        }
        if let last = Self.read(panel.brightness), last != seen.last { seen.append(last) }

        #expect(seen.first == night, "dim before the sunrise: \(seen)")
        #expect(seen.last == Self.maxBrightness, "full at the alarm: \(seen)")
        #expect(zip(seen, seen.dropFirst()).allSatisfy { $0 < $1 }, "never falling: \(seen)")
        let risen = seen.dropFirst().dropLast()
        #expect(risen.allSatisfy { steps.contains($0) }, "every level is a step of the curve: \(seen)")
        #expect(risen.count >= 20, "the sunrise rose in many steps, not a jump: \(seen)")
        // Perceptual, not linear: read every 200 ms through the sunrise, the backlight spends most of it in the
        // lower half (a linear ramp from 10 % would sit there 44 % of the time; this curve 61 %).
        let low = readings.filter { $0 < Self.maxBrightness / 2 }.count
        #expect(low * 100 >= readings.count * 52, "\(low) of \(readings.count) readings below half: \(seen)")

        // From the sunrise straight to the ringing face: never the night in between.
        let lit = try DaemonTests.position(d, "display", where: { $0["reason"] as? String == "ringing" })
        let sunriseFace = try DaemonTests.position(d, "display", where: { $0["reason"] as? String == "sunrise" })
        let between = d.events.filter { $0["event"] as? String == "display" }.map { $0["reason"] as? String ?? "" }
        #expect(sunriseFace < lit && between.drop { $0 != "sunrise" }.prefix(2) == ["sunrise", "ringing"], "\(between)")

        // Stop: the face wakes for a while, then returns to the night as the time says; the sunrise has ended.
        #expect(try await c.run(["stop"]).status == 0)
        #expect(await d.wait(for: "sunrise", timeout: .seconds(5), where: { $0["state"] as? String == "ended" }) != nil)
        _ = try #require(await d.wait(for: "stopped"))
        let back = await d.wait(after: try DaemonTests.position(d, "stopped"), timeout: .seconds(120)) {
            $0["event"] as? String == "display" && $0["reason"] as? String == "night"
        }
        #expect(back != nil, "the night face again after the stop: \(d.output.suffix(12))")
        for _ in 0..<50 where Self.read(panel.brightness) != night { try await Task.sleep(for: .milliseconds(100)) }
        #expect(Self.read(panel.brightness) == night, "\(d.output.suffix(12))")

        // A graceful end puts the backlight back as it was found.
        d.signal(SIGTERM)
        #expect(await d.waitForExit() == 0)
        #expect(Self.read(panel.brightness) == Self.maxBrightness)
    }
}
