/// Where a response's bytes come from: a socket (`SocketSource`), or bytes in memory in tests.
protocol ByteSource {
    /// Appends the next bytes that arrive to `buffer`, waiting for them; false at the end of the stream.
    mutating func more(into buffer: inout [UInt8]) throws(LinkFailure) -> Bool
}

/// A `LinkSocket` read with one `Patience`.
struct SocketSource: ByteSource {
    let socket: LinkSocket
    let patience: Patience

    mutating func more(into buffer: inout [UInt8]) throws(LinkFailure) -> Bool {
        try socket.read(into: &buffer, patience)
    }
}

/// A response's status line and headers.
struct ResponseHead: Equatable {
    var status: Int
    /// Each header as sent, its name lowercased.
    var headers: [Header]

    struct Header: Equatable {
        var name: String
        var value: String
    }

    /// The value of the first header called `name` (lowercase).
    func value(_ name: String) -> String? {
        headers.first { $0.name == name }?.value
    }
}

/// Reads one HTTP/1.x response: its head, then its body in pieces as they arrive — by Content-Length, by chunked
/// transfer-coding (RFC 9112 §7.1: chunk extensions and trailers skipped), or to the end of the connection. An
/// event stream is read piece by piece for as long as it lasts; a command's answer is read whole.
struct HTTPResponseReader<Source: ByteSource> {
    private(set) var source: Source
    private var buffer: [UInt8] = []
    private var start = 0
    private var body = Body.none

    /// The longest line of a head (status line, header, chunk size) read.
    static var lineLimit: Int { 16384 }

    private enum Body {
        case none
        case length(Int)
        case toEnd
        case chunkSize
        case chunkData(Int)
        case chunkEnd
        case trailers
    }

    init(_ source: Source) {
        self.source = source
    }

    /// Reads the head of the response (skipping any 1xx interim response); `head` when the request was HEAD
    /// (then no body follows).
    mutating func readHead(forHead head: Bool = false) throws(LinkFailure) -> ResponseHead {
        while true {
            let statusLine = try readLine()
            let parts = statusLine.split(separator: UInt8(ascii: " "), maxSplits: 2, omittingEmptySubsequences: true)
            guard parts.count >= 2, parts[0].starts(with: Array("HTTP/1.".utf8)), parts[1].count == 3,
                let status = Int(String(decoding: parts[1], as: UTF8.self)), status >= 100
            else { throw .malformed }
            var headers: [ResponseHead.Header] = []
            while true {
                let line = try readLine()
                if line.isEmpty { break }
                guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else { throw .malformed }
                let name = String(decoding: line[..<colon], as: UTF8.self).lowercased()
                let value = String(decoding: trimmed(line[(colon + 1)...]), as: UTF8.self)
                headers.append(ResponseHead.Header(name: name, value: value))
            }
            if status < 200 { continue }
            let result = ResponseHead(status: status, headers: headers)
            body = try Self.body(of: result, forHead: head)
            return result
        }
    }

    private static func body(of head: ResponseHead, forHead: Bool) throws(LinkFailure) -> Body {
        if forHead || head.status == 204 || head.status == 304 { return .none }
        if let coding = head.value("transfer-encoding") {
            guard coding.lowercased().split(separator: ",").last?.trimmingSpaces == "chunked" else { return .toEnd }
            return .chunkSize
        }
        if let length = head.value("content-length") {
            guard let count = Int(length), count >= 0 else { throw .malformed }
            return count == 0 ? .none : .length(count)
        }
        return .toEnd
    }

    /// The next piece of the body, as soon as some of it has arrived; nil once the body is complete.
    mutating func nextPiece() throws(LinkFailure) -> [UInt8]? {
        while true {
            switch body {
            case .none:
                return nil
            case .length(let left):
                let piece = try take(upTo: left)
                body = left == piece.count ? .none : .length(left - piece.count)
                return piece
            case .toEnd:
                if start == buffer.count, try !fill() {
                    body = .none
                    return nil
                }
                return takeBuffered()
            case .chunkSize:
                let line = try readLine()
                let hex = line.prefix { $0 != UInt8(ascii: ";") }
                guard let size = Int(String(decoding: trimmed(hex[...]), as: UTF8.self), radix: 16), size >= 0 else {
                    throw .malformed
                }
                body = size == 0 ? .trailers : .chunkData(size)
            case .chunkData(let left):
                let piece = try take(upTo: left)
                body = left == piece.count ? .chunkEnd : .chunkData(left - piece.count)
                return piece
            case .chunkEnd:
                guard try readLine().isEmpty else { throw .malformed }
                body = .chunkSize
            case .trailers:
                if try readLine().isEmpty { body = .none }
            }
        }
    }

    /// The rest of the body, whole; `.tooLarge` past `limit` bytes.
    mutating func readBody(limit: Int) throws(LinkFailure) -> [UInt8] {
        var whole: [UInt8] = []
        while let piece = try nextPiece() {
            whole += piece
            guard whole.count <= limit else { throw .tooLarge }
        }
        return whole
    }

    /// One line (ended by LF, its CR dropped), waiting for it.
    private mutating func readLine() throws(LinkFailure) -> ArraySlice<UInt8> {
        var searched = 0  // bytes after `start` already searched (`fill` may move `start`)
        while true {
            if let newline = buffer[(start + searched)...].firstIndex(of: UInt8(ascii: "\n")) {
                var line = buffer[start..<newline]
                if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
                start = newline + 1
                return line
            }
            searched = buffer.count - start
            guard buffer.count - start <= Self.lineLimit else { throw .malformed }
            guard try fill() else { throw .closed }
        }
    }

    /// Up to `count` bytes, at least one (waiting for it); `.closed` when the stream ends first.
    private mutating func take(upTo count: Int) throws(LinkFailure) -> [UInt8] {
        if start == buffer.count, try !fill() { throw .closed }
        let n = min(count, buffer.count - start)
        let piece = Array(buffer[start..<start + n])
        start += n
        return piece
    }

    /// Everything read and not yet taken.
    private mutating func takeBuffered() -> [UInt8] {
        let piece = Array(buffer[start...])
        start = buffer.count
        return piece
    }

    /// Reads more into the buffer (dropping what was consumed first); false at the end of the stream.
    private mutating func fill() throws(LinkFailure) -> Bool {
        if start == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            start = 0
        } else if start > 65536 {
            buffer.removeFirst(start)
            start = 0
        }
        return try source.more(into: &buffer)
    }

    private func trimmed(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        let space: (UInt8) -> Bool = { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
        guard let first = bytes.firstIndex(where: { !space($0) }), let last = bytes.lastIndex(where: { !space($0) }) else {
            return []
        }
        return bytes[first...last]
    }
}

extension Substring {
    /// Without leading and trailing spaces and tabs.
    fileprivate var trimmingSpaces: Substring {
        var text = self
        while let c = text.first, c == " " || c == "\t" { text.removeFirst() }
        while let c = text.last, c == " " || c == "\t" { text.removeLast() }
        return text
    }
}
