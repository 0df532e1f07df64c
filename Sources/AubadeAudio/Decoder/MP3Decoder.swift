import CMPG123
import Foundation

/// libmpg123 in feed mode: bytes in as they arrive, 16-bit PCM out.
///
/// Contract: not thread-safe and not Sendable — create and use it on the audio thread. `decode` never spins
/// on garbage: mpg123 resynchronises by itself, and `consecutiveErrorLimit` errors in a row (R22: ten) end the
/// stream with an `AudioError`. Format changes (a new sample rate mid-stream) are reported to the caller.
///
/// Garbage inside a stream (a corrupted stretch, or ICY metadata passed through once metadata is off, R23) is
/// skipped by mpg123's resynchronisation, but on the way mpg123 can lock onto a false frame header in it and
/// decode it, and the first real frames after it take their bit reservoir from the garbage: both come out as
/// full-scale noise. `FrameRun` keeps those frames from the output.
public final class MP3Decoder {
    public static let consecutiveErrorLimit = 10

    public enum Output {
        /// PCM bytes were produced (interleaved S16, native endian).
        case pcm(UnsafeRawBufferPointer)
        /// The stream (re)started with this format; configure the sink before the next PCM.
        case format(rate: Int, channels: Int)
    }

    private let handle: OpaquePointer
    /// 16 KiB = 93 ms of 44.1 kHz stereo per piece handed on: a stop or a volume change is heard within one
    /// piece, and the audio thread wakes ~11 times a second (8 KiB cost a fifth more CPU in wake-ups).
    private var outBuffer = [UInt8](repeating: 0, count: 16 * 1024)
    /// PCM gathered for the next piece (`outBuffer[0..<pending]`).
    private var pending = 0
    /// The last decoded frame's PCM, held until the next frame shows whether it was audio.
    private var held: [UInt8] = []
    private var run = FrameRun()
    private var errorsInARow = 0
    /// Frames decoded and not played because they were not part of an unbroken run (false syncs in garbage,
    /// and the frames whose bit reservoir reached into it).
    public private(set) var droppedFrames = 0
    public private(set) var rate = 0
    public private(set) var channels = 0

    private static let initialised: Int32 = mpg123_init()

    /// A decoder for any MPEG audio format; with `outputRate`, mpg123 converts everything to that rate in
    /// stereo (its automatic resampler and up-mixing), so one sound-card setting serves every station and the tone.
    public init(outputRate: Int? = nil) throws(AudioError) {
        guard MP3Decoder.initialised == Int32(MPG123_OK.rawValue) else {
            throw AudioError("mpg123_init failed: \(String(cString: mpg123_plain_strerror(MP3Decoder.initialised))).")
        }
        var error: Int32 = 0
        guard let h = mpg123_new(nil, &error) else {
            throw AudioError("mpg123_new failed: \(String(cString: mpg123_plain_strerror(error))).")
        }
        handle = h
        mpg123_param2(h, Int32(MPG123_ADD_FLAGS.rawValue), Int(MPG123_QUIET.rawValue), 0)
        mpg123_param2(h, Int32(MPG123_RESYNC_LIMIT.rawValue), -1, 0)  // search as far as needed for sync
        mpg123_format_none(h)
        if let outputRate {
            mpg123_param2(h, Int32(MPG123_ADD_FLAGS.rawValue), Int(MPG123_FORCE_STEREO.rawValue), 0)
            mpg123_format(h, outputRate, Int32(MPG123_STEREO.rawValue), Int32(MPG123_ENC_SIGNED_16.rawValue))
        } else {
            for rate in [8000, 11025, 12000, 16000, 22050, 24000, 32000, 44100, 48000] {
                mpg123_format(h, rate, Int32(MPG123_MONO.rawValue | MPG123_STEREO.rawValue), Int32(MPG123_ENC_SIGNED_16.rawValue))
            }
        }
        let rc = mpg123_open_feed(h)
        guard rc == Int32(MPG123_OK.rawValue) else {
            mpg123_delete(h)
            throw AudioError("mpg123_open_feed failed: \(String(cString: mpg123_plain_strerror(rc))).")
        }
    }

    deinit {
        mpg123_delete(handle)
    }

