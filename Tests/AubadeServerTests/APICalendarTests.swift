import AubadeApp
import AubadeCore
import AubadeStore
import AubadeTesting
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

/// The calendar routes over a real clock on a SQLite file: imports the clock downloads from a real HTTP server on
/// 127.0.0.1, days off, the sources, on air at an instant, reminders, programme-tied alarms, sleep until the end.
@Suite("API: calendars, days off, programme-tied alarms")
struct APICalendarTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("AubadeCalendarTests/Fixtures")

    /// The fixtures served by `python3 -m http.server`.
    static func serve() async throws -> (BackgroundProcess, String) {
        let server = try await BackgroundProcess(
            "/usr/bin/python3",
            [
                "-u", "-m", "http.server", "0", "--bind", "127.0.0.1",
                "--directory", fixtures.path,
            ])
        let port = try #require(server.firstLine.split(separator: " ").drop { $0 != "port" }.dropFirst().first)
        return (server, "http://127.0.0.1:\(port)")
    }

    @Test func importsDaysOffAndSources() async throws {
        let (server, base) = try await Self.serve()
        let rig = try await APIRig { store in
            _ = try store.insert(try Station(name: "FIP", url: StreamURL(parsing: "http://radio.example/fip")))
        }
        try await rig.app.test(.live) { client in
            func post(_ uri: String, _ json: String) async throws -> TestResponse {
                try await client.execute(uri: uri, method: .post, headers: rig.auth, body: ByteBuffer(json: json))
            }
            let imported = try await post("/api/v1/programmes/import", #"{"url":"\#(base)/berlin.ics","station":"FIP"}"#)
            #expect(
                imported.status == .ok && imported.object["count"] as? Int == 7
                    && imported.object["kind"] as? String == "programmes")
            let holidays = try await post("/api/v1/days-off/import", #"{"url":"\#(base)/holidays.ics"}"#)
            #expect(holidays.status == .ok && holidays.object["kind"] as? String == "daysOff")
            let missing = try await post("/api/v1/programmes/import", #"{"url":"\#(base)/nothing.ics"}"#)
            // A calendar that cannot be downloaded is no fault of the clock's: 422, never a 5xx.
            #expect(
                missing.status == .unprocessableContent && missing.error?.kind == "unprocessable"
                    && missing.error?.message.contains("answered HTTP 404") == true)
            let broken = try await post("/api/v1/programmes/import", #"{"url":"\#(base)/broken.ics"}"#)
            #expect(
                broken.status == .unprocessableContent
                    && broken.error?.message
                        == "\(base)/broken.ics, line 14: libical cannot read it: Can't parse as DATE-TIME value in DTSTART property ('2027-03-22 07:00')."
            )
            let ftp = try await post("/api/v1/programmes/import", #"{"url":"ftp://radio.example/x.ics"}"#)
            #expect(ftp.status == .badRequest)
            let typo = try await post("/api/v1/days-off/import", #"{"url":"\#(base)/holidays.ics","station":"FIP"}"#)
            #expect(typo.status == .badRequest && typo.error?.message.contains("'station'") == true)

            let sources = try await client.execute(uri: "/api/v1/calendars", method: .get)
            let list = sources.object["calendars"] as? [[String: Any]] ?? []
            #expect(
                list.map { $0["kind"] as? String } == ["programmes", "daysOff"] && list.first?["station"] as? String == "FIP")

            let added = try await post("/api/v1/days-off", #"{"dates":"2026-12-24..2026-12-26","name":"Christmas"}"#)
            #expect(added.status == .created && added.object["dates"] as? String == "2026-12-24..2026-12-26")
            let bad = try await post("/api/v1/days-off", #"{"dates":"24.12.2026"}"#)
            #expect(
                bad.status == .badRequest
                    && bad.error?.message
                        == "The day off's date '24.12.2026' is not a valid date; use YYYY-MM-DD, e.g. 2026-12-24."
            )
            let days = try await client.execute(uri: "/api/v1/days-off", method: .get).object["daysOff"] as? [[String: Any]] ?? []
            #expect(days.first?["name"] as? String == "Christmas")
            let id = try #require(added.object["id"] as? Int)
            let removed = try await client.execute(uri: "/api/v1/days-off/\(id)", method: .delete, headers: rig.auth)
            #expect(removed.object["deleted"] as? Int == id)
        }
        withExtendedLifetime(server) {}
    }

    @Test func onAirAtAnInstantRemindersTiedAlarmsAndSleepUntilTheEnd() async throws {
        let (server, base) = try await Self.serve()
        let rig = try await APIRig { store in
            _ = try store.insert(try Station(name: "FIP", url: StreamURL(parsing: "http://radio.example/fip")))
        }
        try await rig.app.test(.live) { client in
            func post(_ uri: String, _ json: String) async throws -> TestResponse {
                try await client.execute(uri: uri, method: .post, headers: rig.auth, body: ByteBuffer(json: json))
            }
            _ = try await post("/api/v1/programmes/import", #"{"url":"\#(base)/schedule.json","station":"FIP"}"#)
            let programmes =
                try await client.execute(uri: "/api/v1/programmes", method: .get).object["programmes"] as? [[String: Any]] ?? []
            let jazz = try #require(programmes.first { $0["name"] as? String == "Jazz" })
            #expect(jazz["timeZone"] as? String == "Europe/Paris" && jazz["source"] as? String == "\(base)/schedule.json")
            let jazzID = try #require(jazz["id"] as? Int)

            // 22:15 in Paris: Jazz (daily 22:00–23:00) is on air; a "+" written %2B.
            let onAir = try await client.execute(uri: "/api/v1/programmes/now?at=2026-11-24T22:15:00%2B01:00", method: .get)
            let now = try #require(onAir.object["now"] as? [String: Any])
            #expect(
                now["name"] as? String == "Jazz" && now["begins"] as? Double == 1_795_554_000
                    && now["ends"] as? Double == 1_795_557_600)
            let badAt = try await client.execute(uri: "/api/v1/programmes/now?at=tonight", method: .get)
            #expect(badAt.status == .badRequest)

            let reserved = try await post("/api/v1/programmes/\(jazzID)/reserve", #"{"remindSeconds":300}"#)
            #expect(reserved.object["reserved"] as? Bool == true && reserved.object["remindSeconds"] as? Int == 300)
            let badLead = try await post("/api/v1/programmes/\(jazzID)/reserve", #"{"remindSeconds":172800}"#)
            #expect(
                badLead.status == .badRequest
                    && badLead.error?.message == "A reminder lead of 48h is out of range; use 0s to 24h.")

            let tied = try await post("/api/v1/alarms", #"{"atProgramme":\#(jazzID),"source":"FIP"}"#)
            #expect(
                tied.status == .created && tied.object["programme"] as? Int == jazzID && tied.object["time"] as? String == "22:00"
            )
            #expect(tied.object["timeZone"] as? String == "Europe/Paris" && tied.object["skipDaysOff"] as? Bool == false)
            let next = try await client.execute(uri: "/api/v1/alarms/next?count=1", method: .get)
            let firing = (next.object["firings"] as? [[String: Any]])?.first
            #expect(firing?["onAir"] as? String == "Jazz")
            let clash = try await post("/api/v1/alarms", #"{"atProgramme":\#(jazzID),"time":"07:00"}"#)
            #expect(clash.status == .badRequest)

            // 07:50 in Paris: Le Matin (06:00–09:00) is on air; Jazz is not.
            let sleep = try await post("/api/v1/sleep", #"{"untilEndOf":"on-air"}"#)
            #expect(
                sleep.status == .ok
                    && (sleep.object["message"] as? String)?.hasPrefix("Until Le Matin ends at 09:00 (1h10m).") == true,
                "\(sleep.text)")
            let notOnAir = try await post("/api/v1/sleep", #"{"untilEndOf":\#(jazzID)}"#)
            #expect(
                notOnAir.status == .conflict
                    && notOnAir.error?.message == "Programme \(jazzID) (Jazz) is not on air now. It begins Tue 24 Nov 22:00.")
            let both = try await post("/api/v1/sleep", #"{"untilEndOf":\#(jazzID),"seconds":600}"#)
            #expect(both.status == .badRequest && both.error?.message == "Give 'seconds' or 'untilEndOf', not both.")
        }
        withExtendedLifetime(server) {}
    }
}
