public import AubadeCore
import Foundation

/// One small document fetched whole over HTTP(S) — a station's programme calendar, a holiday calendar, an answer
/// of the station directory, a station's logo — through the same `CurlTransfer` as the streams, so the same rules hold (R21, R32): http and https only (also
/// on redirects), at most 5 redirects, every connection's address checked by `AddressPolicy` (loopback refused
/// unless allowed), a 10-s connect timeout, a stall after 10 s without bytes, and a non-2xx answer refused.
/// A web page (text/html) is not the document (`what` names it in the sentences: "a calendar"); a body larger
/// than `maxBytes` is refused — before its first byte is handed on when the server announces its size
/// (Content-Length), else as soon as it passes `maxBytes`; the whole fetch ends after `deadline`.
///
/// Contract: `get` blocks on the calling thread (curl's transfer runs there): call it from a dedicated thread
/// (the calendar loader runs through AubadeApp's `runBlocking`), never from the cooperative pool.
public enum HTTPFetch {
    public struct Failure: Error, Equatable, Sendable, CustomStringConvertible {
        public let description: String
        /// The body was refused for its size (announced or sent): asking again brings the same.
        public let tooLarge: Bool

        public init(_ description: String, tooLarge: Bool = false) {
            self.description = description
            self.tooLarge = tooLarge
        }
    }

    /// The body of `url`, blocking.
    public static func get(
        _ url: StreamURL, what: String, maxBytes: Int, allowLoopback: Bool,
        deadline: Duration = .seconds(60)
    ) throws(Failure) -> [UInt8] {
        var body: [UInt8] = []
        try stream(url, what: what, maxBytes: Int64(maxBytes), allowLoopback: allowLoopback, deadline: deadline) { bytes in
            body.append(contentsOf: bytes)
            return nil
        }
        return body
    }

    /// The body of `url` handed to `sink` as it arrives (a large file: a podcast's episode), blocking; `sink`
    /// answers a refusal to end the transfer with, or nil. Returns how many bytes came.
    @discardableResult
    public static func stream(
        _ url: StreamURL, what: String, maxBytes: Int64, allowLoopback: Bool, deadline: Duration,
        into sink: @escaping (UnsafeRawBufferPointer) -> String?
    ) throws(Failure) -> Int64 {
        var options = CurlTransfer.Options()
        options.policy = AddressPolicy(allowLoopback: allowLoopback)
        options.icyMetadata = false
        let transfer = CurlTransfer(url: url, options: options)
        let started = ContinuousClock.now
        var count: Int64 = 0
        var refusal: String?
        var tooLarge = false
        let end = transfer.run(
            shouldStop: { ContinuousClock.now - started > deadline },
            onHead: { head in
                if let type = head.contentType?.lowercased(), type.hasPrefix("text/html") {
                    refusal = "\(url.text) answered with a web page (text/html), not \(what)."
                    return false
                }
                if let announced = head.contentLength, announced > maxBytes {
                    refusal =
                        "\(url.text) announces \(HTTPFetch.size(announced)), more than the \(HTTPFetch.size(maxBytes)) this clock takes for \(what)."
                    tooLarge = true
                    return false
                }
                return true
            },
            onBody: { bytes in
                guard count + Int64(bytes.count) <= maxBytes else {
                    refusal = "\(url.text) sends more than \(HTTPFetch.size(maxBytes)); that is not \(what) this clock reads."
                    tooLarge = true
                    return false
                }
                count += Int64(bytes.count)
                if let no = sink(bytes) {
                    refusal = no
                    return false
                }
                return true
            })
        if let refusal { throw Failure(refusal, tooLarge: tooLarge) }
        switch end {
        case .finished:
            guard count > 0 else { throw Failure("\(url.text) sent nothing.") }
            return count
        case .stopped: throw Failure("\(url.text) did not finish sending within \(Int(deadline / .seconds(1))) s.")
        case .stalled: throw Failure("\(url.text) stopped sending for 10 s.")
        case .failed(let reason, _): throw Failure(HTTPFetch.plain(reason))
        }
    }

    /// "2 GiB", "4 MiB", "256 KiB", "512 bytes", "12345678 bytes".
    public static func size(_ bytes: Int64) -> String {
        for (shift, unit) in [(30, "GiB"), (20, "MiB"), (10, "KiB")] where bytes >= 1 << shift && bytes % (1 << shift) == 0 {
            return "\(bytes >> shift) \(unit)"
        }
        return "\(bytes) bytes"
    }

    /// The transfer's sentence, about a server rather than a station.
    static func plain(_ reason: String) -> String {
        reason.replacingOccurrences(of: "The station's host name", with: "The server's host name")
            .replacingOccurrences(of: "The station", with: "The server")
            .replacingOccurrences(of: "The stream address", with: "The address")
            .replacingOccurrences(of: "The stream failed", with: "The download failed")
    }
}
