public import AubadeCore
public import Foundation

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
    /// Whether it passes over days off (a repeating alarm; new weekday alarms do by default).
    public var skipDaysOff: Bool
    /// The dates of an alarm that follows a programme airing on a list of dates (`days` is then "dates").
    public var dates: [String]?
    /// The programme it follows ("wake me when it starts"), its name when last seen, and whether it is gone.
    public var programme: Int64?
    public var programmeName: String?
    public var programmeGone: Bool?
    /// How long before it the kiosk's face starts its sunrise, in seconds (0: none).
    public var sunriseSeconds: Int
    /// How it climbs when nobody answers: "default" (the clock's `[alarm] ladder`), "off", or its own steps.
    public var ladder: String
    /// How long after a Stop it asks "Are you up?", in seconds (0: it does not ask).
    public var wakeCheckSeconds: Int
    /// When the bed shaker and the lamp come on while it rings: "ladder" (at its ladder's top step), "now",
    /// "after:2m" or "off".
    public var shaker: String
    public var lamp: String
    /// "Vibrate first, sound after": seconds after the ring begins that its sound starts (0: with the ring).
    public var soundAfterSeconds: Int
    /// In `alarm list` and `alarm next`: its next ring, and the programme on air then on its station.
    public var nextRing: Date?
    public var onAir: String?

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
        skipDaysOff = a.skipDaysOff
        dates = a.recurrence.dateList?.map(\.description)
        programme = a.programme?.id
        programmeName = a.programme?.name
        programmeGone = a.programme?.gone
        sunriseSeconds = a.sunriseSeconds
        ladder = a.ladder.description
        wakeCheckSeconds = a.wakeCheckSeconds
        shaker = OutputTiming.alarmText(a.shaker)
        lamp = OutputTiming.alarmText(a.lamp)
        soundAfterSeconds = a.soundAfter.map(SoundAfter.seconds) ?? 0
    }

    /// The document with the alarm's next ring (passing over skip-next and days off) and what is on air then.
    public init(_ a: Alarm, stationNames: [Int64: String], next: Date?, guide: ProgrammeGuide) {
        self.init(a, stationNames: stationNames)
        nextRing = next
        onAir = next.flatMap { guide.onAir(for: a, at: $0)?.programme.name }
    }

    /// "tone", the station's name ("station 4" when it is gone), `podcast:<name>[#n]`, or the URL.
    public static func soundName(_ sound: SoundSource, _ stationNames: [Int64: String]) -> String {
        switch sound {
        case .tone: "tone"
        case .station(let id): stationNames[id] ?? "station \(id)"
        case .stream(let url): url.text
        case .podcast(let choice): choice.text
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

extension ProgrammeGuide {
    /// The airing on the alarm's station at `instant` (the one it follows, for an alarm tied to a programme);
    /// nil for an alarm that plays the tone or a URL, or when nothing is on.
    public func onAir(for alarm: Alarm, at instant: Date) -> Airing? {
        if let tie = alarm.programme, !tie.gone, let p = programmes.first(where: { $0.id == tie.id }) {
            return current(of: p, at: instant)
        }
        guard case .station(let id) = alarm.sound else { return nil }
        return ProgrammeGuide(programmes: programmes.filter { $0.stationID == id }, zone: clockZone).onAir(at: instant)
    }
}