    /// Feeds `bytes` and hands every decoded piece to `output`, in order.
    ///
    /// Only frames that sit in an unbroken run of frames reach `output` (see `FrameRun`), so each frame is held
    /// until the next one is parsed: the stream's last frame comes out at `finish`.
    public func decode(_ bytes: UnsafeRawBufferPointer, output: (Output) throws(AudioError) -> Void) throws(AudioError) {
        if let base = bytes.baseAddress, !bytes.isEmpty {
            let rc = mpg123_feed(handle, base.assumingMemoryBound(to: UInt8.self), bytes.count)
            guard rc == Int32(MPG123_OK.rawValue) else { throw failure("mpg123_feed", rc) }
        }
        while true {
            var number: off_t = 0
            var audio: UnsafeMutablePointer<UInt8>?
            var size = 0
            let rc = mpg123_decode_frame(handle, &number, &audio, &size)
            switch rc {
            case Int32(MPG123_OK.rawValue):
                var info = mpg123_frameinfo2()
                guard mpg123_info2(handle, &info) == Int32(MPG123_OK.rawValue) else { continue }
                let frame = FrameRun.Frame(
                    start: Int(mpg123_framepos(handle)), size: Int(info.framesize), layer: Int(info.layer),
                    mainData: FrameRun.mainDataBytes(
                        size: Int(info.framesize), mpeg1: info.version == Int32(MPG123_1_0.rawValue),
                        mono: info.mode == Int32(MPG123_M_MONO.rawValue), crc: info.flags & Int32(MPG123_CRC.rawValue) != 0))
                switch run.next(frame) {
                case .audio:
                    errorsInARow = 0
                    try pass(held, to: output)
                case .dropped: droppedFrames += 1
                case .nothingHeld: break
                }
                held.removeAll(keepingCapacity: true)
                if let audio, size > 0 { held.append(contentsOf: UnsafeBufferPointer(start: audio, count: size)) }
            case Int32(MPG123_NEW_FORMAT.rawValue):
                // The held frame is the old format's last: settled (played if it was audio) before the new one.
                if run.lastIsAudio { try pass(held, to: output) }
                held.removeAll(keepingCapacity: true)
                run = FrameRun()
                try flush(output)
                var r = 0, ch: Int32 = 0, enc: Int32 = 0
                mpg123_getformat(handle, &r, &ch, &enc)
                rate = r
                channels = Int(ch)
                try output(.format(rate: r, channels: Int(ch)))
            case Int32(MPG123_NEED_MORE.rawValue), Int32(MPG123_DONE.rawValue):
                try flush(output)
                return
            default:
                try flush(output)
                errorsInARow += 1
                if errorsInARow >= MP3Decoder.consecutiveErrorLimit {
                    throw AudioError(
                        "The stream is not decodable MP3 (\(errorsInARow) decoding errors in a row; mpg123: \(String(cString: mpg123_strerror(handle))))."
                    )
                }
                return
            }
        }
    }

    /// The stream has ended: hands on its last frame, when it was part of an unbroken run.
    public func finish(output: (Output) throws(AudioError) -> Void) throws(AudioError) {
        if run.lastIsAudio { try pass(held, to: output) }
        held.removeAll()
        try flush(output)
    }

    /// Adds a frame's PCM to the piece being gathered, handing the piece on whenever it is full.
    private func pass(_ pcm: [UInt8], to output: (Output) throws(AudioError) -> Void) throws(AudioError) {
        var from = 0
        while from < pcm.count {
            let n = min(outBuffer.count - pending, pcm.count - from)
            outBuffer.withUnsafeMutableBytes { out in
                pcm.withUnsafeBytes { src in
                    out.baseAddress!.advanced(by: pending).copyMemory(from: src.baseAddress! + from, byteCount: n)
                }
            }
            pending += n
            from += n
            if pending == outBuffer.count { try flush(output) }
        }
    }

    private func flush(_ output: (Output) throws(AudioError) -> Void) throws(AudioError) {
        guard pending > 0 else { return }
        let n = pending
        pending = 0
        var failed: AudioError?
        outBuffer.withUnsafeBytes { out in
            do throws(AudioError) {
                try output(.pcm(UnsafeRawBufferPointer(rebasing: out[0..<n])))
            } catch { failed = error }
        }
        if let failed { throw failed }
    }

    private func failure(_ call: String, _ rc: Int32) -> AudioError {
        AudioError("\(call) failed: \(String(cString: mpg123_plain_strerror(rc))).")
    }
}
