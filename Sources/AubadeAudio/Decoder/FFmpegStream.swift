import AubadeCore
import AubadeSystem
import CFFmpeg
import Foundation
import Synchronization

/// AAC (LC, HE-AAC v1 and v2), Ogg Vorbis, Ogg Opus and FLAC through libavformat and libavcodec, on the stream's
/// own decoding thread (`aubade.decode`): it reads the station's byte ring through a custom I/O context — the
/// library never opens an address or a file itself — and writes 16-bit stereo PCM at the engine's rate
/// (libswresample) into a PCM ring that the audio thread pulls from without waiting, as it pulls mpg123's.
///
/// A whitelist: only the demuxers `AudioContainer` names (`aac`, `ogg`, `flac`, `mov`, `mpegts`) and FFmpeg's own
/// decoders for AAC, Vorbis, Opus and FLAC are ever used; a stream holding anything else fails with "cannot
/// play: <codec>". Each mark in the byte ring (a reconnection, an HLS discontinuity) ends the demuxer at its
/// byte, and a new one reads what follows. A stream that does not decode, or ten packets in a row that fail
/// (R22), fails for good through `fail`; the thread then closes the PCM ring and ends. Memory: the two rings,
/// the demuxer's 32 KiB of I/O buffer and one decoded frame.
///
/// An MP4 episode already on disk is read from its file instead (`seekableFile`), through the same kind of custom I/O
/// with a seek: an M4A whose index (`moov`) follows its audio — as many podcasts are published — can only be read
/// by seeking back, which a stream cannot do.
///
/// Contract: `start` once; `stop()` from any thread ends the thread within its next wait (a second at most).
final class FFmpegStream: Sendable {
    /// The decoders allowed, by codec: FFmpeg's own, none from an outside library.
    static let decoders: [AVCodecID: String] = [
        AV_CODEC_ID_AAC: "aac", AV_CODEC_ID_VORBIS: "vorbis", AV_CODEC_ID_OPUS: "opus", AV_CODEC_ID_FLAC: "flac",
    ]
    /// One second of 44.1 kHz stereo PCM ahead of the audio thread at most (with the byte ring: R25).
    static let pcmBytes = 176 * 1024
    static let ioBufferBytes = 32 * 1024

    /// Decoded PCM: S16 interleaved stereo at `rate`, native endian.
    let pcm: ByteRing
    private let input: ByteRing
    let rate: Int
    private let stopped = Atomic<Bool>(false)
    private let ended = Atomic<Bool>(false)
    private let fail: @Sendable (String) -> Void
    private let title: @Sendable (String) -> Void
    /// An MP4 file to read (seekable) instead of the ring.
    let seekableFile: String?

    /// `fail` is told the one reason the stream cannot go on; `title` each title found in timed ID3 metadata.
    init(
        input: ByteRing, rate: Int, seekableFile: String? = nil, fail: @escaping @Sendable (String) -> Void,
        title: @escaping @Sendable (String) -> Void
    ) {
        self.input = input
        self.seekableFile = seekableFile
        self.rate = rate
        self.fail = fail
        self.title = title
        pcm = ByteRing(capacity: FFmpegStream.pcmBytes)
    }

    /// Starts the decoding thread on the stream that begins with the container `first`.
    func start(_ first: AudioContainer) {
        let started = NamedThread.start("aubade.decode") { [self] in run(first) }
        if !started {
            fail("The decoding thread could not be started.")
            pcm.close()
            ended.store(true, ordering: .releasing)
        }
    }

    func stop() {
        stopped.store(true, ordering: .releasing)
        pcm.close()
    }

    var isStopped: Bool { stopped.load(ordering: .acquiring) }

    /// Whether the decoding thread has ended (its demuxer and decoder freed).
    var threadEnded: Bool { ended.load(ordering: .acquiring) }

