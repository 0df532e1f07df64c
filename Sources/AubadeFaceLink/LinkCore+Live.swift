import AubadeSystem

extension LinkCore {
    /// How one live stream ended.
    enum StreamEnd: Equatable {
        /// 401: the token was refused (or one is needed).
        case refused
        /// Anything else: closed, silent too long, another status, no connection.
        case ended
    }

    /// The live thread: a stream, and after it ends a wait (1 s doubling to 15 s; back to 1 s once a state came)
    /// before the next, until the link stops. A refused stream is paired for and opened again at once — once: if
    /// the next is refused too, it waits as for any failure.
    func runLive(onState: @escaping @Sendable ([UInt8]) -> Void, onLink: @escaping @Sendable (Bool) -> Void) {
        var retry = timing.firstRetry
        var up: Bool?
        var justPaired = false
        while !sockets.isStopped {
            let sent = token
            var askedForToken = false
            let end = stream(token: sent) { state in
                if up != true {
                    up = true
                    onLink(true)
                }
                retry = timing.firstRetry
                if !askedForToken, token == nil {
                    askedForToken = true
                    _ = enqueue(.pairIfTokenless)
                }
                onState(state)
            }
            if sockets.isStopped { break }
            if end == .refused, !justPaired {
                justPaired = true
                if pair(replacing: sent, .within(timing.commandTimeout)) { continue }
            } else {
                justPaired = false
            }
            if up != false {
                up = false
                onLink(false)
            }
            if retryWait.wait(upTo: retry) { break }
            retry = min(retry * 2, timing.longestRetry)
        }
    }

    /// One stream, read until it ends; `onState` gets the data of each `state` event.
    func stream(token: String?, onState: ([UInt8]) -> Void) -> StreamEnd {
        do throws(LinkFailure) {
            let socket = try LinkSocket.connect(
                host: host, port: port, patience: .within(timing.commandTimeout), sockets: sockets)
            let silence = Patience(deadline: nil, idle: timing.liveSilence)
            try socket.write(request("GET", "/events", nil, token: token, stream: true), silence)
            var reader = HTTPResponseReader(SocketSource(socket: socket, patience: silence))
            let head = try reader.readHead()
            if head.status == 401 { return .refused }
            guard head.status == 200 else { return .ended }
            var parser = EventStreamParser()
            while let piece = try reader.nextPiece() {
                try parser.feed(piece) { event in
                    if event.type == "state" { onState(event.data) }
                }
            }
        } catch {}
        return .ended
    }
}
