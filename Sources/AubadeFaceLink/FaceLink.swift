import AubadeSystem

/// The native face's only way to the clock: its HTTP API on the loopback interface, used as the kiosk page uses
/// it (api.js, kiosk.js). The live state comes from `GET /api/v1/events` (server-sent events); commands are single
/// requests with the face's device token; without a token, or when the clock refuses it, the face pairs itself
/// under the name "kiosk" with a code that the clock gives only to its own machine (`POST /api/v1/pair/code`,
/// then `POST /api/v1/pair`), as the kiosk page does. Pairing again under that name replaces the old token, so the
/// face and the kiosk page are not meant to run side by side: each would pair the other out, again and again.
///
/// Threads: two, named for the kernel — "face-live" reads the stream (from `startLive`), "face-commands" runs the
/// requests one after the other (from `init`). Every socket call waits with `poll`, bounded as `FaceLinkTiming`
/// says, so no call blocks for ever; `stop()` shuts the open sockets down, which wakes both threads at once.
/// Callbacks run on those threads: the face hands what it gets to its own thread. No Foundation: the face stays
/// small (as the second waker does).
public final class FaceLink: Sendable {
    let core: LinkCore

    /// A link to the clock whose HTTP API listens on `host` (numeric, or a name the resolver knows) at `port`.
    /// `tokenPath`: where the face keeps its token (mode 0600, folders made 0700), read now; nil keeps it in memory.
    public convenience init(port: Int, host: String = "127.0.0.1", tokenPath: String?) {
        self.init(port: port, host: host, tokenPath: tokenPath, timing: FaceLinkTiming())
    }

    /// As `init(port:host:tokenPath:)`, with its waits set by `timing`.
    public init(port: Int, host: String, tokenPath: String?, timing: FaceLinkTiming) {
        core = LinkCore(host: host, port: port, tokenPath: tokenPath, timing: timing)
        let core = core
        if !NamedThread.start("face-commands", { core.serveCommands() }) { core.stop() }
    }

    deinit { core.stop() }

    /// Starts the live stream (GET /api/v1/events) on a named thread: `onState` gets each `state` event's data
    /// (the live-state JSON bytes); `onLink` whether the stream is up — true at its first state, false when it
    /// ends or could not be opened, each told once per change. Reconnects after 1 s, doubling to 15 s, back to
    /// 1 s once a state arrives; a stream silent for 40 s is dropped and opened again. Refused with 401 (a
    /// revoked token), it pairs ("kiosk", as kiosk.js does) and connects again at once. Once the stream is up
    /// without a token, a pairing is queued on the command thread, as the kiosk page pairs when it connects,
    /// so that the first command finds a token (a locked-out address still takes a valid token). A second call
    /// does nothing. After `stop()` no stream opens again; a callback already under way finishes.
    public func startLive(
        onState: @escaping @Sendable ([UInt8]) -> Void, onLink: @escaping @Sendable (Bool) -> Void
    ) {
        guard core.claimLive() else { return }
        let core = core
        NamedThread.start("face-live") { core.runLive(onState: onState, onLink: onLink) }
    }

    /// One request, performed in order on the link's command thread (bearer token added, paired again once on
    /// 401); `done` runs on that thread. `path` is under /api/v1, e.g. "/alarm/stop"; `json` nil sends no body.
    /// Status 0: no answer within 10 s (with the pairing it may need), or a method or path with a space or a
    /// control character (never sent). After `stop()`, `done` runs at once on the
    /// caller's thread with status 0; requests still queued by then get status 0 on the command thread.
    public func send(method: String, path: String, json: [UInt8]?, done: @escaping @Sendable (FaceLinkReply) -> Void) {
        if !core.enqueue(.request(method: method, path: path, json: json, done: done)) { done(.none) }
    }

    /// Stops both threads: open sockets are shut down, a reconnection's wait ends, queued requests are answered
    /// with status 0. Does not wait for the threads to end.
    public func stop() {
        core.stop()
    }
}
