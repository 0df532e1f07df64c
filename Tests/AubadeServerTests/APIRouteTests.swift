import AubadeApp
import AubadeAppTesting
import AubadeCore
import AubadeStore
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

@testable import AubadeServer

/// Every route of the API against a real clock on a SQLite file, served on 127.0.0.1.
@Suite("API routes")
struct APIRouteTests {
    @Test func everyRegisteredRouteIsInTheOpenAPIDocumentAndEveryDocumentedOneIsRegistered() async throws {
        let rig = try await APIRig()
        let (_, routes) = APIServer.router(clock: rig.clock, settings: rig.settings)
        let documented = OpenAPIDocument.operations()
        #expect(routes.count == Set(routes).count, "no route registered twice")
        #expect(
            Set(routes).subtracting(documented).isEmpty, "registered but not documented: \(Set(routes).subtracting(documented))")
        #expect(documented.subtracting(routes).isEmpty, "documented but not registered: \(documented.subtracting(routes))")
        #expect(routes.count >= 36)
        try await rig.app.test(.live) { client in
            let served = try await client.execute(uri: "/api/v1/openapi.json", method: .get)
            #expect(served.status == .ok && served.object["openapi"] as? String == "3.1.0")
        }
    }

    @Test func alarmsAreCreatedListedChangedSkippedAndDeleted() async throws {
        let rig = try await APIRig()
        try await rig.app.test(.live) { client in
            let made = try await client.execute(
                uri: "/api/v1/alarms", method: .post, headers: rig.auth,
                body: ByteBuffer(json: #"{"name":"Work","time":"07:30","days":"mon-fri","volume":70}"#))
            #expect(made.status == .created)
            let id = try #require(made.object["id"] as? Int)
            #expect(made.object["days"] as? String == "mon,tue,wed,thu,fri" && made.object["volume"] as? Int == 70)
            // Committed before the answer: another connection to the file has it.
            #expect(try Store.openForReading(path: rig.store.path).alarms().map(\.name) == ["Work"])
            let list = try await client.execute(uri: "/api/v1/alarms", method: .get)
            #expect((list.object["alarms"] as? [[String: Any]])?.map { $0["name"] as? String } == ["Work"])
            #expect(try await client.execute(uri: "/api/v1/alarms/\(id)", method: .get).object["time"] as? String == "07:30")
            let patched = try await client.execute(
                uri: "/api/v1/alarms/\(id)", method: .patch, headers: rig.auth,
                body: ByteBuffer(json: #"{"time":"07:45","shake":true}"#))
            #expect(patched.object["time"] as? String == "07:45" && patched.object["shakeToStop"] as? Bool == true)
            let off = try await client.execute(uri: "/api/v1/alarms/\(id)/disable", method: .post, headers: rig.auth)
            #expect(off.object["enabled"] as? Bool == false)
            let on = try await client.execute(uri: "/api/v1/alarms/\(id)/enable", method: .post, headers: rig.auth)
            #expect(on.object["enabled"] as? Bool == true)
            let skipped = try await client.execute(
                uri: "/api/v1/alarms/\(id)/skip-next", method: .post, headers: rig.auth,
                body: ByteBuffer(json: "{}"))
            #expect(skipped.object["skipDate"] as? String == "2026-11-24")
            let next = try await client.execute(uri: "/api/v1/alarms/next?count=2", method: .get)
            let firings = try #require(next.object["firings"] as? [[String: Any]])
            #expect(firings.map { $0["skipped"] as? Bool } == [true, false])
            #expect(firings.first?["local"] as? String == "Tue 24 Nov 07:45")
            #expect(next.object["tomorrow"] as? String == "Tomorrow: Work at 07:45.")
            let undone = try await client.execute(
                uri: "/api/v1/alarms/\(id)/skip-next", method: .post, headers: rig.auth,
                body: ByteBuffer(json: #"{"undo":true}"#))
            #expect(undone.object["skipDate"] == nil)
            let deleted = try await client.execute(uri: "/api/v1/alarms/\(id)", method: .delete, headers: rig.auth)
            #expect(deleted.status == .ok && deleted.object["deleted"] as? Int == id)
            let gone = try await client.execute(uri: "/api/v1/alarms/\(id)", method: .get)
            #expect(gone.status == .notFound && gone.error?.message == "No alarm has id \(id).")
            let noID = try await client.execute(uri: "/api/v1/alarms/abc", method: .get)
            #expect(noID.status == .badRequest && noID.error?.message == "'abc' is not an id; ids are whole numbers.")
            let empty = try await client.execute(
                uri: "/api/v1/alarms/1", method: .patch, headers: rig.auth, body: ByteBuffer(json: "{}"))
            #expect(empty.status == .badRequest && empty.error?.message == "Name at least one field to change.")
        }
    }

    @Test func aHostileLabelIsStoredAndReturnedAsPlainJSONText() async throws {
        let rig = try await APIRig()
        let label = "<script>alert(1)</script>"
        try await rig.app.test(.live) { client in
            let made = try await client.execute(
                uri: "/api/v1/alarms", method: .post, headers: rig.auth,
                body: ByteBuffer(json: #"{"name":"\#(label)","time":"07:30"}"#))
            #expect(made.status == .created)
            #expect(made.headers[.contentType] == "application/json; charset=utf-8")
            #expect(made.headers[HTTPField.Name("X-Content-Type-Options")!] == "nosniff")
            #expect(made.text.contains(#""name":"<script>alert(1)</script>""#), "the label is JSON text, unchanged")
            #expect(try rig.store.alarms().first?.name == label)
            let list = try await client.execute(uri: "/api/v1/alarms", method: .get)
            #expect((list.object["alarms"] as? [[String: Any]])?.first?["name"] as? String == label)
        }
    }

    @Test func badInputIsRefusedWithTheCLIsSentence() async throws {
        let rig = try await APIRig()
        try await rig.app.test(.live) { client in
            func post(_ json: String) async throws -> TestResponse {
                try await client.execute(uri: "/api/v1/alarms", method: .post, headers: rig.auth, body: ByteBuffer(json: json))
            }
            let badTime = try await post(#"{"name":"Work","time":"25:00"}"#)
            #expect(badTime.status == .badRequest && badTime.error?.kind == "invalid")
            #expect(badTime.error?.message == "Alarm time '25:00' is not a valid time; use HH:MM from 00:00 to 23:59.")
            #expect(
                try await post(#"{"name":"Work"}"#).error?.message
                    == "An alarm needs a time: add --time HH:MM, e.g. --time 06:45.")
            #expect(
                try await post(#"{"name":"Work","time":"07:00","fadein":"5s"}"#).error?.message
                    == "Unknown alarm field 'fadein'; known fields are name, time, days, date, source, durationSeconds, volume, fadeInSeconds, snoozeMinutes, maxSnoozes, shake, tz, enabled, skipDaysOff, atProgramme, sunriseSeconds, ladder, wakeCheckSeconds, shaker, lamp, soundAfterSeconds."
            )
            #expect(
                try await post(#"{"name":"Work","time":"07:00","volume":"loud"}"#).error?.message
                    == "The field 'volume' must be a number.")
            let malformed = try await post(#"{"name":"Work","#)
            #expect(malformed.status == .badRequest && malformed.error?.message == "The body is not valid JSON.")
            // Vibrate first, sound after: a wait out of range, or nothing that comes on before the sound, is 422.
            let long = try await post(#"{"name":"Work","time":"07:00","soundAfterSeconds":601}"#)
            #expect(
                long.status == .unprocessableContent
                    && long.error?.message == "--sound-after is 1s to 10m (or 0 for none), not 601 seconds.")
            let mute = try await post(#"{"name":"Work","time":"07:00","shaker":"off","lamp":"off","soundAfterSeconds":60}"#)
            #expect(
                mute.status == .unprocessableContent
                    && mute.error?.message
                        == "--sound-after 1m needs the shaker or the lamp to come on before the sound, not both off or later."
            )
            #expect(try rig.store.alarms().isEmpty)
            let fine = try await post(#"{"name":"Work","time":"07:00","soundAfterSeconds":60}"#)
            #expect(fine.status == .created && fine.object["soundAfterSeconds"] as? Int == 60, "\(fine.status)")
        }
    }

    @Test func stationsProgrammesAndSettings() async throws {
        let rig = try await APIRig()
        try await rig.app.test(.live) { client in
            let fip = try await client.execute(
                uri: "/api/v1/stations", method: .post, headers: rig.auth,
                body: ByteBuffer(
                    json: #"{"name":"FIP","url":"http://radio.example/fip","alternate":"http://radio.example/fip2"}"#))
            #expect(fip.status == .created && fip.object["alternateUrl"] as? String == "http://radio.example/fip2")
            let sid = try #require(fip.object["id"] as? Int)
            let twice = try await client.execute(
                uri: "/api/v1/stations", method: .post, headers: rig.auth,
                body: ByteBuffer(json: #"{"name":"fip","url":"http://radio.example/x"}"#))
            #expect(twice.status == .conflict && twice.error?.kind == "conflict")
            #expect(twice.error?.message == "A station named 'fip' already exists; pick another name.")
            let badURL = try await client.execute(
                uri: "/api/v1/stations", method: .post, headers: rig.auth,
                body: ByteBuffer(json: #"{"name":"X","url":"ftp://radio.example/x"}"#))
            #expect(badURL.status == .badRequest)
            #expect(try await client.execute(uri: "/api/v1/stations", method: .get).object["stations"] as? [Any] != nil)
            let show = try await client.execute(
                uri: "/api/v1/programmes", method: .post, headers: rig.auth,
                body: ByteBuffer(json: #"{"name":"Morning","begin":"06:30","end":"07:30","station":"FIP"}"#))
            #expect(
                show.status == .created && show.object["stationName"] as? String == "FIP"
                    && show.object["when"] as? String == "daily")
            let pid = try #require(show.object["id"] as? Int)
            let reserved = try await client.execute(uri: "/api/v1/programmes/\(pid)/reserve", method: .post, headers: rig.auth)
            #expect(reserved.object["reserved"] as? Bool == true)
            let onAir = try await client.execute(uri: "/api/v1/programmes/now?station=FIP", method: .get)
            #expect((onAir.object["now"] as? [String: Any])?["name"] as? String == "Morning")
            #expect(onAir.object.keys.contains("next"))
            let unreserved = try await client.execute(
                uri: "/api/v1/programmes/\(pid)/reserve", method: .delete, headers: rig.auth)
            #expect(unreserved.object["reserved"] as? Bool == false)
            let listed = try await client.execute(uri: "/api/v1/programmes", method: .get)
            #expect((listed.object["programmes"] as? [[String: Any]])?.count == 1)
            #expect(
                try await client.execute(uri: "/api/v1/programmes/\(pid)", method: .delete, headers: rig.auth).object["deleted"]
                    as? Int == pid)
            #expect(
                try await client.execute(uri: "/api/v1/stations/\(sid)", method: .delete, headers: rig.auth).object["deleted"]
                    as? Int == sid)
            let settings = try await client.execute(uri: "/api/v1/settings", method: .get)
            #expect(settings.object["defaultVolume"] as? Int == 60 && settings.object["isWifi"] as? Bool == false)
            let changed = try await client.execute(
                uri: "/api/v1/settings", method: .patch, headers: rig.auth,
                body: ByteBuffer(json: #"{"isWifi":true,"sleepDuration":900,"fadeIn":45}"#))
            #expect(changed.object["isWifi"] as? Bool == true && changed.object["sleepDuration"] as? Int == 900)
            #expect(changed.object["fadeIn"] as? Int == 45)
            let refused = try await client.execute(
                uri: "/api/v1/settings", method: .patch, headers: rig.auth,
                body: ByteBuffer(json: #"{"defaultVolume":5}"#))
            #expect(refused.error?.message == "Setting defaultVolume takes a whole number from 10 to 100, not '5'.")
            #expect(try rig.store.settings().sleepSeconds == 900 && rig.store.settings().defaultVolume == 60)
        }
    }

    @Test func nightDimmingSettingsAndTheKiosksWakeTouch() async throws {
        let rig = try await APIRig()
        try await rig.app.test(.live) { client in
            // 06:50 is inside 06:00–08:00; the keys come in any order in the JSON object and are checked together.
            let set = try await client.execute(
                uri: "/api/v1/settings", method: .patch, headers: rig.auth,
                body: ByteBuffer(json: #"{"dimUntil":"06:00","dimFrom":"08:00","dimLevel":5}"#))
            #expect(
                set.status == .ok && set.object["dimFrom"] as? String == "08:00" && set.object["dimLevel"] as? Int == 5,
                "\(set.text)")
            let swapped = try await client.execute(
                uri: "/api/v1/settings", method: .patch, headers: rig.auth,
                body: ByteBuffer(json: #"{"dimFrom":"06:00","dimUntil":"08:00"}"#))
            #expect(swapped.status == .ok && swapped.object["dimUntil"] as? String == "08:00", "\(swapped.text)")
            let zero = try await client.execute(
                uri: "/api/v1/settings", method: .patch, headers: rig.auth,
                body: ByteBuffer(json: #"{"dimLevel":0}"#))
            #expect(zero.status == .badRequest && zero.error?.message.hasPrefix("Setting dimLevel cannot be 0%") == true)
            var updates = await rig.clock.liveUpdates().makeAsyncIterator()
            #expect(await updates.next()?.dimmed == true)

            let refused = try await client.execute(uri: "/api/v1/display/wake", method: .post, headers: APIRig.json)
            #expect(refused.status == .unauthorized)
            let woken = try await client.execute(uri: "/api/v1/display/wake", method: .post, headers: rig.auth)
            #expect(woken.status == .ok && woken.object["dimmed"] as? Bool == false, "\(woken.text)")
            #expect(await updates.next()?.dimmed == false)
        }
    }

    /// `POST /outputs/{name}` on a clock that holds none: 404 with the config's line named, whatever is asked;
    /// a name that is no output and a body without `on` are refused in a sentence; without a token, 401.
    @Test func theOutputSwitchSaysWhatTheClockLacks() async throws {
        let rig = try await APIRig()
        try await rig.app.test(.live) { client in
            func post(_ name: String, _ body: String?, headers: HTTPFields? = nil) async throws -> TestResponse {
                try await client.execute(
                    uri: "/api/v1/outputs/\(name)", method: .post, headers: headers ?? rig.auth,
                    body: body.map { ByteBuffer(json: $0) })
            }
            let none = try await post("shaker", #"{"on":true}"#)
            #expect(none.status == .notFound, "\(none.text)")
            #expect(none.error?.message == "This clock has no shaker: set [outputs.shaker] line in the config.")
            #expect(try await post("shaker", #"{"on":true}"#, headers: APIRig.json).status == .unauthorized)
            let noBody = try await post("lamp", #"{}"#)
            #expect(noBody.status == .badRequest && noBody.error?.message == "Give 'on', true or false.", "\(noBody.text)")
            #expect(try await post("lamp", #"{"on":"yes"}"#).status == .badRequest)
        }
    }

    @Test func playerSleepRingAndTheAlarmButtons() async throws {
        let rig = try await APIRig()
        try await rig.app.test(.live) { client in
            let play = try await client.execute(
                uri: "/api/v1/player/play", method: .post, headers: rig.auth,
                body: ByteBuffer(json: #"{"source":"tone","seconds":30,"volume":40}"#))
            #expect(play.status == .ok && play.object["label"] as? String != nil && play.object["sound"] as? Int != nil)
            let volume = try await client.execute(
                uri: "/api/v1/player/volume", method: .post, headers: rig.auth,
                body: ByteBuffer(json: #"{"volume":55}"#))
            #expect(volume.object["message"] as? String == "The radio plays at volume 55.")
            let loud = try await client.execute(
                uri: "/api/v1/player/volume", method: .post, headers: rig.auth,
                body: ByteBuffer(json: #"{"volume":150}"#))
            #expect(loud.error?.message == "Volume 150 is out of range; use 1 to 100.")
            #expect(try await client.execute(uri: "/api/v1/player/stop", method: .post, headers: rig.auth).status == .ok)
            let notPlaying = try await client.execute(uri: "/api/v1/player/stop", method: .post, headers: rig.auth)
            #expect(
                notPlaying.status == .conflict && notPlaying.error?.kind == "refused"
                    && notPlaying.error?.message == "The radio is not playing.")
            let sleep = try await client.execute(
                uri: "/api/v1/sleep", method: .post, headers: rig.auth,
                body: ByteBuffer(json: #"{"seconds":600,"source":"tone"}"#))
            #expect(sleep.status == .ok && sleep.object["sound"] != nil)
            let extend = try await client.execute(
                uri: "/api/v1/sleep/extend", method: .post, headers: rig.auth,
                body: ByteBuffer(json: #"{"minutes":15}"#))
            #expect(extend.object["message"] as? String == "The sleep timer runs 15 minutes longer.")
            #expect(
                try await client.execute(uri: "/api/v1/sleep", method: .delete, headers: rig.auth).object["message"] as? String
                    == "The sleep timer is cancelled.")
            let ring = try await client.execute(
                uri: "/api/v1/ring", method: .post, headers: rig.auth,
                body: ByteBuffer(json: #"{"source":"tone","seconds":3}"#))
            #expect(ring.object["message"] as? String == "Ringing tone for 3s.", "\(ring.text)")
            let both = try await client.execute(
                uri: "/api/v1/ring", method: .post, headers: rig.auth,
                body: ByteBuffer(json: #"{"alarm":1,"source":"tone","seconds":3}"#))
            #expect(both.error?.message == "Give an alarm id or --source, not both and not neither.")
            // Stop ends a ring test as it would an alarm (the kiosk's Stop); then there is nothing to stop.
            let stopTest = try await client.execute(uri: "/api/v1/alarm/stop", method: .post, headers: rig.auth)
            #expect(
                stopTest.status == .ok && stopTest.object["message"] as? String == "The ring test is stopped.", "\(stopTest.text)"
            )
            let stop = try await client.execute(uri: "/api/v1/alarm/stop", method: .post, headers: rig.auth)
            #expect(stop.status == .conflict && stop.error?.message == "No alarm is ringing.")
            let snooze = try await client.execute(
                uri: "/api/v1/alarm/snooze", method: .post, headers: rig.auth, body: ByteBuffer(json: "{}"))
            #expect(snooze.error?.message == "No alarm can be snoozed now.")
        }
    }

    @Test func statusHistoryAndReports() async throws {
        let rig = try await APIRig { store in
            _ = try store.insertAlarm(zone: .gmt, now: APIRig.morning, AlarmPatch(name: "Work", time: "07:00", days: "daily"))
        }
        await rig.ringAtSeven()
        try await rig.app.test(.live) { client in
            let status = try await client.execute(uri: "/api/v1/status", method: .get)
            #expect(
                status.object["running"] as? Bool == true
                    && (status.object["ringing"] as? [String: Any])?["name"] as? String == "Work")
            let stop = try await client.execute(
                uri: "/api/v1/alarm/stop", method: .post, headers: rig.auth, body: ByteBuffer(json: #"{"alarm":1}"#))
            #expect(stop.object["message"] as? String == "Stopped.")
            let history = try await client.execute(uri: "/api/v1/history?limit=2", method: .get)
            let events = try #require(history.object["events"] as? [[String: Any]])
            #expect(events.count == 2 && events.first?["kind"] as? String == "dismissed" && events.first?["alarm"] as? Int == 1)
            let reports = try await client.execute(uri: "/api/v1/reports?days=1", method: .get)
            let report = try #require((reports.object["reports"] as? [[String: Any]])?.first)
            #expect(report["date"] as? String == "2026-11-24")
            let line = try #require((report["lines"] as? [String])?.first)
            #expect(line.hasPrefix("Work 07:00 — rang on time") && line.hasSuffix("stopped from the web page or API"), "\(line)")
            let badDays = try await client.execute(uri: "/api/v1/reports?days=x", method: .get)
            #expect(badDays.error?.message == "The parameter 'days' must be a whole number, not 'x'.")
            let unknown = try await client.execute(uri: "/api/v1/nothing", method: .get)
            #expect(
                unknown.status == .notFound
                    && unknown.error?.message == "There is no GET /api/v1/nothing in the API; see /api/v1/openapi.json.")
        }
    }

    @Test func thePagesAreServedWithTheirScriptsAndAStrictPolicy() async throws {
        let rig = try await APIRig()
        try await rig.app.test(.live) { client in
            for (path, script) in [("/", "/assets/phone.js"), ("/kiosk", "/assets/kiosk.js")] {
                let page = try await client.execute(uri: path, method: .get)
                #expect(page.status == .ok && page.headers[.contentType] == "text/html; charset=utf-8")
                #expect(
                    page.headers[.contentSecurityPolicy]
                        == "default-src 'self'; img-src 'self' blob: http: https:; frame-ancestors 'none'")
                #expect(page.headers[.cacheControl] == "no-cache")
                #expect(page.text.contains("<script type=\"module\" src=\"\(script)\"></script>"), "\(path)")
                // Every script is a file the policy allows: no inline script anywhere.
                let scripts = page.text.components(separatedBy: "<script").dropFirst()
                #expect(!scripts.isEmpty && scripts.allSatisfy { $0.prefix(while: { $0 != ">" }).contains("src=") }, "\(path)")
            }
            let script = try await client.execute(uri: "/assets/kiosk.js", method: .get)
            #expect(script.status == .ok && script.headers[.contentType]?.hasPrefix("text/javascript") == true)
            let unknown = try await client.execute(uri: "/assets/..%2Fopenapi.json", method: .get)
            #expect(unknown.status == .notFound)
        }
    }

    /// The pages are compiled in from a hand-written table: it must name every file of the folder, byte for byte.
    @Test func everyFileOfThePagesFolderIsServed() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Sources/AubadeServer/Resources/pages").standardizedFileURL
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        let table = Pages.files.map { $0.name }.sorted()
        #expect(names == table)
        for (name, bytes) in Pages.files {
            let onDisk = try Data(contentsOf: folder.appendingPathComponent(name))
            #expect(onDisk == Data(bytes), "\(name)")
        }
    }
}
