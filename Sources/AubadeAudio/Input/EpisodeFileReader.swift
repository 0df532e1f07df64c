import AubadeCore
import Foundation

/// The reading side of an episode downloaded before its alarm, on its own thread: the file from its first byte
/// to play into the ring, in 64-KiB reads (a full ring holds the reader back, as TCP holds a station back). Its
/// end closes the ring — the episode's end; a file that cannot be read is a failure for good.
struct EpisodeFileReader: Sendable {
    let path: String
    let fromByte: Int64
    let ring: ByteRing
    let control: FetchControl

    static let readBytes = 64 * 1024

    func run() {
        defer { ring.close() }
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            control.report(.failed("The episode's file cannot be opened (\(String(cString: strerror(errno)))): \(path)."))
            return
        }
        defer { close(fd) }
        if fromByte > 0, lseek(fd, off_t(fromByte), SEEK_SET) < 0 {
            control.report(.failed("The episode's file cannot be read from byte \(fromByte): \(path)."))
            return
        }
        var buffer = [UInt8](repeating: 0, count: EpisodeFileReader.readBytes)
        var begun = false
        while !control.isStopped() {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                control.report(.failed("Reading the episode's file failed (\(String(cString: strerror(errno)))): \(path)."))
                return
            }
            if n == 0 { return }
            if !begun {
                // The first bytes say what the file is (its name does not): its container marks the stream's start.
                begun = true
                switch StreamContent.classify(contentType: nil, url: "", prefix: Array(buffer[0..<n])) {
                case .audio(let container): ring.begin(container)
                default:
                    control.report(.failed("The episode's file is not audio Aubade plays (MP3, AAC, M4A, Ogg or FLAC): \(path)."))
                    return
                }
            }
            guard buffer.withUnsafeBytes({ ring.write(UnsafeRawBufferPointer(rebasing: $0[0..<n])) }) else { return }
        }
    }
}

/// What a feed plays: a station's address (reconnected for ever), or a podcast episode (a file, or its address
/// fetched from a byte on), which ends where the episode does.
enum FeedSource: Sendable, Hashable {
    case station(StreamURL)
    case episode(EpisodeAudio)

    var isEpisode: Bool { if case .episode = self { true } else { false } }

    /// The sources of `content` in the order they are tried.
    static func of(_ content: SoundRequest.Content) -> [FeedSource] {
        switch content {
        case .tone: []
        case .stations(let urls): urls.map { .station($0) }
        case .episode(let audio): [.episode(audio)]
        }
    }
}
