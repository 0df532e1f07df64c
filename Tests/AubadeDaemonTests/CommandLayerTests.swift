import AubadeApp
import AubadeAppTesting
import AubadeCore
import AubadeStore
import AubadeTesting
import Foundation
import Testing

/// The command layer's edits, queries, pairing and live state, in-process on a SQLite file (`SQLiteRig`).
@Suite("Command layer: edits, queries, pairing, live state")
struct CommandLayerTests {
    @Test func anEditIsCommittedBeforeTheAnswerAndTheClockRunsOnItAtOnce() async throws {
        let rig = try SQLiteRig()
        await rig.start()
        #expect(try await rig.clock.handle(.status).statusNext == nil)
        let outcome = try await rig.edit(.addAlarm(AlarmPatch(name: "Work", time: "07:00", days: "daily")))
        guard case .alarm(let alarm) = outcome, let id = alarm.id else { throw RigError("no alarm") }
        // Committed: another connection reads it; running: the status's next alarm is it, without a turn.
        #expect(try rig.reread().alarms().map(\.name) == ["Work"])
        #expect(try await rig.clock.handle(.status).statusNext == id)
        #expect(rig.lines.all.contains { $0.contains("\"event\":\"edit\"") && $0.contains("alarm \(id) saved") })
        // …and it rings at its time.
        rig.time.advance(to: ClockRig.at(7, 0))
        _ = await rig.clock.tick()
        #expect(rig.sound.played.contains { $0.request.priority == .alarm })
    }

