// aubade-face: the clock's native face for a small board (issue 38). A process of its own that talks to the clock
// only over its HTTP API on 127.0.0.1, as the kiosk page does, and paints with SDL2 (KMS/DRM on a board, a window on
// a desktop, `SDL_VIDEODRIVER=offscreen` in tests). A face that crashes or is killed for memory costs no alarm.
import AubadeFaceLink
import AubadeFaceSDL
import CSDL2
import Glibc
import Synchronization

let options: FaceOptions
switch FaceOptions.parse(Array(CommandLine.arguments.dropFirst())) {
case .success(let parsed): options = parsed
case .failure(let error):
    FaceOutput.write(error.message + "\n", to: error.help ? 1 : 2)
    exit(error.help ? 0 : 2)
}

// SIGTERM and SIGINT end the face (SDL turns them into SDL_QUIT): unblocked here, before any thread starts, for a
// parent (a test runner, a supervisor) may have started it with them blocked.
var endSignals = sigset_t()
sigemptyset(&endSignals)
sigaddset(&endSignals, SIGTERM)
sigaddset(&endSignals, SIGINT)
pthread_sigmask(SIG_UNBLOCK, &endSignals, nil)

// A touch is a touch: no mouse events made from touches (they would act twice).
SDL_SetHint(SDL_HINT_TOUCH_MOUSE_EVENTS, "0")
do {
    try FaceSDL.start()
} catch {
    FaceOutput.write("aubade-face: \(error)\n", to: 2)
    exit(1)
}
let wakeType = SDL_RegisterEvents(1)
guard wakeType != UInt32.max else {
    FaceOutput.write("aubade-face: SDL_RegisterEvents failed\n", to: 2)
    exit(1)
}
FaceInbox.wakeType.store(wakeType, ordering: .relaxed)
guard FaceInbox.openBell() else {
    FaceOutput.write("aubade-face: pipe2 failed\n", to: 2)
    exit(1)
}

let fullscreen = FaceSDL.driver == "KMSDRM"
let requested = options.size ?? (800, 480)
let painter: FacePainter
do {
    painter = try FacePainter(width: requested.width, height: requested.height, fullscreen: fullscreen, font: options.font)
} catch {
    FaceOutput.write("aubade-face: \(error)\n", to: 2)
    exit(1)
}
FaceInbox.shared.withLock { $0.size = painter.size }
if let input = options.input, !FaceInputThread.start(input) {
    FaceOutput.write("aubade-face: could not start the input thread\n", to: 2)
}
if let token = options.tokenPath, let slash = token.lastIndex(of: "/") {
    // The token's folder, private (the link writes the token 0600 in it).
    var folder = ""
    for part in token[..<slash].split(separator: "/") {
        folder += "/" + part
        mkdir(folder, 0o700)
    }
}

let app = FaceApp(options: options, painter: painter, link: FaceLink(port: options.port, tokenPath: options.tokenPath))
app.run()
exit(0)
