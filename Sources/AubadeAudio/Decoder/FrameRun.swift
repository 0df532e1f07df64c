/// Which decoded MPEG frames are the stream's audio, judged by where they sit in the bytes.
///
/// A station's frames follow one another with no byte between them. A false frame header that mpg123 found in
/// garbage is followed by more garbage, not by a frame, and the first Layer III frames after garbage read up to
/// 511 bytes of main data back for their bit reservoir, which is garbage too. So a frame is audio when it follows
/// its predecessor without a gap (for Layer III, with at least 511 bytes of main data — the frames' bytes less
/// their headers, checksums and side information — in unbroken frames before it) and its successor follows it
/// without a gap. The stream's first frame needs no predecessor: mpg123 knows its
/// reservoir is empty.
///
/// Pure bookkeeping: the decoder holds each frame's PCM until the next frame is parsed, then asks `next`.
struct FrameRun {
    struct Frame: Equatable {
        /// The frame's first byte, counted from the start of the stream.
        var start: Int
        /// Its length in bytes, header included.
        var size: Int
        /// 1, 2 or 3.
        var layer: Int
        /// Its main data: what a later frame's bit reservoir can reach into (Layer III; `size` for the others).
        var mainData: Int

        init(start: Int, size: Int, layer: Int, mainData: Int? = nil) {
            self.start = start
            self.size = size
            self.layer = layer
            self.mainData = mainData ?? size
        }
    }

    /// A Layer III frame's main data: its size less the 4-byte header, the 2-byte checksum when there is one, and
    /// the side information (MPEG-1: 17 bytes mono, 32 stereo; MPEG-2 and 2.5: 9 and 17).
    static func mainDataBytes(size: Int, mpeg1: Bool, mono: Bool, crc: Bool) -> Int {
        let side = mpeg1 ? (mono ? 17 : 32) : (mono ? 9 : 17)
        return max(0, size - 4 - (crc ? 2 : 0) - side)
    }

    enum Verdict: Equatable {
        /// The held frame is audio: play it.
        case audio
        /// The held frame is not: drop it.
        case dropped
        /// No frame was held (the stream's first frame).
        case nothingHeld
    }

    /// The most a Layer III frame reaches back for its bit reservoir (`main_data_begin`, 9 bits).
    static let reservoirReach = 511

    private var held: Frame?
    private var heldIsJoined = false
    /// Main-data bytes of unbroken frames up to and including the held one.
    private var runBytes = 0

    /// A new frame was parsed: the verdict on the frame held before it; the new one is held.
    mutating func next(_ frame: Frame) -> Verdict {
        guard let held else {
            self.held = frame
            heldIsJoined = true
            runBytes = FrameRun.reservoirReach + frame.mainData
            return .nothingHeld
        }
        let joins = frame.start == held.start + held.size
        let verdict: Verdict = heldIsJoined && joins ? .audio : .dropped
        let before = joins ? runBytes : 0
        runBytes = before + frame.mainData
        heldIsJoined = joins && (frame.layer != 3 || before >= FrameRun.reservoirReach)
        self.held = frame
        return verdict
    }

    /// Whether the held frame (the stream's last, when it has ended) is audio as far as can be known: it
    /// followed its predecessor without a gap.
    var lastIsAudio: Bool { held != nil && heldIsJoined }
}
