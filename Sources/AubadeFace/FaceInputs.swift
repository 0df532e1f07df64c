/// What the face keeps of its own: whether the station picker or the pairing panel is open, the picker's page, the
/// station it plays (the kiosk's saved station), and the clock's last refusal. Changed by touches (`FaceAction`),
/// never by the clock.
public struct FaceUI: Sendable, Hashable {
    public var pickerOpen = false
    /// The picker's page (0: the first), when its stations do not fit one screen; back to 0 whenever it opens.
    public var pickerPage = 0
    public var pairingOpen = false
    public var chosenStation: String?
    /// The clock's refusal of the last command, one sentence, shown for a while (kiosk.js: 10 s).
    public var message: String?

    public init(
        pickerOpen: Bool = false, pickerPage: Int = 0, pairingOpen: Bool = false, chosenStation: String? = nil,
        message: String? = nil
    ) {
        self.pickerOpen = pickerOpen
        self.pickerPage = pickerPage
        self.pairingOpen = pairingOpen
        self.chosenStation = chosenStation
        self.message = message
    }
}

/// Everything a scene is made from: the last live state (nil until the first), the clock's time now (Unix seconds,
/// the state's `now` carried forward by the face's monotonic clock), whether the link is up, the zone of the state,
/// the face's own state, the saved stations, what is on air (as the executable last read it) and the screen's size in
/// pixels.
public struct FaceInputs: Sendable, Hashable {
    public var state: FaceState?
    public var now: Double
    public var linkUp: Bool
    public var zone: FaceZone
    public var ui: FaceUI
    public var stations: [FaceStation]
    public var onAir: FaceOnAir?
    public var width: Int
    public var height: Int

    public init(
        state: FaceState?, now: Double, linkUp: Bool, zone: FaceZone = .utc, ui: FaceUI = FaceUI(),
        stations: [FaceStation] = [], onAir: FaceOnAir? = nil, width: Int, height: Int
    ) {
        self.state = state
        self.now = now
        self.linkUp = linkUp
        self.zone = zone
        self.ui = ui
        self.stations = stations
        self.onAir = onAir
        self.width = width
        self.height = height
    }

    /// What rings, unless nothing does.
    var ringing: FaceState.Ringing? { state?.ringing }

    /// The night face: the daemon dimmed it, and nothing rings (kiosk.js: nothing rings on a dark face).
    public var dimmed: Bool { (state?.dimmed ?? false) && ringing == nil }

    /// "Are you up?": a wake-up check asks, and nothing rings.
    public var asking: Bool { ringing == nil && state?.wakeCheck != nil }

    /// The station Play and the sleep timer use: the chosen one while it is saved, else the first saved one.
    public var chosenStation: String? {
        if let name = ui.chosenStation, stations.contains(where: { $0.name == name }) { return name }
        return stations.first?.name
    }
}
