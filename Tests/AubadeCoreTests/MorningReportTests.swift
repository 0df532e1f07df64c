import AubadeCore
import Foundation
import Testing

/// The morning report: history events grouped into runs, rendered one line per run.
@Suite("Morning report: what each alarm did")
struct MorningReportTests {
    /// Work is due 2026-06-01 07:00 in Berlin (05:00Z); events are given as seconds after that.
    static let due = "2026-06-01T05:00:00Z"
    static let since = "2026-06-01T00:00:00Z"

    /// One event of alarm `id` (default 1), `offset` seconds after 07:00.
    static func event(_ offset: Double, _ kind: HistoryKind, _ detail: String = "", alarm id: Int64? = 1) throws -> HistoryEvent {
        HistoryEvent(at: try Fixture.instant(due).addingTimeInterval(offset), alarmID: id, kind: kind, detail: detail)
    }

    static func dueDetail(_ text: String = due) throws -> String {
        HistoryDetail.due(try Fixture.instant(text))
    }

    static func report(
        _ events: [HistoryEvent], names: [Int64: String] = [1: "Work", 2: "Nap"],
        since: String = since
    ) throws -> MorningReport {
        MorningReport.build(
            events: events, alarmNames: names, since: try Fixture.instant(since),
            zone: try Fixture.zone("Europe/Berlin"))
    }

