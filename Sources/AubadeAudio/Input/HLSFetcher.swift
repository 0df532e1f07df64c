import AubadeCore
import AubadeHTTP
import Foundation

/// A live HLS station, followed on the stream's network thread: its master playlist's variant (the highest
/// bandwidth under the cap that this clock decodes), its media playlist reloaded at its target duration, and its
/// segments fetched in order into the byte ring as one stream — MPEG-TS, packed ADTS (each segment's ID3 tag
/// taken off, its title reported) or fMP4 with its init section first. Every request goes through `CurlTransfer`
/// under the same options as the station (R21, R32): libavformat never opens an address.
///
/// What is fetched next is `HLSLivePlan`'s decision, kept across reconnects, so a reconnection never plays a
/// segment twice. A discontinuity, a playlist that stopped growing, a playlist that is gone or a segment that
/// stalls ends this connection like a dropped stream (`StreamFetcher.Outcome.retry`): the fetcher reconnects with
/// its backoff and the voice's fallback chain is unchanged (R21). Encrypted segments are refused with a sentence.
///
/// Not Sendable: made and used on the network thread, one for a fetcher's whole run.
final class HLSFetcher {
    let fetcher: StreamFetcher
    var plan: HLSLivePlan
    /// The highest variant bandwidth picked, bits per second.
    let bandwidthCap: Int

    private var control: FetchControl { fetcher.control }
    private var ring: ByteRing { fetcher.ring }
    private let clock = ContinuousClock()
    private let origin = ContinuousClock.now

    /// The stream begun in the ring by this connection, once its first bytes were seen.
    private var container: AudioContainer?
    /// The init section written into the current stream.
    private var writtenMap: StreamURL?
    private var lastTitle: String?

    init(fetcher: StreamFetcher, plan: HLSLivePlan, bandwidthCap: Int) {
        self.fetcher = fetcher
        self.plan = plan
        self.bandwidthCap = bandwidthCap
    }

    private var now: Duration { clock.now - origin }

    /// Follows the playlist `body` (fetched from `url`) until stopped or a fault: one connection.
    func follow(_ body: [UInt8], url: String) -> StreamFetcher.Outcome {
        container = nil
        writtenMap = nil
        var mediaURL = url
        var media: HLSPlaylist.Media
        switch parse(body, url: url) {
        case .end(let outcome): return outcome
        case .value(.media(let m)): media = m
        case .value(.master(let variants)):
            guard let variant = HLSPlaylist.choose(variants, cap: bandwidthCap) else {
                let codecs = Set(variants.flatMap { $0.codecs }).sorted().joined(separator: ", ")
                return .fatal("The station's HLS variants carry \(codecs), which Aubade cannot play.")
            }
            control.report(.connecting(url: variant.url.text))
            switch document(variant.url) {
            case .end(let outcome): return outcome
            case .value(let (bytes, effective)):
                mediaURL = effective
                switch parse(bytes, url: effective) {
                case .end(let outcome): return outcome
                case .value(.master): return .fatal("The station's HLS variant is itself a master playlist.")
                case .value(.media(let m)): media = m
                }
            }
        }
        while true {
            if let method = media.encryption {
                return .fatal("The station encrypts its HLS segments (\(method)), which Aubade cannot play; pick another stream.")
            }
            let loadedAt = now
            switch plan.loaded(media, at: loadedAt) {
            case .ended:
                return fetcher.finite ? .ended : .retry("The station's HLS stream ended (#EXT-X-ENDLIST).")
            case .discontinuity(let segment):
                plan.accept(segment)
                if container != nil {
                    return .retry(
                        "The station's HLS stream has a discontinuity at segment \(segment.sequence); it is read afresh from there."
                    )
                }
                continue
            case .fetch(let segments):
                for segment in segments {
                    if let outcome = fetch(segment) { return outcome }
                }
            }
            if plan.isStale(at: now, stallTimeout: fetcher.options.stallTimeout) {
                return .retry("The station's HLS playlist stopped growing.")
            }
            let wait = plan.nextReload(after: loadedAt) - now
            if wait > .zero, control.waitForStop(wait) { return .stopped }
            if control.isStopped() { return .stopped }
            switch document(try! StreamURL(parsing: mediaURL)) {
            case .end(let outcome): return outcome
            case .value(let (bytes, effective)):
                switch parse(bytes, url: effective) {
                case .end(let outcome): return outcome
                case .value(.master): return .fatal("The station's HLS media playlist turned into a master playlist.")
                case .value(.media(let m)): media = m
                }
            }
        }
    }

    private func parse(_ bytes: [UInt8], url: String) -> Fetched<HLSPlaylist> {
        do throws(PlaylistError) {
            return .value(try HLSPlaylist.parse(bytes, base: url))
        } catch {
            return .end(.fatal(error.description))
        }
    }

    /// A playlist or an init section, whole (at most `HLSPlaylist.maxBytes`), and the address it came from after
    /// redirects.
    private func document(_ url: StreamURL) -> Fetched<([UInt8], String)> {
        var options = fetcher.options
        options.icyMetadata = false
        let transfer = CurlTransfer(url: url, options: options)
        var body: [UInt8] = []
        var effective = url.text
        var tooLarge = false
        let end = transfer.run(
            shouldStop: { [control] in control.isStopped() },
            onHead: { head in
                effective = head.url
                return true
            },
            onBody: { bytes in
                guard body.count + bytes.count <= HLSPlaylist.maxBytes else {
                    tooLarge = true
                    return false
                }
                body.append(contentsOf: bytes)
                return true
            })
        if tooLarge { return .end(.fatal("The station's HLS playlist is larger than 1 MiB.")) }
        switch end {
        case .finished: return .value((body, effective))
        case .stopped: return .end(control.isStopped() ? .stopped : .retry(nil))
        case .stalled:
            control.report(.stalled(after: options.stallTimeout))
            return .end(.retry(nil))
        case .failed(let reason, let permanent):
            return .end(permanent && !fetcher.audioStarted() ? .fatal(reason) : .retry(reason))
        }
    }

