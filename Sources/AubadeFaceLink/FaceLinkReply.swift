/// The clock's answer to one request of the face: its HTTP status and body (JSON, or the API's one-sentence error
/// as JSON). Status 0 means no answer: the clock could not be reached, it did not answer in time, its answer was
/// cut short or was not HTTP, or the link was stopped.
public struct FaceLinkReply: Sendable {
    public var status: Int
    public var body: [UInt8]

    public init(status: Int, body: [UInt8]) {
        self.status = status
        self.body = body
    }

    /// No answer (status 0, no body).
    public static let none = FaceLinkReply(status: 0, body: [])

    /// Whether the clock answered with a 2xx status.
    public var succeeded: Bool { (200..<300).contains(status) }
}

/// How long the link waits, and how it spaces its reconnections. The defaults suit a face on the clock's own
/// machine: the reconnections are the kiosk page's (api.js), the silence allowed is a little under three of the
/// clock's 15-s keep-alive comments. Tests shorten them.
public struct FaceLinkTiming: Sendable {
    /// How long a command (with the pairing it may need) may take before it is answered with status 0.
    public var commandTimeout: Duration
    /// A live stream that sends no byte for this long is taken for dead and connected again (the clock sends a
    /// comment every 15 s).
    public var liveSilence: Duration
    /// The wait before the first reconnection after a failure; it doubles after each failure…
    public var firstRetry: Duration
    /// …up to this, and goes back to `firstRetry` once a state has arrived.
    public var longestRetry: Duration

    public init(
        commandTimeout: Duration = .seconds(10), liveSilence: Duration = .seconds(40),
        firstRetry: Duration = .seconds(1), longestRetry: Duration = .seconds(15)
    ) {
        self.commandTimeout = commandTimeout
        self.liveSilence = liveSilence
        self.firstRetry = firstRetry
        self.longestRetry = longestRetry
    }
}
