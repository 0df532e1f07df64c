import AubadeCore
import AubadeStore
import AubadeTesting
import Foundation
import Testing

@Suite("aubade program … (the built binary)")
struct ProgramCommandTests {
    /// A database with the station FIP (id 1).
    static func harness() async throws -> CLIHarness {
        let cli = try CLIHarness()
        #expect(try await cli.run(["station", "add", "--name", "FIP", "--url", "https://fip.example/live.mp3"]).status == 0)
        return cli
    }

    @Test func addListReserveUnreserveRemove() async throws {
        let cli = try await Self.harness()
        let weekly = try await cli.run([
            "program", "add", "--name", "Night Jazz", "--begin", "22:00", "--end", "23:00",
            "--station", "fip", "--weekday", "fri",
        ])
        #expect(weekly.status == 0 && weekly.stdout == "Added programme 1: Night Jazz, 22:00-23:00, fri, on FIP.\n")

        let dated = try cli.json(
            try await cli.run([
                "program", "add", "--name", "New Year", "--begin", "23:30", "--end", "00:30",
                "--station", "FIP", "--date", "2026-12-31", "--json",
            ]).stdout)
        #expect(dated["id"] as? Int == 2 && dated["date"] as? String == "2026-12-31" && dated["when"] as? String == "2026-12-31")
        #expect(dated["begin"] as? String == "23:30" && dated["end"] as? String == "00:30", "an overnight programme is accepted")
        #expect(dated["stationId"] as? Int == 1 && dated["stationName"] as? String == "FIP")
        #expect(dated["reserved"] as? Bool == false && dated["weekday"] == nil)

        let daily = try await cli.run([
            "program", "add", "--name", "News", "--begin", "7:00", "--end", "07:15", "--station", "FIP",
        ])
        #expect(daily.stdout == "Added programme 3: News, 07:00-07:15, daily, on FIP.\n")

        let listed = try await Self.programmes(cli)
        #expect(listed.count == 3)
        let jazz = try #require(listed[1])
        #expect(
            jazz["name"] as? String == "Night Jazz" && jazz["weekday"] as? String == "fri" && jazz["when"] as? String == "fri")
        #expect(jazz["date"] == nil && jazz["reserved"] as? Bool == false)
        #expect(listed[3]?["when"] as? String == "daily")

        let text = try await cli.run(["program", "list"])
        #expect(text.status == 0)
        #expect(text.stdout.contains("ID  NAME        BEGIN  END    WHEN        ZONE  STATION  RESERVED"))
        #expect(text.stdout.contains("1   Night Jazz  22:00  23:00  fri         -     FIP      no"))

