import AubadeFace
import AubadeFaceLink
import AubadeFaceSDL
import AubadeSystem
import CSDL2
import Glibc
import Synchronization

/// The native face's main loop, on the main thread: it sleeps until the link's news, a touch (asked of SDL every
/// 50 ms) or the next repaint time (the next minute of the clock), and paints only when what it shows changed.
final class FaceApp {
    let options: FaceOptions
    let painter: FacePainter
    let link: FaceLink
    let output: FaceOutput

    var state: FaceState?
    /// The clock's time at `stateAt` (the state's `now`), and when that was on the face's monotonic clock.
    var clockAt: Double
    var stateAt = Monotonic.now()
    var linkUp = false
    var linkReported = false
    /// When the shown refusal goes away (monotonic), if one is shown.
    var messageUntil: Duration?
    /// Whether the pairing panel has seen the clock's code (its end: the code gone from the state).
    var pairingSeen = false
    /// The stations played that were not in the list when they played (each asked for once).
    var stationsAsked: Set<Int64> = []
    var zone = FaceZone.utc
    var ui = FaceUI()
    var stations: [FaceStation] = []
    var dirty = true
    var frames = 0
    var lastButtons: [FaceScene.Button]?
    var scene: FaceScene?
    var inputs: FaceInputs?
    /// The clock's time of the next repaint.
    var repaintAt = 0.0
    /// What is on air as last read (nil: nothing to show), the number of the latest read, the station it asked about
    /// (nil: none asked yet; .some(nil): any station), and when to read it again (the clock's time).
    var onAir: FaceOnAir?
    var onAirAsked = 0
    var onAirStation: String??
    var onAirAt: Double?
    /// The next alarm (nil: none) and the station it plays, once known (kiosk.js: GET /alarms/{id}).
    var alarmID: Int64?
    var alarmStation: String?

    init(options: FaceOptions, painter: FacePainter, link: FaceLink) {
        self.options = options
        self.painter = painter
        self.link = link
        output = FaceOutput(enabled: options.json)
        clockAt = FaceOutput.wallSeconds()
    }

    /// The clock's time now: the last state's `now`, carried forward by the monotonic clock (the daemon may run on a
    /// fake time; the face keeps ticking while it is away). Before any state, the system's time.
    var clockNow: Double {
        clockAt + FaceOutput.seconds(Monotonic.now() - stateAt)
    }

    /// Runs until SDL_QUIT (SIGTERM, SIGINT, the window closed).
    func run() {
        link.startLive(
            onState: { bytes in
                FaceInbox.shared.withLock { $0.state = bytes }
                FaceInbox.wake()
            },
            onLink: { up in
                FaceInbox.shared.withLock { $0.linkUp = up }
                FaceInbox.wake()
            })
        var event = SDL_Event()
        while true {
            if let until = messageUntil, Monotonic.now() >= until {
                messageUntil = nil
                ui.message = nil
                dirty = true
            }
            followOnAir()
            if dirty || clockNow >= repaintAt { paint() }
            SDL_PumpEvents()
            while SDL_PollEvent(&event) == 1 {
                guard handle(event) else {
                    link.stop()
                    return
                }
            }
            if dirty { continue }
            var wait = (min(repaintAt, onAirAt ?? repaintAt) - clockNow) * 1000
            if let until = messageUntil { wait = min(wait, FaceOutput.seconds(until - Monotonic.now()) * 1000) }
            sleep(untilMilliseconds: Int32(min(60_000, max(1, wait.rounded(.up) + 5))))
        }
    }

    /// How long the loop sleeps at most before it asks SDL for input (touches, mouse, SIGTERM's SDL_QUIT): SDL's own
    /// SDL_WaitEventTimeout polls every millisecond on KMS/DRM and offscreen, which have no waiting of their own; the
    /// link's news ring the bell and wake the loop at once.
    static let inputPollMilliseconds: Int32 = 50

    /// Sleeps on the bell until it rings or `limit` ms pass (at most `inputPollMilliseconds`), then empties it.
    func sleep(untilMilliseconds limit: Int32) {
        var bell = pollfd(fd: FaceInbox.bellReader, events: Int16(POLLIN), revents: 0)
        guard poll(&bell, 1, min(limit, Self.inputPollMilliseconds)) > 0 else { return }
        var sink = [UInt8](repeating: 0, count: 64)
        while read(bell.fd, &sink, sink.count) > 0 {}
    }

