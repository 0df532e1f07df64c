public import AubadeCore
import AubadeHTTP
import Foundation

/// The station directory through radio-browser's API: its mirrors tried in a random order, the next one when a
/// mirror is down, answers a web page or something that is not the answer asked for (its maintainers ask clients
/// to spread over the mirrors and to fall back). Each request names the clock (`Product.userAgent`) and obeys the
/// streams' address rules (R32): a server on this machine only when allowed.
public struct RadioBrowser: StationDirectory {
    /// The servers to try; empty: those DNS names (`DirectoryServers`), looked up at each request — so making a
    /// `RadioBrowser` never waits for DNS (the daemon makes one as it starts).
    public let servers: [String]
    public let allowLoopback: Bool
    /// The most one mirror may take to answer.
    public let deadline: Duration

    /// An answer larger than this is not one the clock asked for (100 stations are ~150 KB).
    static let maxAnswer = 4 << 20

    public init(servers: [String], allowLoopback: Bool, deadline: Duration = .seconds(20)) {
        self.servers = servers
        self.allowLoopback = allowLoopback
        self.deadline = deadline
    }

    public func search(_ query: DirectoryQuery) throws(DirectoryError) -> [DirectoryStation] {
        DirectoryStation.deduplicated(try stations(at: "/json/stations/search", query.parameters))
    }

    public func stations(ids: [String]) throws(DirectoryError) -> [DirectoryStation] {
        guard !ids.isEmpty else { return [] }
        return try stations(at: "/json/stations/byuuid", [("uuids", ids.joined(separator: ","))])
    }

    public func countClick(id: String) throws(DirectoryError) {
        try ask("/json/url/\(id)", []) { data throws(DirectoryAnswer.Unreadable) in
            guard let o = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any], o["ok"] != nil else {
                throw DirectoryAnswer.Unreadable(reason: "the answer is not a click's receipt")
            }
        }
    }

    public func logo(at address: String, maxBytes: Int) throws(DirectoryError) -> [UInt8] {
        guard let url = try? StreamURL(parsing: address) else {
            throw DirectoryError("The station's logo address \(address) is not an http(s) address.")
        }
        do {
            return try HTTPFetch.get(
                url, what: "a logo", maxBytes: maxBytes, allowLoopback: allowLoopback, deadline: .seconds(15))
        } catch { throw DirectoryError(error.description) }
    }

    private func stations(at path: String, _ parameters: [(name: String, value: String)]) throws(DirectoryError)
        -> [DirectoryStation]
    {
        try ask(path, parameters) { data throws(DirectoryAnswer.Unreadable) in try DirectoryAnswer.stations(data) }
    }

    /// `read`s the first good answer of a mirror to `path`; one sentence naming what each mirror did when none
    /// answered.
    private func ask<T>(
        _ path: String, _ parameters: [(name: String, value: String)],
        read: (Data) throws(DirectoryAnswer.Unreadable) -> T
    ) throws(DirectoryError) -> T {
        let servers = DirectoryServers.resolve(configured: servers)
        var failures: [String] = []
        for server in servers.shuffled() {
            let query = parameters.map { "\($0.name)=\(RadioBrowser.escaped($0.value))" }.joined(separator: "&")
            guard let url = try? StreamURL(parsing: server + path + (query.isEmpty ? "" : "?" + query)) else {
                failures.append("\(server) is not an http(s) address.")
                continue
            }
            do {
                let body = try HTTPFetch.get(
                    url, what: "a directory answer", maxBytes: RadioBrowser.maxAnswer, allowLoopback: allowLoopback,
                    deadline: deadline)
                return try read(Data(body))
            } catch let error as HTTPFetch.Failure {
                failures.append(error.description)
            } catch let error as DirectoryAnswer.Unreadable {
                failures.append("\(server): \(error.reason).")
            } catch {
                failures.append("\(server): \(error).")
            }
        }
        throw DirectoryError(
            "The station directory did not answer (\(servers.count == 1 ? "its server" : "all \(servers.count) servers") tried): "
                + failures.joined(separator: " "))
    }

    /// A query value percent-encoded but for the characters RFC 3986 leaves unreserved.
    static func escaped(_ value: String) -> String {
        var out = ""
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.unicodeScalars.append(UnicodeScalar(byte))
            default:
                out += String(format: "%%%02X", byte)
            }
        }
        return out
    }
}
