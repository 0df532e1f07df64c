import AubadeAppTesting
import AubadeCore
import Foundation
import Testing

@testable import AubadeApp

/// The running clock's parts are values: each is built and decided here on its own, with a `ClockContext` and a
/// world reading chosen by the test — no clock, no store, no engine. What a part decides is read from the effects it
/// appends.
@Suite("The clock's parts, each on its own")
struct ClockPartsTests {
    static let utc = TimeZone(identifier: "UTC") ?? .gmt
    static let start = ClockRig.at(22, 0)

    static func context(stations: [Station] = [ClockRig.station(1)], network: NetworkSnapshot = ClockRig.wifi) -> ClockContext {
        ClockContext(
            options: ClockOptions(allowLoopback: true, defaultZone: utc, followsSystemZone: false),
            caps: ClockCapabilities(calendars: false, podcasts: false, directory: false, logos: false, waker: false),
            world: WorldReading(
                now: SchedulerTime(wall: start, mono: MonotonicInstant(seconds: 1000)), network: network,
                device: DeviceStatus(isOpen: true, name: "fake", problem: nil, opens: 1), synchronised: true,
                systemZone: utc, entropy: 7),
            catalogue: Catalogue(StoredClock(stations: stations)))
    }

    @Test func theRadioRefusesToStartOverARingingAlarmAndGivesWayToOne() throws {
        var c = Self.context()
        var radio = RadioPlayer()
        let now = c.now
        #expect(throws: ValidationError.self) {
            try radio.startSleep(duration: nil, source: nil, alarmSounding: true, now, &c)
        }
        #expect(c.effects.isEmpty, "a refusal starts nothing")

        let started = try radio.startSleep(duration: .seconds(600), source: nil, alarmSounding: false, now, &c)
        let effects = c.effects.take()
        #expect(effects.contains { if case .sound(.play(started.sound, _, paused: false)) = $0 { true } else { false } })
        #expect(radio.isSleepTimer)

        radio.giveWay(toAlarm: 3, now, &c)
        let gaveWay = c.effects.take()
        #expect(gaveWay.contains { if case .sound(.stop(started.sound)) = $0 { true } else { false } })
        #expect(gaveWay.contains { if case .record(let e, _) = $0 { e.detail == "stopped by alarm 3" } else { false } })
        #expect(radio.session == nil)
    }

    @Test func wifiOnlyRefusesAStationOnAWiredRouteBeforeAnythingPlays() throws {
        var c = Self.context(network: ClockRig.wired)
        c.catalogue.settings.isWifi = true
        var radio = RadioPlayer()
        let now = c.now
        #expect(throws: ValidationError.self) {
            try radio.listen(source: "FIP", limit: nil, volume: nil, alarmSounding: false, now, &c)
        }
        #expect(!c.effects.take().contains { if case .sound = $0 { true } else { false } })
    }

    @Test func theAlarmRunnerRingsADueAlarmWithItsCommitFirstAndItsSoundAfter() {
        var c = Self.context()
        let scheduler = AlarmScheduler(
            alarms: [ClockRig.alarm(1, 22, 1)], states: [], settings: c.catalogue.settings, defaultZone: Self.utc)
        var runner = AlarmRunner(scheduler: scheduler)
        runner.start(c.now, &c)
        _ = c.effects.take()
        let due = SchedulerTime(wall: Self.start.addingTimeInterval(60), mono: MonotonicInstant(seconds: 1060))
        c.world.now = due
        runner.advance(due, &c)
        let effects = c.effects.take()
        let save = effects.firstIndex { if case .save(let s) = $0 { s.phase == .ringing } else { false } }
        let sound = effects.firstIndex { if case .sound(.play) = $0 { true } else { false } }
        #expect(save != nil && sound != nil && save! < sound!, "the run state is committed before the sound (R9): \(effects)")
        #expect(effects.contains { if case .ringingChanged(true) = $0 { true } else { false } })
        #expect(runner.isRinging)

        #expect(runner.stop(by: .cli, due, &c))
        #expect(!runner.isRinging)
        #expect(c.effects.take().contains { if case .ringingChanged(false) = $0 { true } else { false } })
    }

    @Test func anUnansweredAlarmsLadderPlaysItLouderThenTheToneAtFullVolume() {
        var c = Self.context()
        let scheduler = AlarmScheduler(
            alarms: [ClockRig.alarm(1, 22, 1, sound: .station(id: 1))], states: [], settings: c.catalogue.settings,
            defaultZone: Self.utc, ladder: LadderPlan(stepSeconds: 60))
        var runner = AlarmRunner(scheduler: scheduler)
        runner.start(c.now, &c)
        func at(_ seconds: Int) -> SchedulerTime {
            SchedulerTime(
                wall: Self.start.addingTimeInterval(TimeInterval(seconds)),
                mono: MonotonicInstant(seconds: 1000 + Double(seconds)))
        }
        for t in [60, 120, 180] {
            c.world.now = at(t)
            runner.advance(at(t), &c)
        }
        let effects = c.effects.take()
        let own = effects.compactMap {
            if case .sound(.play(let id, let r, _)) = $0, case .stations = r.content { id } else { nil }
        }
        #expect(own.count == 1, "the alarm's own station first: \(effects)")
        #expect(
            effects.contains { if case .sound(.volume(own[0], 75)) = $0 { true } else { false } },
            "then the same sound 6 dB louder (60 → 75 on the volume scale)")
        let tone = effects.compactMap {
            if case .sound(.play(let id, let r, _)) = $0, case .tone = r.content, r.volume == 100 { id } else { nil }
        }
        #expect(tone.count == 1, "then the tone at full volume")
        #expect(runner.ringing?.sound == tone.first && runner.ringing?.step == .tone)

        // A person touches the kiosk: its own station again, at its own volume.
        c.world.now = at(200)
        runner.personActed(at(200), &c)
        let back = c.effects.take()
        #expect(
            back.contains {
                if case .sound(.play(_, let r, _)) = $0, case .stations = r.content, r.volume == 60 { true } else { false }
            })
        #expect(runner.ringing?.step == .own)
    }

    @Test func aPairingCodeIsDrawnFromTheInputsEntropyAndExpires() {
        var desk = PairingDesk()
        let code = desk.newCode(now: Self.start, entropy: 1_234_567_890)
        #expect(code.code == "567890")
        #expect(desk.matches("567890", at: Self.start.addingTimeInterval(119)))
        #expect(!desk.matches("567890", at: Self.start.addingTimeInterval(120)))
        desk.consume()
        #expect(desk.valid(at: Self.start) == nil)
    }
}
