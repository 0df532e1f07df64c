import Glibc

/// The command line of `aubade-face`.
struct FaceOptions {
    var port = 8080
    var size: (width: Int, height: Int)?
    var tokenFile: String?
    var font: String?
    var json = false
    var input: String?
    var frames: String?

    static let usage = """
        usage: aubade-face [--port N] [--size WxH] [--token-file PATH] [--font PATH] [--json] [--input PATH] [--frames DIR]
          --port N           the clock's HTTP port on 127.0.0.1 (8080)
          --size WxH         the window's size (800x480); on KMS/DRM the display's size, fullscreen
          --token-file PATH  where the face keeps its token ($XDG_STATE_HOME/aubade/face-token)
          --font PATH        one TrueType font for all text (DejaVu Sans)
          --json             one JSON object a line on stdout: frames, buttons, commands, the link
          --input PATH       a file or FIFO of touches, one a line: tap X Y
          --frames DIR       saves each frame shown as DIR/frame-NNNNNN.bmp
        """

    /// The options in `arguments` (without the program's name), or a sentence saying what is wrong.
    static func parse(_ arguments: [String]) -> Result<FaceOptions, OptionError> {
        var options = FaceOptions()
        var rest = arguments[...]
        while let name = rest.popFirst() {
            if name == "--json" {
                options.json = true
                continue
            }
            if name == "--help" || name == "-h" { return .failure(OptionError(message: usage, help: true)) }
            guard let value = rest.popFirst() else { return .failure(OptionError(message: "\(name) needs a value.")) }
            switch name {
            case "--port":
                guard let port = Int(value), (1...65535).contains(port) else {
                    return .failure(OptionError(message: "--port takes a port number (1–65535), not \(value)."))
                }
                options.port = port
            case "--size":
                let parts = value.split(separator: "x").compactMap { Int($0) }
                guard parts.count == 2, (64...8192).contains(parts[0]), (64...8192).contains(parts[1]) else {
                    return .failure(OptionError(message: "--size takes WIDTHxHEIGHT (64–8192 each), not \(value)."))
                }
                options.size = (parts[0], parts[1])
            case "--token-file": options.tokenFile = value
            case "--font": options.font = value
            case "--input": options.input = value
            case "--frames": options.frames = value
            default: return .failure(OptionError(message: "Unknown option \(name).\n\(usage)"))
            }
        }
        return .success(options)
    }

    /// `--token-file`, else $XDG_STATE_HOME/aubade/face-token, else ~/.local/state/aubade/face-token; nil when there
    /// is no home (the token is then kept in memory only).
    var tokenPath: String? {
        if let tokenFile { return tokenFile }
        if let state = getenv("XDG_STATE_HOME").map({ String(cString: $0) }), state.hasPrefix("/") {
            return state + "/aubade/face-token"
        }
        guard let home = getenv("HOME").map({ String(cString: $0) }), home.hasPrefix("/") else { return nil }
        return home + "/.local/state/aubade/face-token"
    }
}

struct OptionError: Error {
    var message: String
    var help = false
}