    private func run(_ first: AudioContainer) {
        defer {
            pcm.close()
            ended.store(true, ordering: .releasing)
        }
        // The libraries are opened here, on the decoding thread, the first time a stream needs them.
        let ff: aubade_ffmpeg
        switch FFmpegLibrary.loaded {
        case .success(let table): ff = table
        case .failure(let why):
            fail(why.description)
            return
        }
        var container = first
        if container == .mp4, let path = seekableFile {
            let reader = StreamReader(ring: input, stream: self, ff: ff)
            guard reader.openFile(path) else {
                fail("The episode's file cannot be opened (\(String(cString: strerror(errno)))): \(path).")
                return
            }
            if case .failed(let reason) = reader.decode(.mp4), !isStopped { fail(reason) }
            return
        }
        while !isStopped {
            let reader = StreamReader(ring: input, stream: self, ff: ff)
            switch reader.decode(container) {
            case .stopped:
                return
            case .failed(let reason):
                if !isStopped { fail(reason) }
                return
            case .ended:
                if let next = input.takeMark() {
                    guard next.demuxer != nil else {
                        fail("The station changed its stream from \(container.name) to \(next.name) on reconnecting.")
                        return
                    }
                    container = next
                } else if input.isFinished {
                    return
                }
            }
        }
    }

    fileprivate func emit(title text: String) { title(text) }
}

extension AudioContainer {
    /// Its name in a sentence.
    var name: String {
        switch self {
        case .mpeg: "MP3"
        case .adts: "AAC (ADTS)"
        case .ogg: "Ogg"
        case .flac: "FLAC"
        case .mp4: "MP4"
        case .mpegts: "MPEG-TS"
        }
    }
}

/// One demuxer and decoder over the ring's bytes up to its next mark. Not Sendable: lives on the decoding thread.
private final class StreamReader {
    enum Outcome {
        case ended
        case stopped
        case failed(String)
    }

    let ring: ByteRing
    unowned let stream: FFmpegStream
    let ff: aubade_ffmpeg
    private var resampler: OpaquePointer?
    private var resampledFrom: (rate: Int32, format: Int32, channels: Int32, order: UInt32, mask: UInt64)?
    private var out: [Int16] = []
    private var errorsInARow = 0
    /// Bytes read since the last decoded frame: past `StationFeed.maxBytesWithoutAudio`, the stream is not audio
    /// (R22: a demuxer resynchronising through garbage never runs on for ever).
    private var bytesWithoutAudio = 0
    private var withoutAudio = false
    /// The file read instead of the ring, when there is one (`openFile`).
    private var file: Int32 = -1
    /// The last comment title reported.
    private var lastTitle: String?

    init(ring: ByteRing, stream: FFmpegStream, ff: aubade_ffmpeg) {
        self.ring = ring
        self.stream = stream
        self.ff = ff
    }

    deinit {
        ff.swr_free(&resampler)
        if file >= 0 { close(file) }
    }

    /// Reads `path` (seekable) instead of the ring; false when it cannot be opened.
    func openFile(_ path: String) -> Bool {
        file = open(path, O_RDONLY | O_CLOEXEC)
        return file >= 0
    }

    /// The custom I/O's seek on the file (`AVSEEK_SIZE` asks for its size).
    func seek(_ offset: Int64, _ whence: Int32) -> Int64 {
        guard file >= 0 else { return -1 }
        if whence & 0x10000 != 0 {  // AVSEEK_SIZE
            var info = stat()
            return fstat(file, &info) == 0 ? Int64(info.st_size) : -1
        }
        return Int64(lseek(file, off_t(offset), whence & ~0x20000))  // AVSEEK_FORCE means nothing to a file
    }