    @Test func theClockRefusesWithTheStoresOwnSentence() async throws {
        let rig = try SQLiteRig()
        await rig.start()
        let bad = AlarmPatch(name: "Work", time: "7h")
        var direct: StoreError?
        do { _ = try rig.store.apply(.addAlarm(bad), zone: .gmt, now: ClockRig.morning) } catch { direct = error }
        await #expect(throws: ClockError(.invalid, try #require(direct).description)) { try await rig.edit(.addAlarm(bad)) }
        await #expect(throws: ClockError(.notFound, "No alarm has id 4.")) { try await rig.edit(.removeAlarm(id: 4)) }
        try await rig.edit(.addStation(StationFields(name: "FIP", url: "http://radio.example/fip")))
        await #expect(throws: ClockError(.conflict, "A station named 'FIP' already exists; pick another name.")) {
            try await rig.edit(.addStation(StationFields(name: "FIP", url: "http://radio.example/fip2")))
        }
    }

    @Test func queriesAnswerWithTheSharedDocuments() async throws {
        let rig = try SQLiteRig()
        await rig.start()
        try await rig.edit(.addStation(StationFields(name: "FIP", url: "http://radio.example/fip")))
        try await rig.edit(.addAlarm(AlarmPatch(name: "Late", time: "09:00", days: "daily", source: "FIP")))
        try await rig.edit(.addAlarm(AlarmPatch(name: "Early", time: "06:00", days: "daily")))
        guard case .alarms(let list) = try await rig.ask(.alarms) else { throw RigError("alarms") }
        #expect(list.alarms.map(\.name) == ["Early", "Late"])
        #expect(list.alarms[1].soundName == "FIP")
        guard case .alarm(let one) = try await rig.ask(.alarm(id: 1)) else { throw RigError("alarm") }
        #expect(one.name == "Late")
        await #expect(throws: ClockError(.notFound, "No alarm has id 9.")) { try await rig.ask(.alarm(id: 9)) }
        guard case .stations(let stations) = try await rig.ask(.stations) else { throw RigError("stations") }
        #expect(stations.stations.map(\.name) == ["FIP"])
        guard case .settings(let settings) = try await rig.ask(.settings) else { throw RigError("settings") }
        #expect(
            settings["defaultVolume"] == .int(60) && settings["isWifi"] == .bool(false)
                && settings["fallbackTone"] == .string("classic"))
        await #expect(throws: ClockError(.invalid, "--count 0 is out of range; use 1 to 100.")) {
            try await rig.ask(.nextFirings(count: 0))
        }
    }

    @Test func nextFiringsMarkASkippedOccurrenceAndSayWhatRingsTomorrow() async throws {
        let rig = try SQLiteRig()  // Tuesday 2026-11-24 06:50 UTC
        await rig.start()
        guard case .next(let none) = try await rig.ask(.nextFirings(count: 3)) else { throw RigError("next") }
        #expect(none.firings.isEmpty && none.tomorrow == "No alarm tomorrow.")
        guard case .alarm(let work) = try await rig.edit(.addAlarm(AlarmPatch(name: "Work", time: "07:30", days: "mon-fri"))),
            let id = work.id
        else { throw RigError("alarm") }
        try await rig.edit(.skipNext(id: id, undo: false))  // today's 07:30
        guard case .next(let next) = try await rig.ask(.nextFirings(count: 2)) else { throw RigError("next") }
        #expect(next.firings.map(\.local) == ["Tue 24 Nov 07:30", "Wed 25 Nov 07:30"])
        #expect(next.firings.map(\.skipped) == [true, false])
        #expect(next.firings[0].reason == "Skipped once (skip-next); it rings again after that.")
        #expect(next.tomorrow == "Tomorrow: Work at 07:30.")
        try await rig.edit(.editAlarm(id: id, AlarmPatch(days: "sat,sun")))
        guard case .next(let weekend) = try await rig.ask(.nextFirings(count: 1)) else { throw RigError("next") }
        #expect(weekend.tomorrow == "No alarm tomorrow.")
    }

    @Test func programmesOnAirNowAndNextAcrossMidnight() async throws {
        // Tuesday 2026-11-24 23:30 UTC: the daily 22:00–01:00 show is on; Wednesday's 06:00 news is next.
        let rig = try SQLiteRig(start: ClockRig.at(23, 30))
        await rig.start()
        try await rig.edit(.addStation(StationFields(name: "FIP", url: "http://radio.example/fip")))
        try await rig.edit(.addStation(StationFields(name: "Jazz", url: "http://radio.example/jazz")))
        try await rig.edit(.addProgramme(ProgrammeFields(name: "Night", begin: "22:00", end: "01:00", station: "FIP")))
        try await rig.edit(
            .addProgramme(ProgrammeFields(name: "News", begin: "06:00", end: "06:30", station: "FIP", weekday: "wed")))
        try await rig.edit(.addProgramme(ProgrammeFields(name: "Blue", begin: "23:45", end: "23:50", station: "Jazz")))
        guard case .onAir(let fip) = try await rig.ask(.programmeNow(station: "fip")) else { throw RigError("onAir") }
        #expect(fip.now?.name == "Night" && fip.next?.name == "News")
        guard case .onAir(let any) = try await rig.ask(.programmeNow(station: nil)) else { throw RigError("onAir") }
        #expect(any.now?.name == "Night" && any.next?.name == "Blue")
        await #expect(throws: ClockError(.notFound, "No station is named 'Rock'; see 'aubade station list'.")) {
            try await rig.ask(.programmeNow(station: "Rock"))
        }
        guard case .programmes(let list) = try await rig.ask(.programmes) else { throw RigError("programmes") }
        #expect(Set(list.programmes.map(\.name)) == ["Night", "News", "Blue"])
    }

    @Test func historyAndReportsComeFromTheStoresEvents() async throws {
        let rig = try SQLiteRig()
        await rig.start()
        guard case .alarm(let work) = try await rig.edit(.addAlarm(AlarmPatch(name: "Work", time: "07:00", days: "daily"))),
            let id = work.id
        else { throw RigError("alarm") }
        rig.time.advance(to: ClockRig.at(7, 0))
        _ = await rig.clock.tick()
        _ = try await rig.clock.handle(.stop(alarm: nil, by: .api))
        guard case .history(let history) = try await rig.ask(.history(limit: 10)) else { throw RigError("history") }
        #expect(history.events.first?.kind == "dismissed" && history.events.first?.alarm == id)
        #expect(history.events.contains { $0.kind == "rang" })
        guard case .reports(let reports) = try await rig.ask(.reports(days: 2)) else { throw RigError("reports") }
        #expect(reports.reports.map(\.date) == ["2026-11-24", "2026-11-23"])
        #expect(reports.reports[0].lines.count == 1 && reports.reports[0].lines[0].hasPrefix("Work 07:00 — rang on time"))
        #expect(reports.reports[0].lines[0].hasSuffix("stopped from the web page or API"), "\(reports.reports[0].lines)")
        #expect(reports.reports[1].lines.isEmpty)
        await #expect(throws: ClockError(.invalid, "Reports cover 1 to 31 days, not 40.")) {
            try await rig.ask(.reports(days: 40))
        }
    }

    @Test func aPairingCodeIsSixDigitsValidTwoMinutesOneAtATimeAndUsedOnce() async throws {
        let rig = try SQLiteRig()
        await rig.start()
        guard case .pairingCode(let first) = try await rig.clock.handle(.pairingCode) else { throw RigError("code") }
        #expect(first.code.count == 6 && first.code.allSatisfy(\.isNumber))
        #expect(first.expiresAt == ClockRig.morning.addingTimeInterval(120))
        guard case .pairingCode(let second) = try await rig.clock.handle(.pairingCode) else { throw RigError("code") }
        let wrong = ClockError(.unauthorized, "The pairing code is wrong or has expired; ask the clock for a new one.")
        if first.code != second.code {
            await #expect(throws: wrong) { try await rig.clock.handle(.pair(code: first.code, name: "old")) }
        }
        await #expect(throws: ClockError(.invalid, "Token name is empty; give it a few words.")) {
            try await rig.clock.handle(.pair(code: second.code, name: " "))
        }
        guard case .paired(let token) = try await rig.clock.handle(.pair(code: second.code, name: "phone")) else {
            throw RigError("pair")
        }
        #expect(token.name == "phone" && rig.clock.tokens.verify(token.token, at: Date())?.name == "phone")
        #expect(try rig.reread().tokens().map(\.name) == ["phone"])
        await #expect(throws: wrong) { try await rig.clock.handle(.pair(code: second.code, name: "again")) }
        guard case .pairingCode(let third) = try await rig.clock.handle(.pairingCode) else { throw RigError("code") }
        rig.time.advance(to: ClockRig.morning.addingTimeInterval(121))
        await #expect(throws: wrong) { try await rig.clock.handle(.pair(code: third.code, name: "late")) }
    }

    @Test func tokensFromAnotherProcessAreKnownAfterAReloadAndUsesAreNotedHourly() async throws {
        let rig = try SQLiteRig()
        await rig.start()
        let (made, secret) = try rig.store.createToken(name: "cli")
        #expect(rig.clock.tokens.verify(secret, at: Date()) == nil)
        _ = try await rig.clock.handle(.reload)
        #expect(rig.clock.tokens.verify(secret, at: ClockRig.morning)?.id == made.id)
        _ = await rig.clock.tick()
        #expect(try rig.reread().tokens().first?.lastUsedAt == ClockRig.morning)
        #expect(rig.clock.tokens.verify(secret + "x", at: Date()) == nil)
        try rig.store.revokeToken("cli")
        _ = try await rig.clock.handle(.reload)
        #expect(rig.clock.tokens.verify(secret, at: Date()) == nil)
    }

    @Test func liveStateComesAtOnceThenOnlyOnChangesAndShowsTheRingingGroup() async throws {
        let rig = try SQLiteRig()
        await rig.start()
        try await rig.edit(.addAlarm(AlarmPatch(name: "Work", time: "07:00", days: "daily")))
        let updates = await rig.clock.liveUpdates()
        var states = updates.makeAsyncIterator()
        let first = try #require(await states.next())
        #expect(first.next?.name == "Work" && first.ringing == nil && !first.dimmed && first.pairing == nil)
        // A turn that changes nothing but the time publishes nothing; the alarm's start does.
        rig.time.advance(to: ClockRig.at(6, 55))
        _ = await rig.clock.tick()
        rig.time.advance(to: ClockRig.at(7, 0))
        _ = await rig.clock.tick()
        let ringing = try #require(await states.next())
        #expect(ringing.ringing?.alarms.map(\.name) == ["Work"])
        #expect(ringing.ringing?.audible == false && ringing.ringing?.since == ClockRig.at(7, 0))
        let sound = try #require(rig.sound.played.last?.id)
        await rig.clock.soundEvent(.audible(sound, source: "tone", after: .milliseconds(300)))
        #expect(try #require(await states.next()).ringing?.audible == true)
        _ = try await rig.clock.handle(.pairingCode)
        #expect(try #require(await states.next()).pairing != nil)
        _ = try await rig.clock.handle(.stop(alarm: nil, by: .api))
        let stopped = try #require(await states.next())
        #expect(stopped.ringing == nil && stopped.forOtherMachines.pairing == nil)
        await rig.clock.shutdown()
        #expect(await states.next() == nil, "the stream ends with the clock")
    }
}

extension ClockReply {
    /// The next alarm's id in a status reply.
    var statusNext: Int64? {
        if case .status(let s) = self { return s.next?.id }
        return nil
    }
}
