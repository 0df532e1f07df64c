import AubadeSystem
import Synchronization

/// What `FaceLink` shares with its two threads: the address, the token, the open sockets, the command queue.
final class LinkCore: Sendable {
    /// A job for the command thread.
    enum Job: Sendable {
        case request(method: String, path: String, json: [UInt8]?, done: @Sendable (FaceLinkReply) -> Void)
        /// Pair unless a token is held by then.
        case pairIfTokenless
    }

    /// The name the face pairs under: the kiosk's, whose token it replaces (kiosk.js).
    static let deviceName = "kiosk"
    /// The largest answer kept (a command's body).
    static let bodyLimit = 16 << 20

    let host: String
    let port: Int
    let tokenPath: String?
    let timing: FaceLinkTiming
    let sockets = OpenSockets()
    let retryWait = StopSignal()
    private let jobs = BlockingQueue<Job>()
    /// Whether `jobs` still takes jobs, and whether the live thread was started.
    private let flags = Mutex<(closed: Bool, live: Bool)>((false, false))
    private let heldToken: Mutex<String?>
    /// Held while pairing, so the two threads never pair at once (each pairing replaces the other's token).
    private let pairing = Mutex<Void>(())

    init(host: String, port: Int, tokenPath: String?, timing: FaceLinkTiming) {
        self.host = host
        self.port = port
        self.tokenPath = tokenPath
        self.timing = timing
        heldToken = Mutex(tokenPath.flatMap(TokenFile.read))
    }

    var token: String? { heldToken.withLock { $0 } }

    /// The Host header: the clock checks it (`HostPolicy`).
    var authority: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }

    func claimLive() -> Bool {
        flags.withLock { flags in
            guard !flags.live, !flags.closed else { return false }
            flags.live = true
            return true
        }
    }

    /// Queues `job`; false once the link is stopped.
    func enqueue(_ job: Job) -> Bool {
        flags.withLock { flags in
            guard !flags.closed else { return false }
            jobs.post(job)
            return true
        }
    }

    func stop() {
        flags.withLock { flags in
            flags.closed = true
            jobs.close()
        }
        sockets.stopAll()
        retryWait.stop()
    }

    // MARK: commands

    /// The command thread: each job in turn, until the queue is closed and drained.
    func serveCommands() {
        while true {
            let batch = jobs.take()
            if batch.isEmpty { return }
            for job in batch {
                switch job {
                case .request(let method, let path, let json, let done):
                    done(sockets.isStopped ? .none : perform(method, path, json))
                case .pairIfTokenless:
                    if token == nil, !sockets.isStopped { _ = pair(replacing: nil, .within(timing.commandTimeout)) }
                }
            }
        }
    }

    /// One command: sent with the token held; on 401, paired and sent once more — all within the command timeout.
    func perform(_ method: String, _ path: String, _ json: [UInt8]?) -> FaceLinkReply {
        // A space or a control byte would split the request line or add a header: no such request is sent.
        guard !method.isEmpty, path.hasPrefix("/"), (method + path).utf8.allSatisfy({ $0 > 0x20 && $0 != 0x7F }) else {
            return .none
        }
        let patience = Patience.within(timing.commandTimeout)
        let sent = token
        let reply = exchange(method, path, json, token: sent, patience)
        guard reply.status == 401, pair(replacing: sent, patience) else { return reply }
        return exchange(method, path, json, token: token, patience)
    }

    /// One request on a connection of its own; status 0 when no whole answer came.
    func exchange(_ method: String, _ path: String, _ json: [UInt8]?, token: String?, _ patience: Patience)
        -> FaceLinkReply
    {
        do throws(LinkFailure) {
            let socket = try LinkSocket.connect(host: host, port: port, patience: patience, sockets: sockets)
            try socket.write(request(method, path, json, token: token, stream: false), patience)
            var reader = HTTPResponseReader(SocketSource(socket: socket, patience: patience))
            let head = try reader.readHead(forHead: method == "HEAD")
            return FaceLinkReply(status: head.status, body: try reader.readBody(limit: Self.bodyLimit))
        } catch {
            return .none
        }
    }

    /// The bytes of a request for `/api/v1` + `path`.
    func request(_ method: String, _ path: String, _ json: [UInt8]?, token: String?, stream: Bool) -> [UInt8] {
        var head = "\(method) /api/v1\(path) HTTP/1.1\r\nHost: \(authority)\r\n"
        if let token { head += "Authorization: Bearer \(token)\r\n" }
        if let json {
            head += "Content-Type: application/json\r\nContent-Length: \(json.count)\r\n"
        } else if method != "GET" && method != "HEAD" {
            head += "Content-Length: 0\r\n"
        }
        head += stream ? "Accept: text/event-stream\r\nCache-Control: no-store\r\n" : "Connection: close\r\n"
        return Array((head + "\r\n").utf8) + (json ?? [])
    }

    // MARK: pairing

    /// Pairs the face unless the token `refused` (nil: none was sent) was replaced meanwhile; true when a token
    /// other than `refused` is held now. A refused token that could not be replaced is forgotten (not its file:
    /// the next pairing overwrites it).
    func pair(replacing refused: String?, _ patience: Patience) -> Bool {
        pairing.withLock { _ in
            if let held = token, held != refused { return true }
            guard let fresh = newToken(patience) else {
                if refused != nil { heldToken.withLock { if $0 == refused { $0 = nil } } }
                return false
            }
            heldToken.withLock { $0 = fresh }
            if let tokenPath { TokenFile.write(fresh, to: tokenPath) }
            return true
        }
    }

    /// A code from `POST /pair/code` (served without a token to the clock's own machine only), traded at once
    /// at `POST /pair` for a token.
    private func newToken(_ patience: Patience) -> String? {
        let code = exchange("POST", "/pair/code", Array("{}".utf8), token: nil, patience)
        guard code.succeeded, let text = JSONText.string("code", in: code.body) else { return nil }
        let body = "{\"code\":\(JSONText.quoted(text)),\"name\":\(JSONText.quoted(Self.deviceName))}"
        let paired = exchange("POST", "/pair", Array(body.utf8), token: nil, patience)
        guard paired.succeeded, let token = JSONText.string("token", in: paired.body),
            token.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F })
        else { return nil }
        return token
    }
}