    /// The custom I/O's read: waits for bytes (never past a mark), the end, or a stop.
    func read(_ buffer: UnsafeMutablePointer<UInt8>, _ size: Int32) -> Int32 {
        if file >= 0 {
            if stream.isStopped { return aubade_averror_exit() }
            let n = Foundation.read(file, buffer, Int(size))
            if n > 0 { return Int32(n) }
            return n == 0 ? aubade_averror_eof() : -errno
        }
        while true {
            if stream.isStopped { return aubade_averror_exit() }
            if bytesWithoutAudio > StationFeed.maxBytesWithoutAudio {
                withoutAudio = true
                return aubade_averror_exit()
            }
            let n = ring.read(into: UnsafeMutableRawBufferPointer(start: buffer, count: Int(size)))
            if n > 0 {
                bytesWithoutAudio += n
                return Int32(n)
            }
            if ring.atMark || ring.isFinished { return aubade_averror_eof() }
            ring.waitForData(atMost: .seconds(1))
        }
    }

    func decode(_ container: AudioContainer) -> Outcome {
        guard let demuxerName = container.demuxer, let demuxer = ff.av_find_input_format(demuxerName) else {
            return .failed("libavformat has no \(container.name) demuxer.")
        }
        guard let ioBuffer = ff.av_malloc(FFmpegStream.ioBufferBytes)?.assumingMemoryBound(to: UInt8.self) else {
            return .failed("The decoder's buffer could not be allocated.")
        }
        let me = Unmanaged.passUnretained(self).toOpaque()
        var io = ff.avio_alloc_context(
            ioBuffer, Int32(FFmpegStream.ioBufferBytes), 0, me, streamRead, nil, file >= 0 ? streamSeek : nil)
        guard let ioContext = io else {
            var b: UnsafeMutableRawPointer? = UnsafeMutableRawPointer(ioBuffer)
            ff.av_freep(&b)
            return .failed("The decoder's input could not be set up.")
        }
        ioContext.pointee.seekable = file >= 0 ? AVIO_SEEKABLE_NORMAL : 0
        defer {
            ff.av_freep(&io!.pointee.buffer)  // libavformat may have replaced the buffer it was given
            ff.avio_context_free(&io)
        }
        var format = ff.avformat_alloc_context()
        guard let f = format else { return .failed("libavformat could not be set up.") }
        f.pointee.pb = ioContext
        f.pointee.flags |= AVFMT_FLAG_CUSTOM_IO
        f.pointee.interrupt_callback = AVIOInterruptCB(callback: streamInterrupt, opaque: me)
        f.pointee.format_whitelist = ff.av_strdup(demuxerName)
        f.pointee.codec_whitelist = ff.av_strdup(FFmpegStream.decoders.values.sorted().joined(separator: ","))
        f.pointee.probesize = 64 * 1024
        f.pointee.max_analyze_duration = 500_000
        var rc = ff.avformat_open_input(&format, nil, demuxer, nil)
        guard rc >= 0, let f = format else {
            // `format` was freed by the failed open.
            if container == .mp4, file < 0, !stream.isStopped, !isEnd(rc) {
                return .failed(
                    "The MP4 stream is not decodable as it arrives (libavformat: \(describe(rc))): an M4A whose index follows its audio plays only from a downloaded file."
                )
            }
            return outcome(rc, reading: "the \(container.name) stream's header")
        }
        defer { ff.avformat_close_input(&format) }
        if container == .mpegts || f.pointee.nb_streams == 0 {
            rc = ff.avformat_find_stream_info(f, nil)
            if rc < 0 { return outcome(rc, reading: "the \(container.name) stream's contents") }
        }
        // The first audio stream (a station has one); its rate and channels come with its frames.
        let streams = (0..<Int(f.pointee.nb_streams)).map { f.pointee.streams[$0]! }
        guard let first = streams.firstIndex(where: { $0.pointee.codecpar.pointee.codec_type == AVMEDIA_TYPE_AUDIO }) else {
            return .failed("The \(container.name) stream holds no audio.")
        }
        let audioIndex = Int32(first)
        let audio = streams[first]
        // An Ogg station's title is in its comment header, again at each chained stream (Icecast's title changes).
        if container == .ogg { noteCommentTitle(audio) }
        var metadataIndex: Int32 = -1
        for (i, s) in streams.enumerated() {
            let i = Int32(i)
            if i == audioIndex { continue }
            if s.pointee.codecpar.pointee.codec_id == AV_CODEC_ID_TIMED_ID3 && metadataIndex < 0 {
                metadataIndex = i
            } else {
                s.pointee.discard = AVDISCARD_ALL
            }
        }
        let parameters = f.pointee.streams[Int(audioIndex)]!.pointee.codecpar!
        let codecID = parameters.pointee.codec_id
        guard let decoderName = FFmpegStream.decoders[codecID], let codec = ff.avcodec_find_decoder_by_name(decoderName)
        else {
            let name = ff.avcodec_get_name(codecID).map { String(cString: $0) } ?? "an unknown codec"
            return .failed("The station sends \(name), which Aubade cannot play.")
        }
        var decoder = ff.avcodec_alloc_context3(codec)
        guard let d = decoder else { return .failed("libavcodec could not be set up.") }
        defer { ff.avcodec_free_context(&decoder) }
        rc = ff.avcodec_parameters_to_context(d, parameters)
        if rc >= 0 { rc = ff.avcodec_open2(d, codec, nil) }
        if rc < 0 { return .failed("The \(decoderName) decoder could not be opened (\(describe(rc))).") }

        var packet = ff.av_packet_alloc()
        var frame = ff.av_frame_alloc()
        defer {
            ff.av_packet_free(&packet)
            ff.av_frame_free(&frame)
        }
        guard let packet, let frame else { return .failed("libavcodec could not allocate a packet.") }
        while true {
            rc = ff.av_read_frame(f, packet)
            if rc < 0 {
                if stream.isStopped { return .stopped }
                if isEnd(rc) {
                    // The stream's end (or a mark): what the decoder still holds comes out first.
                    _ = ff.avcodec_send_packet(d, nil)
                    if case .some(let stop) = drain(d, frame) { return stop }
                    return flushResampler() ? .ended : .stopped
                }
                if withoutAudio { return noAudio }
                return .failed("The \(container.name) stream is not decodable (libavformat: \(describe(rc))).")
            }
            defer { ff.av_packet_unref(packet) }
            if container == .ogg, audio.pointee.event_flags & AVSTREAM_EVENT_FLAG_METADATA_UPDATED != 0 {
                noteCommentTitle(audio)
            }
            if packet.pointee.stream_index == metadataIndex {
                let bytes = Array(UnsafeBufferPointer(start: packet.pointee.data, count: Int(packet.pointee.size)))
                if let title = ID3Title.title(inTag: bytes) { stream.emit(title: title) }
                continue
            }
            guard packet.pointee.stream_index == audioIndex else { continue }
            rc = ff.avcodec_send_packet(d, packet)
            if rc < 0 && rc != aubade_averror_eagain() {
                errorsInARow += 1
                if errorsInARow >= MP3Decoder.consecutiveErrorLimit {
                    return .failed(
                        "The \(decoderName) audio is not decodable (\(errorsInARow) packets in a row failed; libavcodec: \(describe(rc)))."
                    )
                }
                continue
            }
            if case .some(let stop) = drain(d, frame) { return stop }
        }
    }

