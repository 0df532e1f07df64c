import AubadeCore
import AubadeHTTP
import Foundation

/// The network side of a stream playback, on its own thread: connects, checks what the server sends
/// (audio and its container, a playlist to resolve, an HLS playlist to follow, or something that is not audio),
/// strips ICY metadata, and writes the audio into the ring, marking where each connection's stream begins and
/// what container it is (`ByteRing.begin`); reconnects with backoff 1-2-4-8 s after a drop or a stall (R21), from 1 s again after
/// a connection that brought audio.
///
/// A finite source (a podcast episode, `startByte` its first byte) ends where its file does: the server closing
/// the transfer after the last byte is its end, not a drop; a drop reconnects from the byte reached (an HTTP
/// range — or, from a server that ignores ranges, the whole body with the bytes already had skipped).
struct StreamFetcher: Sendable {
    let url: StreamURL
    let options: CurlTransfer.Options
    let ring: ByteRing
    let control: FetchControl
    /// Whether audio has reached the ring at least once; permanent errors before that end the playback.
    let audioStarted: @Sendable () -> Bool
    var finite = false
    var startByte: Int64 = 0
    /// The highest bandwidth of an HLS variant picked, bits per second.
    var hlsBandwidthCap = HLSPlaylist.defaultBandwidthCap

    static let backoff: [Duration] = [.seconds(1), .seconds(2), .seconds(4), .seconds(8)]
    static let prefixBytes = 512

    enum Outcome {
        case retry(String?)
        case fatal(String)
        case stopped
        /// A finite source's last byte arrived.
        case ended
    }

    /// Runs until stopped or a permanent failure; closes the ring when done.
    func run() {
        defer { ring.close() }
        var attempt = 0
        // Made at the first HLS playlist; it remembers what was played across reconnects.
        var hls: HLSFetcher?
        while !control.isStopped() {
            control.report(.connecting(url: url.text))
            let written = ring.totalWritten
            let outcome = fetch(url, depth: 0, hls: &hls)
            // A connection that brought audio starts the backoff over: a drop tonight waits 1 s, not 8 s.
            if ring.totalWritten > written { attempt = 0 }
            switch outcome {
            case .stopped, .ended:
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

    private func fetch(_ url: StreamURL, depth: Int, hls: inout HLSFetcher?) -> Outcome {
        var demux = ICYDemuxer(interval: nil)
        var prefix: [UInt8] = []
        var content: StreamContent?
        var contentType: String?
        var playlistBody: [UInt8] = []
        var lastTitle: String?
        var fatal: String?
        var received = false
        var effectiveURL = url.text
        var options = options
        // A finite source goes on from the byte reached; what a server that ignores the range sends again is skipped.
        let from = finite ? startByte + Int64(ring.totalWritten) : 0
        options.fromByte = from
        var skip: Int64 = 0
        let transfer = CurlTransfer(url: url, options: options)
        let end = transfer.run(
            shouldStop: { control.isStopped() },
            onHead: { head in
                if from > 0 && head.status != 206 { skip = from }
                demux = ICYDemuxer(interval: head.metaint)
                contentType = head.contentType
                effectiveURL = head.url
                if StreamContent.needsFFmpeg(contentType: head.contentType) { FFmpegLibrary.preload() }
                if let metaint = head.metaint, !demux.isActive {
                    control.report(.metadataOff(StreamFetcher.metadataOff("its icy-metaint \(metaint) is outside 1…65536")))
                }
                return true
            },
            onBody: { whole in
                received = true
                var bytes = whole
                if skip > 0 {
                    let n = Int(min(skip, Int64(whole.count)))
                    skip -= Int64(n)
                    bytes = UnsafeRawBufferPointer(rebasing: whole[n...])
                    if bytes.isEmpty { return true }
                }
                var ok = true
                demux.push(bytes) { piece in
                    switch piece {
                    case .audio(let audio):
                        guard ok else { return }
                        if content == nil {
                            prefix.append(contentsOf: audio)
                            guard prefix.count >= StreamFetcher.prefixBytes else { return }
                            content = StreamContent.classify(contentType: contentType, url: url.text, prefix: prefix)
                            if case .audio(let container) = content! { ring.begin(container) }
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
            if case .audio(let container) = content! {
                ring.begin(container)
                _ = prefix.withUnsafeBytes { ring.write($0) }
            }
        }
        // A playlist whose HLS tags come after the first bytes looked at.
        if case .playlist = content, (playlistBody.isEmpty ? prefix : playlistBody).containsHLSTag { content = .hls }
        if case .playlist(let format) = content {
            return resolve(playlistBody.isEmpty ? prefix : playlistBody, format: format, base: url, depth: depth, hls: &hls)
        }
        if case .hls = content, end == .finished {
            FFmpegLibrary.preload()
            let follower = hls ?? HLSFetcher(fetcher: self, plan: HLSLivePlan(), bandwidthCap: hlsBandwidthCap)
            hls = follower
            return follower.follow(playlistBody.isEmpty ? prefix : playlistBody, url: effectiveURL)
        }
        if let content, let refusal = StreamFetcher.refusal(content) { return .fatal(refusal) }
        switch end {
        case .stopped: return control.isStopped() ? .stopped : .retry(nil)
        case .stalled: control.report(.stalled(after: options.stallTimeout)); return .retry(nil)
        case .finished where finite && received: return .ended
        case .finished: return .retry(received ? "The station closed the stream." : "The station sent nothing.")
        case .failed where finite && transfer.lastStatus == 416:
            return .ended  // the range starts at the end: the episode was heard to its end already
        case .failed(let reason, let permanent):
            return permanent && !audioStarted() ? .fatal(reason) : .retry(reason)
        }
    }

    /// Hands classified bytes on: audio to the ring, playlists to their buffer; false ends the transfer.
    private func deliver(_ bytes: [UInt8], _ content: StreamContent, _ playlist: inout [UInt8], _ fatal: inout String?) -> Bool {
        switch content {
        case .audio:
            return bytes.withUnsafeBytes { ring.write($0) }
        case .playlist, .hls:
            playlist.append(contentsOf: bytes)
            let (limit, refusal) =
                content == .hls
                ? (HLSPlaylist.maxBytes, "The HLS playlist is larger than 1 MiB.")
                : (PlaylistParser.maxBytes, "The playlist is larger than 64 KiB.")
            if playlist.count > limit {
                fatal = refusal
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
        case .audio, .playlist, .hls: nil
        case .html: "The station sent a web page, not audio."
        case .unsupported(let why): why
        }
    }

    /// Tries the playlist's entries in order (nesting at most 2 deep, R24).
    private func resolve(_ body: [UInt8], format: PlaylistFormat, base: StreamURL, depth: Int, hls: inout HLSFetcher?)
        -> Outcome
    {
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
            last = fetch(entry, depth: depth + 1, hls: &hls)
            if case .stopped = last { return last }
            if audioStarted() { return last }
        }
        return last
    }
}

extension [UInt8] {
    /// Whether the text holds an `#EXT-X-` tag (an HLS playlist).
    fileprivate var containsHLSTag: Bool {
        String(decoding: self, as: UTF8.self).uppercased().contains("#EXT-X-")
    }
}
