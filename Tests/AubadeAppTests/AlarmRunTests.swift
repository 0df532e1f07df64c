import AubadeApp
import AubadeAppTesting
import AubadeCore
import AubadeStore
import AubadeTesting
import Foundation
import Testing

/// An alarm's run through the real `RunningClock`: pre-check, pre-roll, the alarm second, what the engine
/// reports, and how it ends — with a fake engine and a manual clock (no real time passes).
@Suite("Daemon decisions: an alarm's run")
struct AlarmRunTests {
    @Test func aToneAlarmIsPreparedThenBegunAtItsSecondAndCommittedBeforeItSounds() async throws {
        let rig = ClockRig(alarms: [ClockRig.alarm(1, 7, 0)])
        await rig.start()
        await rig.run(until: ClockRig.at(6, 56))
        #expect(rig.jobs.count == 1, "the pre-check is started 5 minutes before")
        await rig.jobs.runAll()
        #expect(rig.history == ["precheck-passed"])
        #expect(rig.sound.played.isEmpty, "nothing is prepared before the pre-roll")

        await rig.run(until: ClockRig.at(6, 59, 50))
        let prepared = try #require(rig.sound.played.first)
        #expect(prepared.paused && prepared.request.priority == .alarm && prepared.request.content == .tone(.classic))
        #expect(!rig.sound.calls.contains(.begin(prepared.id)))

        await rig.run(until: ClockRig.at(7, 0))
        #expect(rig.sound.calls.last == .begin(prepared.id), "the pre-rolled sound begins; no second one is made")
        #expect(rig.sound.played.count == 1)
        // R9: the ringing state and the history are committed before the sound begins.
        let save = try #require(rig.journal.first("store.save 1 ringing"))
        let rang = try #require(rig.journal.first("store.record rang"))
        let begin = try #require(rig.journal.first("sound.begin \(prepared.id.value)"))
        #expect(save < rang && rang < begin)
        #expect(rig.ringingChanges.all == ["true"])

        var status = try await rig.status()
        #expect(status.ringing?.id == 1 && status.ringing?.audibleAfterSeconds == nil && status.ringing?.notAudible == nil)
        await rig.engineSays(.audible(prepared.id, source: "tone", after: .milliseconds(40)))
        status = try await rig.status()
        #expect(status.ringing?.audibleAfterSeconds == 0.04)
        #expect(rig.history.last == "audible")

        let reply = try await rig.clock.handle(.stop(alarm: nil, by: .cli))
        #expect(reply.message == "Stopped.")
        #expect(rig.sound.calls.last == .stop(prepared.id))
        #expect(rig.store.data.states.first { $0.alarmID == 1 }?.phase == .idle)
        #expect(rig.store.history.last { $0.kind == "dismissed" }?.detail == "by=cli")
        #expect(rig.ringingChanges.all == ["true", "false"])
        #expect(try await rig.status().ringing == nil)
    }

    @Test func aFailedPreCheckStartsTheAlarmOnTheTone() async throws {
        let rig = ClockRig(alarms: [ClockRig.alarm(1, 7, 0, sound: .station(id: 5))], stations: [ClockRig.station(5)])
        rig.precheck.set(PreAlarmCheck.Result(stationProblem: "Pre-alarm check: The station refused the connection."))
        await rig.start()
        await rig.run(until: ClockRig.at(6, 56))
        await rig.jobs.runAll()
        #expect(rig.precheck.asked == [[try StreamURL(parsing: "http://radio.example/fip")]])
        #expect(rig.history == ["precheck-failed"])
        #expect(try await rig.status().warnings.contains { $0.contains("will start on the tone") })
        await rig.run(until: ClockRig.at(6, 59, 50))
        let prepared = try #require(rig.lastPlayed)
        #expect(prepared.request.fallback?.preselected == "Pre-alarm check: The station refused the connection.")
        #expect(prepared.request.content == .stations([try StreamURL(parsing: "http://radio.example/fip")]))
    }