    /// Takes every frame the decoder has ready to the PCM ring; an outcome when the stream cannot go on.
    private func drain(_ d: UnsafeMutablePointer<AVCodecContext>, _ frame: UnsafeMutablePointer<AVFrame>) -> Outcome? {
        while true {
            let rc = ff.avcodec_receive_frame(d, frame)
            if rc == aubade_averror_eagain() || isEnd(rc) { return nil }
            if rc < 0 {
                errorsInARow += 1
                if errorsInARow >= MP3Decoder.consecutiveErrorLimit {
                    return .failed("The audio is not decodable (libavcodec: \(describe(rc))).")
                }
                return nil
            }
            defer { ff.av_frame_unref(frame) }
            errorsInARow = 0
            bytesWithoutAudio = 0
            switch convert(frame) {
            case .ok: continue
            case .closed: return .stopped
            case .failed(let why): return .failed(why)
            }
        }
    }

    /// Reports the stream's comment title ("ARTIST - TITLE", made plain where it enters, R40) when it changed.
    private func noteCommentTitle(_ audio: UnsafeMutablePointer<AVStream>) {
        audio.pointee.event_flags &= ~AVSTREAM_EVENT_FLAG_METADATA_UPDATED
        func value(_ key: String) -> String? {
            guard let entry = ff.av_dict_get(audio.pointee.metadata, key, nil, 0), let text = entry.pointee.value else {
                return nil
            }
            let plain = OutsideText.clean(
                String(decoding: UnsafeRawBufferPointer(start: text, count: strlen(text)), as: UTF8.self),
                limit: ICYMetadata.maxTitle)
            return plain.isEmpty ? nil : plain
        }
        guard let title = value("title") else { return }
        let whole = value("artist").map { "\($0) - \(title)" } ?? title
        guard whole != lastTitle else { return }
        lastTitle = whole
        stream.emit(title: OutsideText.clean(whole, limit: ICYMetadata.maxTitle))
    }

