import AubadeStore
import AubadeTesting
import Foundation
import GRDB
import Testing

/// An alarm's ladder through the built binary: `--ladder` on `alarm add/edit` (default, off, its own steps), its
/// refusals, what the summary line and `--json` say, and the column on a database of this schema version.
@Suite("aubade alarm --ladder (the built binary)")
struct LadderCLITests {
    @Test func aLadderIsSetEditedBackToTheClocksAndRefusedWhenItCannotBeUsed() async throws {
        let cli = try CLIHarness()
        let add = try await cli.run(["alarm", "add", "--name", "Work", "--time", "06:45", "--days", "daily", "--json"])
        #expect(try cli.json(add.stdout)["ladder"] as? String == "default", "a new alarm follows the clock's: \(add.stderr)")
        let own = try await cli.run(["alarm", "edit", "1", "--ladder", "step=2m,rounds=5"])
        #expect(
            own.status == 0 && own.stdout == "Changed alarm 1: Work at 06:45, daily, its own ladder step=2m,rounds=5.\n",
            "\(own.stderr)")
        let off = try await cli.run(["alarm", "edit", "1", "--ladder", "off"])
        #expect(off.stdout == "Changed alarm 1: Work at 06:45, daily, no ladder (silent after 15m).\n", "\(off.stderr)")
        let stored = try await DatabaseQueue(path: cli.db).read { db in try String.fetchOne(db, sql: "SELECT ladder FROM clocks")
        }
        #expect(stored == "off")

