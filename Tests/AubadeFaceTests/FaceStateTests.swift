import AubadeFace
import Glibc
import Testing

/// The live state as the face decodes it, its zone read from the system's TZif files, and its words.
@Suite("Face: the live state, the zone, the words")
struct FaceStateTests {
    @Test("A full live state decodes, fields the face does not read ignored")
    func full() throws {
        let state = try #require(FaceState.decode(Array(FaceFixtures.fullJSON.utf8)))
        #expect(state.now == 1_795_506_130.25)
        #expect(state.zone == "Europe/Paris")
        #expect(state.warnings == ["The clock's time is not synchronised."])
        #expect(state.radio?.kind == "sleep timer")
        #expect(state.radio?.endsAt == 1_795_507_930)
        #expect(state.radio?.volume == 35)
        #expect(state.radio?.stationId == 3)
        #expect(state.next == FaceState.Next(id: 7, name: "Work", at: 1_795_590_000))
        #expect(state.outputs == [.init(name: "shaker", on: false), .init(name: "lamp", on: true)])
        #expect(state.pairing == .init(code: "123456", expiresAt: 1_795_506_430))
        #expect(state.ringing == nil && state.sunrise == nil && state.wakeCheck == nil)
    }

    @Test("Missing optional fields decode as absent; a ringing state with its group")
    func minimalAndRinging() throws {
        let minimal = try #require(FaceState.decode(Array(FaceFixtures.minimalJSON.utf8)))
        #expect(minimal.radio == nil && minimal.next == nil && minimal.outputs.isEmpty && !minimal.dimmed)
        let ringing = try #require(FaceState.decode(Array(FaceFixtures.ringingJSON.utf8)))
        #expect(ringing.ringing?.alarms == [.init(id: 7, name: "Work")])
        #expect(ringing.ringing?.test == false)
    }

    @Test("A sunrise and a wake-up check decode")
    func sunriseAndWakeCheck() throws {
        let json = """
            {"now":1,"zone":"UTC","warnings":[],"clockSynchronised":true,"dimmed":false,"face":"sunrise",
             "sunrise":{"alarmId":7,"at":100,"startedAt":0,"permille":250,"sky":"#3A1F4B","ink":"#FFD9B0","backlight":20},
             "wakeCheck":{"id":7,"name":"Work"}}
            """
        let state = try #require(FaceState.decode(Array(json.utf8)))
        #expect(state.sunrise == .init(permille: 250, sky: "#3A1F4B", ink: "#FFD9B0"))
        #expect(state.wakeCheck == .init(id: 7, name: "Work"))
    }

    @Test("What is not a live state is refused")
    func refused() {
        #expect(FaceState.decode(Array("{}".utf8)) == nil)
        #expect(FaceState.decode(Array("not json".utf8)) == nil)
        #expect(FaceState.decode(Array(#"{"now":"soon","zone":"UTC"}"#.utf8)) == nil)
    }

    @Test("The stations list: each station's id, name and whether it has a logo")
    func stations() throws {
        let json = """
            {"stations":[{"id":3,"name":"FIP","url":"https://example.org/fip","directory":{"logo":"https://example.org/fip.png"}},
                         {"id":4,"name":"Culture","url":"https://example.org/c"}]}
            """
        let stations = try #require(FaceStation.decodeList(Array(json.utf8)))
        #expect(
            stations == [FaceStation(id: 3, name: "FIP", hasLogo: true), FaceStation(id: 4, name: "Culture", hasLogo: false)])
    }

    @Test("Colours: #rrggbb in either case, anything else refused")
    func colours() {
        #expect(FaceColor(hex: "#3A1c06") == FaceColor(0x3a, 0x1c, 0x06))
        #expect(FaceColor(hex: "#3A1c06")?.description == "#3a1c06")
        #expect(FaceColor(hex: "3A1C06") == nil)
        #expect(FaceColor(hex: "#3A1C0G") == nil)
        #expect(FaceColor(hex: "#FFF") == nil)
    }

    @Test("A zone read from its TZif file: Paris is UTC+1 in winter and UTC+2 in summer")
    func zone() throws {
        let bytes = try #require(FaceTestFiles.read("/usr/share/zoneinfo/Europe/Paris"))
        let paris = try #require(FaceZone(identifier: "Europe/Paris", tzif: bytes))
        #expect(paris.offset(at: FaceFixtures.now) == 3600)  // November
        #expect(paris.offset(at: 1_784_000_000) == 7200)  // July 2026
        // The spring change, 2026-03-29 01:00 UTC: one second before and at it.
        #expect(paris.offset(at: 1_774_745_999) == 3600)
        #expect(paris.offset(at: 1_774_746_000) == 7200)
        #expect(FaceText.clock(1_774_746_000, paris) == "03:00")
        #expect(FaceZone(identifier: "x", tzif: Array("not a zone file at all, not even close to one....".utf8)) == nil)
    }

    @Test("The words: the time, the date, when, countdowns, what plays")
    func words() {
        let zone = FaceZone(identifier: "Test", fixedOffset: 3600)
        #expect(FaceText.clock(FaceFixtures.now, .utc) == "07:42")
        #expect(FaceText.clock(FaceFixtures.now, zone) == "08:42")
        #expect(FaceText.date(FaceFixtures.now, .utc) == "Tuesday 24 November")
        #expect(FaceText.date(0, .utc) == "Thursday 1 January")
        #expect(FaceText.date(951_782_400, .utc) == "Tuesday 29 February")
        #expect(FaceText.when(FaceFixtures.now + 3600, .utc, now: FaceFixtures.now) == "today 08:42")
        #expect(FaceText.when(FaceFixtures.now + 86_400, .utc, now: FaceFixtures.now) == "tomorrow 07:42")
        #expect(FaceText.when(FaceFixtures.now + 2 * 86_400, .utc, now: FaceFixtures.now) == "Thu 07:42")
        #expect(FaceText.countdown(1781) == "29:41")
        #expect(FaceText.countdown(3900) == "1:05:00")
        #expect(FaceText.radio(.init(source: "FIP", state: "connecting")) == "FIP — connecting…")
        #expect(FaceText.radio(.init(source: "FIP", state: "not playing", problem: "no route")) == "FIP — not playing: no route")
    }
}

/// Reading a file in a test (the face's module does no I/O).
enum FaceTestFiles {
    static func read(_ path: String) -> [UInt8]? {
        guard let file = fopen(path, "rb") else { return nil }
        defer { fclose(file) }
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = fread(&buffer, 1, buffer.count, file)
            if n <= 0 { break }
            out += buffer[0..<n]
        }
        return out
    }
}