    enum Written { case ok, closed, failed(String) }

    /// One decoded frame, resampled to stereo S16 at the engine's rate, into the PCM ring (waiting while it is full).
    private func convert(_ frame: UnsafeMutablePointer<AVFrame>) -> Written {
        var layout = frame.pointee.ch_layout
        if layout.nb_channels == 0 { return .ok }
        let key = (
            frame.pointee.sample_rate, frame.pointee.format, layout.nb_channels, layout.order.rawValue, layout.u.mask
        )
        if resampledFrom.map({ $0 != key }) ?? true {
            ff.swr_free(&resampler)
            var stereo = AVChannelLayout()
            ff.av_channel_layout_default(&stereo, 2)
            var fresh: OpaquePointer?
            var rc = ff.swr_alloc_set_opts2(
                &fresh, &stereo, AV_SAMPLE_FMT_S16, Int32(stream.rate), &layout,
                AVSampleFormat(rawValue: frame.pointee.format), frame.pointee.sample_rate, 0, nil)
            if rc >= 0 { rc = ff.swr_init(fresh) }
            guard rc >= 0 else {
                ff.swr_free(&fresh)
                return .failed(
                    "The audio's format (\(frame.pointee.sample_rate) Hz, \(layout.nb_channels) channels) cannot be converted (libswresample: \(describe(rc)))."
                )
            }
            resampler = fresh
            resampledFrom = key
        }
        let room = Int(ff.swr_get_out_samples(resampler, frame.pointee.nb_samples))
        guard room > 0 else { return .ok }
        if out.count < room * 2 { out = [Int16](repeating: 0, count: room * 2) }
        let made = out.withUnsafeMutableBytes { raw -> Int32 in
            var target: UnsafeMutablePointer<UInt8>? = raw.baseAddress!.assumingMemoryBound(to: UInt8.self)
            return withUnsafeMutablePointer(to: &target) { targets in
                frame.pointee.extended_data.withMemoryRebound(to: UnsafePointer<UInt8>?.self, capacity: Int(layout.nb_channels)) {
                    ff.swr_convert(resampler, targets, Int32(room), $0, frame.pointee.nb_samples)
                }
            }
        }
        if made < 0 { return .failed("The audio could not be converted (libswresample: \(describe(made))).") }
        return write(Int(made))
    }

    /// What the resampler still holds at a stream's end; false when the PCM ring was closed.
    private func flushResampler() -> Bool {
        guard let resampler else { return true }
        let room = Int(ff.swr_get_out_samples(resampler, 0))
        guard room > 0 else { return true }
        if out.count < room * 2 { out = [Int16](repeating: 0, count: room * 2) }
        let made = out.withUnsafeMutableBytes { raw -> Int32 in
            var target: UnsafeMutablePointer<UInt8>? = raw.baseAddress!.assumingMemoryBound(to: UInt8.self)
            return withUnsafeMutablePointer(to: &target) { ff.swr_convert(resampler, $0, Int32(room), nil, 0) }
        }
        guard made > 0 else { return true }
        if case .closed = write(Int(made)) { return false }
        return true
    }

