import AubadeCore
import AubadeStore

/// An alarm as `--json` prints it. Durations in seconds; `sound` in its stored form with a readable name.
struct AlarmDocument: Encodable {
    var id: Int64?
    var name: String
    var time: String
    var days: String
    var date: String?
    var durationSeconds: Int
    var shakeToStop: Bool
    var enabled: Bool
    var sound: String
    var soundName: String
    var volume: Int
    var fadeInSeconds: Int
    var snoozeMinutes: Int
    var maxSnoozes: Int
    var skipDate: String?
    var timeZone: String?

    init(_ a: Alarm, stationNames: [Int64: String]) {
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

    static func soundName(_ sound: SoundSource, _ stationNames: [Int64: String]) -> String {
        switch sound {
        case .tone: "tone"
        case .station(let id): stationNames[id] ?? "station \(id)"
        case .stream(let url): url.text
        }
    }

    static func stationNames(_ stations: [Station]) -> [Int64: String] {
        Dictionary(uniqueKeysWithValues: stations.compactMap { s in s.id.map { ($0, s.name) } })
    }
}
