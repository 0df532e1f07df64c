import AubadeApp
import AubadeAppTesting
import AubadeCore
import AubadeTesting
import Foundation
import Testing

/// Night dimming carried out by the running clock: the page's `dimmed` in the live state and the backlight
/// written through its port — and a ringing alarm (or a ring test) that lights the screen in the very turn
/// that starts its sound, whatever the schedule.
@Suite("Daemon decisions: the kiosk's night dimming")
struct KioskDisplayTests {
    /// Dimming 22:00–07:00 at 5 %.
    static func nightSettings(from: String = "22:00", until: String = "07:00", level: Int = 5) -> AppSettings {
        var s = AppSettings()
        try! s.apply([
            SettingChange(key: "dimFrom", value: .text(from)), SettingChange(key: "dimUntil", value: .text(until)),
            SettingChange(key: "dimLevel", value: .number(level)),
        ])
        return s
    }

    @Test func aRingingAlarmLightsTheScreenInTheTurnThatStartsItAndStopLetsItDimAgain() async throws {
        let backlight = FakeBacklight()
        let rig = ClockRig(alarms: [ClockRig.alarm(1, 6, 55)], settings: Self.nightSettings(), backlight: backlight)
        await rig.start()
        _ = await rig.clock.tick()
        #expect(await rig.live().dimmed)
        #expect(await rig.percents(backlight) == [5], "06:50 is inside 22:00–07:00")

        await rig.run(until: ClockRig.at(6, 54, 59))
        await rig.jobs.runAll()
        #expect(await rig.percents(backlight) == [5])
        await rig.advance(to: ClockRig.at(6, 55))
        let begun = try #require(rig.sound.played.last)
        #expect(rig.sound.calls.contains(.begin(begun.id)) || !begun.paused)
        #expect(await rig.percents(backlight) == [5, 100], "lit in the same turn the alarm began")
        let ringing = await rig.live()
        #expect(!ringing.dimmed && ringing.ringing?.alarms.map(\.id) == [1] && ringing.ringing?.test == false)

        _ = try await rig.clock.handle(.stop(alarm: nil, by: .button))
        #expect(await rig.percents(backlight) == [5, 100, 50], "awake for a while after Stop, at the awake level")
        #expect(await !rig.live().dimmed)
        await rig.advance(to: ClockRig.at(6, 55, 31))
        #expect(await rig.percents(backlight) == [5, 100, 50, 5])
        #expect(await rig.live().dimmed)
    }

    @Test func theLoopWakesAtTheEndOfTheNightAndTheScreenBrightensThen() async throws {
        let backlight = FakeBacklight()
        let rig = ClockRig(settings: Self.nightSettings(), start: ClockRig.at(6, 59, 30), backlight: backlight)
        await rig.start()
        let turn = await rig.clock.tick()
        #expect((turn.wakeAt - turn.now.mono) == .seconds(30), "the loop comes back at 07:00:00, not a minute later")
        #expect(await rig.percents(backlight) == [5])
        await rig.advance(to: ClockRig.at(7, 0))
        #expect(await rig.percents(backlight) == [5, 100])
        #expect(rig.events.filter { $0 == "display" }.count == 2)
    }