    private func write(_ frames: Int) -> Written {
        guard frames > 0 else { return .ok }
        let ok = out.withUnsafeBytes { stream.pcm.write(UnsafeRawBufferPointer(rebasing: $0[0..<(frames * 4)])) }
        return ok ? .ok : .closed
    }

    private func outcome(_ rc: Int32, reading what: String) -> Outcome {
        if stream.isStopped { return .stopped }
        if withoutAudio { return noAudio }
        if isEnd(rc) { return .ended }
        return .failed("The stream is not decodable: \(what) could not be read (libavformat: \(describe(rc))).")
    }

    private func isEnd(_ rc: Int32) -> Bool { rc == aubade_averror_eof() }

    private var noAudio: Outcome {
        .failed(
            "The stream is not decodable audio (\(StationFeed.maxBytesWithoutAudio / 1024) KiB without a single audio frame).")
    }
}

extension StreamReader {
    /// FFmpeg's error code as its own sentence fragment.
    func describe(_ rc: Int32) -> String {
        var text = [CChar](repeating: 0, count: 128)
        _ = ff.av_strerror(rc, &text, text.count)
        return String(decoding: text.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// FFmpeg's libraries, opened once per process by the first stream that needs them (`CFFmpeg`'s loader): the clock
/// that only ever plays MP3 and the tone never maps them.
enum FFmpegLibrary {
    struct LoadFailure: Error, CustomStringConvertible {
        let description: String
    }

    /// The table of functions, or why the libraries could not be opened.
    static var loaded: Result<aubade_ffmpeg, LoadFailure> { table.result }

    /// Opens the libraries on a thread of their own, once, when a response says it will need them (an AAC or Ogg
    /// type, an HLS playlist): the 40 ms it takes then overlap the bytes' arrival instead of delaying the first audio.
    static func preload() {
        guard !preloading.exchange(true, ordering: .relaxed) else { return }
        _ = NamedThread.start("aubade.ffload") { _ = FFmpegLibrary.loaded }
    }

    private static let preloading = Atomic<Bool>(false)

    private struct Table: @unchecked Sendable {
        // @unchecked: C function pointers and a sentence, written once before anyone reads them.
        let result: Result<aubade_ffmpeg, LoadFailure>
    }

    private static let table: Table = {
        var error: UnsafePointer<CChar>?
        let functions = aubade_ffmpeg_load(&error)
        if let error {
            return Table(
                result: .failure(
                    LoadFailure(
                        description:
                            "FFmpeg's libraries (libavformat59, libavcodec59, libswresample4), which AAC, Ogg, FLAC and HLS need, could not be loaded: \(String(cString: error))."
                    )))
        }
        // FFmpeg's own log is off: it would print to standard error from the decoding thread, and every failure
        // that matters comes back as a sentence.
        functions.av_log_set_level(AV_LOG_QUIET)
        return Table(result: .success(functions))
    }()
}

private let streamRead: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<UInt8>?, Int32) -> Int32 = {
    opaque, buffer, size in
    guard let opaque, let buffer, size > 0 else { return aubade_averror_eof() }
    return Unmanaged<StreamReader>.fromOpaque(opaque).takeUnretainedValue().read(buffer, size)
}

private let streamSeek: @convention(c) (UnsafeMutableRawPointer?, Int64, Int32) -> Int64 = { opaque, offset, whence in
    guard let opaque else { return -1 }
    return Unmanaged<StreamReader>.fromOpaque(opaque).takeUnretainedValue().seek(offset, whence)
}

private let streamInterrupt: @convention(c) (UnsafeMutableRawPointer?) -> Int32 = { opaque in
    guard let opaque else { return 0 }
    return Unmanaged<StreamReader>.fromOpaque(opaque).takeUnretainedValue().stream.isStopped ? 1 : 0
}