        let before = try await cli.run(["alarm", "list", "--json"]).stdout
        let short = try await cli.run(["alarm", "edit", "1", "--ladder", "step=10s"])
        #expect(
            short.status == 2 && short.errorSentence == "The ladder's step '10s' is out of range; use 30s to 30m.",
            "\(short.stderr)")
        let unknown = try await cli.run(["alarm", "edit", "1", "--ladder", "loudest"])
        #expect(unknown.status == 2 && unknown.errorSentence?.contains("'loudest'") == true, "\(unknown.stderr)")
        #expect(try await cli.run(["alarm", "list", "--json"]).stdout == before, "a refused edit changes nothing")

        let back = try await cli.run(["alarm", "edit", "1", "--ladder", "default", "--json"])
        #expect(try cli.json(back.stdout)["ladder"] as? String == "default")
        let column = try await DatabaseQueue(path: cli.db).read { db in
            try Row.fetchOne(db, sql: "SELECT ladder FROM clocks")?["ladder"] as String?
        }
        #expect(column == nil, "following the clock's is NULL, so a change of [alarm] ladder reaches it")
        let version = try await DatabaseQueue(path: cli.db).read { db in try Int.fetchOne(db, sql: "PRAGMA user_version") }
        #expect(version == Store.schemaVersion)
    }

    @Test func aLadderOfItsOwnCanBeGivenWhenTheAlarmIsAdded() async throws {
        let cli = try CLIHarness()
        let add = try await cli.run([
            "alarm", "add", "--name", "Deep", "--time", "06:00", "--ladder", "louder=12dB,gap=10m", "--json",
        ])
        #expect(try cli.json(add.stdout)["ladder"] as? String == "louder=12dB,gap=10m", "\(add.stderr)")
    }

    @Test func aWakeUpCheckIsSetTurnedOffAndRefusedOutOfRange() async throws {
        let cli = try CLIHarness()
        let add = try await cli.run([
            "alarm", "add", "--name", "Work", "--time", "06:45", "--days", "daily", "--wake-check", "5m",
        ])
        #expect(
            add.status == 0 && add.stdout == "Added alarm 1: Work at 06:45, daily, a wake-up check 5m after Stop.\n",
            "\(add.stderr)")
        let stored = try await DatabaseQueue(path: cli.db).read { db in
            try Int.fetchOne(db, sql: "SELECT wakeCheckSeconds FROM clocks")
        }
        #expect(stored == 300)
        let short = try await cli.run(["alarm", "edit", "1", "--wake-check", "10s"])
        #expect(
            short.status == 2 && short.errorSentence == "The wake-up check '10s' is out of range; use 1m to 1h.",
            "\(short.stderr)")
        let off = try await cli.run(["alarm", "edit", "1", "--wake-check", "off", "--json"])
        #expect(try cli.json(off.stdout)["wakeCheckSeconds"] as? Int == 0, "\(off.stderr)")
    }

    @Test func theShakerAndTheLampAreTimedPerAlarmStoredAndRefusedInOneSentence() async throws {
        let cli = try CLIHarness()
        let add = try await cli.run([
            "alarm", "add", "--name", "Quiet", "--time", "06:45", "--days", "daily", "--shaker", "now", "--lamp", "after:2m",
        ])
        #expect(
            add.status == 0
                && add.stdout == "Added alarm 1: Quiet at 06:45, daily, the shaker from the start; the lamp after 2m.\n",
            "\(add.stdout) \(add.stderr)")
        let stored = try await DatabaseQueue(path: cli.db).read { db in
            try Row.fetchOne(db, sql: "SELECT shaker, lamp FROM clocks").map { ($0["shaker"] as String?, $0["lamp"] as String?) }
        }
        #expect(stored?.0 == "now" && stored?.1 == "after:2m")
        let bad = try await cli.run(["alarm", "edit", "1", "--shaker", "sometimes"])
        #expect(
            bad.status == 2
                && bad.errorSentence
                    == "An output comes on \"ladder\" (at the top step, the default), \"now\", \"after:<duration>\" (1s to 1h) or \"off\", not 'sometimes'.",
            "\(bad.stderr)")
        let long = try await cli.run(["alarm", "edit", "1", "--lamp", "after:2h"])
        #expect(long.status == 2, "\(long.stderr)")
        let edited = try await cli.run(["alarm", "edit", "1", "--shaker", "off", "--lamp", "ladder", "--json"])
        let doc = try cli.json(edited.stdout)
        #expect(doc["shaker"] as? String == "off" && doc["lamp"] as? String == "ladder", "\(edited.stderr)")
        let back = try await DatabaseQueue(path: cli.db).read { db in
            try Row.fetchOne(db, sql: "SELECT shaker, lamp FROM clocks").map { ($0["shaker"] as String?, $0["lamp"] as String?) }
        }
        #expect(back?.0 == "off" && back?.1 == nil, "at the ladder's top is NULL")
    }

    @Test func vibrateFirstSoundAfterIsAddedEditedListedStoredAndRefusedInOneSentence() async throws {
        let cli = try CLIHarness()
        let add = try await cli.run([
            "alarm", "add", "--name", "Gentle", "--time", "06:45", "--days", "daily", "--sound-after", "1m",
        ])
        #expect(
            add.status == 0
                && add.stdout == "Added alarm 1: Gentle at 06:45, daily, vibrate first, the sound after 1m.\n",
            "\(add.stdout) \(add.stderr)")
        func column() async throws -> Int? {
            try await DatabaseQueue(path: cli.db).read { db in
                try Row.fetchOne(db, sql: "SELECT sound_after FROM clocks").flatMap { $0["sound_after"] as Int? }
            }
        }
        #expect(try await column() == 60)
        let list = try await cli.run(["alarm", "list", "--json"])
        #expect(list.stdout.contains("\"soundAfterSeconds\":60"), "\(list.stdout)")
        let text = try await cli.run(["alarm", "list"])
        #expect(text.stdout.contains("tone (after 1m)"), "the sound column: \(text.stdout)")
        let edited = try await cli.run(["alarm", "edit", "1", "--sound-after", "30s", "--json"])
        #expect(try cli.json(edited.stdout)["soundAfterSeconds"] as? Int == 30, "\(edited.stderr)")
        #expect(try await column() == 30)

        let long = try await cli.run(["alarm", "edit", "1", "--sound-after", "11m"])
        #expect(
            long.status == 2
                && long.errorSentence == "--sound-after is a duration from 1s to 10m, like 1m, or \"off\", not '11m'.",
            "\(long.stderr)")
        let silent = try await cli.run(["alarm", "edit", "1", "--shaker", "off", "--lamp", "off"])
        #expect(
            silent.status == 2
                && silent.errorSentence
                    == "--sound-after 30s needs the shaker or the lamp to come on before the sound, not both off or later.",
            "\(silent.stderr)")
        let both = try await cli.run([
            "alarm", "add", "--name", "Mute", "--time", "07:00", "--shaker", "off", "--lamp", "off", "--sound-after", "1m",
        ])
        #expect(both.status == 2, "\(both.stderr)")
        #expect(try await column() == 30, "nothing stored by a refused command")

        let off = try await cli.run(["alarm", "edit", "1", "--sound-after", "off", "--json"])
        #expect(try cli.json(off.stdout)["soundAfterSeconds"] as? Int == 0, "\(off.stderr)")
        #expect(try await column() == nil, "off is NULL")
    }
}