    @Test func aTouchWakesTheDimmedScreenAndARingTestLightsItAndStopEndsTheTest() async throws {
        let backlight = FakeBacklight()
        let rig = ClockRig(settings: Self.nightSettings(), backlight: backlight)
        await rig.start()
        // (Levels handed in faster than the backlight's thread writes are coalesced: only the newest is written.)
        #expect(await rig.percents(backlight) == [5])
        guard case .display(let dimmed) = try await rig.clock.handle(.displayWake) else { throw RigError("no display reply") }
        #expect(!dimmed)
        #expect(await rig.percents(backlight) == [5, 50])
        await rig.advance(to: ClockRig.morning.addingTimeInterval(31))
        #expect(await rig.percents(backlight).last == 5)

        let reply = try await rig.clock.handle(.ring(RingTest(alarm: nil, source: "tone", seconds: 60, volume: nil)))
        guard case .sound(let id, _, _) = reply else { throw RigError("no sound") }
        #expect(await rig.percents(backlight).last == 100)
        var live = await rig.live()
        #expect(live.ringing?.test == true && live.ringing?.alarms.isEmpty == true && !live.dimmed)
        #expect(live.ringing?.audible == false)
        await rig.engineSays(.audible(id, source: "tone", after: .milliseconds(20)))
        #expect(await rig.live().ringing?.audible == true)

        #expect(try await rig.clock.handle(.stop(alarm: nil, by: .api)).message == "The ring test is stopped.")
        #expect(rig.sound.calls.last == .stop(id))
        live = await rig.live()
        #expect(live.ringing == nil)
        await #expect(throws: ClockError(.refused, "No alarm is ringing.")) {
            try await rig.clock.handle(.stop(alarm: nil, by: .api))
        }
        await rig.engineSays(.stopped(id, .requested))
        #expect(await rig.live().ringing == nil)
    }

    @Test func turningDimmingOffBrightensAtOnceAndAClockWithItOffNeverTouchesTheBacklight() async throws {
        let backlight = FakeBacklight()
        let rig = ClockRig(settings: Self.nightSettings(), backlight: backlight)
        await rig.start()
        #expect(await rig.percents(backlight) == [5])
        try await rig.edit(.setSettings([SettingChange(key: "dimFrom", value: .text("off"))]))
        #expect(await rig.percents(backlight) == [5, 100])
        var updates = await rig.clock.liveUpdates().makeAsyncIterator()
        #expect(await updates.next()?.dimmed == false)

        let untouched = FakeBacklight(brightness: 40)
        let plain = ClockRig(alarms: [ClockRig.alarm(1, 6, 55)], backlight: untouched)
        await plain.start()
        await plain.run(until: ClockRig.at(6, 56))
        #expect(await plain.percents(untouched).isEmpty, "dimming off: the backlight is the user's")
        #expect(untouched.current.brightness == 40)
    }

    @Test func aFailingBacklightIsAWarningAndTheAlarmStillRings() async throws {
        let backlight = FakeBacklight()
        backlight.fail(with: "Permission denied")
        let rig = ClockRig(alarms: [ClockRig.alarm(1, 6, 55)], settings: Self.nightSettings(), backlight: backlight)
        await rig.start()
        #expect(await rig.percents(backlight).isEmpty)
        #expect(try await rig.status().warnings.contains("The screen's backlight cannot be dimmed or lit: Permission denied"))
        #expect(await rig.live().dimmed, "the page dims itself all the same")
        await rig.run(until: ClockRig.at(6, 55))
        #expect(try await rig.status().ringing?.id == 1)
        #expect(await !rig.live().dimmed)
        backlight.fail(with: nil)
        _ = try await rig.clock.handle(.stop(alarm: nil, by: .button))
        #expect(await rig.percents(backlight) == [50])
        #expect(try await rig.status().warnings.allSatisfy { !$0.contains("backlight") })
    }
}

/// An alarm's sunrise carried out by the running clock: the live state's face and colours, the status's face line,
/// the backlight rising through its thread, and the ringing face at the alarm.
@Suite("Daemon decisions: the kiosk's sunrise")
struct KioskSunriseTests {
    @Test func aSunriseShowsInTheLiveStateAndTheStatusAndRaisesTheBacklightUntilTheAlarmRings() async throws {
        let backlight = FakeBacklight()
        var alarm = ClockRig.alarm(1, 6, 55)
        alarm.sunriseSeconds = 600
        let rig = ClockRig(alarms: [alarm], settings: KioskDisplayTests.nightSettings(), backlight: backlight)
        await rig.start()
        _ = await rig.clock.tick()
        let early = await rig.live()
        #expect(early.face == "sunrise" && !early.dimmed, "06:50 is half-way through a sunrise from 06:45")
        let light = try #require(early.sunrise)
        #expect(light.alarmId == 1 && light.at == ClockRig.at(6, 55) && light.startedAt == ClockRig.at(6, 45))
        #expect((495...505).contains(light.permille) && light.sky == SunriseCurve.sky(at: light.progress))
        let status = try await rig.status()
        #expect(status.face?.state == "sunrise" && status.face?.sunriseAlarm == 1)
        #expect(status.lines.contains { $0.hasPrefix("Face: sunrise for alarm 1 at 06:55") }, "\(status.lines)")
        var levels = [try #require(await rig.percents(backlight).last)]
        for seconds in stride(from: 30, through: 299, by: 30) {
            await rig.advance(to: ClockRig.at(6, 50).addingTimeInterval(TimeInterval(seconds)))
            levels.append(try #require(await rig.percents(backlight).last))
        }
        await rig.advance(to: ClockRig.at(6, 54, 59))
        levels.append(try #require(await rig.percents(backlight).last))
        #expect(levels.first! > 5 && levels == levels.sorted() && Set(levels).count > 5 && levels.last == 100, "\(levels)")
        await rig.advance(to: ClockRig.at(6, 55))
        let ringing = await rig.live()
        #expect(ringing.face == "ringing" && ringing.sunrise == nil && ringing.ringing?.alarms.map(\.id) == [1])
        #expect(rig.events.contains("sunrise"))
    }
}

extension LiveState.Sunrise {
    var progress: Double { Double(permille) / 1000 }
}
