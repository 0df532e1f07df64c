import AubadeFace

/// Live states as the clock sends them (openapi.json's `LiveState`), and the inputs of scenes made from them.
enum FaceFixtures {
    /// 2026-11-24 07:42:10 UTC, a Tuesday.
    static let now = 1_795_506_130.0

    /// A day state with everything the face shows: what plays (a sleep timer), the next alarm, a warning, the outputs,
    /// and fields the face does not read (`clockSynchronised`, `face`, the sunrise's `backlight`, …).
    static let fullJSON = """
        {"now":1795506130.25,"zone":"Europe/Paris","warnings":["The clock's time is not synchronised."],
         "clockSynchronised":false,"dimmed":false,"face":"day",
         "radio":{"kind":"sleep timer","source":"FIP","state":"playing","title":"Miles Davis — So What",
                  "endsAt":1795507930,"volume":35,"stationId":3},
         "next":{"id":7,"name":"Work","at":1795590000},
         "outputs":[{"name":"shaker","on":false},{"name":"lamp","on":true}],
         "pairing":{"code":"123456","expiresAt":1795506430},
         "futureField":{"nested":[1,2,3]}}
        """

    static let minimalJSON = """
        {"now":1795506130,"zone":"UTC","warnings":[],"clockSynchronised":true,"dimmed":false,"face":"day"}
        """

    static let ringingJSON = """
        {"now":1795506130,"zone":"UTC","warnings":[],"clockSynchronised":true,"dimmed":true,"face":"ringing",
         "ringing":{"alarms":[{"id":7,"name":"Work"}],"test":false,"source":"station:FIP","audible":true,
                    "since":1795506120}}
        """

    static func state(_ json: String) -> FaceState {
        guard let state = FaceState.decode(Array(json.utf8)) else {
            preconditionFailure("fixture does not decode: \(json)")
        }
        return state
    }

    static let stations = [
        FaceStation(id: 3, name: "FIP", hasLogo: true), FaceStation(id: 4, name: "France Culture"),
        FaceStation(id: 5, name: "Radio \"Nova\""),
    ]

    static func inputs(
        _ state: FaceState?, width: Int = 800, height: Int = 480, linkUp: Bool = true, ui: FaceUI = FaceUI(),
        stations: [FaceStation] = stations
    ) -> FaceInputs {
        FaceInputs(state: state, now: state?.now ?? now, linkUp: linkUp, ui: ui, stations: stations, width: width, height: height)
    }

    static var ringing: FaceState.Ringing {
        FaceState.Ringing(alarms: [.init(id: 7, name: "Work")], test: false, source: "tone:classic", audible: true)
    }
}