    /// One event; false for SDL_QUIT.
    func handle(_ event: SDL_Event) -> Bool {
        switch event.type {
        case SDL_QUIT.rawValue: return false
        case FaceInbox.wakeType.load(ordering: .relaxed): takeInbox()
        case SDL_FINGERDOWN.rawValue:
            let size = painter.size
            touch(x: Int(event.tfinger.x * Float(size.width)), y: Int(event.tfinger.y * Float(size.height)))
        case SDL_MOUSEBUTTONDOWN.rawValue:
            // SDL_TOUCH_MOUSEID (a macro): mouse events SDL made from touches, already handled as touches.
            guard event.button.which != UInt32.max, event.button.button == 1 else { break }  // SDL_BUTTON_LEFT
            touch(x: Int(event.button.x), y: Int(event.button.y))
        case SDL_WINDOWEVENT.rawValue:
            // Shown, exposed or resized: painted again even when the scene is the same.
            dirty = true
            scene = nil
            let size = painter.size
            FaceInbox.shared.withLock { $0.size = size }
        default: break
        }
        return true
    }

    /// What the link's threads handed over.
    func takeInbox() {
        let (bytes, up, replies) = FaceInbox.shared.withLock { inbox in
            defer {
                inbox.state = nil
                inbox.linkUp = nil
                inbox.replies = []
            }
            return (inbox.state, inbox.linkUp, inbox.replies)
        }
        if let up, up != linkUp || !linkReported {
            linkReported = true
            linkUp = up
            output.link(up)
            dirty = true
            if up { request(.stations, "GET", "/stations") }
            // Back after an outage: the programmes may have changed meanwhile.
            if up, state != nil { loadOnAir() }
        }
        if let bytes, let next = FaceState.decode(bytes) {
            if next.zone != state?.zone { zone = Self.zone(next.zone) }
            if next != state { dirty = true }
            state = next
            clockAt = next.now
            follow(next)
            // Another next alarm: which station it plays (then what is on air there).
            if next.next?.id != alarmID {
                alarmID = next.next?.id
                alarmStation = nil
                if let id = alarmID { request(.alarm(id), "GET", "/alarms/\(id)") }
            }
            // A station saved since the list was read plays: read it again (for its name and logo).
            if let id = next.radio?.stationId, !stations.contains(where: { $0.id == id }), !stationsAsked.contains(id) {
                stationsAsked.insert(id)
                request(.stations, "GET", "/stations")
            }
            stateAt = Monotonic.now()
        }
        for (purpose, reply) in replies { answered(purpose, reply) }
    }

    /// What a new state closes: the picker while something rings or the face is dark (kiosk.js); the pairing panel
    /// once the code it showed is gone (traded by the phone, or run out).
    func follow(_ next: FaceState) {
        if ui.pickerOpen && (next.ringing != nil || next.dimmed) {
            ui.pickerOpen = false
            dirty = true
        }
        guard ui.pairingOpen else { return }
        if next.pairing != nil {
            pairingSeen = true
        } else if pairingSeen {
            pairingSeen = false
            ui.pairingOpen = false
            dirty = true
        }
    }

    func answered(_ purpose: FaceInbox.Purpose, _ reply: FaceLinkReply) {
        let ok = (200..<300).contains(reply.status)
        switch purpose {
        case .command(let command):
            output.command(command, status: reply.status)
            let message = FaceCommand.refusal(status: reply.status, body: reply.body)
            if message != nil || ui.message != nil {
                ui.message = message
                messageUntil = message == nil ? nil : Monotonic.now() + .seconds(10)
                dirty = true
            }
            // A reservation made or cancelled: what is on air read again (its toggle shows the clock's answer).
            if command.path.hasPrefix("/programmes/"), command.path.hasSuffix("/reserve") { loadOnAir() }
            // The wake answered: the face lights at once, as kiosk.js does, before the next state says so.
            if ok, command == .wake, var current = state {
                current.dimmed = false
                current.wakeCheck = nil
                state = current
                dirty = true
            }
        case .stations:
            guard ok, let list = FaceStation.decodeList(reply.body) else { return }
            if list != stations {
                stations = list
                dirty = true
            }
            for station in list where station.hasLogo && !painter.hasLogo(stationID: station.id) {
                request(.logo(station.id), "GET", "/stations/\(station.id)/logo")
            }
        case .logo(let id):
            if ok, painter.setLogo(stationID: id, bytes: reply.body) { dirty = true }
        case .alarm(let id):
            // Another alarm became the next meanwhile: its own answer follows.
            guard id == alarmID else { return }
            alarmStation = ok ? FaceOnAir.alarmStation(reply.body) : nil
            followOnAir()
        case .onAir(let asked, let station):
            guard asked == onAirAsked else { return }
            // No answer, or not one: the lines hidden until the link is back or the station changes.
            let read = ok ? FaceOnAir.decode(reply.body, station: station) : nil
            onAirAt = read?.readAgain(after: clockNow)
            if read != onAir {
                onAir = read
                dirty = true
            }
        }
    }

