import AubadeTesting
import Foundation
import Testing

/// `aubade program import | now | reserve --remind`, `days-off …`, `alarm add --at-programme`, and `alarm next`
/// with days off, through the built binary on real SQLite files; the calendars are AubadeCalendarTests' fixtures.
@Suite("aubade calendars: import, now, days off, programme-tied alarms (the built binary)")
struct CalendarCLITests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("AubadeCalendarTests/Fixtures")

    static func fixture(_ name: String) -> String { fixtures.appendingPathComponent(name).path }

    func ok(_ cli: CLIHarness, _ args: [String]) async throws -> ProcessResult {
        let r = try await cli.run(args)
        #expect(r.status == 0, "\(args): \(r.stderr)")
        return r
    }

    @Test func importListAndNowAndNextAtChosenInstants() async throws {
        let cli = try CLIHarness()
        _ = try await ok(cli, ["station", "add", "--name", "FIP", "--url", "http://radio.example/fip"])
        let imported = try await ok(
            cli,
            [
                "program", "import", Self.fixture("berlin.ics"), "--station", "FIP",
                "--now", "2027-03-20T00:00:00Z", "--json",
            ])
        let summary = try cli.json(imported.stdout)
        #expect(summary["count"] as? Int == 7 && summary["added"] as? Int == 7 && summary["kind"] as? String == "programmes")
        let list = try cli.json(try await ok(cli, ["program", "list", "--json"]).stdout)["programmes"] as? [[String: Any]] ?? []
        #expect(list.count == 7 && list.allSatisfy { $0["stationName"] as? String == "FIP" })

        // Monday after the change, 07:15 CEST: the weekly 07:00 show, at 07:00 local.
        let monday = try cli.json(try await ok(cli, ["program", "now", "--now", "2027-03-29T07:15:00+02:00", "--json"]).stdout)
        let onAir = try #require(monday["now"] as? [String: Any])
        #expect(onAir["name"] as? String == "Morning Show" && onAir["begins"] as? Double == 1_806_296_400)  // 05:00Z
        #expect((monday["next"] as? [String: Any])?["name"] as? String == "World News")
        // The DST night at 00:30 CET: the Saturday show past midnight; then the Sunday news.
        let night = try await ok(cli, ["program", "now", "--now", "2027-03-28T00:30:00+01:00", "--station", "FIP"])
        #expect(night.stdout.contains("On air: Night Jazz on FIP, Sat 27 Mar 23:00–01:00"))
        // Wednesday: the EXDATE — after the news nothing is on; next is Thursday's show (the news begins with it:
        // the lower id comes first).
        let wednesday = try cli.json(
            try await ok(cli, ["program", "now", "--now", "2027-03-24T07:45:00+01:00", "--json"]).stdout)
        #expect(wednesday["now"] is NSNull && (wednesday["next"] as? [String: Any])?["name"] as? String == "Morning Show")
    }

    @Test func aBadCalendarNamesItsLineAndImportsNothing() async throws {
        let cli = try CLIHarness()
        _ = try await ok(cli, ["program", "import", Self.fixture("schedule.csv"), "--now", "2027-03-20T00:00:00Z"])
        let before = try cli.dump()
        let broken = try await cli.run(["program", "import", Self.fixture("broken.ics")])
        #expect(broken.status == 2)
        #expect(
            broken.errorSentence
                == "\(Self.fixture("broken.ics")), line 14: libical cannot read it: Can't parse as DATE-TIME value in DTSTART property ('2027-03-22 07:00')."
        )
        let json = try await cli.run(["program", "import", Self.fixture("schedule-bad.json")])
        #expect(
            json.status == 2 && json.errorSentence?.contains("schedule-bad.json, line 4: the start '25:00'") == true,
            "\(json.stderr)")
        let missing = try await cli.run(["program", "import", "nowhere.ics"])
        #expect(missing.status == 2 && missing.errorSentence == "There is no file \(cli.dir.file("nowhere.ics")).")
        #expect(try cli.dump() == before, "nothing half-imported, nothing lost")
        let staged = try FileManager.default.contentsOfDirectory(atPath: cli.db + ".calendars")
        #expect(staged == ["source-1.csv"], "only the good calendar's copy is kept: \(staged)")
    }

    @Test func aReimportKeepsTheReservationAndATiedAlarmFollowsItsProgramme() async throws {
        let cli = try CLIHarness()
        _ = try await ok(cli, ["station", "add", "--name", "FIP", "--url", "http://radio.example/fip"])
        let csv = cli.dir.file("fip.csv")
        func write(_ nightOwls: String?) throws {
            var text = "weekday,start,end,title,host,description\nmon-fri,06:00,09:00,Breakfast,Sam,\n"
            if let nightOwls { text += nightOwls + "\n" }
            try Data(text.utf8).write(to: URL(fileURLWithPath: csv))
        }
        try write("sun,23:00,01:00,Night Owls,Ray,Late talk")
        _ = try await ok(cli, ["program", "import", "fip.csv", "--station", "FIP"])
        let programmes =
            try cli.json(try await ok(cli, ["program", "list", "--json"]).stdout)["programmes"] as? [[String: Any]] ?? []
        let owls = try #require(programmes.first { $0["name"] as? String == "Night Owls" }?["id"] as? Int)
        let reserve = try await ok(cli, ["program", "reserve", String(owls), "--remind", "5m"])
        #expect(reserve.stdout.contains("a chime 5m before 23:00, and at 23:00 the radio tunes to FIP"))
        let tied = try cli.json(
            try await ok(cli, ["alarm", "add", "--at-programme", String(owls), "--source", "FIP", "--json"]).stdout)
        #expect(tied["time"] as? String == "23:00" && tied["days"] as? String == "sun" && tied["programme"] as? Int == owls)

        // The programme moves: same key (weekday, start and title make it), so the old row is replaced by a new one…
        // unless the title and day stay — here the start changes, so it is a new programme and the old one is gone.
        try write("sun,23:30,01:00,Night Owls,Ray,Late talk")
        let moved = try await ok(cli, ["program", "import", "fip.csv", "--station", "FIP"])
        #expect(moved.stdout.contains("The programme of alarm(s) 1 is gone; they ring at its last known time."))
        let alarm = try cli.json(try await ok(cli, ["alarm", "list", "--json"]).stdout)["alarms"] as? [[String: Any]] ?? []
        #expect(alarm.first?["programmeGone"] as? Bool == true && alarm.first?["time"] as? String == "23:00")
        let list = try await ok(cli, ["alarm", "list"])
        #expect(list.stdout.contains("follows Night Owls (\(owls)), gone: last known time"))
    }

    @Test func anIDKeepsAProgrammeAcrossATimeChange() async throws {
        let cli = try CLIHarness()
        _ = try await ok(cli, ["station", "add", "--name", "FIP", "--url", "http://radio.example/fip"])
        let json = cli.dir.file("fip.json")
        func write(_ start: String) throws {
            let text =
                #"{"programmes": [{"id": "owls", "title": "Night Owls", "days": "sun", "start": "\#(start)", "end": "01:00"}]}"#
            try Data(text.utf8).write(to: URL(fileURLWithPath: json))
        }
        try write("23:00")
        _ = try await ok(cli, ["program", "import", "fip.json", "--station", "FIP"])
        _ = try await ok(cli, ["program", "reserve", "1"])
        _ = try await ok(cli, ["alarm", "add", "--at-programme", "1"])
        try write("22:30")
        let moved = try cli.json(try await ok(cli, ["program", "import", "fip.json", "--station", "FIP", "--json"]).stdout)
        #expect(moved["alarmsMoved"] as? [Int] == [1] && moved["reservationsKept"] as? Int == 1 && moved["kept"] as? Int == 1)
        let alarm = try cli.json(try await ok(cli, ["alarm", "list", "--json"]).stdout)["alarms"] as? [[String: Any]] ?? []
        #expect(alarm.first?["time"] as? String == "22:30" && alarm.first?["programmeGone"] as? Bool == false)
        let programme =
            try cli.json(try await ok(cli, ["program", "list", "--json"]).stdout)["programmes"] as? [[String: Any]] ?? []
        #expect(programme.first?["id"] as? Int == 1 && programme.first?["reserved"] as? Bool == true)
    }

    @Test func daysOffMakeAWeekdayAlarmSkipAndSayWhy() async throws {
        let cli = try CLIHarness()
        _ = try await ok(
            cli, ["alarm", "add", "--name", "Work", "--time", "06:45", "--days", "mon-fri", "--tz", "Europe/Berlin"])
        _ = try await ok(
            cli,
            [
                "alarm", "add", "--name", "Gym", "--time", "07:30", "--days", "mon-fri", "--no-skip-days-off",
                "--tz", "Europe/Berlin",
            ])
        _ = try await ok(cli, ["days-off", "import", Self.fixture("holidays.ics"), "--now", "2027-01-01T00:00:00Z"])
        let away = try await ok(cli, ["days-off", "add", "2027-04-05..2027-04-06", "--name", "Away"])
        #expect(away.stdout.hasPrefix("Added day off 9: Away, 2027-04-05..2027-04-06."))
        let days = try cli.json(try await ok(cli, ["days-off", "list", "--json"]).stdout)["daysOff"] as? [[String: Any]] ?? []
        #expect(
            days.count == 9
                && days.contains { $0["dates"] as? String == "2027-12-24..2027-12-26" && $0["name"] as? String == "Christmas" })

        let next = try cli.json(
            try await ok(cli, ["alarm", "next", "--json", "--count", "8", "--now", "2027-03-25T12:00:00+01:00"]).stdout)
        let firings = next["firings"] as? [[String: Any]] ?? []
        let work = firings.filter { $0["name"] as? String == "Work" }
        #expect(work.map { $0["date"] as? String ?? "" } == ["2027-03-26", "2027-03-29", "2027-03-30", "2027-03-31"])
        #expect(work.map { $0["reason"] as? String } == ["skipped: Good Friday", "skipped: Easter Monday", nil, nil])
        #expect(firings.filter { $0["name"] as? String == "Gym" }.allSatisfy { $0["skipped"] as? Bool == false })
        let text = try await ok(cli, ["alarm", "next", "--count", "2", "--now", "2027-12-23T12:00:00+01:00"])
        #expect(text.stdout.contains("skipped: Christmas"))

        let before = try cli.dump()
        let bad = try await cli.run(["days-off", "add", "2027-12-31..2027-12-01"])
        #expect(
            bad.status == 2
                && bad.errorSentence
                    == "The day off ends (2027-12-01) before it begins (2027-12-31); give the earlier date first."
        )
        let notDates = try await cli.run(["days-off", "import", Self.fixture("schedule.csv")])
        #expect(
            notDates.status == 2
                && notDates.errorSentence?.hasSuffix(
                    "days off are read from an iCalendar file (BEGIN:VCALENDAR), such as a public-holiday calendar.") == true
        )
        #expect(try cli.dump() == before)
        let removed = try await ok(cli, ["days-off", "rm", "9"])
        #expect(removed.stdout == "Removed day off 9 (Away, 2027-04-05..2027-04-06).\n")
    }

    @Test func aURLIsDownloadedWithTheStreamsRulesAndWifiOnlyRefusesIt() async throws {
        let cli = try CLIHarness()
        try FileManager.default.createDirectory(atPath: cli.dir.file("www"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Self.fixture("holidays.ics"), toPath: cli.dir.file("www/holidays.ics"))
        let server = try await BackgroundProcess(
            "/usr/bin/python3",
            [
                "-u", "-m", "http.server", "0", "--bind", "127.0.0.1",
                "--directory", cli.dir.file("www"),
            ])
        let port = try #require(server.firstLine.split(separator: " ").drop { $0 != "port" }.dropFirst().first)
        let url = "http://127.0.0.1:\(port)/holidays.ics"
        let refused = try await cli.run(["days-off", "import", url, "--now", "2027-01-01T00:00:00Z"])
        #expect(
            refused.status == 1 && refused.errorSentence?.contains("resolves to a loopback address, which is refused") == true,
            "\(refused.stderr)")
        let imported = try await ok(cli, ["days-off", "import", url, "--now", "2027-01-01T00:00:00Z", "--allow-local"])
        #expect(imported.stdout.hasPrefix("Imported 8 days off from \(url)"))
        #expect(imported.stdout.contains("It is fetched again every 24h while the clock runs."))

        _ = try await ok(cli, ["settings", "set", "isWifi", "true"])
        let before = try cli.dump()
        let wifiOnly = try await cli.run(["days-off", "import", url, "--allow-local"])
        // This machine's default route is wired (or there is none): Wi-Fi-only refuses the download.
        #expect(
            wifiOnly.status == 1
                && wifiOnly.errorSentence?.hasPrefix("The calendar is not downloaded: Wi-Fi-only mode is on") == true,
            "\(wifiOnly.stderr)")
        #expect(try cli.dump() == before)
    }
}
