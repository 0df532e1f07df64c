import AubadeTesting
import Foundation
import Testing

@Suite("aubade alarm … (the built binary)")
struct AlarmCLITests {
    @Test func addListEditEnableDisableRemove() async throws {
        let cli = try CLIHarness()
        let add = try await cli.run([
            "alarm", "add", "--name", "Work", "--time", "06:45", "--days", "mon-fri", "--source", "tone",
            "--duration", "15m", "--shake",
        ])
        #expect(add.status == 0 && add.stdout == "Added alarm 1: Work at 06:45, mon-fri, not on days off.\n")
        let nap = try await cli.run([
            "alarm", "add", "--name", "Nap", "--time", "14:00", "--days", "once", "--date", "2030-01-02",
            "--json",
        ])
        #expect(nap.status == 0)
        let napJSON = try cli.json(nap.stdout)
        #expect(napJSON["id"] as? Int == 2 && napJSON["days"] as? String == "once" && napJSON["date"] as? String == "2030-01-02")

        let list = try await cli.run(["alarm", "list", "--json"])
        let alarms = try #require(try cli.json(list.stdout)["alarms"] as? [[String: Any]])
        #expect(alarms.count == 2)
        let work = alarms[0]
        #expect(work["name"] as? String == "Work" && work["time"] as? String == "06:45")
        #expect(work["days"] as? String == "mon,tue,wed,thu,fri" && work["durationSeconds"] as? Int == 900)
        #expect(work["shakeToStop"] as? Bool == true && work["enabled"] as? Bool == true && work["sound"] as? String == "tone")

        let text = try await cli.run(["alarm", "list"])
        #expect(text.stdout.contains("Work  06:45  mon-fri"))

        #expect(try await cli.run(["alarm", "edit", "1", "--volume", "80", "--days", "weekends", "--no-shake"]).status == 0)
        #expect(try await cli.run(["alarm", "disable", "1"]).stdout == "Alarm 1 (Work) is disabled.\n")
        let edited = try cli.json(try await cli.run(["alarm", "enable", "1", "--json"]).stdout)
        #expect(edited["volume"] as? Int == 80 && edited["days"] as? String == "sat,sun")
        #expect(edited["shakeToStop"] as? Bool == false && edited["enabled"] as? Bool == true)

        #expect(try await cli.run(["alarm", "rm", "2"]).stdout == "Deleted alarm 2 (Nap).\n")
        #expect(try cli.json(try await cli.run(["alarm", "list", "--json"]).stdout)["alarms"].map { ($0 as! [Any]).count } == 1)
    }

    @Test func aOneShotAlarmWithoutADateTakesTheNextDayItsTimeComes() async throws {
        let cli = try CLIHarness()
        let out = try cli.json(
            try await cli.run(["alarm", "add", "--name", "Soon", "--time", "00:00", "--tz", "UTC", "--json"]).stdout)
        let tomorrow = Date().addingTimeInterval(86_400)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let c = calendar.dateComponents([.year, .month, .day], from: tomorrow)
        #expect(out["date"] as? String == String(format: "%04d-%02d-%02d", c.year!, c.month!, c.day!))
        #expect(out["timeZone"] as? String == "UTC")
    }

