import FoundationEssentials

/// A programme as `GET /programmes/now` answers it: its id (what a reservation names), its name, when this airing
/// begins and ends (Unix seconds), whether it is reserved, and its station's name.
public struct FaceProgramme: Decodable, Sendable, Hashable {
    public var id: Int64?
    public var name: String
    public var begins: Double
    public var ends: Double
    public var reserved: Bool
    public var stationName: String?

    public init(id: Int64?, name: String, begins: Double, ends: Double, reserved: Bool = false, stationName: String? = nil) {
        self.id = id
        self.name = name
        self.begins = begins
        self.ends = ends
        self.reserved = reserved
        self.stationName = stationName
    }

    enum CodingKeys: String, CodingKey { case id, name, begins, ends, reserved, stationName }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decodeIfPresent(Int64.self, forKey: .id)
        name = try c.decode(String.self, forKey: .name)
        begins = try c.decode(Double.self, forKey: .begins)
        ends = try c.decode(Double.self, forKey: .ends)
        reserved = try c.decodeIfPresent(Bool.self, forKey: .reserved) ?? false
        stationName = try c.decodeIfPresent(String.self, forKey: .stationName)
    }
}

/// What is on air now and what begins next, on the station the face asked about (nil: any station), as kiosk.js
/// shows them on the clock's face. The executable reads it (`path(station:)`) and reads it again when it changes
/// (`readAgain(after:)`); the scene shows it.
public struct FaceOnAir: Sendable, Hashable {
    public var station: String?
    public var now: FaceProgramme?
    public var next: FaceProgramme?

    public init(station: String?, now: FaceProgramme?, next: FaceProgramme?) {
        self.station = station
        self.now = now
        self.next = next
    }

    struct Answer: Decodable {
        var now: FaceProgramme?
        var next: FaceProgramme?
    }

    /// The answer in `bytes` (`{"now":…,"next":…}`, either null), or nil when they are not one.
    public static func decode(_ bytes: [UInt8], station: String?) -> FaceOnAir? {
        guard let answer = try? JSONDecoder().decode(Answer.self, from: Data(bytes)) else { return nil }
        return FaceOnAir(station: station, now: answer.now, next: answer.next)
    }

    /// The request's path: `/programmes/now`, `?station=` the station's name percent-encoded.
    public static func path(station: String?) -> String {
        guard let station else { return "/programmes/now" }
        var query = ""
        for byte in station.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "~"):
                query.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = Array("0123456789ABCDEF")
                query += "%" + String([hex[Int(byte >> 4)], hex[Int(byte & 15)]])
            }
        }
        return "/programmes/now?station=" + query
    }

    /// When to read it again (the clock's time): a second after the programme on air ends or the next one begins,
    /// whichever comes first, and never sooner than 5 s after `now` (kiosk.js); nil when neither is known.
    public func readAgain(after now: Double) -> Double? {
        let changes = [self.now?.ends, next?.begins].compactMap { $0 }
        guard let first = changes.min() else { return nil }
        return max(first + 1, now + 5)
    }

    /// Whether there is anything to show.
    public var isEmpty: Bool { now == nil && next == nil }

    /// The station whose programmes the face shows: the saved station playing, else the next alarm's (when it is a
    /// saved station), else the one Play would play; nil when there is none (then the programmes of any station).
    public static func station(_ inputs: FaceInputs, alarmStation: String?) -> String? {
        if let radio = inputs.state?.radio,
            let playing = inputs.stations.first(where: { $0.name == radio.source })
                ?? inputs.stations.first(where: { $0.id == radio.stationId })
        {
            return playing.name
        }
        if let alarmStation, inputs.stations.contains(where: { $0.name == alarmStation }) { return alarmStation }
        return inputs.chosenStation
    }

    struct Alarm: Decodable {
        var sound: String
        var soundName: String?
    }

    /// The station an alarm plays (`GET /alarms/{id}`: its `soundName` when its `sound` is a station), or nil.
    public static func alarmStation(_ bytes: [UInt8]) -> String? {
        guard let alarm = try? JSONDecoder().decode(Alarm.self, from: Data(bytes)), alarm.sound.hasPrefix("station:") else {
            return nil
        }
        return alarm.soundName
    }
}