        let reserve = try await cli.run(["program", "reserve", "1"])
        #expect(reserve.status == 0)
        #expect(reserve.stdout == "Reserved programme 1 (Night Jazz): at 22:00 a chime plays and the radio tunes to FIP.\n")
        #expect(try await Self.programmes(cli)[1]?["reserved"] as? Bool == true)
        #expect(try await cli.run(["program", "reserve", "1"]).status == 0, "reserving twice is harmless")
        let reservedJSON = try cli.json(try await cli.run(["program", "reserve", "3", "--json"]).stdout)
        #expect(reservedJSON["id"] as? Int == 3 && reservedJSON["reserved"] as? Bool == true)
        #expect(
            try await cli.run(["program", "list"]).stdout.contains("1   Night Jazz  22:00  23:00  fri         -     FIP      yes")
        )

        #expect(try await cli.run(["program", "unreserve", "1"]).stdout == "Programme 1 (Night Jazz) is no longer reserved.\n")
        let after = try await Self.programmes(cli)
        #expect(after[1]?["reserved"] as? Bool == false && after[3]?["reserved"] as? Bool == true)

        #expect(try await cli.run(["program", "rm", "2"]).stdout == "Deleted programme 2 (New Year).\n")
        #expect(try cli.json(try await cli.run(["program", "rm", "3", "--json"]).stdout)["deleted"] as? Int == 3)
        #expect(try await Self.programmes(cli).keys.sorted() == [1])
    }

    @Test func anEmptyListSaysHowToAddOne() async throws {
        let cli = try await Self.harness()
        let text = try await cli.run(["program", "list"])
        #expect(text.status == 0 && text.stdout.hasPrefix("No programmes. Add one with: aubade program add"))
        #expect(try await Self.programmes(cli).isEmpty)
    }

    @Test func removingTheStationRemovesItsProgrammes() async throws {
        let cli = try await Self.harness()
        #expect(
            try await cli.run(["program", "add", "--name", "News", "--begin", "07:00", "--end", "07:15", "--station", "FIP"])
                .status == 0)
        #expect(try await cli.run(["station", "rm", "FIP"]).status == 0)
        #expect(try await Self.programmes(cli).isEmpty)
    }

    @Test func aProgrammeWithoutAStationCannotBeReserved() async throws {
        let cli = try await Self.harness()
        let store = try Store.open(path: cli.db)
        try store.insert([
            Programme(name: "Imported", begin: try LocalTime(parsing: "06:00"), end: try LocalTime(parsing: "07:00"))
        ])
        store.close()
        let before = try cli.dump()
        let r = try await cli.run(["program", "reserve", "1"])
        #expect(r.status == 2)
        #expect(
            r.errorSentence == "Programme 1 (Imported) has no station to tune to, so it cannot be reserved.",
            "stderr was: \(r.stderr)")
        #expect(r.stdout.isEmpty)
        #expect(try cli.dump() == before)
        #expect(try await cli.run(["program", "unreserve", "1"]).status == 0, "unreserving it is fine")
        let listed = try await Self.programmes(cli)
        #expect(listed[1]?["stationId"] == nil && listed[1]?["stationName"] == nil)
    }

    /// Each bad input: one sentence on stderr, exit code 2, nothing on stdout, and the database exactly as it was.
    @Test(arguments: [
        (
            ["program", "add", "--begin", "07:00", "--end", "08:00", "--station", "FIP"],
            "A programme needs a name: add --name, e.g. --name 'Night Jazz'."
        ),
        (
            ["program", "add", "--name", "X", "--end", "08:00", "--station", "FIP"],
            "A programme needs a begin time: add --begin HH:MM, e.g. --begin 22:00."
        ),
        (
            ["program", "add", "--name", "X", "--begin", "07:00", "--station", "FIP"],
            "A programme needs an end time: add --end HH:MM, e.g. --end 23:00."
        ),
        (
            ["program", "add", "--name", "X", "--begin", "07:00", "--end", "08:00"],
            "A programme needs a station: add --station with a saved station's name (see 'aubade station list')."
        ),
        (
            ["program", "add", "--name", "X", "--begin", "25:00", "--end", "08:00", "--station", "FIP"],
            "Begin time '25:00' is not a valid time; use HH:MM from 00:00 to 23:59."
        ),
        (
            ["program", "add", "--name", "X", "--begin", "07:00", "--end", "7.30", "--station", "FIP"],
            "End time '7.30' is not a valid time; use HH:MM from 00:00 to 23:59."
        ),
        (
            ["program", "add", "--name", "X", "--begin", "07:00", "--end", "08:00", "--station", "Nothing FM"],
            "No station is named 'Nothing FM'; see 'aubade station list'."
        ),
        (
            ["program", "add", "--name", "X", "--begin", "07:00", "--end", "08:00", "--station", "FIP", "--weekday", "funday"],
            "Weekday 'funday' is unknown; use mon, tue, wed, thu, fri, sat or sun."
        ),
        (
            ["program", "add", "--name", "X", "--begin", "07:00", "--end", "08:00", "--station", "FIP", "--date", "2026-02-30"],
            "Programme date '2026-02-30' is not a valid date; use YYYY-MM-DD, e.g. 2026-12-24."
        ),
        (
            [
                "program", "add", "--name", "X", "--begin", "07:00", "--end", "08:00", "--station", "FIP", "--weekday", "mon",
                "--date", "2026-12-24",
            ],
            "Programme 'X' has both a weekday and a date; give one or the other."
        ),
        (
            ["program", "add", "--name", "X", "--begin", "07:00", "--end", "07:00", "--station", "FIP"],
            "Programme 'X' begins and ends at 07:00; give it a length."
        ),
        (
            ["program", "add", "--name", " ", "--begin", "07:00", "--end", "08:00", "--station", "FIP"],
            "Programme name is empty; give it a few words."
        ),
        (["program", "reserve", "42"], "No programme has id 42."),
        (["program", "unreserve", "42"], "No programme has id 42."),
        (["program", "rm", "42"], "No programme has id 42."),
    ])
    func badInputChangesNothing(args: [String], sentence: String) async throws {
        let cli = try await Self.harness()
        #expect(
            try await cli.run(["program", "add", "--name", "Keep", "--begin", "06:00", "--end", "07:00", "--station", "FIP"])
                .status == 0)
        let before = try cli.dump()
        let result = try await cli.run(args)
        #expect(result.status == 2)
        #expect(result.errorSentence == sentence, "stderr was: \(result.stderr)")
        #expect(result.stdout.isEmpty)
        #expect(try cli.dump() == before)
    }

    @Test func argumentErrorsAreExitCode2() async throws {
        let cli = try await Self.harness()
        let before = try cli.dump()
        for args in [["program", "reserve", "abc"], ["program", "rm"], ["program", "frobnicate"]] {
            let r = try await cli.run(args)
            #expect(r.status == 2, "\(args): \(r.stderr)")
            #expect(r.stderr.hasPrefix("aubade: "), "\(args): \(r.stderr)")
        }
        #expect(try cli.dump() == before)
        let help = try await cli.run(["program", "--help"], withDB: false)
        #expect(help.status == 0 && help.stdout.contains("reserve") && help.stdout.contains("unreserve"))
    }

    /// `program list --json`, keyed by id.
    static func programmes(_ cli: CLIHarness) async throws -> [Int: [String: Any]] {
        let result = try await cli.run(["program", "list", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let list = try #require(try cli.json(result.stdout)["programmes"] as? [[String: Any]])
        var out: [Int: [String: Any]] = [:]
        for p in list { if let id = p["id"] as? Int { out[id] = p } }
        return out
    }
}