    /// Reads what is on air when the station whose programmes the face shows changed (what plays, the next alarm's
    /// station, the station chosen), or when the programme on air ended or the next began, as kiosk.js does.
    func followOnAir() {
        guard state != nil else { return }
        if let at = onAirAt, clockNow >= at {
            loadOnAir()
            return
        }
        let station = FaceOnAir.station(currentInputs(), alarmStation: alarmStation)
        if onAirStation != .some(station) { loadOnAir() }
    }

    /// Reads what is on air on the face's station (`GET /programmes/now`); the answer sets the next read's time.
    func loadOnAir() {
        let station = FaceOnAir.station(currentInputs(), alarmStation: alarmStation)
        onAirAsked += 1
        onAirStation = .some(station)
        onAirAt = nil
        request(.onAir(onAirAsked, station), "GET", FaceOnAir.path(station: station))
    }

    /// A request on the link's command thread; its answer comes back through the inbox.
    func request(_ purpose: FaceInbox.Purpose, _ method: String, _ path: String, _ body: String? = nil) {
        link.send(method: method, path: path, json: body.map { Array($0.utf8) }) { reply in
            FaceInbox.shared.withLock { $0.replies.append((purpose, reply)) }
            FaceInbox.wake()
        }
    }

    func touch(x: Int, y: Int) {
        guard let scene, let inputs, let action = FaceAction.touch(x: x, y: y, on: scene, inputs) else { return }
        if let ui = action.ui, ui != self.ui {
            if ui.pairingOpen && !self.ui.pairingOpen { pairingSeen = false }
            // The picker shows the stations saved now (one saved from a phone meanwhile included).
            if ui.pickerOpen && !self.ui.pickerOpen { request(.stations, "GET", "/stations") }
            self.ui = ui
            dirty = true
        }
        if let command = action.command { request(.command(command), command.method, command.path, command.body) }
    }

    /// The inputs of a scene now.
    func currentInputs() -> FaceInputs {
        let size = painter.size
        return FaceInputs(
            state: state, now: clockNow, linkUp: linkUp, zone: zone, ui: ui, stations: stations, onAir: onAir,
            width: size.width, height: size.height)
    }

    func paint() {
        let inputs = currentInputs()
        let scene = FaceScene.make(inputs)
        self.inputs = inputs
        repaintAt = inputs.nextRepaint
        dirty = false
        // The same picture as the last one: nothing to show.
        if scene == self.scene { return }
        self.scene = scene
        painter.paint(scene)
        frames += 1
        if let folder = options.frames {
            let number = String(frames)
            try? painter.saveBMP(folder + "/frame-" + String(repeating: "0", count: max(0, 6 - number.count)) + number + ".bmp")
        }
        painter.present()
        output.frame(frames, live: state != nil && linkUp)
        if scene.buttons != lastButtons {
            lastButtons = scene.buttons
            output.buttons(scene.buttons)
        }
    }

    /// The zone named `identifier` from /usr/share/zoneinfo, UTC when it cannot be read.
    static func zone(_ identifier: String) -> FaceZone {
        guard !identifier.isEmpty, !identifier.hasPrefix("/"), !identifier.contains(".."),
            let bytes = readFile("/usr/share/zoneinfo/" + identifier),
            let zone = FaceZone(identifier: identifier, tzif: bytes)
        else { return .utc }
        return zone
    }

    static func readFile(_ path: String, limit: Int = 1 << 20) -> [UInt8]? {
        guard let file = fopen(path, "rb") else { return nil }
        defer { fclose(file) }
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while out.count < limit {
            let n = fread(&buffer, 1, buffer.count, file)
            if n <= 0 { break }
            out += buffer[0..<n]
        }
        return out
    }
}
