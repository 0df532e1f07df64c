import CResolv

/// Where the directory's servers are: the config's list when it has one; else the names DNS gives for the SRV
/// record `_api._tcp.radio-browser.info`; else `all.api.radio-browser.info`, one name for every mirror (curl tries
/// each address it resolves to). Never by reverse lookups of addresses, which break when a mirror's PTR record
/// lags behind.
public enum DirectoryServers {
    public static let srvName = "_api._tcp.radio-browser.info"
    public static let fallback = "https://all.api.radio-browser.info"

    /// The base addresses to try. Blocks on DNS when `configured` is empty: call it off the cooperative pool.
    public static func resolve(configured: [String]) -> [String] {
        if !configured.isEmpty { return configured }
        let names = lookUp(srvName)
        return names.isEmpty ? [fallback] : names.map { "https://\($0)" }
    }

    /// The target host names of `name`'s SRV records, nil-free and each once, best priority first.
    static func lookUp(_ name: String) -> [String] {
        var answer = [UInt8](repeating: 0, count: 4096)
        let length = answer.withUnsafeMutableBufferPointer { aubade_srv_query(name, $0.baseAddress, Int32($0.count)) }
        guard length > 0 else { return [] }
        return targets(answer: Array(answer[0..<min(Int(length), answer.count)]))
    }

    /// The SRV targets of a DNS answer, best priority first (lowest number), each once.
    static func targets(answer: [UInt8]) -> [String] {
        var text = [CChar](repeating: 0, count: 8192)
        let found = answer.withUnsafeBufferPointer { a in
            text.withUnsafeMutableBufferPointer {
                aubade_srv_parse(a.baseAddress, Int32(a.count), $0.baseAddress, Int32($0.count))
            }
        }
        guard found > 0 else { return [] }
        let lines = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self).split(separator: "\n")
        let records = lines.compactMap { line -> (priority: Int, host: String)? in
            let f = line.split(separator: " ")
            guard f.count == 4, let priority = Int(f[0]), !f[3].isEmpty, f[3] != "." else { return nil }
            return (priority, String(f[3]).lowercased())
        }
        var seen: Set<String> = []
        return records.sorted { $0.priority < $1.priority }.map(\.host).filter { seen.insert($0).inserted }
    }
}
