/// Server-sent events (the HTML standard's `text/event-stream`) read from bytes in pieces cut anywhere, as
/// `GET /api/v1/events` sends them: `event:` names the type, `data:` lines are joined with "\n", a line that
/// begins with ":" is a comment (the clock's keep-alive), a blank line dispatches the event (none when it had no
/// data), and other fields (`id:`, `retry:`) are ignored. One space after the colon is dropped. Lines end with LF
/// or CRLF, as the clock and api.js's reader use them; a UTF-8 byte order mark at the start is skipped.
struct EventStreamParser {
    struct Event: Equatable {
        var type: String
        var data: [UInt8]
    }

    /// The longest line, and the most data one event may gather: past it the stream is taken for broken.
    let limit: Int
    private var line: [UInt8] = []
    private var type: [UInt8] = []
    private var data: [UInt8] = []
    private var dataLines = 0
    private var atStart = true

    init(limit: Int = 4 << 20) {
        self.limit = limit
    }

    /// Reads `bytes` (the next piece of the stream), calling `emit` for each event completed by them.
    mutating func feed(_ bytes: some Collection<UInt8>, _ emit: (Event) -> Void) throws(LinkFailure) {
        for byte in bytes {
            guard byte == UInt8(ascii: "\n") else {
                line.append(byte)
                guard line.count <= limit else { throw .malformed }
                continue
            }
            if line.last == UInt8(ascii: "\r") { line.removeLast() }
            if atStart {
                if line.starts(with: [0xEF, 0xBB, 0xBF]) { line.removeFirst(3) }
                atStart = false
            }
            try take(line, emit)
            line.removeAll(keepingCapacity: true)
        }
    }

    private mutating func take(_ line: [UInt8], _ emit: (Event) -> Void) throws(LinkFailure) {
        if line.isEmpty {
            if dataLines > 0 {
                emit(Event(type: type.isEmpty ? "message" : String(decoding: type, as: UTF8.self), data: data))
            }
            type.removeAll(keepingCapacity: true)
            data.removeAll(keepingCapacity: true)
            dataLines = 0
            return
        }
        if line.first == UInt8(ascii: ":") { return }
        let colon = line.firstIndex(of: UInt8(ascii: ":")) ?? line.endIndex
        let field = line[..<colon]
        var value = colon < line.endIndex ? line[(colon + 1)...] : []
        if value.first == UInt8(ascii: " ") { value = value.dropFirst() }
        if field.elementsEqual("event".utf8) {
            type = Array(value)
        } else if field.elementsEqual("data".utf8) {
            if dataLines > 0 { data.append(UInt8(ascii: "\n")) }
            data += value
            dataLines += 1
            guard data.count <= limit else { throw .malformed }
        }
    }
}
