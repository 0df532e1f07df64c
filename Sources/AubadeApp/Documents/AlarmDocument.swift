import AubadeCore

/// An alarm as `aubade alarm … --json` and the API show it. Durations in seconds; `sound` in its stored form
/// with a readable name.
public struct AlarmDocument: Codable, Sendable, Hashable {
    public var id: Int64?
    public var name: String
    public var time: String
    public var days: String
    public var date: String?
    public var durationSeconds: Int
    public var shakeToStop: Bool
    public var enabled: Bool
    public var sound: String
    public var soundName: String
    public var volume: Int
    public var fadeInSeconds: Int
    public var snoozeMinutes: Int
    public var maxSnoozes: Int
    public var skipDate: String?
    public var timeZone: String?

    public init(_ a: Alarm, stationNames: [Int64: String]) {
        id = a.id
        name = a.name
        time = a.time.description
        days = a.recurrence.repeatedText
        date = a.recurrence.onceDate?.description
        durationSeconds = a.durationSeconds
        shakeToStop = a.shakeToStop
        enabled = a.enabled
        sound = a.sound.storageText
        soundName = AlarmDocument.soundName(a.sound, stationNames)
        volume = a.volume
        fadeInSeconds = a.fadeInSeconds
        snoozeMinutes = a.snoozeMinutes
        maxSnoozes = a.maxSnoozes
        skipDate = a.skipDate?.description
        timeZone = a.timeZoneID
    }

    /// "tone", the station's name ("station 4" when it is gone), or the URL.
    public static func soundName(_ sound: SoundSource, _ stationNames: [Int64: String]) -> String {
        switch sound {
        case .tone: "tone"
        case .station(let id): stationNames[id] ?? "station \(id)"
        case .stream(let url): url.text
        }
    }

    public static func stationNames(_ stations: [Station]) -> [Int64: String] {
        Dictionary(stations.compactMap { s in s.id.map { ($0, s.name) } }, uniquingKeysWith: { a, _ in a })
    }
}

/// `{"alarms": […]}`.
public struct AlarmList: Codable, Sendable, Hashable {
    public var alarms: [AlarmDocument]
    public init(_ alarms: [AlarmDocument]) { self.alarms = alarms }
}