    @Test func aPreCheckThatFailsAfterThePreRollReplacesThePreparedSound() async throws {
        let rig = ClockRig(alarms: [ClockRig.alarm(1, 7, 0, sound: .station(id: 5))], stations: [ClockRig.station(5)])
        await rig.start()
        await rig.run(until: ClockRig.at(6, 59, 50))
        let first = try #require(rig.lastPlayed)
        #expect(first.request.fallback?.preselected == nil)
        rig.precheck.set(PreAlarmCheck.Result(stationProblem: "Pre-alarm check: no audio."))
        await rig.jobs.runAll()
        #expect(rig.sound.calls.contains(.stop(first.id)))
        let second = try #require(rig.lastPlayed)
        #expect(second.id != first.id && second.paused && second.request.fallback?.preselected == "Pre-alarm check: no audio.")
        await rig.run(until: ClockRig.at(7, 0))
        #expect(rig.sound.calls.last == .begin(second.id))
    }

    @Test func wifiOnlyOffWiFiPreselectsTheToneAndSaysWhy() async throws {
        var settings = AppSettings()
        settings.isWifi = true
        let rig = ClockRig(
            alarms: [ClockRig.alarm(1, 7, 0, sound: .station(id: 5))], stations: [ClockRig.station(5)],
            settings: settings, network: ClockRig.wired)
        await rig.start()
        await rig.run(until: ClockRig.at(6, 59, 50))
        let reason = try #require(rig.lastPlayed?.request.fallback?.preselected)
        #expect(reason.contains("eth0"))
        await rig.jobs.runAll()
        #expect(rig.precheck.asked.isEmpty, "a known refusal needs no network check")
        #expect(rig.history.first == "precheck-failed")
    }

