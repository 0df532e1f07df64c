import CSDL2

/// A failed SDL, SDL_ttf or SDL_image call: which one, and the library's message (SDL_GetError).
public struct FaceSDLError: Error, CustomStringConvertible {
    public var call: String
    public var message: String

    init(_ call: String) {
        self.call = call
        message = String(cString: SDL_GetError())
    }

    public var description: String { "\(call) failed: \(message)" }
}
