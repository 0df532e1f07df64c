import CSDL2

/// SDL's start and end for the face's process: video and events, SDL_ttf, SDL_image (PNG, JPEG). Called once, on
/// the thread that will draw (SDL is not thread-safe).
public enum FaceSDL {
    /// Starts SDL. `driver`: a video driver to use ("offscreen" in tests and measurements), else SDL's own choice
    /// (KMSDRM on a board without X, X11 or Wayland on a desktop).
    public static func start(driver: String? = nil) throws(FaceSDLError) {
        if let driver { SDL_SetHint(SDL_HINT_VIDEODRIVER, driver) }
        // No screensaver stop, no console mouse cursor; the face sleeps in SDL_WaitEventTimeout.
        SDL_SetHint(SDL_HINT_VIDEO_ALLOW_SCREENSAVER, "1")
        // The window's pixels stay a plain surface: no OpenGL (Mesa, LLVM: 35 MB mapped) to copy them to the screen.
        SDL_SetHint(SDL_HINT_FRAMEBUFFER_ACCELERATION, "0")
        SDL_SetHint(SDL_HINT_RENDER_DRIVER, "software")
        guard SDL_Init(UInt32(SDL_INIT_VIDEO | SDL_INIT_EVENTS)) == 0 else { throw FaceSDLError("SDL_Init") }
        guard TTF_Init() == 0 else { throw FaceSDLError("TTF_Init") }
        let formats = Int32(IMG_INIT_PNG.rawValue | IMG_INIT_JPG.rawValue)
        // Logos in other formats are skipped (drawn as the station's initial); not a reason to stop.
        _ = IMG_Init(formats)
    }

    /// Ends SDL_image, SDL_ttf and SDL (after every painter is closed).
    public static func stop() {
        IMG_Quit()
        TTF_Quit()
        SDL_Quit()
    }

    /// The video driver SDL chose ("offscreen", "KMSDRM", "x11", …).
    public static var driver: String {
        SDL_GetCurrentVideoDriver().map { String(cString: $0) } ?? ""
    }
}