    @Test("the example line: on time, audible, a fallback, two snoozes, stopped by button")
    func exampleLine() throws {
        let d = try Self.dueDetail()
        let events = [
            try Self.event(0, .rang, d),
            try Self.event(0.85, .audible, HistoryDetail.audible(after: .milliseconds(850))),
            try Self.event(11, .fallback, HistoryDetail.fallback(to: .tone, reason: "The station sent a web page, not audio.")),
            try Self.event(60, .snoozed, "snooze 1 of 3, 9 min"),
            try Self.event(600, .snoozeEnded, d),
            try Self.event(660, .snoozed, "snooze 2 of 3, 9 min"),
            try Self.event(1200, .snoozeEnded, d),
            try Self.event(1230, .dismissed, HistoryDetail.dismissed(by: .button)),
        ]
        let report = try Self.report(events)
        #expect(
            report.lines == [
                "Work 07:00 — rang on time, audible after 0.8 s, fell back to the tone (The station sent a web page, not audio.), snoozed 2×, stopped by button"
            ])
        let run = try #require(report.runs.first)
        let scheduled = try Fixture.instant(Self.due)
        #expect(run.alarmID == 1 && run.scheduled == scheduled)
        #expect(run.start == .onTime && run.snoozes == 2 && run.audibleAfter == .milliseconds(850))
        #expect(run.fallbacks == [.init(target: "tone", reason: "The station sent a web page, not audio.")])
        #expect(run.end == .dismissed(input: .button, detail: "by=button"))
    }

    /// Events as (seconds after 07:00, kind, detail); "DUE" in a detail stands for "due <07:00 as ISO>".
    static let lineCases: [(name: String, events: [(Double, HistoryKind, String)], line: String)] = [
        (
            "late catch-up, auto-silenced", [(720, .rangLate, "DUE, 12 min late"), (1620, .autoSilenced, "after 15m")],
            "Work 07:00 — rang 12 min late, not confirmed audible, auto-silenced after 15m"
        ),
        ("missed, never rung", [(7200, .missed, "DUE")], "Work 07:00 — missed, never rang"),
        ("skipped", [(0, .skipped, "DUE")], "Work 07:00 — skipped (skip-next)"),
        (
            "failed pre-check, the tone on time, stopped by shake",
            [
                (-300, .precheckFailed, "The station did not answer."), (0, .rang, "DUE"), (0.02, .audible, "after_ms=20"),
                (30, .dismissed, "shake"),
            ],
            "Work 07:00 — pre-check failed (The station did not answer.), rang on time, audible after 0.0 s, stopped by shake"
        ),
        (
            "a passed pre-check says nothing",
            [
                (-300, .precheckPassed, ""), (0, .rang, "DUE"), (1.5, .audible, "after_ms=1500"),
                (40, .dismissed, "by=api"),
            ],
            "Work 07:00 — rang on time, audible after 1.5 s, stopped from the web page or API"
        ),
        (
            "resumed after a restart, stopped from the CLI", [(300, .resumed, "DUE"), (310, .dismissed, "by=cli")],
            "Work 07:00 — resumed after a restart, not confirmed audible, stopped from the command line"
        ),
        (
            "rang, then a restart resumed it",
            [
                (0, .rang, "DUE"), (1, .audible, "after_ms=1000"), (300, .resumed, "DUE"),
                (900, .autoSilenced, "after 15m"),
            ],
            "Work 07:00 — rang on time, audible after 1.0 s, resumed after a restart, auto-silenced after 15m"
        ),
        (
            "still snoozed", [(0, .rang, "DUE"), (2, .audible, "after_ms=2000"), (60, .snoozed, "snooze 1 of 3, 9 min")],
            "Work 07:00 — rang on time, audible after 2.0 s, snoozed 1×, still snoozed"
        ),
        ("still ringing", [(0, .rang, "DUE")], "Work 07:00 — rang on time, not confirmed audible, still ringing"),
        (
            "ringing again after its snooze", [(0, .rang, "DUE"), (60, .snoozed, ""), (600, .snoozeEnded, "DUE")],
            "Work 07:00 — rang on time, not confirmed audible, snoozed 1×, still ringing"
        ),
        (
            "cancelled by an edit during its snooze", [(0, .rang, "DUE"), (60, .snoozed, ""), (120, .cancelled, "edited")],
            "Work 07:00 — rang on time, not confirmed audible, snoozed 1×, cancelled (edited)"
        ),
        (
            "superseded by another alarm", [(0, .rang, "DUE"), (60, .superseded, "alarm 2 took over")],
            "Work 07:00 — rang on time, not confirmed audible, superseded (alarm 2 took over)"
        ),
        (
            "dismissed during its snooze from the API",
            [
                (0, .rang, "DUE"), (60, .snoozed, ""),
                (120, .dismissed, "during its snooze, by=api"),
            ],
            "Work 07:00 — rang on time, not confirmed audible, snoozed 1×, stopped from the web page or API"
        ),
        (
            "dismissed with no input named", [(0, .rang, "DUE"), (5, .dismissed, "")],
            "Work 07:00 — rang on time, not confirmed audible, stopped"
        ),
        (
            "dismissed during its snooze, no input named",
            [(0, .rang, "DUE"), (60, .snoozed, ""), (120, .dismissed, "during its snooze")],
            "Work 07:00 — rang on time, not confirmed audible, snoozed 1×, stopped (during its snooze)"
        ),
        (
            "an unknown input is shown as written", [(0, .rang, "DUE"), (5, .dismissed, "by=elbow")],
            "Work 07:00 — rang on time, not confirmed audible, stopped (by=elbow)"
        ),
        (
            "an unreadable audible detail is shown as written",
            [(0, .rang, "DUE"), (1, .audible, "after_ms=soon"), (5, .dismissed, "by=button")],
            "Work 07:00 — rang on time, audible (after_ms=soon), stopped by button"
        ),
        (
            "only the first audible counts",
            [
                (0, .rang, "DUE"), (0.4, .audible, "after_ms=400"), (30, .audible, "after_ms=900"),
                (40, .dismissed, "by=button"),
            ],
            "Work 07:00 — rang on time, audible after 0.4 s, stopped by button"
        ),
        (
            "a fallback in free text", [(0, .rang, "DUE"), (10, .fallback, "Weird text"), (20, .dismissed, "by=button")],
            "Work 07:00 — rang on time, not confirmed audible, fell back (Weird text), stopped by button"
        ),
        (
            "alternate, then the tone, then back on the station",
            [
                (0, .rang, "DUE"), (10, .fallback, "to=alternate reason=Connection refused."),
                (20, .fallback, "to=tone reason=The alternate stalled."), (25, .audible, "after_ms=25000"), (60, .recovered, ""),
                (90, .dismissed, "by=button"),
            ],
            "Work 07:00 — rang on time, audible after 25.0 s, fell back to the alternate stream (Connection refused.), fell back to the tone (The alternate stalled.), back on the station, stopped by button"
        ),
        (
            "an unknown fallback target is kept",
            [
                (0, .rang, "DUE"), (10, .fallback, "to=spare-radio reason=x"),
                (20, .dismissed, "by=button"),
            ],
            "Work 07:00 — rang on time, not confirmed audible, fell back to spare-radio (x), stopped by button"
        ),
        (
            "warnings and a refused snooze",
            [
                (0, .rang, "DUE"), (0, .warning, "Wi-Fi-only mode and no Wi-Fi: playing the tone."),
                (3, .audible, "after_ms=300"),
                (60, .snoozeRefused, "all 0 snoozes used"), (70, .snoozeRefused, "all 0 snoozes used"),
                (80, .dismissed, "by=button"),
            ],
            "Work 07:00 — rang on time, audible after 0.3 s, warning (Wi-Fi-only mode and no Wi-Fi: playing the tone.), snooze refused 2×, stopped by button"
        ),
        (
            "a failed self-test of the microphone before it is a warning",
            [
                (-60, .selfTestHeard, "heard in the room: x"), (-30, .selfTestNotHeard, "no microphone: gone"),
                (0, .rang, "DUE"), (5, .dismissed, "by=button"),
            ],
            "Work 07:00 — rang on time, not confirmed audible, warning (the microphone's self-test before it failed: no microphone: gone), stopped by button"
        ),
        (
            "a self-test that heard its chirp again is none",
            [
                (-60, .selfTestNotHeard, "not heard in the room: y"), (-30, .selfTestHeard, "heard in the room: x"),
                (0, .rang, "DUE"), (5, .dismissed, "by=button"),
            ],
            "Work 07:00 — rang on time, not confirmed audible, stopped by button"
        ),
        (
            "its snooze's end missed", [(0, .rang, "DUE"), (60, .snoozed, ""), (3600, .missed, "its snooze ended 51 min ago")],
            "Work 07:00 — rang on time, not confirmed audible, snoozed 1×, missed (its snooze ended 51 min ago)"
        ),
        (
            "auto-silenced with odd text", [(0, .rang, "DUE"), (900, .autoSilenced, "timer")],
            "Work 07:00 — rang on time, not confirmed audible, auto-silenced (timer)"
        ),
        (
            "unknown kinds and alarm-less events are left out",
            [(0, .rang, "DUE"), (5, .dismissed, "by=button")],
            "Work 07:00 — rang on time, not confirmed audible, stopped by button"
        ),
    ]

    @Test("one line per run", arguments: lineCases)
    func line(_ c: (name: String, events: [(Double, HistoryKind, String)], line: String)) throws {
        let d = try Self.dueDetail()
        var events = try c.events.map { try Self.event($0.0, $0.1, $0.2.replacingOccurrences(of: "DUE", with: d)) }
        // Noise every case must ignore: another alarm's clock events and an unknown kind.
        events.append(try Self.event(2, .clockStep, "+1m", alarm: nil))
        events.append(try Self.event(3, .sleepStarted, "30m", alarm: nil))
        events.append(HistoryEvent(at: try Fixture.instant(Self.due), alarmID: 1, kind: "teleported", detail: "DUE"))
        let report = try Self.report(events)
        #expect(report.lines == [c.line], "\(c.name)")
    }

    @Test("a pre-check with nothing after it yet is a run of its own, its time known when the detail names it")
    func precheckBeforeTheAlarm() throws {
        let bare = try Self.report([try Self.event(-300, .precheckFailed, "No route to the internet.")])
        #expect(bare.lines == ["Work — pre-check failed (No route to the internet.), not rung yet"])
        let named = try Self.report([try Self.event(-300, .precheckFailed, "\(try Self.dueDetail()): No route to the internet.")])
        #expect(
            named.lines == ["Work 07:00 — pre-check failed (\(try Self.dueDetail()): No route to the internet.), not rung yet"])
    }

    @Test("runs are grouped by alarm and occurrence, ordered by time, whatever order the events come in")
    func grouping() throws {
        let work = try Self.dueDetail()
        let nap = try Self.dueDetail("2026-06-01T04:30:00Z")  // 06:30
        let yesterday = try Self.dueDetail("2026-05-31T05:00:00Z")
        let events = [
            try Self.event(-86_400, .rang, yesterday),
            try Self.event(-86_300, .dismissed, "by=button"),
            try Self.event(-1800, .rang, nap, alarm: 2),
            try Self.event(-1799, .audible, "after_ms=700", alarm: 2),
            try Self.event(0, .rang, work),
            try Self.event(0, .superseded, "alarm 1 took over", alarm: 2),
            try Self.event(1, .audible, "after_ms=1200"),
            try Self.event(30, .dismissed, "shake"),
            try Self.event(40, .clockStep, "+2s", alarm: nil),
        ]
        let expected = [
            "Nap 06:30 — rang on time, audible after 0.7 s, superseded (alarm 1 took over)",
            "Work 07:00 — rang on time, audible after 1.2 s, stopped by shake",
        ]
        #expect(try Self.report(events).lines == expected)
        // The store lists newest first, with ids; ties on `at` follow the ids.
        let stored = events.enumerated().map { i, e in
            var e = e
            e.id = Int64(i + 1)
            return e
        }.reversed()
        #expect(try Self.report(Array(stored)).lines == expected)
        // `since` keeps yesterday's run out; an earlier `since` lets it in.
        let all = try Self.report(events, since: "2026-05-30T00:00:00Z")
        #expect(all.lines.count == 3 && all.lines[0] == "Work 07:00 — rang on time, not confirmed audible, stopped by button")
        #expect(all.runs[0].scheduled == (try Fixture.instant("2026-05-31T05:00:00Z")))
        #expect(try Self.report(events, since: "2026-06-01T04:45:00Z").lines == [expected[1]])
    }

    @Test("an alarm's own next occurrence taking over ends one run and starts the next")
    func ownOccurrenceSupersedes() throws {
        let first = try Fixture.instant("2026-06-01T05:00:00Z")
        let second = try Fixture.instant("2026-06-01T05:10:00Z")
        let events = [
            try Self.event(0, .rang, HistoryDetail.due(first)),
            try Self.event(60, .snoozed, ""),
            try Self.event(600, .superseded, "its occurrence \(first.formatted(.iso8601)) gave way to the next"),
            try Self.event(600, .rang, HistoryDetail.due(second)),
            try Self.event(610, .dismissed, "by=button"),
        ]
        #expect(
            try Self.report(events).lines == [
                "Work 07:00 — rang on time, not confirmed audible, snoozed 1×, superseded (its occurrence 2026-06-01T05:00:00Z gave way to the next)",
                "Work 07:10 — rang on time, not confirmed audible, stopped by button",
            ])
    }

    @Test("an unnamed alarm, a zone of its own, and the UTC default")
    func namesAndZones() throws {
        let events = [
            try Self.event(0, .rang, try Self.dueDetail(), alarm: 9), try Self.event(5, .dismissed, "by=button", alarm: 9),
        ]
        let since = try Fixture.instant(Self.since)
        let utc = MorningReport.build(events: events, alarmNames: [:], since: since)
        #expect(utc.lines == ["Alarm 9 05:00 — rang on time, not confirmed audible, stopped by button"])
        let tokyo = MorningReport.build(
            events: events, alarmNames: [9: "Call"], since: since,
            zone: try Fixture.zone("Europe/Berlin"),
            alarmZones: [9: try Fixture.zone("Asia/Tokyo")])
        #expect(tokyo.lines == ["Call 14:00 — rang on time, not confirmed audible, stopped by button"])
    }

    @Test("the engine's own history reads back as a report (ring, snooze, stop by button)")
    func fromTheEngine() throws {
        var h = try SchedulerHarness([try Fixture.alarm("07:00", days: "daily")], at: "2026-06-01T04:00:00Z")
        h.start()
        try h.run(until: "2026-06-01T05:00:30Z")
        h.snooze()
        try h.run(until: "2026-06-01T05:09:30Z")
        h.stop(by: .button)
        try h.run(until: "2026-06-02T04:00:00Z")
        // The next morning: missed because the clock was off past the catch-up window.
        var late = try SchedulerHarness(
            [try Fixture.alarm("07:00", days: "daily")], at: "2026-06-02T06:00:00Z",
            states: Array(h.storedStates.values))
        late.start()
        let report = MorningReport.build(
            events: h.events + late.events, alarmNames: [1: "Work"],
            since: try Fixture.instant("2026-06-01T00:00:00Z"),
            zone: try Fixture.zone("Europe/Berlin"))
        #expect(
            report.lines == [
                "Work 07:00 — rang on time, not confirmed audible, snoozed 1×, stopped by button",
                "Work 07:00 — missed, never rang",
            ])
        #expect(
            report.runs.map(\.scheduled) == [
                try Fixture.instant("2026-06-01T05:00:00Z"), try Fixture.instant("2026-06-02T05:00:00Z"),
            ])
    }

    @Test("R38: alarms that rang together are named on each other's lines (from the engine's own history)")
    func ringingTogether() throws {
        // Work (5 min) and Gym (1 min) both at 07:00; Nap at 07:02 joins Work while it rings.
        let work = try Fixture.alarm(id: 1, "07:00", duration: 300)
        let gym = try Fixture.alarm(id: 2, "07:00", duration: 60)
        let nap = try Fixture.alarm(id: 3, "07:02", duration: 600)
        var h = try SchedulerHarness([work, gym, nap], at: "2026-06-01T04:00:00Z")
        h.start()
        try h.run(until: "2026-06-01T05:04:00Z")
        h.stop(alarm: 1, by: .button)
        try h.run(until: "2026-06-01T05:20:00Z")
        let report = MorningReport.build(
            events: h.events, alarmNames: [1: "Work", 2: "Gym", 3: "Nap"],
            since: try Fixture.instant(Self.since), zone: try Fixture.zone("Europe/Berlin"))
        #expect(
            report.lines == [
                "Work 07:00 — rang on time with Gym, joined by Nap, not confirmed audible, stopped by button",
                "Gym 07:00 — rang on time with Work, not confirmed audible, auto-silenced after 1m",
                "Nap 07:02 — rang on time with Work, not confirmed audible, auto-silenced after 10m",
            ])
        #expect(report.runs[0].rangWith == [.init(alarmID: 2, name: "Gym")])
        #expect(report.runs[0].joinedBy == [.init(alarmID: 3, name: "Nap")])
        #expect(report.runs[2].rangWith == [.init(alarmID: 1, name: "Work")])
    }

    @Test("ring events naming several alarms, unknown ones and a snooze's return")
    func ringingTogetherFromText() throws {
        let d = try Self.dueDetail()
        let events = [
            try Self.event(0, .rang, d, alarm: 2),
            try Self.event(0, .rang, d, alarm: 3),
            try Self.event(0, .rang, d + ", with alarms 2, 3"),
            try Self.event(60, .snoozed, "snooze 1 of 3, 9 min"),
            try Self.event(600, .snoozeEnded, d + ", with alarm 9"),
            try Self.event(700, .dismissed, "by=button"),
        ]
        let lines = try Self.report(events, names: [1: "Work", 2: "Nap", 3: "Gym"]).lines
        #expect(
            lines == [
                "Work 07:00 — rang on time with Nap, Gym and Alarm 9, not confirmed audible, snoozed 1×, stopped by button",
                "Nap 07:00 — rang on time with Work, not confirmed audible, still ringing",
                "Gym 07:00 — rang on time with Work, not confirmed audible, still ringing",
            ])
    }

    @Test("random histories never trap, and every run gets exactly one line starting with its name")
    func tolerantOfAnything() throws {
        var seed: UInt64 = 0x5EED
        func next(_ n: Int) -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((seed >> 33) % UInt64(n))
        }
        let kinds = HistoryKind.allCases.map(\.rawValue) + ["", "bogus"]
        let details = [
            "", "due", "due 2026-06-01T05:00:00Z", "due garbage", "after_ms=", "after_ms=-5", "after_ms=99999999999",
            "to=", "to=tone", "to=tone reason=", "by=", "by=button by=shake", "occurrence 2026-06-01T05:10:00Z",
            "🙂 ünïcødé, ;;", "due 2026-06-01T05:00:00Z, 3 min late", "its snooze ended 2 min ago",
        ]
        let base = try Fixture.instant(Self.due)
        for _ in 0..<300 {
            let events = (0..<next(25)).map { _ in
                HistoryEvent(
                    at: base.addingTimeInterval(Double(next(7200) - 3600)), alarmID: next(4) == 0 ? nil : Int64(next(3)),
                    kind: kinds[next(kinds.count)], detail: details[next(details.count)])
            }
            let report = MorningReport.build(events: events, alarmNames: [1: "Work"], since: .distantPast)
            #expect(report.lines.count == report.runs.count)
            #expect(report.runs.count <= events.count)
            for (run, line) in zip(report.runs, report.lines) {
                #expect(line.hasPrefix(run.name), "\(line)")
            }
        }
    }
}

