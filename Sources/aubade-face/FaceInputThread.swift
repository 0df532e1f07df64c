import AubadeSystem
import CSDL2
import Glibc
import Synchronization

/// `--input PATH`: a test seam. A file or FIFO read on a thread of its own, one touch a line (`tap X Y`, in pixels);
/// each becomes SDL_FINGERDOWN and SDL_FINGERUP at that pixel, pushed into SDL's queue — the path real touches take.
enum FaceInputThread {
    static func start(_ path: String) -> Bool {
        NamedThread.start("face-input") {
            // Opened again at each end of file: a FIFO whose writer closed it waits for the next writer.
            while true {
                guard let file = fopen(path, "r") else { return }
                var line: UnsafeMutablePointer<CChar>?
                var capacity = 0
                while getline(&line, &capacity, file) > 0 {
                    if let line { handle(String(cString: line)) }
                }
                free(line)
                fclose(file)
                var status = stat()
                guard stat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFIFO else { return }
            }
        }
    }

    static func handle(_ line: String) {
        let words = line.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" })
        guard words.count == 3, words[0] == "tap", let x = Double(words[1]), let y = Double(words[2]) else { return }
        let size = FaceInbox.shared.withLock { $0.size }
        for type in [SDL_FINGERDOWN, SDL_FINGERUP] {
            var event = SDL_Event()
            event.type = type.rawValue
            event.tfinger.touchId = 1
            event.tfinger.fingerId = 1
            event.tfinger.x = Float((x + 0.5) / Double(size.width))
            event.tfinger.y = Float((y + 0.5) / Double(size.height))
            event.tfinger.pressure = 1
            _ = SDL_PushEvent(&event)
        }
        FaceInbox.ring()
    }
}
