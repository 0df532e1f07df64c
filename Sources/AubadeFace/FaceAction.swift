/// What a touch asks: a command to the clock, a change of the face's own state (`ui`), or both (a station picked
/// closes the picker and plays it). Nothing: the touch fell beside every button.
public struct FaceAction: Sendable, Hashable {
    public var command: FaceCommand?
    public var ui: FaceUI?

    public init(command: FaceCommand? = nil, ui: FaceUI? = nil) {
        self.command = command
        self.ui = ui
    }

    /// What a touch at (x, y) on `scene` (made from `inputs`) asks. On the night face, only to wake it (POST
    /// /display/wake), the touch swallowed; while the wake-up check asks, any touch answers it (the same request),
    /// as kiosk.js does.
    public static func touch(x: Int, y: Int, on scene: FaceScene, _ inputs: FaceInputs) -> FaceAction? {
        if inputs.dimmed || inputs.asking { return FaceAction(command: .wake) }
        guard let button = scene.button(at: x, y) else { return nil }
        return pressed(button.id, inputs)
    }

    /// What the button named `id` asks.
    public static func pressed(_ id: String, _ inputs: FaceInputs) -> FaceAction? {
        var ui = inputs.ui
        let radio = inputs.state?.radio
        switch id {
        case "stop": return FaceAction(command: FaceCommand("POST", "/alarm/stop"))
        case "snooze": return FaceAction(command: FaceCommand("POST", "/alarm/snooze"))
        case "up": return FaceAction(command: .wake)
        case "play":
            if radio != nil { return FaceAction(command: FaceCommand("POST", "/player/stop")) }
            guard let source = inputs.chosenStation else { return nil }
            return FaceAction(command: FaceCommand("POST", "/player/play", "{\"source\":\(FaceCommand.quoted(source))}"))
        case "stations":
            ui.pickerOpen = true
            ui.pickerPage = 0
            return FaceAction(ui: ui)
        case "picker-previous", "picker-next":
            let paging = FaceScene.PickerPaging(inputs)
            let page = paging.page + (id == "picker-next" ? 1 : -1)
            guard (0..<paging.pages).contains(page) else { return nil }
            ui.pickerPage = page
            return FaceAction(ui: ui)
        case "picker-close":
            ui.pickerOpen = false
            ui.pickerPage = 0
            return FaceAction(ui: ui)
        case "volume-down", "volume-up":
            guard let radio else { return nil }
            let volume = min(100, max(1, radio.volume + (id == "volume-up" ? 5 : -5)))
            guard volume != radio.volume else { return nil }
            return FaceAction(command: FaceCommand("POST", "/player/volume", "{\"volume\":\(volume)}"))
        case "reserve":
            // The next programme reserved, or its reservation cancelled (kiosk.js: the button toggles).
            guard let next = inputs.onAir?.next, let programme = next.id else { return nil }
            let path = "/programmes/\(programme)/reserve"
            return FaceAction(command: next.reserved ? FaceCommand("DELETE", path, nil) : FaceCommand("POST", path))
        case "pair":
            ui.pairingOpen = true
            return FaceAction(command: FaceCommand("POST", "/pair/code"), ui: ui)
        case "pair-close":
            ui.pairingOpen = false
            return FaceAction(ui: ui)
        default: break
        }
        if id.hasPrefix("sleep-"), let minutes = Int(id.dropFirst("sleep-".count)) {
            let source = inputs.chosenStation.map { ",\"source\":\(FaceCommand.quoted($0))" } ?? ""
            return FaceAction(command: FaceCommand("POST", "/sleep", "{\"seconds\":\(minutes * 60)\(source)}"))
        }
        if id.hasPrefix("output-") {
            let name = String(id.dropFirst("output-".count))
            let on = inputs.state?.outputs.first { $0.name == name }?.on ?? false
            return FaceAction(command: FaceCommand("POST", "/outputs/\(name)", "{\"on\":\(!on)}"))
        }
        if id.hasPrefix("station-"), let stationID = Int64(id.dropFirst("station-".count)),
            let station = inputs.stations.first(where: { $0.id == stationID })
        {
            ui.pickerOpen = false
            ui.pickerPage = 0
            ui.chosenStation = station.name
            return FaceAction(
                command: FaceCommand("POST", "/player/play", "{\"source\":\(FaceCommand.quoted(station.name))}"), ui: ui)
        }
        return nil
    }
}
