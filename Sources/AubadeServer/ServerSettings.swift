public import Foundation

/// How the HTTP server listens and whom it serves (the config's `[http]` section, or `--http`).
public struct ServerSettings: Sendable {
    /// The address to listen on ("127.0.0.1", "0.0.0.0", "::").
    public var host: String
    /// The port (0: any free one, for tests).
    public var port: Int
    /// Reading without a token from other machines too (`[http] open_reads`); off: only the clock's own machine.
    public var openReads: Bool
    /// More names the clock answers to in the Host header (`[http] allowed_hosts`), besides the bind address,
    /// localhost, the loopback addresses, the machine's name, name.local and its own addresses.
    public var allowedHosts: [String]
    /// The largest request body accepted (R31; 64 KiB).
    public var maxBody: Int
    /// Failed tokens or pairing codes from one address within `failureWindow` that lock it out…
    public var failureLimit: Int
    public var failureWindow: TimeInterval
    /// …for this long (429).
    public var lockout: TimeInterval
    /// How often an event stream sends a comment line, so proxies keep it open.
    public var keepAlive: Duration
    /// How long a connection may take to send its request (R37: a slow client cannot hold one forever).
    public var idleTimeout: Duration

    public init(
        host: String = "127.0.0.1", port: Int = 8080, openReads: Bool = false, allowedHosts: [String] = [],
        maxBody: Int = 64 * 1024, failureLimit: Int = 5, failureWindow: TimeInterval = 60,
        lockout: TimeInterval = 60, keepAlive: Duration = .seconds(15), idleTimeout: Duration = .seconds(30)
    ) {
        self.host = host
        self.port = port
        self.openReads = openReads
        self.allowedHosts = allowedHosts
        self.maxBody = maxBody
        self.failureLimit = failureLimit
        self.failureWindow = failureWindow
        self.lockout = lockout
        self.keepAlive = keepAlive
        self.idleTimeout = idleTimeout
    }

    /// Parses `--http`: "addr:port", "[v6]:port", or "off" (nil).
    public static func parseAddress(_ text: String) throws(AddressError) -> (host: String, port: Int)? {
        let t = text.trimmingCharacters(in: .whitespaces)
        if t.lowercased() == "off" { return nil }
        var host: Substring
        var portText: Substring
        if t.hasPrefix("[") {
            guard let close = t.firstIndex(of: "]"), t[t.index(after: close)...].hasPrefix(":") else { throw AddressError(text) }
            host = t[t.index(after: t.startIndex)..<close]
            portText = t[t.index(close, offsetBy: 2)...]
        } else {
            guard let colon = t.lastIndex(of: ":") else { throw AddressError(text) }
            host = t[..<colon]
            portText = t[t.index(after: colon)...]
        }
        guard !host.isEmpty, let port = Int(portText), (0...65535).contains(port) else { throw AddressError(text) }
        return (String(host), port)
    }

    public struct AddressError: Error, CustomStringConvertible {
        public let text: String
        init(_ text: String) { self.text = text }
        public var description: String {
            "--http '\(text)' is not an address; write it like 127.0.0.1:8080, 0.0.0.0:8080, [::1]:8080, or off."
        }
    }
}