    @Test func fallbacksAndRecoveriesGoToTheHistoryAndTheStatus() async throws {
        let rig = ClockRig(alarms: [ClockRig.alarm(1, 7, 0, sound: .station(id: 5))], stations: [ClockRig.station(5)])
        await rig.start()
        await rig.run(until: ClockRig.at(7, 0))
        let id = try #require(rig.lastPlayed?.id)
        await rig.engineSays(.fallback(id, from: "station", to: "tone", reason: "No audio from the station within 10 s."))
        await rig.engineSays(.audible(id, source: "tone", after: .seconds(10)))
        await rig.engineSays(.recovered(id, to: "station"))
        let status = try await rig.status()
        #expect(status.ringing?.fallbacks == ["No audio from the station within 10 s."])
        #expect(rig.history.suffix(3) == ["fallback", "audible", "recovered"])
        #expect(
            rig.store.history.last { $0.kind == "fallback" }?.detail == "to=tone reason=No audio from the station within 10 s.")
    }

    @Test func aSoundDeviceThatFailsWhileRingingReadsNotAudibleUntilItIsHeardAgain() async throws {
        let rig = ClockRig(alarms: [ClockRig.alarm(1, 7, 0)])
        await rig.start()
        await rig.run(until: ClockRig.at(7, 0))
        let id = try #require(rig.lastPlayed?.id)
        await rig.engineSays(.audible(id, source: "tone", after: .zero))
        await rig.engineSays(.deviceFailed("snd_pcm_writei on hw:1 failed: No such device."))
        var status = try await rig.status()
        #expect(status.ringing?.notAudible == "snd_pcm_writei on hw:1 failed: No such device.")
        #expect(status.lines.contains { $0.contains("NOT AUDIBLE") })
        #expect(rig.events.contains("not-audible"))
        #expect(rig.store.history.contains { $0.kind == "warning" && $0.detail.hasPrefix("Not audible: snd_pcm_writei") })
        await rig.engineSays(.deviceOpened(name: "fake"))
        #expect(rig.store.history.last?.detail.contains("opened again") == true)
        await rig.engineSays(.audible(id, source: "tone", after: .seconds(6)))
        status = try await rig.status()
        #expect(status.ringing?.notAudible == nil)
    }

    @Test func anAlarmDueWhileTheDeviceIsMissingSaysSoAtOnce() async throws {
        let rig = ClockRig(
            alarms: [ClockRig.alarm(1, 7, 0)],
            device: DeviceStatus(isOpen: false, name: nil, problem: "No sound card.", opens: 0))
        await rig.start()
        await rig.run(until: ClockRig.at(7, 0))
        let status = try await rig.status()
        #expect(status.ringing?.notAudible == "No sound card.")
        #expect(!status.sound.open)
        #expect(rig.events.contains("not-audible"))
    }

    @Test func readyComesOnlyOnceTheDeviceOpened() async throws {
        let rig = ClockRig(device: DeviceStatus(isOpen: false, name: nil, problem: "busy", opens: 0))
        await rig.start()
        #expect(rig.ready.all.isEmpty)
        await rig.engineSays(.deviceFailed("busy"))
        #expect(rig.ready.all.isEmpty)
        await rig.engineSays(.deviceOpened(name: "hw:0"))
        await rig.engineSays(.deviceOpened(name: "hw:0"))
        #expect(rig.ready.all == ["0 alarm(s) enabled"])
        #expect(await rig.clock.isReady)
    }

    @Test func aSnoozeSilencesTheAlarmAndItComesBackAtItsEnd() async throws {
        let rig = ClockRig(alarms: [ClockRig.alarm(1, 7, 0)])
        await rig.start()
        await rig.run(until: ClockRig.at(7, 0))
        let first = try #require(rig.lastPlayed?.id)
        _ = try await rig.clock.handle(.snooze(alarm: nil, by: .button))
        #expect(rig.sound.calls.last == .stop(first))
        #expect(rig.store.data.states.first?.phase == .snoozed)
        await rig.run(until: ClockRig.at(7, 8, 59))
        #expect(rig.sound.played.count == 1)
        await rig.run(until: ClockRig.at(7, 9))
        let again = try #require(rig.lastPlayed)
        #expect(again.id != first && !again.paused && again.request.priority == .alarm)
        #expect(rig.history.contains("snooze-ended"))
    }

    @Test func anAlarmWhoseLadderIsOffAutoSilencesAfterItsDuration() async throws {
        let rig = ClockRig(alarms: [ClockRig.alarm(1, 7, 0, duration: 120, ladder: .own(.off))])
        await rig.start()
        await rig.run(until: ClockRig.at(7, 1, 59))
        let id = try #require(rig.lastPlayed?.id)
        #expect(!rig.sound.calls.contains(.stop(id)))
        await rig.run(until: ClockRig.at(7, 2))
        #expect(rig.sound.calls.last == .stop(id))
        #expect(rig.history.contains("auto-silenced"))
    }

    @Test func anUnansweredAlarmClimbsTheClocksLadderAndEndsUnansweredInsteadOfFallingSilent() async throws {
        // The clock's ladder (on unless turned off): 3 minutes a step, 6 dB louder, the tone, the outputs; then it
        // rests 5 minutes and rings again at the top, 3 more rounds.
        let outputs = FakeOutputs(available: [.shaker, .lamp])
        let rig = ClockRig(
            alarms: [ClockRig.alarm(1, 7, 0, sound: .station(id: 1), duration: 120)], stations: [ClockRig.station(1)],
            outputs: outputs)
        await rig.start()
        await rig.run(until: ClockRig.at(7, 2, 59))
        let own = try #require(rig.lastPlayed?.id)
        #expect(!rig.sound.calls.contains(.stop(own)), "its duration (2 min) does not silence an alarm that climbs")
        await rig.run(until: ClockRig.at(7, 3))
        #expect(rig.sound.calls.last == .volume(own, 75), "a step later, its own sound 6 dB louder")
        await rig.run(until: ClockRig.at(7, 6))
        let tone = try #require(rig.lastPlayed)
        #expect(tone.id != own && tone.request.volume == 100 && tone.request.priority == .alarm, "then the tone at full")
        await rig.run(until: ClockRig.at(7, 9))
        #expect(rig.history.suffix(2) == ["climbed", "escalated"], "then the outputs and the unanswered notice")
        #expect(outputs.events == [.set(.shaker, on: true), .set(.lamp, on: true)], "the shaker and the lamp at the top")
        await rig.run(until: ClockRig.at(9, 0))
        let kinds = rig.history
        #expect(!kinds.contains("auto-silenced"))
        #expect(kinds.filter { $0 == "rested" }.count == 3, "three rests between four rounds: \(kinds)")
        #expect(kinds.last == "unanswered", "\(kinds)")
        let round: [FakeOutputs.Event] = [
            .set(.shaker, on: true), .set(.lamp, on: true), .set(.shaker, on: false), .set(.lamp, on: false),
        ]
        #expect(
            outputs.events == Array(repeating: round, count: 4).flatMap { $0 },
            "on at each round's top, off in each rest and at the end")
        #expect(!outputs.isOn(.shaker) && !outputs.isOn(.lamp))
        #expect(try await rig.status().ringing == nil)
        #expect(rig.store.data.states.first?.phase != .ringing)
    }

    @Test func theOutputsAtTheTopGoOffForATouchAndForAStopAndAnEditThatEndsTheRing() async throws {
        let outputs = FakeOutputs(available: [.shaker])
        let rig = ClockRig(alarms: [ClockRig.alarm(1, 7, 0), ClockRig.alarm(2, 8, 0)], outputs: outputs)
        await rig.start()
        await rig.run(until: ClockRig.at(7, 9))
        #expect(outputs.isOn(.shaker), "the top step: \(rig.history)")
        // A touch of the kiosk: a person is awake, the climb starts again from the alarm's own sound, nothing shakes.
        _ = try await rig.clock.handle(.displayWake)
        #expect(outputs.events == [.set(.shaker, on: true), .set(.shaker, on: false)])
        #expect(rig.events.contains("outputs"))
        await rig.run(until: ClockRig.at(7, 18))
        #expect(outputs.isOn(.shaker), "unanswered again, the top again")
        _ = try await rig.clock.handle(.stop(alarm: nil, by: .button))
        #expect(!outputs.isOn(.shaker), "a Stop")

        // The next alarm at the top is removed by a phone: the ring ends, and so does the shaking.
        await rig.run(until: ClockRig.at(8, 9))
        #expect(outputs.isOn(.shaker))
        try await rig.edit(.removeAlarm(id: 2))
        #expect(!outputs.isOn(.shaker))
        #expect(try await rig.status().ringing == nil)
        #expect(outputs.events.count == 6)
    }

    /// A deaf sleeper's alarm: the shaker from the ring's start, the lamp two minutes in (the loop wakes for it),
    /// both off at a Stop; another alarm that turns the shaker off keeps it off even at its ladder's top.
    @Test func anAlarmTimesItsOwnOutputsFromTheRingsStartAndOffKeepsThemOffAtTheTop() async throws {
        let outputs = FakeOutputs(available: [.shaker, .lamp])
        var deaf = ClockRig.alarm(1, 7, 0)
        (deaf.shaker, deaf.lamp) = (.now, .after(seconds: 120))
        var partner = ClockRig.alarm(2, 8, 0)
        partner.shaker = .off
        let rig = ClockRig(alarms: [deaf, partner], outputs: outputs)
        await rig.start()
        await rig.run(until: ClockRig.at(7, 0))
        #expect(outputs.events == [.set(.shaker, on: true)], "the shaker with the sound")
        await rig.run(until: ClockRig.at(7, 1, 59))
        #expect(!outputs.isOn(.lamp))
        await rig.run(until: ClockRig.at(7, 2))
        #expect(outputs.isOn(.lamp), "the lamp two minutes in")
        _ = try await rig.clock.handle(.stop(alarm: nil, by: .button))
        #expect(!outputs.isOn(.shaker) && !outputs.isOn(.lamp))
        let afterFirst = outputs.events.count
        await rig.run(until: ClockRig.at(8, 9))
        #expect(rig.history.last == "escalated", "the partner's alarm at its top: \(rig.history)")
        #expect(Array(outputs.events.dropFirst(afterFirst)) == [.set(.lamp, on: true)], "the lamp, never the shaker")
    }

    /// The switches (the kiosk, the phone page, Home Assistant): the lamp on by hand stays on until an alarm rings,
    /// which then decides; the shaker off by hand while an alarm shakes it stays off for that ring only; a clock
    /// without an output says so.
    @Test func anOutputSwitchedByHandHoldsUntilARingStartsOrEnds() async throws {
        let outputs = FakeOutputs(available: [.shaker, .lamp])
        var deaf = ClockRig.alarm(1, 7, 0)
        deaf.shaker = .now
        let rig = ClockRig(alarms: [deaf], start: ClockRig.at(6, 50), outputs: outputs)
        await rig.start()
        guard case .done(let said) = try await rig.clock.handle(.output(.lamp, on: true)) else {
            Issue.record("no sentence")
            return
        }
        #expect(said == "The lamp is on." && outputs.isOn(.lamp))
        #expect(await rig.live().outputs.map { "\($0.name)=\($0.on)" } == ["shaker=false", "lamp=true"])
        await rig.run(until: ClockRig.at(6, 59))
        #expect(outputs.isOn(.lamp), "by hand, until a ring")
        await rig.run(until: ClockRig.at(7, 0))
        #expect(outputs.isOn(.shaker) && !outputs.isOn(.lamp), "the ring decides: its shaker, not the lamp")
        _ = try await rig.clock.handle(.output(.shaker, on: false))
        #expect(!outputs.isOn(.shaker), "a person turned it off")
        await rig.run(until: ClockRig.at(7, 5))
        #expect(!outputs.isOn(.shaker), "for the rest of this ring")
        _ = try await rig.clock.handle(.stop(alarm: nil, by: .button))
        await rig.run(until: ClockRig.at(7, 0, day: 1))
        #expect(outputs.isOn(.shaker), "the next ring is not silenced by it")

        let bare = ClockRig(alarms: [])
        await bare.start()
        await #expect(throws: ClockError(.notFound, "This clock has no shaker: set [outputs.shaker] line in the config.")) {
            try await bare.clock.handle(.output(.shaker, on: true))
        }
    }

    /// The microphone: armed at the pre-roll, asked at the ring; "not heard in the room" climbs at once (not three
    /// minutes later), says why in the history and the status, and the next step is listened to again; heard, the
    /// warning goes; a verdict for a ring no longer sounding changes nothing; the Stop disarms it.
    @Test func aRingNotHeardInTheRoomClimbsAtOnceAndSaysWhy() async throws {
        let room = FakeRoomListener()
        let rig = ClockRig(
            alarms: [ClockRig.alarm(1, 7, 0, sound: .station(id: 1))], stations: [ClockRig.station(1)], room: room)
        await rig.start()
        await rig.run(until: ClockRig.at(6, 59, 50))
        #expect(room.calls == [.arm], "armed at the pre-roll, before the ring")
        await rig.run(until: ClockRig.at(7, 0))
        let own = try #require(rig.lastPlayed?.id)
        guard case .listen? = room.calls.last else {
            Issue.record("not listened to at the ring: \(room.calls)")
            return
        }
        let occurrence = ClockRig.at(7, 0)
        _ = try await rig.clock.send(
            .roomHeard(alarmID: 1, occurrence: occurrence, RoomReport(heard: false, reason: "nothing above the room's noise")))
        #expect(rig.sound.calls.last == .volume(own, 75), "the next step at once, not at 07:03")
        #expect(rig.history.suffix(2) == ["not-heard", "climbed"], "\(rig.history)")
        #expect(
            rig.store.history.last(where: { $0.kind == "not-heard" })?.detail
                == "not heard in the room: nothing above the room's noise")
        #expect(try await rig.status().warnings.contains("The alarm is not heard in the room: nothing above the room's noise"))
        #expect(
            room.calls.filter { if case .listen = $0 { true } else { false } }.count == 2, "the louder step listened to again")
        _ = try await rig.clock.send(.roomHeard(alarmID: 1, occurrence: occurrence, RoomReport(heard: true, reason: "tone")))
        #expect(try await rig.status().warnings.allSatisfy { !$0.contains("not heard in the room") })
        // A late verdict for another occurrence is dropped.
        _ = try await rig.clock.send(
            .roomHeard(alarmID: 1, occurrence: ClockRig.at(7, 0, day: -1), RoomReport(heard: false, reason: "old")))
        #expect(rig.history.filter { $0 == "not-heard" }.count == 1)
        _ = try await rig.clock.handle(.stop(alarm: nil, by: .button))
        #expect(room.calls.last == .disarm)
    }

    @Test func aWakeUpCheckAfterAStopChimesAsksAndRingsAgainWhenNobodyAnswers() async throws {
        var alarm = ClockRig.alarm(1, 7, 0)
        alarm.wakeCheckSeconds = 300
        let rig = ClockRig(alarms: [alarm])
        await rig.start()
        await rig.run(until: ClockRig.at(7, 0, 30))
        let first = try #require(rig.lastPlayed)
        _ = try await rig.clock.handle(.stop(alarm: nil, by: .button))
        #expect(rig.sound.calls.last == .stop(first.id))
        await rig.run(until: ClockRig.at(7, 5, 29))
        #expect(!rig.history.contains("wake-check"))
        await rig.run(until: ClockRig.at(7, 5, 30))
        let chime = try #require(rig.lastPlayed)
        #expect(chime.request.priority == .chime && chime.request.limit == .seconds(3), "a soft chime, not the alarm")
        #expect(rig.history.last == "wake-check" && rig.events.last == "wake-check")
        #expect(await rig.live().wakeCheck?.id == 1, "the kiosk's question")
        await rig.run(until: ClockRig.at(7, 6, 29))
        #expect(rig.lastPlayed?.id == chime.id, "nothing rings while the question waits")
        await rig.run(until: ClockRig.at(7, 6, 30))
        let again = try #require(rig.lastPlayed)
        #expect(again.request.priority == .alarm && again.id != first.id)
        #expect(rig.history.contains("fell-back-asleep"))
        #expect(try await rig.status().ringing?.id == 1)

        // Stopped again, the next question is answered by a touch of the kiosk: it says woke and rings no more.
        _ = try await rig.clock.handle(.stop(alarm: nil, by: .api))
        await rig.run(until: ClockRig.at(7, 11, 40))
        #expect(rig.history.last == "wake-check")
        _ = try await rig.clock.handle(.displayWake)
        #expect(rig.history.last == "woke")
        #expect(await rig.live().wakeCheck == nil, "answered, the question is gone")
        await rig.run(until: ClockRig.at(8, 0))
        #expect(rig.sound.played.filter { $0.request.priority == .alarm }.count == 2)
        #expect(try await rig.status().ringing == nil)
    }

    /// A client's Stop or Snooze with nothing ringing that answers a wake-up check says so, rather than "Stopped."
    /// or the refusal a Snooze with nothing to do gets.
    @Test func aClientsSnoozeOrStopThatAnswersAWakeUpCheckSaysSo() async throws {
        var alarm = ClockRig.alarm(1, 7, 0)
        alarm.wakeCheckSeconds = 60
        let rig = ClockRig(alarms: [alarm])
        await rig.start()
        await rig.run(until: ClockRig.at(7, 0, 30))
        _ = try await rig.clock.handle(.stop(alarm: nil, by: .api))
        await rig.run(until: ClockRig.at(7, 1, 30))
        #expect(rig.history.last == "wake-check")
        guard case .done(let said) = try await rig.clock.handle(.snooze(alarm: nil, by: .api)) else {
            Issue.record("no sentence")
            return
        }
        #expect(said == "You are up: the wake-up check is answered.")
        #expect(rig.history.last == "woke")
        await #expect(throws: ClockError(.refused, "No alarm can be snoozed now.")) {
            try await rig.clock.handle(.snooze(alarm: nil, by: .api))
        }
        await rig.run(until: ClockRig.at(7, 0, 30, day: 1))
        _ = try await rig.clock.handle(.stop(alarm: nil, by: .api))
        await rig.run(until: ClockRig.at(7, 1, 30, day: 1))
        guard case .done(let stopSaid) = try await rig.clock.handle(.stop(alarm: nil, by: .api)) else {
            Issue.record("no sentence")
            return
        }
        #expect(stopSaid == "You are up: the wake-up check is answered.", "\(rig.history)")
    }

    @Test func theStopButtonEndsALaddersRestAndAnswersAWakeUpCheckThoughNothingRings() async throws {
        var alarm = ClockRig.alarm(1, 7, 0)
        alarm.wakeCheckSeconds = 60
        let rig = ClockRig(alarms: [alarm])
        let stopButton = ButtonPanel.Command(role: .stop, kind: .short, action: .stop, time: .seconds(1))
        await rig.start()
        await rig.run(until: ClockRig.at(7, 12, 30))  // own, louder, tone, everything: then the rest
        #expect(rig.history.last == "rested")
        let alarmSounds = rig.sound.played.filter { $0.request.priority == .alarm }.count
        await rig.clock.button(stopButton)
        #expect(rig.history.last == "dismissed", "a Stop during the rest ends it: \(rig.history)")
        await rig.run(until: ClockRig.at(7, 13, 30))
        #expect(rig.history.last == "wake-check")
        await rig.clock.button(stopButton)
        #expect(rig.store.history.last?.kind == "woke" && rig.store.history.last?.detail == "by=button")
        await rig.run(until: ClockRig.at(8, 0))
        #expect(
            rig.sound.played.filter { $0.request.priority == .alarm }.count == alarmSounds, "it rang no more after the Stop")
        #expect(!rig.history.contains("fell-back-asleep") && !rig.history.contains("snooze-ended"))
    }

    @Test func anEditByAnotherProcessIsPickedUpAndDropsAStalePreRoll() async throws {
        let rig = ClockRig(alarms: [ClockRig.alarm(1, 7, 0)])
        await rig.start()
        await rig.run(until: ClockRig.at(6, 59, 50))
        let prepared = try #require(rig.lastPlayed?.id)
        try rig.store.fromAnotherProcess { other throws(StoreError) in
            try other.updateAlarm(id: 1) { alarm, _ throws(ValidationError) in alarm.time = try LocalTime(hour: 7, minute: 30) }
        }
        await rig.run(until: ClockRig.at(7, 0, 30))
        #expect(rig.sound.calls.contains(.stop(prepared)))
        #expect(!rig.sound.calls.contains(.begin(prepared)), "the moved alarm does not ring at its old time")
        await rig.run(until: ClockRig.at(7, 30))
        #expect(try await rig.status().ringing?.id == 1)
    }
}

