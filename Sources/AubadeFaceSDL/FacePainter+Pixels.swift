import CSDL2

extension FacePainter {
    /// What was painted, read back (before `present()`): one ARGB8888 pixel a value, row by row.
    public func pixels() -> (width: Int, height: Int, argb: [UInt32]) {
        let (w, h) = size
        var out = [UInt32](repeating: 0, count: w * h)
        let ok = out.withUnsafeMutableBytes { raw in
            SDL_RenderReadPixels(renderer, nil, SDL_PIXELFORMAT_ARGB8888.rawValue, raw.baseAddress, Int32(w * 4)) == 0
        }
        return ok ? (w, h, out) : (0, 0, [])
    }

    /// Saves what was painted as a BMP file at `path`.
    public func saveBMP(_ path: String) throws(FaceSDLError) {
        var frame = pixels()
        guard frame.width > 0 else { throw FaceSDLError("SDL_RenderReadPixels") }
        let w = Int32(frame.width)
        let h = Int32(frame.height)
        let saved = frame.argb.withUnsafeMutableBytes { raw -> Bool in
            guard
                let surface = SDL_CreateRGBSurfaceWithFormatFrom(
                    raw.baseAddress, w, h, 32, w * 4, SDL_PIXELFORMAT_ARGB8888.rawValue)
            else { return false }
            defer { SDL_FreeSurface(surface) }
            guard let file = SDL_RWFromFile(path, "wb") else { return false }
            return SDL_SaveBMP_RW(surface, file, 1) == 0
        }
        guard saved else { throw FaceSDLError("SDL_SaveBMP_RW") }
    }
}
