/// A time zone's offsets from UTC, read from its TZif file (RFC 8536, as /usr/share/zoneinfo holds them): FoundationEssentials
/// knows no named zones, and the face shows the time in the clock's zone. Pure: the executable reads the file's bytes.
/// After the last transition the file lists (2037 in Debian's "fat" files), the last offset holds.
public struct FaceZone: Sendable, Hashable {
    public var identifier: String
    /// Transition instants (Unix seconds), ascending, and the offset (seconds east of UTC) from each on.
    var transitions: [Int64]
    var offsets: [Int32]
    /// The offset before the first transition.
    var initial: Int32

    /// UTC (or a zone whose file could not be read).
    public static let utc = FaceZone(identifier: "UTC", transitions: [], offsets: [], initial: 0)

    init(identifier: String, transitions: [Int64], offsets: [Int32], initial: Int32) {
        self.identifier = identifier
        self.transitions = transitions
        self.offsets = offsets
        self.initial = initial
    }

    /// A zone of one fixed offset (tests, and zones like "Etc/GMT-2").
    public init(identifier: String, fixedOffset: Int) {
        self.init(identifier: identifier, transitions: [], offsets: [], initial: Int32(clamping: fixedOffset))
    }

    /// The zone in TZif `bytes` (version 1, 2 or 3), or nil when they are not a TZif file.
    public init?(identifier: String, tzif bytes: [UInt8]) {
        var reader = TZifReader(bytes: bytes)
        guard let header = reader.header() else { return nil }
        var parsed = header
        var timeSize = 4
        if header.version >= 2 {
            // Skip the version-1 block; the version-2 block that follows has 64-bit times.
            guard reader.skip(header.v1BlockSize), let second = reader.header() else { return nil }
            parsed = second
            timeSize = 8
        }
        guard let zone = reader.block(parsed, timeSize: timeSize) else { return nil }
        self.init(identifier: identifier, transitions: zone.0, offsets: zone.1, initial: zone.2)
    }

    /// Seconds east of UTC at Unix time `t`.
    public func offset(at t: Double) -> Int {
        let instant = Int64(t.rounded(.down))
        // The last transition at or before `instant` (binary search).
        var low = 0
        var high = transitions.count
        while low < high {
            let mid = (low + high) / 2
            if transitions[mid] <= instant { low = mid + 1 } else { high = mid }
        }
        return Int(low == 0 ? initial : offsets[low - 1])
    }
}

/// Reads a TZif file's header and data block.
struct TZifReader {
    struct Header {
        var version: Int
        var isutcnt, isstdcnt, leapcnt, timecnt, typecnt, charcnt: Int
        var v1BlockSize: Int { timecnt * 5 + typecnt * 6 + charcnt + leapcnt * 8 + isstdcnt + isutcnt }
    }

    let bytes: [UInt8]
    var at = 0

    init(bytes: [UInt8]) { self.bytes = bytes }

    mutating func skip(_ n: Int) -> Bool {
        guard n >= 0, at + n <= bytes.count else { return false }
        at += n
        return true
    }

    mutating func integer(_ size: Int) -> Int64? {
        guard at + size <= bytes.count else { return nil }
        var value: UInt64 = 0
        for i in 0..<size { value = value << 8 | UInt64(bytes[at + i]) }
        at += size
        // Sign-extend from `size` bytes.
        let shift = UInt64(64 - size * 8)
        return Int64(bitPattern: value << shift) >> Int64(shift)
    }

    mutating func header() -> Header? {
        guard at + 44 <= bytes.count, Array(bytes[at..<at + 4]) == Array("TZif".utf8) else { return nil }
        let versionByte = bytes[at + 4]
        let version = versionByte == 0 ? 1 : Int(versionByte) - Int(UInt8(ascii: "0"))
        at += 20
        var counts: [Int] = []
        for _ in 0..<6 {
            guard let n = integer(4), n >= 0, n < 1_000_000 else { return nil }
            counts.append(Int(n))
        }
        return Header(
            version: version, isutcnt: counts[0], isstdcnt: counts[1], leapcnt: counts[2], timecnt: counts[3],
            typecnt: counts[4], charcnt: counts[5])
    }

    /// The transitions, the offset from each, and the offset before the first.
    mutating func block(_ h: Header, timeSize: Int) -> ([Int64], [Int32], Int32)? {
        var times: [Int64] = []
        for _ in 0..<h.timecnt {
            guard let t = integer(timeSize) else { return nil }
            times.append(t)
        }
        var indices: [Int] = []
        for _ in 0..<h.timecnt {
            guard let i = integer(1) else { return nil }
            indices.append(Int(UInt8(truncatingIfNeeded: i)))
        }
        var types: [(offset: Int32, isDST: Bool)] = []
        for _ in 0..<h.typecnt {
            guard let offset = integer(4), let dst = integer(1), integer(1) != nil else { return nil }
            types.append((Int32(truncatingIfNeeded: offset), dst != 0))
        }
        guard !types.isEmpty, indices.allSatisfy({ $0 < types.count }) else { return nil }
        // RFC 8536 3.2: before the first transition, the first standard-time type (else type 0).
        let initial = types.first { !$0.isDST }?.offset ?? types[0].offset
        return (times, indices.map { types[$0].offset }, initial)
    }
}