    /// Fetches one segment (and the init section it needs) into the ring; an outcome when the connection ends.
    private func fetch(_ segment: HLSPlaylist.Segment) -> StreamFetcher.Outcome? {
        if let map = segment.map, map != writtenMap {
            switch document(map) {
            case .end(let outcome): return outcome
            case .value(let (bytes, _)):
                if container == nil {
                    guard begin(StreamContent.classify(contentType: nil, url: map.text, prefix: bytes)) else {
                        return .fatal("The station's HLS init section is not audio Aubade plays.")
                    }
                }
                guard bytes.withUnsafeBytes({ ring.write($0) }) else { return .stopped }
                writtenMap = map
            }
        }
        var options = fetcher.options
        options.icyMetadata = false
        let transfer = CurlTransfer(url: segment.url, options: options)
        var prefix: [UInt8] = []
        var contentType: String?
        var refusal: String?
        var closed = false
        var tag = ID3Strip()
        let end = transfer.run(
            shouldStop: { [control] in control.isStopped() },
            onHead: { head in
                contentType = head.contentType
                return true
            },
            onBody: { bytes in
                var piece = Array(bytes)
                if self.container == nil {
                    prefix.append(contentsOf: piece)
                    guard prefix.count >= StreamFetcher.prefixBytes else { return true }
                    guard self.begin(StreamContent.classify(contentType: contentType, url: segment.url.text, prefix: prefix))
                    else {
                        refusal = "The station's HLS segments are not audio Aubade plays."
                        return false
                    }
                    piece = prefix
                    prefix = []
                }
                guard self.pass(piece, &tag) else {
                    closed = true
                    return false
                }
                return true
            })
        if let refusal { return .fatal(refusal) }
        if closed { return .stopped }
        if container == nil, !prefix.isEmpty, end == .finished {
            // A segment shorter than the sniffing prefix.
            guard begin(StreamContent.classify(contentType: contentType, url: segment.url.text, prefix: prefix)) else {
                return .fatal("The station's HLS segments are not audio Aubade plays.")
            }
            guard pass(prefix, &tag) else { return .stopped }
        }
        if end == .finished, container == .adts {
            guard tag.finish().withUnsafeBytes({ ring.write($0) }) else { return .stopped }
        }
        switch end {
        case .finished: return nil
        case .stopped: return control.isStopped() ? .stopped : .retry(nil)
        case .stalled:
            control.report(.stalled(after: options.stallTimeout))
            return .retry(nil)
        case .failed(let reason, _):
            // A segment that is gone already (the reader fell behind the window) is skipped; others end the connection.
            if transfer.lastStatus == 404 || transfer.lastStatus == 410 {
                control.report(.error("An HLS segment was gone before it was fetched; it is skipped (\(segment.url.text))."))
                return nil
            }
            return .retry(reason)
        }
    }

    /// Writes a segment's bytes into the ring, packed audio without its ID3 tags (their title reported); false when
    /// the ring was closed.
    private func pass(_ bytes: [UInt8], _ tag: inout ID3Strip) -> Bool {
        var piece = bytes
        if container == .adts {
            piece = tag.strip(piece)
            if let title = tag.title { noteTitle(title) }
        }
        return piece.withUnsafeBytes { ring.write($0) }
    }

    /// Begins this connection's stream in the ring with the container `content` names; false when it is not audio.
    private func begin(_ content: StreamContent) -> Bool {
        guard case .audio(let found) = content else { return false }
        container = found
        ring.begin(found)
        return true
    }

    private func noteTitle(_ title: String) {
        guard title != lastTitle, !title.isEmpty else { return }
        lastTitle = title
        control.report(.title(title))
    }
}

/// A document fetched, or how the connection ends instead.
enum Fetched<Value> {
    case value(Value)
    case end(StreamFetcher.Outcome)
}

/// Takes the ID3 tags off the head of a packed-audio segment (the ADTS demuxer reads only one at a stream's start),
/// keeping the title they carry. One per segment: feed it the segment's bytes in order.
struct ID3Strip {
    private var head: [UInt8] = []
    private var done = false
    private(set) var title: String?

    /// The bytes of `piece` that are audio (nothing while a tag is still being read).
    mutating func strip(_ piece: [UInt8]) -> [UInt8] {
        guard !done else { return piece }
        head.append(contentsOf: piece)
        while true {
            guard head.count >= 10 else { return [] }
            guard let length = StreamContent.id3TagLength(head) else {
                done = true
                defer { head = [] }
                return head
            }
            guard head.count >= length else { return [] }
            if let found = ID3Title.title(inTag: Array(head[0..<length])) { title = found }
            head.removeFirst(length)
        }
    }

    /// The segment ended: what was held while looking for a tag.
    mutating func finish() -> [UInt8] {
        defer { head = [] }
        return done ? [] : head
    }
}
