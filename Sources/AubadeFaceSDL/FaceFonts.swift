import AubadeFace
import CSDL2

/// The face's fonts: DejaVu Sans in three weights (ExtraLight for the time, Book, Bold), or one file for all
/// (`--font`), each opened at the sizes the scene asks for and kept open while the painter lives.
final class FaceFonts {
    static let folder = "/usr/share/fonts/truetype/dejavu/"

    let paths: [FaceScene.Weight: String]
    private var open: [Key: OpaquePointer] = [:]

    struct Key: Hashable {
        var weight: FaceScene.Weight
        var size: Int
    }

    /// `file`: one font for every weight; nil: DejaVu Sans from fonts-dejavu-core (ExtraLight, when present, from
    /// fonts-dejavu-extra).
    init(file: String?) {
        if let file {
            paths = [.light: file, .regular: file, .bold: file]
        } else {
            let regular = Self.folder + "DejaVuSans.ttf"
            let light = Self.folder + "DejaVuSans-ExtraLight.ttf"
            let bold = Self.folder + "DejaVuSans-Bold.ttf"
            func present(_ path: String) -> String {
                SDL_RWFromFile(path, "rb").map {
                    SDL_RWclose($0); return path
                } ?? regular
            }
            paths = [.light: present(light), .regular: regular, .bold: present(bold)]
        }
    }

    /// The font of `weight` at `size` pixels, opened on first use.
    func font(_ weight: FaceScene.Weight, _ size: Int) throws(FaceSDLError) -> OpaquePointer {
        let key = Key(weight: weight, size: max(1, min(size, 1000)))
        if let font = open[key] { return font }
        guard let font = TTF_OpenFont(paths[weight] ?? "", Int32(key.size)) else { throw FaceSDLError("TTF_OpenFont") }
        open[key] = font
        return font
    }

    /// Closes every font not used since `keep` was taken (sizes change with the window, weights seldom).
    func close(except keep: Set<Key>) {
        for (key, font) in open where !keep.contains(key) {
            TTF_CloseFont(font)
            open[key] = nil
        }
    }

    deinit {
        for font in open.values { TTF_CloseFont(font) }
    }
}
