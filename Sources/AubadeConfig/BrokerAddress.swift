/// An MQTT broker's address as the config's `[mqtt] broker` and `aubade run --mqtt` give it:
/// "mqtt://host[:port]" (port 1883 by default) or "mqtts://host[:port]" (TLS, port 8883).
public struct BrokerAddress: Equatable, Sendable {
    public var tls: Bool
    public var host: String
    public var port: Int

    public init(tls: Bool, host: String, port: Int) {
        self.tls = tls
        self.host = host
        self.port = port
    }

    /// Why a text is not a broker's address (the words that follow "The broker … ").
    public static let form = "must be mqtt://host:port or mqtts://host:port, like \"mqtt://192.168.1.10:1883\""

    /// The address in `text`, or nil when it has not that form.
    public init?(parsing text: String) {
        let tls: Bool
        let rest: Substring
        if text.hasPrefix("mqtt://") {
            (tls, rest) = (false, text.dropFirst("mqtt://".count))
        } else if text.hasPrefix("mqtts://") {
            (tls, rest) = (true, text.dropFirst("mqtts://".count))
        } else {
            return nil
        }
        let authority = rest.hasSuffix("/") ? rest.dropLast() : rest
        var host = authority
        var port = tls ? 8883 : 1883
        if authority.hasPrefix("[") {
            // [v6]:port
            guard let close = authority.firstIndex(of: "]") else { return nil }
            host = authority[authority.index(after: authority.startIndex)..<close]
            let tail = authority[authority.index(after: close)...]
            if !tail.isEmpty {
                guard tail.hasPrefix(":"), let p = Int(tail.dropFirst()) else { return nil }
                port = p
            }
        } else if let colon = authority.lastIndex(of: ":") {
            guard let p = Int(authority[authority.index(after: colon)...]) else { return nil }
            host = authority[..<colon]
            port = p
        }
        guard !host.isEmpty, (1...65535).contains(port),
            !host.contains(where: { $0 == "/" || $0 == "@" || $0 == "?" || $0 == "#" || $0.isWhitespace })
        else { return nil }
        self.init(tls: tls, host: String(host), port: port)
    }

    /// "mqtt://host:port".
    public var text: String {
        let shown = host.contains(":") ? "[\(host)]" : host
        return "\(tls ? "mqtts" : "mqtt")://\(shown):\(port)"
    }
}
