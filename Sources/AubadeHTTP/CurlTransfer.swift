package import AubadeCore
import AubadeSystem
import CCurl
import Foundation

/// One HTTP(S) GET through libcurl, on the calling thread (a dedicated network thread: `run` blocks).
///
/// Contract (R21, R22, R32): connect timeout 10 s; at most 5 redirects, http and https only (also on
/// redirects); every connection's address passes `AddressPolicy`; `ICY 200 OK` is accepted; a non-2xx status
/// ends the transfer with an error; no bytes for `stallTimeout` ends it as stalled; `shouldStop` is polled at
/// least every second. Errors never unwind through C: callbacks record them and return an abort code.
/// Not Sendable: create and use it on one thread.
package final class CurlTransfer {
    package struct Head: Equatable, Sendable {
        package var status: Int
        package var contentType: String?
        package var metaint: Int?
        package var url: String
        /// The size the server announces (Content-Length), when it gives one.
        package var contentLength: Int64? = nil
    }

    package enum End: Equatable, Sendable {
        /// The server closed the stream.
        case finished
        case stopped
        case stalled
        /// `permanent`: retrying the same address cannot help (a 4xx answer, a refused address, a redirect to
        /// another scheme); otherwise the failure may pass (refused connection, timeout, 5xx).
        case failed(String, permanent: Bool)
    }

    package struct Options: Sendable {
        package var connectTimeout = 10
        package var stallTimeout: Duration = .seconds(10)
        package var maxRedirects = 5
        package var policy = AddressPolicy(allowLoopback: false)
        /// Asks a station for ICY titles (`Icy-MetaData: 1`); off for documents.
        package var icyMetadata = true
        /// Asks for the body from this byte on (an HTTP range, `Range: bytes=N-`); 0 asks for all of it. A server
        /// may ignore it and answer 200 with the whole body: the caller looks at `Head.status` (206 or 200).
        package var fromByte: Int64 = 0

        package init() {}
    }

    private let url: String
    private let options: Options
    // Per-run state the C callbacks reach through the userdata pointer.
    fileprivate var headers: [String: String] = [:]
    fileprivate var status = 0
    fileprivate var headDelivered = false
    fileprivate var refusal: String?
    fileprivate var failure: String?
    fileprivate var lastData = ContinuousClock.now
    fileprivate var stalled = false
    fileprivate var stopped = false
    fileprivate var onHead: (Head) -> Bool = { _ in true }
    fileprivate var onBody: (UnsafeRawBufferPointer) -> Bool = { _ in true }
    fileprivate var shouldStop: () -> Bool = { false }
    fileprivate var handle: UnsafeMutableRawPointer?

    private static let globalInit: CURLcode = curl_global_init(Int(CURL_GLOBAL_DEFAULT))

    /// The status of the last response (0 before one came): after `run`, what a failure's status was.
    package var lastStatus: Int { status }

    package init(url: StreamURL, options: Options = Options()) {
        self.url = url.text
        self.options = options
    }

    /// Runs the transfer to its end. `onHead` sees each final response's head once (return false to abort);
    /// `onBody` gets the body bytes (return false to end the transfer as stopped).
    package func run(
        shouldStop: @escaping () -> Bool, onHead: @escaping (Head) -> Bool,
        onBody: @escaping (UnsafeRawBufferPointer) -> Bool
    ) -> End {
        guard CurlTransfer.globalInit == CURLE_OK, let h = curl_easy_init() else {
            return .failed("libcurl could not be initialised.", permanent: false)
        }
        handle = h
        defer {
            curl_easy_cleanup(h)
            handle = nil
        }
        self.shouldStop = shouldStop
        self.onHead = onHead
        self.onBody = onBody
        lastData = ContinuousClock.now
        let aliases = curl_slist_append(nil, "ICY 200 OK")
        let extra = options.icyMetadata ? curl_slist_append(nil, "Icy-MetaData: 1") : nil
        defer {
            curl_slist_free_all(aliases)
            curl_slist_free_all(extra)
        }
        let me = Unmanaged.passUnretained(self).toOpaque()
        let setup: [CURLcode] = [
            curlx_setopt_str(h, CURLOPT_URL, url),
            curlx_setopt_long(h, CURLOPT_NOSIGNAL, 1),
            curlx_setopt_str(h, CURLOPT_PROTOCOLS_STR, "http,https"),
            curlx_setopt_str(h, CURLOPT_REDIR_PROTOCOLS_STR, "http,https"),
            curlx_setopt_long(h, CURLOPT_FOLLOWLOCATION, 1),
            curlx_setopt_long(h, CURLOPT_MAXREDIRS, options.maxRedirects),
            curlx_setopt_long(h, CURLOPT_CONNECTTIMEOUT, options.connectTimeout),
            curlx_setopt_str(h, CURLOPT_USERAGENT, Product.userAgent),
            curlx_setopt_ptr(h, CURLOPT_HTTP200ALIASES, aliases),
            curlx_setopt_ptr(h, CURLOPT_HTTPHEADER, extra),
            curlx_setopt_str(h, CURLOPT_ACCEPT_ENCODING, "identity"),
            curlx_setopt_writefn(h, curlWrite), curlx_setopt_ptr(h, CURLOPT_WRITEDATA, me),
            curlx_setopt_headerfn(h, curlHeader), curlx_setopt_ptr(h, CURLOPT_HEADERDATA, me),
            curlx_setopt_xferinfofn(h, curlProgress), curlx_setopt_ptr(h, CURLOPT_XFERINFODATA, me),
            curlx_setopt_long(h, CURLOPT_NOPROGRESS, 0),
            curlx_setopt_opensocketfn(h, curlOpenSocket), curlx_setopt_ptr(h, CURLOPT_OPENSOCKETDATA, me),
        ]
        let range = options.fromByte > 0 ? curlx_setopt_str(h, CURLOPT_RANGE, "\(options.fromByte)-") : CURLE_OK
        if let bad = (setup + [range]).first(where: { $0 != CURLE_OK }) {
            return .failed("curl_easy_setopt failed: \(String(cString: curl_easy_strerror(bad))).", permanent: false)
        }
        let rc = curl_easy_perform(h)
        // An error answer without a body (a bare 404) never reaches `body`, where the status is judged.
        if rc == CURLE_OK, failure == nil, !headDelivered, status != 0, !(200..<300).contains(status) {
            failure = "The station answered HTTP \(status) (\(url))."
        }
        if let refusal { return .failed(refusal, permanent: true) }
        if let failure { return .failed(failure, permanent: (400..<500).contains(status)) }
        if stalled { return .stalled }
        if stopped { return .stopped }
        if rc == CURLE_OK { return .finished }
        // A redirect loop or a redirect to another scheme is the address's own fault: trying again cannot help.
        return .failed(
            CurlTransfer.describe(rc, url: url),
            permanent: rc == CURLE_UNSUPPORTED_PROTOCOL || rc == CURLE_TOO_MANY_REDIRECTS)
    }

    static func describe(_ rc: CURLcode, url: String) -> String {
        switch rc {
        case CURLE_COULDNT_CONNECT: return "The station refused the connection (\(url))."
        case CURLE_COULDNT_RESOLVE_HOST: return "The station's host name does not resolve (\(url))."
        case CURLE_OPERATION_TIMEDOUT: return "The station did not answer within 10 s (\(url))."
        case CURLE_TOO_MANY_REDIRECTS: return "The station redirected more than 5 times (\(url))."
        case CURLE_UNSUPPORTED_PROTOCOL: return "The station redirected to an address that is not http or https (\(url))."
        default: return "The stream failed: \(String(cString: curl_easy_strerror(rc))) (\(url))."
        }
    }

    fileprivate func header(_ line: String) {
        let trimmed = line.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.hasPrefix("HTTP/") || trimmed.hasPrefix("ICY ") {
            headers = [:]
            let parts = trimmed.split(separator: " ")
            status = parts.count > 1 ? Int(parts[1]) ?? 0 : 0
        } else if let colon = trimmed.firstIndex(of: ":") {
            let name = trimmed[..<colon].lowercased()
            headers[name] = trimmed[trimmed.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
    }

    fileprivate func body(_ bytes: UnsafeRawBufferPointer) -> Bool {
        lastData = ContinuousClock.now
        if !headDelivered {
            headDelivered = true
            var effective: UnsafeMutablePointer<CChar>?
            if let handle { _ = curlx_getinfo_str(handle, CURLINFO_EFFECTIVE_URL, &effective) }
            let head = Head(
                status: status, contentType: headers["content-type"],
                metaint: headers["icy-metaint"].flatMap { Int($0) },
                url: effective.map { String(cString: $0) } ?? url,
                contentLength: headers["content-length"].flatMap { Int64($0) })
            guard (200..<300).contains(status) else {
                failure = "The station answered HTTP \(status) (\(head.url))."
                return false
            }
            guard onHead(head) else {
                stopped = true
                return false
            }
        }
        guard onBody(bytes) else {
            stopped = true
            return false
        }
        return true
    }

    fileprivate func progress() -> Bool {
        if shouldStop() {
            stopped = true
            return false
        }
        if ContinuousClock.now - lastData > options.stallTimeout {
            stalled = true
            return false
        }
        return true
    }

    fileprivate func openSocket(_ address: UnsafeMutablePointer<curl_sockaddr>) -> curl_socket_t {
        let family = address.pointee.family
        let raw = UnsafeRawPointer(address).advanced(by: MemoryLayout<curl_sockaddr>.offset(of: \.addr)!)
        if let why = options.policy.refusal(raw, family: family) {
            refusal = "The stream address resolves to \(why), which is refused (\(url))."
            return CURL_SOCKET_BAD
        }
        guard FileDescriptors.haveFree(FileDescriptors.reserve + 1) else {
            failure = FileDescriptors.exhausted("a connection to the station")
            return CURL_SOCKET_BAD
        }
        return socket(family, address.pointee.socktype, address.pointee.protocol)
    }
}

private func transfer(_ p: UnsafeMutableRawPointer?) -> CurlTransfer {
    Unmanaged<CurlTransfer>.fromOpaque(p!).takeUnretainedValue()
}

private let curlWrite: curlx_write_cb = { ptr, size, count, userdata in
    let n = size * count
    guard let ptr else { return n }
    return transfer(userdata).body(UnsafeRawBufferPointer(start: ptr, count: n)) ? n : 0
}

private let curlHeader: curlx_write_cb = { ptr, size, count, userdata in
    let n = size * count
    if let ptr {
        let line = String(decoding: UnsafeRawBufferPointer(start: ptr, count: n), as: UTF8.self)
        transfer(userdata).header(line)
    }
    return n
}

private let curlProgress: curlx_xferinfo_cb = { userdata, _, _, _, _ in
    transfer(userdata).progress() ? 0 : 1
}

private let curlOpenSocket: curlx_opensocket_cb = { userdata, purpose, address in
    guard let address else { return CURL_SOCKET_BAD }
    return transfer(userdata).openSocket(address)
}