@Suite("History details: written by the daemon, read by the report")
struct HistoryDetailTests {
    @Test("each writer's text reads back")
    func roundTrips() throws {
        let t = try Fixture.instant("2026-03-29T01:30:00Z")
        #expect(HistoryDetail.due(t) == "due 2026-03-29T01:30:00Z")
        #expect(HistoryDetail.occurrence(in: HistoryDetail.due(t)) == t)
        #expect(HistoryDetail.audible(after: .milliseconds(850)) == "after_ms=850")
        #expect(HistoryDetail.audible(after: .seconds(exactly: 12.3456)) == "after_ms=12346")
        #expect(HistoryDetail.audible(after: .seconds(-1)) == "after_ms=0")
        #expect(HistoryDetail.audibleDelay(in: "after_ms=850") == .milliseconds(850))
        for target in HistoryDetail.FallbackTarget.allCases {
            let parsed = HistoryDetail.fallback(in: HistoryDetail.fallback(to: target, reason: "Stalled for 10 s."))
            #expect(parsed.target == target.rawValue && parsed.reason == "Stalled for 10 s.")
        }
        for input in DismissInput.allCases {
            #expect(HistoryDetail.dismissInput(in: HistoryDetail.dismissed(by: input)) == input)
        }
    }

    @Test("the alarms a ring was together with: written, read back, and read tolerantly")
    func ringingWith() {
        #expect(HistoryDetail.ringing(with: [3]) == "with alarm 3")
        #expect(HistoryDetail.ringing(with: [1, 3]) == "with alarms 1, 3")
        for ids: [Int64] in [[3], [1, 3], [7, 2, 40]] {
            #expect(
                HistoryDetail.ringingWith(in: "due 2026-06-01T05:00:00Z, 2 min late, " + HistoryDetail.ringing(with: ids)) == ids)
        }
        let rows: [(String, [Int64])] = [
            ("with alarms 1 and 3.", [1, 3]), ("With Alarm 4", [4]), ("due 2026-06-01T05:00:00Z", []),
            ("with alarm", []), ("with alarms x, 3", []), ("with alarm 2 by=button", [2]), ("", []),
        ]
        for (text, ids) in rows {
            #expect(HistoryDetail.ringingWith(in: text) == ids, "\(text)")
        }
        #expect(
            HistoryDetail.occurrence(in: "due 2026-06-01T05:00:00Z, with alarm 3") == Date(timeIntervalSince1970: 1_780_290_000))
    }

    static let occurrences: [(String, String?)] = [
        ("due 2026-03-29T01:30:00Z", "2026-03-29T01:30:00Z"),
        ("due 2026-03-29T01:30:00Z, 12 min late", "2026-03-29T01:30:00Z"),
        ("its occurrence 2026-10-25T00:30:00Z gave way to the next", "2026-10-25T00:30:00Z"),
        ("snooze ended 2026-03-29T01:39:00Z", nil),  // not the occurrence
        ("due tomorrow", nil),
        ("due 2026-03-29T01:30:00Z: the station did not answer.", "2026-03-29T01:30:00Z"),
        ("due", nil),
        ("", nil),
    ]

    @Test("the occurrence named in a detail", arguments: occurrences)
    func occurrence(_ row: (String, String?)) throws {
        let expected = try row.1.map { try Fixture.instant($0) }
        #expect(HistoryDetail.occurrence(in: row.0) == expected, "\(row.0)")
    }

    static let delays: [(String, Int64?)] = [
        ("after_ms=850", 850), ("after_ms=0", 0), ("source=tone after_ms=1200", 1200), ("after_ms=850, tone", 850),
        ("after_ms=-3", nil), ("after_ms=fast", nil), ("after 850 ms", nil), ("", nil),
    ]

    @Test("the delay of an audible detail", arguments: delays)
    func delay(_ row: (String, Int64?)) {
        #expect(HistoryDetail.audibleDelay(in: row.0) == row.1.map { .milliseconds($0) }, "\(row.0)")
    }

    static let fallbacks: [(String, String?, String)] = [
        ("to=tone reason=The station sent a web page, not audio.", "tone", "The station sent a web page, not audio."),
        ("to=alternate Connection refused.", "alternate", "Connection refused."),
        ("to=tone", "tone", ""),
        ("to= reason=odd", nil, "odd"),
        ("The station stalled.", nil, "The station stalled."),
        ("  ", nil, ""),
    ]

    @Test("the target and reason of a fallback detail", arguments: fallbacks)
    func fallback(_ row: (String, String?, String)) {
        let parsed = HistoryDetail.fallback(in: row.0)
        #expect(parsed.target == row.1 && parsed.reason == row.2, "\(row.0) → \(parsed)")
    }

    static let inputs: [(String, DismissInput?)] = [
        ("by=button", .button), ("shake", .shake), ("during its snooze, by=cli", .cli), ("by=API", .api),
        ("by=shake by=button", .shake), ("during its snooze", nil), ("by=elbow", nil), ("buttons", nil), ("", nil),
    ]

    @Test("the input named in a dismissal", arguments: inputs)
    func input(_ row: (String, DismissInput?)) {
        #expect(HistoryDetail.dismissInput(in: row.0) == row.1, "\(row.0)")
    }

    @Test("the engine names the input of a stop when told it, and keeps its snooze wording")
    func engineDetail() throws {
        var h = try SchedulerHarness([try Fixture.alarm("07:00", days: "daily")], at: "2026-06-01T04:59:00Z")
        h.start()
        try h.run(until: "2026-06-01T05:00:10Z")
        h.stop(by: .cli)
        #expect(h.events(.dismissed).map(\.detail) == ["by=cli"])
        try h.run(until: "2026-06-02T05:00:10Z")
        h.snooze()
        h.stop(alarm: 1, by: .api)
        #expect(h.events(.dismissed).map(\.detail) == ["by=cli", "during its snooze, by=api"])
        try h.run(until: "2026-06-03T05:00:10Z")
        h.stop()
        #expect(h.events(.dismissed).last?.detail == "")
    }
}