/// Alarms that coincide or overlap ring until the last of their durations (R38), with one sound.
@Suite("Daemon decisions: alarms that ring together")
struct RingingGroupTests {
    @Test func aShorterAlarmThatJoinsNeverSilencesTheLongerOne() async throws {
        let rig = ClockRig(alarms: [
            ClockRig.alarm(1, 7, 0, duration: 300, ladder: .own(.off)), ClockRig.alarm(2, 7, 0, duration: 60, ladder: .own(.off)),
        ])
        await rig.start()
        await rig.run(until: ClockRig.at(7, 0))
        let sounds = rig.sound.calls.compactMap { call -> SoundID? in
            if case .begin(let id) = call { return id } else { return nil }
        }
        let playing = try #require(sounds.last)
        await rig.run(until: ClockRig.at(7, 4, 59))
        #expect(!rig.sound.calls.contains(.stop(playing)), "alarm 2's end at 07:01 leaves alarm 1 sounding")
        #expect(rig.store.history.contains { $0.kind == "auto-silenced" && $0.alarmID == 2 })
        #expect(try await rig.status().ringing?.id == 1, "the sound now counts for the alarm still ringing")
        await rig.run(until: ClockRig.at(7, 5))
        #expect(rig.sound.calls.last == .stop(playing))
        #expect(try await rig.status().ringing == nil)
    }

    @Test func oneStopEndsTheWholeGroup() async throws {
        let rig = ClockRig(alarms: [ClockRig.alarm(1, 7, 0), ClockRig.alarm(2, 7, 2)])
        await rig.start()
        await rig.run(until: ClockRig.at(7, 2))
        let stopsBefore = rig.sound.calls.filter { if case .stop = $0 { true } else { false } }.count
        _ = try await rig.clock.handle(.stop(alarm: nil, by: .cli))
        #expect(rig.sound.calls.filter { if case .stop = $0 { true } else { false } }.count == stopsBefore + 1)
        #expect(rig.store.data.states.allSatisfy { $0.phase == .idle })
        #expect(rig.store.history.filter { $0.kind == "dismissed" }.map(\.alarmID) == [1, 2])
    }
}