    @Test func stationsAsAlarmSounds() async throws {
        let cli = try CLIHarness()
        #expect(try await cli.run(["station", "add", "--name", "FIP", "--url", "https://fip.example/live.mp3"]).status == 0)
        let a = try cli.json(
            try await cli.run([
                "alarm", "add", "--name", "Radio", "--time", "07:00", "--days", "daily",
                "--source", "fip", "--json",
            ]).stdout)
        #expect(a["sound"] as? String == "station:1" && a["soundName"] as? String == "FIP")
        let rm = try await cli.run(["station", "rm", "FIP"])
        #expect(rm.status == 2 && rm.errorSentence == "Station 1 is the sound of alarm 'Radio'; change the alarm first.")
        let url = "http://192.168.1.20:8000/stream"
        #expect(try await cli.run(["alarm", "edit", "1", "--source", url]).status == 0)
        #expect(try await cli.run(["station", "rm", "FIP"]).stdout == "Deleted station 1 (FIP).\n")
        #expect(
            try cli.json(try await cli.run(["station", "list", "--json"]).stdout)["stations"].map { ($0 as! [Any]).count } == 0)
    }

    /// Each bad input: one sentence on stderr, exit code 2, and the database exactly as it was.
    @Test(arguments: [
        (
            ["alarm", "add", "--name", "X", "--time", "25:61"],
            "Alarm time '25:61' is not a valid time; use HH:MM from 00:00 to 23:59."
        ),
        (
            ["alarm", "add", "--name", "X", "--time", "07:00", "--days", "funday"],
            "Unknown day 'funday'; use mon…sun, ranges like mon-fri, daily, weekdays, weekends or once."
        ),
        (["alarm", "add", "--name", "", "--time", "07:00"], "Alarm name is empty; give it a few words."),
        (
            ["alarm", "add", "--name", "X", "--time", "07:00", "--source", "ftp://radio.example/x"],
            "Stream URLs must use http or https, not 'ftp'."
        ),
        (
            ["alarm", "add", "--name", "X", "--time", "07:00", "--source", "Radio Nowhere"],
            "Sound 'Radio Nowhere' is neither tone, a saved station, podcast:<name> nor an http(s) URL; list stations with 'aubade station list'."
        ),
        (
            ["alarm", "add", "--name", "X", "--time", "07:00", "--duration", "15"],
            "Duration '15' needs a unit, like 15m, 90s or 1h30m."
        ),
        (["alarm", "add", "--name", "X", "--time", "07:00", "--volume", "0"], "Volume 0 is out of range; use 10 to 100."),
        (
            ["alarm", "add", "--name", "X", "--time", "07:00", "--tz", "Mars/Base"],
            "Time zone 'Mars/Base' is unknown; use a tz database name such as Europe/Berlin."
        ),
        (["alarm", "add", "--time", "07:00"], "An alarm needs a name: add --name, e.g. --name Work."),
        (["alarm", "edit", "42", "--volume", "50"], "No alarm has id 42."),
        (["alarm", "edit", "1", "--time", "7.30"], "Alarm time '7.30' is not a valid time; use HH:MM from 00:00 to 23:59."),
        (
            ["alarm", "edit", "1", "--date", "2030-01-01"],
            "A date only goes with --days once; repeating alarms ring on weekdays."
        ),
        (["alarm", "rm", "42"], "No alarm has id 42."),
        (["alarm", "enable", "42"], "No alarm has id 42."),
        (["alarm", "disable", "42"], "No alarm has id 42."),
        (
            ["settings", "set", "volume", "50"],
            "Unknown setting 'volume'; known settings are isWifi, defaultVolume, snoozeMinutes, maxSnoozes, alarmDuration, fadeIn, fallbackTone, toneVolume, catchUp, sleepDuration, sleepFade, sleepVolume, dimFrom, dimUntil, dimLevel."
        ),
        (["settings", "set", "isWifi", "perhaps"], "Setting isWifi takes true or false, not 'perhaps'."),
        (
            ["station", "add", "--name", "tone", "--url", "https://x.example/"],
            "Station name 'tone' is reserved; pick a name that is not 'tone' and has no '://'."
        ),
        (
            ["station", "add", "--name", "Local", "--url", "http://user:pw@x.example/"],
            "Stream URLs with a user name or password in them are refused."
        ),
        (["station", "rm", "Nothing FM"], "No station is named 'Nothing FM'; see 'aubade station list'."),
    ])
    func badInputChangesNothing(args: [String], sentence: String) async throws {
        let cli = try CLIHarness()
        #expect(try await cli.run(["alarm", "add", "--name", "Keep", "--time", "06:00", "--days", "daily"]).status == 0)
        #expect(try await cli.run(["station", "add", "--name", "FIP", "--url", "https://fip.example/live"]).status == 0)
        let before = try cli.dump()
        let result = try await cli.run(args)
        #expect(result.status == 2)
        #expect(result.errorSentence == sentence, "stderr was: \(result.stderr)")
        #expect(result.stdout.isEmpty)
        #expect(try cli.dump() == before)
    }

    @Test func argumentErrorsAreExitCode2Too() async throws {
        let cli = try CLIHarness()
        for args in [["alarm", "rm", "abc"], ["alarm", "add", "--volume", "loud"], ["alarm", "frobnicate"], ["nonsense"]] {
            let r = try await cli.run(args)
            #expect(r.status == 2, "\(args): \(r.stderr)")
            #expect(r.stderr.hasPrefix("aubade: "), "\(args): \(r.stderr)")
        }
        let help = try await cli.run(["--help"], withDB: false)
        #expect(help.status == 0 && help.stdout.contains("alarm"))
    }
}
