import AubadeCore
import AubadeHTTP
import Foundation

/// The network side of a stream playback, on its own thread: connects, checks what the server sends
/// (MPEG audio, a playlist to resolve, or something that is not audio), strips ICY metadata, and writes the
/// audio into the ring; reconnects with backoff 1-2-4-8 s after a drop or a stall (R21), from 1 s again after
/// a connection that brought audio.
struct StreamFetcher: Sendable {
    let url: StreamURL
    let options: CurlTransfer.Options
    let ring: ByteRing
    let control: FetchControl
    /// Whether audio has reached the ring at least once; permanent errors before that end the playback.
    let audioStarted: @Sendable () -> Bool

    static let backoff: [Duration] = [.seconds(1), .seconds(2), .seconds(4), .seconds(8)]
    static let prefixBytes = 512

    enum Outcome {
        case retry(String?)
        case fatal(String)
        case stopped
    }

    /// Runs until stopped or a permanent failure; closes the ring when done.
    func run() {
        defer { ring.close() }
        var attempt = 0
        while !control.isStopped() {
            control.report(.connecting(url: url.text))
            let written = ring.totalWritten
            let outcome = fetch(url, depth: 0)
            // A connection that brought audio starts the backoff over: a drop tonight waits 1 s, not 8 s.
            if ring.totalWritten > written { attempt = 0 }
            switch outcome {
            case .stopped:
                return
            case .fatal(let reason):
                control.report(.failed(reason))
                return
            case .retry(let reason):
                if let reason { control.report(.error(reason)) }
                let delay = StreamFetcher.backoff[min(attempt, StreamFetcher.backoff.count - 1)]
                attempt += 1
                control.report(.reconnecting(attempt: attempt, delay: delay))
                if control.waitForStop(delay) { return }
            }
        }
    }

    private func fetch(_ url: StreamURL, depth: Int) -> Outcome {
        var demux = ICYDemuxer(interval: nil)
        var prefix: [UInt8] = []
        var content: StreamContent?
        var contentType: String?
        var playlistBody: [UInt8] = []
        var lastTitle: String?
        var fatal: String?
        var received = false
        let transfer = CurlTransfer(url: url, options: options)
        let end = transfer.run(
            shouldStop: { control.isStopped() },
            onHead: { head in
                demux = ICYDemuxer(interval: head.metaint)
                contentType = head.contentType
                if let metaint = head.metaint, !demux.isActive {
                    control.report(.metadataOff(StreamFetcher.metadataOff("its icy-metaint \(metaint) is outside 1…65536")))
                }
                return true
            },
            onBody: { bytes in
                received = true
                var ok = true
                demux.push(bytes) { piece in
                    switch piece {
                    case .audio(let audio):
                        guard ok else { return }
                        if content == nil {
                            prefix.append(contentsOf: audio)
                            guard prefix.count >= StreamFetcher.prefixBytes else { return }
                            content = StreamContent.classify(contentType: contentType, url: url.text, prefix: prefix)
                            ok = deliver(prefix.withUnsafeBytes { Array($0) }, content!, &playlistBody, &fatal)
                        } else {
                            ok = deliver(Array(audio), content!, &playlistBody, &fatal)
                        }
                    case .block(let block):
                        if let title = ICYMetadata.streamTitle(in: block), title != lastTitle, !title.isEmpty {
                            lastTitle = title
                            control.report(.title(title))
                        }
                    case .metadataOff(let why):
                        control.report(.metadataOff(StreamFetcher.metadataOff(why)))
                    }
                }
                return ok
            })
        if let fatal { return .fatal(fatal) }
        if content == nil, !prefix.isEmpty, end == .finished {
            content = StreamContent.classify(contentType: contentType, url: url.text, prefix: prefix)
            if case .mpegAudio = content! { _ = prefix.withUnsafeBytes { ring.write($0) } }
        }
        if case .playlist(let format) = content {
            return resolve(playlistBody.isEmpty ? prefix : playlistBody, format: format, base: url, depth: depth)
        }
        if let content, let refusal = StreamFetcher.refusal(content) { return .fatal(refusal) }
        switch end {
        case .stopped: return control.isStopped() ? .stopped : .retry(nil)
        case .stalled: control.report(.stalled(after: options.stallTimeout)); return .retry(nil)
        case .finished: return .retry(received ? "The station closed the stream." : "The station sent nothing.")
        case .failed(let reason, let permanent):
            return permanent && !audioStarted() ? .fatal(reason) : .retry(reason)
        }
    }

    /// Hands classified bytes on: audio to the ring, playlists to their buffer; false ends the transfer.
    private func deliver(_ bytes: [UInt8], _ content: StreamContent, _ playlist: inout [UInt8], _ fatal: inout String?) -> Bool {
        switch content {
        case .mpegAudio:
            return bytes.withUnsafeBytes { ring.write($0) }
        case .playlist:
            playlist.append(contentsOf: bytes)
            if playlist.count > PlaylistParser.maxBytes {
                fatal = "The playlist is larger than 64 KiB."
                return false
            }
            return true
        default:
            fatal = StreamFetcher.refusal(content)
            return false
        }
    }

    /// R23: metadata faults are reported once and never stop the audio.
    static func metadataOff(_ why: String) -> String {
        "The station's ICY metadata is unusable (\(why)); titles are off, the audio plays on."
    }

    static func refusal(_ content: StreamContent) -> String? {
        switch content {
        case .mpegAudio, .playlist: nil
        case .html: "The station sent a web page, not audio."
        case .hls: "The station sends an HLS playlist, which Aubade does not support yet; pick its MP3 stream."
        case .unsupported(let why): why
        }
    }

    /// Tries the playlist's entries in order (nesting at most 2 deep, R24).
    private func resolve(_ body: [UInt8], format: PlaylistFormat, base: StreamURL, depth: Int) -> Outcome {
        guard depth < 2 else { return .fatal("The playlist nests playlists more than 2 deep.") }
        let entries: [StreamURL]
        do throws(PlaylistError) {
            entries = try PlaylistParser.entries(in: body, format: format, base: base.text)
        } catch {
            return .fatal(error.description)
        }
        var last: Outcome = .fatal("The playlist has no entry that plays.")
        for entry in entries {
            control.report(.connecting(url: entry.text))
            last = fetch(entry, depth: depth + 1)
            if case .stopped = last { return last }
            if audioStarted() { return last }
        }
        return last
    }
}
