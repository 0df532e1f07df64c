import AubadeFace
import Testing

/// What is on air now and next, as kiosk.js shows it: the answer of GET /programmes/now, the station asked about,
/// when it is read again, the lines on the clock's face and the toggle reserving the next programme.
@Suite("Face: on air now and next")
struct FaceOnAirTests {
    typealias F = FaceFixtures

    /// 07:00–09:00 on air (the fixtures' time is 07:42:10 UTC), 09:00–10:00 next.
    static let json = """
        {"now":{"id":12,"name":"Morning Show","begin":"07:00","end":"09:00","when":"daily","stationId":3,
                "stationName":"FIP","reserved":false,"begins":1795503600,"ends":1795510800},
         "next":{"id":13,"name":"Jazz à FIP","begin":"09:00","end":"10:00","when":"daily","stationId":3,
                 "stationName":"FIP","reserved":false,"begins":1795510800,"ends":1795514400,"host":"Someone"}}
        """

    static func onAir(reserved: Bool = false, station: String? = "FIP") throws -> FaceOnAir {
        var onAir = try #require(FaceOnAir.decode(Array(json.utf8), station: station))
        onAir.next?.reserved = reserved
        return onAir
    }

    @Test("The answer decodes, null halves and all; what is not one is refused")
    func decode() throws {
        let onAir = try Self.onAir()
        #expect(
            onAir.now
                == FaceProgramme(id: 12, name: "Morning Show", begins: 1_795_503_600, ends: 1_795_510_800, stationName: "FIP"))
        #expect(onAir.next?.id == 13 && onAir.next?.name == "Jazz à FIP")
        let empty = try #require(FaceOnAir.decode(Array(#"{"now":null,"next":null}"#.utf8), station: nil))
        #expect(empty.isEmpty)
        #expect(FaceOnAir.decode(Array("[]".utf8), station: nil) == nil)
    }

    @Test("The path: the station's name percent-encoded; none: any station")
    func path() {
        #expect(FaceOnAir.path(station: nil) == "/programmes/now")
        #expect(FaceOnAir.path(station: "FIP") == "/programmes/now?station=FIP")
        #expect(FaceOnAir.path(station: "Radio \"Nova\" & Cie") == "/programmes/now?station=Radio%20%22Nova%22%20%26%20Cie")
        #expect(FaceOnAir.path(station: "Jazz à FIP") == "/programmes/now?station=Jazz%20%C3%A0%20FIP")
    }

    @Test("Read again a second after the programme ends or the next begins, never sooner than 5 s")
    func readAgain() throws {
        let onAir = try Self.onAir()
        #expect(onAir.readAgain(after: F.now) == 1_795_510_801)
        #expect(onAir.readAgain(after: 1_795_510_800) == 1_795_510_805)
        #expect(FaceOnAir(station: nil, now: nil, next: nil).readAgain(after: F.now) == nil)
    }

    @Test("The station: the one playing, else the next alarm's (when saved), else the one Play would play")
    func station() {
        var state = F.state(F.minimalJSON)
        let idle = F.inputs(state, ui: FaceUI(chosenStation: "France Culture"))
        #expect(FaceOnAir.station(idle, alarmStation: nil) == "France Culture")
        #expect(FaceOnAir.station(idle, alarmStation: "FIP") == "FIP")
        #expect(FaceOnAir.station(idle, alarmStation: "Gone") == "France Culture")
        state.radio = .init(source: "Radio \"Nova\"")
        #expect(FaceOnAir.station(F.inputs(state), alarmStation: "FIP") == "Radio \"Nova\"")
        state.radio = .init(source: "https://example.org/stream")
        #expect(FaceOnAir.station(F.inputs(state), alarmStation: "FIP") == "FIP")
        #expect(FaceOnAir.station(F.inputs(state, stations: []), alarmStation: nil) == nil)
        let station = #"{"id":7,"name":"Work","sound":"station:3","soundName":"FIP","enabled":true}"#
        #expect(FaceOnAir.alarmStation(Array(station.utf8)) == "FIP")
        #expect(FaceOnAir.alarmStation(Array(#"{"id":7,"sound":"tone:classic","soundName":"tone"}"#.utf8)) == nil)
    }

    @Test("The clock's face: now and next with their times, Reserve at their right; a tap reserves, again cancels")
    func scene() throws {
        var inputs = F.inputs(F.state(F.minimalJSON))
        inputs.onAir = try Self.onAir()
        let scene = FaceScene.make(inputs)
        let now = try #require(scene.text("Now on FIP · 07:00–09:00 · Morning Show"))
        let next = try #require(scene.text("Next · 09:00–10:00 · Jazz à FIP"))
        let reserve = try #require(scene.button("reserve"))
        #expect(reserve.label == "Reserve")
        #expect(now.rect.maxY <= next.rect.y && reserve.rect.x >= now.rect.maxX)
        // Above the controls, under the next alarm's line.
        let play = try #require(scene.button("play"))
        let alarm = try #require(scene.text("No alarm set"))
        #expect(reserve.rect.maxY <= play.rect.y && alarm.rect.maxY <= now.rect.y)
        let tap = FaceAction.touch(x: reserve.rect.centre.x, y: reserve.rect.centre.y, on: scene, inputs)
        #expect(tap == FaceAction(command: FaceCommand("POST", "/programmes/13/reserve")))
        #expect(tap?.command?.body == "{}")

        inputs.onAir = try Self.onAir(reserved: true)
        let reserved = FaceScene.make(inputs)
        #expect(reserved.button("reserve")?.label == "Reserved ✓")
        #expect(reserved.button("reserve")?.ink == FacePalette.accent)
        #expect(
            FaceAction.pressed("reserve", inputs) == FaceAction(command: FaceCommand("DELETE", "/programmes/13/reserve", nil)))
    }

    @Test("Only the next: \"Next on FIP\" with its day; nothing on air: no lines, no Reserve")
    func nextOnly() throws {
        var inputs = F.inputs(F.state(F.minimalJSON))
        var onAir = try Self.onAir(station: nil)
        onAir.now = nil
        onAir.next?.begins += 86_400
        onAir.next?.ends += 86_400
        inputs.onAir = onAir
        #expect(FaceScene.make(inputs).text("Next on FIP · tomorrow 09:00 · Jazz à FIP") != nil)
        inputs.onAir = FaceOnAir(station: "FIP", now: nil, next: nil)
        let scene = FaceScene.make(inputs)
        #expect(scene.button("reserve") == nil && !scene.texts.contains { $0.text.hasPrefix("Now") })
        #expect(FaceAction.pressed("reserve", inputs) == nil)
    }

    @Test("The night face: the lines, dim; no Reserve; a touch only wakes")
    func night() throws {
        var state = F.state(F.minimalJSON)
        state.dimmed = true
        var inputs = F.inputs(state)
        inputs.onAir = try Self.onAir()
        let scene = FaceScene.make(inputs)
        #expect(scene.buttons.isEmpty)
        #expect(scene.text("Now on FIP · 07:00–09:00 · Morning Show")?.color == FacePalette.nightInk)
        #expect(scene.text("Next · 09:00–10:00 · Jazz à FIP")?.color == FacePalette.nightMuted)
        #expect(FaceAction.touch(x: 400, y: 300, on: scene, inputs) == FaceAction(command: .wake))
    }

    @Test("Portrait and landscape: the lines and Reserve fit with every control")
    func sizes() throws {
        for (width, height) in [(800, 480), (480, 800), (720, 1280)] {
            var inputs = F.inputs(F.state(F.fullJSON), width: width, height: height)
            inputs.onAir = try Self.onAir()
            let scene = FaceScene.make(inputs)
            let reserve = try #require(scene.button("reserve"))
            #expect(reserve.rect.h >= 40, "\(width)×\(height) \(reserve.rect)")
            let clock = try #require(scene.texts.first { $0.weight == .light })
            #expect(clock.size >= height / 10, "\(width)×\(height) \(clock.size)")
        }
    }
}
