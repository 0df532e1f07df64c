import AubadeCore
import Foundation
import GRDB

/// A `clocks` row, property names = column names. The only place that maps an `Alarm` to SQL
/// (and to the schedule backup copy, which uses the same JSON shape).
struct ClockRow: Codable, Equatable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "clocks"
    var clockId: Int64?
    var clockName: String
    var startTime: String
    var durationTime: Int
    var repeated: String
    var onceDate: String?
    var isShaked: Bool
    var isOpened: Bool
    var clockMusic: String
    var volume: Int
    var fadeInSeconds: Int
    var snoozeMinutes: Int
    var maxSnoozes: Int
    var skipNextDate: String?
    var timeZone: String?
    var createdAt: Date
    var updatedAt: Date
    // Schema version 4; optional so that a backup copy written before it still reads.
    var skipDaysOff: Bool?
    var airDates: String?
    var programId: Int64?
    var programName: String?
    var programGone: Bool?
    // Schema version 8; optional so that a backup copy written before it still reads.
    var sunriseSeconds: Int?
    // Schema version 9: the alarm's own ladder ("off", "step=2m,rounds=5"); NULL follows the clock's.
    var ladder: String?
    var wakeCheckSeconds: Int?
    // Schema version 10: when its shaker and lamp come on ("now", "after:2m", "off"); NULL at its ladder's top.
    var shaker: String?
    var lamp: String?
    // Schema version 11: "vibrate first, sound after" in seconds (1–600); NULL: the sound starts with the ring.
    var soundAfter: Int?

    /// The property names, but `sound_after` (the column's name in the words).
    enum CodingKeys: String, CodingKey {
        case clockId, clockName, startTime, durationTime, repeated, onceDate, isShaked, isOpened, clockMusic, volume
        case fadeInSeconds, snoozeMinutes, maxSnoozes, skipNextDate, timeZone, createdAt, updatedAt, skipDaysOff
        case airDates, programId, programName, programGone, sunriseSeconds, ladder, wakeCheckSeconds, shaker, lamp
        case soundAfter = "sound_after"
    }

    init(_ a: Alarm, createdAt: Date, updatedAt: Date) {
        clockId = a.id
        clockName = a.name
        startTime = a.time.description
        durationTime = a.durationSeconds
        repeated = a.recurrence.repeatedText
        onceDate = a.recurrence.onceDate?.description
        isShaked = a.shakeToStop
        isOpened = a.enabled
        clockMusic = a.sound.storageText
        volume = a.volume
        fadeInSeconds = a.fadeInSeconds
        snoozeMinutes = a.snoozeMinutes
        maxSnoozes = a.maxSnoozes
        skipNextDate = a.skipDate?.description
        timeZone = a.timeZoneID
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        skipDaysOff = a.skipDaysOff
        airDates = a.recurrence.dateList.map(DateList.text)
        programId = a.programme?.id
        programName = a.programme?.name
        programGone = a.programme?.gone ?? false
        sunriseSeconds = a.sunriseSeconds
        if case .own = a.ladder { ladder = a.ladder.description }
        wakeCheckSeconds = a.wakeCheckSeconds
        shaker = a.shaker?.description
        lamp = a.lamp?.description
        soundAfter = a.soundAfter.map(SoundAfter.seconds)
    }

    func alarm() throws(StoreError) -> Alarm {
        do throws(ValidationError) {
            let tie = programId.map { ProgrammeTie(id: $0, name: programName ?? "programme \($0)", gone: programGone ?? false) }
            var alarm = Alarm(
                id: clockId, name: clockName, time: try LocalTime(parsing: startTime),
                recurrence: try Recurrence(
                    repeated: repeated, onceDate: try onceDate.map { t throws(ValidationError) in try LocalDate(parsing: t) },
                    dates: try airDates.map(DateList.dates)),
                durationSeconds: durationTime, shakeToStop: isShaked, enabled: isOpened,
                sound: try SoundSource(storageText: clockMusic), volume: volume, fadeInSeconds: fadeInSeconds,
                snoozeMinutes: snoozeMinutes, maxSnoozes: maxSnoozes,
                skipDate: try skipNextDate.map { t throws(ValidationError) in try LocalDate(parsing: t) }, timeZoneID: timeZone,
                skipDaysOff: skipDaysOff ?? false, programme: tie, sunriseSeconds: sunriseSeconds ?? 0,
                ladder: try ladder.map { t throws(ValidationError) in try AlarmLadder(parsing: t) } ?? .clock,
                wakeCheckSeconds: wakeCheckSeconds ?? 0,
                shaker: try shaker.map { t throws(ValidationError) in try OutputTiming(parsing: t) },
                lamp: try lamp.map { t throws(ValidationError) in try OutputTiming(parsing: t) },
                soundAfter: soundAfter.map { .seconds($0) })
            try alarm.validate()
            return alarm
        } catch {
            throw StoreError.invalidRow(table: "clocks", id: clockId, reason: error.message)
        }
    }

    mutating func didInsert(_ inserted: InsertionSuccess) {
        clockId = inserted.rowID
    }
}

struct StationRow: Codable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "stations"
    var stationId: Int64?
    var name: String
    var url: String
    var alternateUrl: String?
    var createdAt: Date
    var updatedAt: Date
    // Version 5: where a station from the public directory was found (all nil for one added by its address).
    var directoryId: String?
    var codec: String?
    var bitrate: Int?
    var homepage: String?
    var country: String?
    var logo: String?
    /// The local date ("2026-11-27") its directory click was last counted: at most one a day.
    var clickedOn: String?

    init(_ s: Station, now: Date) {
        stationId = s.id
        name = s.name
        url = s.url.text
        alternateUrl = s.alternateURL?.text
        createdAt = now
        updatedAt = now
        directoryId = s.directory?.id
        codec = s.directory?.codec
        bitrate = s.directory?.bitrate
        homepage = s.directory?.homepage
        country = s.directory?.country
        logo = s.directory?.logo
    }

    func station() throws(StoreError) -> Station {
        do throws(ValidationError) {
            let directory = try directoryId.map { id throws(ValidationError) in
                try DirectoryLink(
                    id: id, codec: codec ?? "", bitrate: bitrate ?? 0, homepage: homepage ?? "", country: country ?? "",
                    logo: logo)
            }
            return try Station(
                id: stationId, name: name, url: try StreamURL(stored: url),
                alternateURL: try alternateUrl.map { t throws(ValidationError) in try StreamURL(stored: t) }, directory: directory
            )
        } catch {
            throw StoreError.invalidRow(table: "stations", id: stationId, reason: error.message)
        }
    }

    mutating func didInsert(_ inserted: InsertionSuccess) {
        stationId = inserted.rowID
    }
}

struct ProgramRow: Codable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "programs"
    var progId: Int64?
    var progName: String
    var beginTime: String
    var endTime: String
    var isOrdered: Bool
    var stationId: Int64?
    var weekday: Int?
    var date: String?
    var host: String?
    var description: String?
    var importSource: String?
    // Schema version 4; optional so that a backup copy written before it still reads.
    var airDates: String?
    var timeZone: String?
    var importKey: String?
    var location: String?
    var url: String?
    var remindSeconds: Int?

    init(_ p: Programme) {
        progId = p.id
        progName = p.name
        beginTime = p.begin.description
        endTime = p.end.description
        isOrdered = p.reserved
        stationId = p.stationID
        weekday = p.weekday?.rawValue
        date = p.date?.description
        host = p.host
        description = p.details
        importSource = p.importSource
        airDates = p.dates.map(DateList.text)
        timeZone = p.timeZoneID
        importKey = p.importKey
        location = p.location
        url = p.url
        remindSeconds = p.remindSeconds
    }

    func programme() throws(StoreError) -> Programme {
        do throws(ValidationError) {
            var p = Programme(
                id: progId, name: progName, begin: try LocalTime(parsing: beginTime), end: try LocalTime(parsing: endTime),
                reserved: isOrdered, stationID: stationId, weekday: weekday.flatMap(Weekday.init(isoNumber:)),
                date: try date.map { t throws(ValidationError) in try LocalDate(parsing: t) }, host: host, details: description,
                importSource: importSource, dates: try airDates.map(DateList.dates), timeZoneID: timeZone,
                importKey: importKey, location: location, url: url, remindSeconds: remindSeconds)
            try p.validate()
            return p
        } catch {
            throw StoreError.invalidRow(table: "programs", id: progId, reason: error.message)
        }
    }

    mutating func didInsert(_ inserted: InsertionSuccess) {
        progId = inserted.rowID
    }
}

struct AppSetRow: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "appSet"
    var id = 1
    var isWifi: Bool
    var defaultVolume: Int
    var snoozeMinutes: Int
    var maxSnoozes: Int
    var alarmDurationSeconds: Int
    var fadeInSeconds: Int
    var fallbackTone: String
    var toneVolume: Int
    var catchUpSeconds: Int
    var sleepSeconds: Int
    var sleepFadeSeconds: Int
    var sleepVolume: Int
    // Schema version 3; optional so that a backup copy written before it still reads (dimming off).
    var dimFrom: String?
    var dimUntil: String?
    var dimLevel: Int?

    init(_ s: AppSettings) {
        isWifi = s.isWifi
        defaultVolume = s.defaultVolume
        snoozeMinutes = s.snoozeMinutes
        maxSnoozes = s.maxSnoozes
        alarmDurationSeconds = s.alarmDurationSeconds
        fadeInSeconds = s.fadeInSeconds
        fallbackTone = s.fallbackTone.rawValue
        toneVolume = s.toneVolume
        catchUpSeconds = s.catchUpSeconds
        sleepSeconds = s.sleepSeconds
        sleepFadeSeconds = s.sleepFadeSeconds
        sleepVolume = s.sleepVolume
        dimFrom = NightDimmingKey.dimFrom.value(in: s.nightDimming)
        dimUntil = NightDimmingKey.dimUntil.value(in: s.nightDimming)
        dimLevel = s.nightDimming.level
    }

    /// Values outside their range (written by hand with sqlite3, say) fall back to the default for that key
    /// rather than making the clock unusable; `settings()` reports which.
    func settings() -> (AppSettings, invalid: [String]) {
        var s = AppSettings()
        var invalid: [String] = []
        let values: [(SettingKey, String)] = [
            (.isWifi, isWifi ? "true" : "false"), (.defaultVolume, "\(defaultVolume)"),
            (.snoozeMinutes, "\(snoozeMinutes)"), (.maxSnoozes, "\(maxSnoozes)"),
            (.alarmDuration, "\(alarmDurationSeconds)s"), (.fadeIn, "\(fadeInSeconds)s"),
            (.fallbackTone, fallbackTone), (.toneVolume, "\(toneVolume)"), (.catchUp, "\(catchUpSeconds)s"),
            (.sleepDuration, "\(sleepSeconds)s"), (.sleepFade, "\(sleepFadeSeconds)s"),
            (.sleepVolume, "\(sleepVolume)"),
        ]
        for (key, text) in values {
            do { try key.set(text, in: &s) } catch { invalid.append(key.rawValue) }
        }
        // The three night-dimming keys are one setting: checked together (a stored 07:00–22:00 is fine even
        // though setting dimFrom 07:00 alone beside the default dimUntil 07:00 would not be).
        let off = NightDimmingSettings()
        let dimming = [
            SettingChange(key: "dimFrom", value: .text(dimFrom ?? NightDimmingKey.dimFrom.value(in: off))),
            SettingChange(key: "dimUntil", value: .text(dimUntil ?? NightDimmingKey.dimUntil.value(in: off))),
            SettingChange(key: "dimLevel", value: .number(dimLevel ?? off.level)),
        ]
        do { try s.apply(dimming) } catch { invalid.append("dimFrom/dimUntil/dimLevel") }
        return (s, invalid)
    }
}

struct AlarmStateRow: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "alarmState"
    var clockId: Int64
    var phase: String
    var occurrence: Date?
    var ringingSince: Date?
    var snoozedUntil: Date?
    var snoozeCount: Int
    var lastHandled: Date?
    var updatedAt: Date
    // Schema version 9; optional so that a row written before it still reads.
    var restCount: Int?
    // Schema version 12.
    var wakeCheckAt: Date?

    func runState() throws(StoreError) -> AlarmRunState {
        guard let phase = AlarmRunState.Phase(rawValue: self.phase) else {
            throw .invalidRow(table: "alarmState", id: clockId, reason: "unknown phase '\(self.phase)'.")
        }
        return AlarmRunState(
            alarmID: clockId, phase: phase, occurrence: occurrence, ringingSince: ringingSince,
            snoozedUntil: snoozedUntil, snoozeCount: snoozeCount, lastHandledOccurrence: lastHandled,
            restCount: restCount ?? 0, wakeCheckAt: wakeCheckAt)
    }
}

struct EventRow: Codable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "events"
    var eventId: Int64?
    var at: Date
    var clockId: Int64?
    var kind: String
    var detail: String

    mutating func didInsert(_ inserted: InsertionSuccess) {
        eventId = inserted.rowID
    }
}

/// A list of local dates as one column: "2026-11-27,2026-12-04" (ascending).
enum DateList {
    static func text(_ dates: [LocalDate]) -> String {
        dates.map(\.description).joined(separator: ",")
    }

    static func dates(_ text: String) throws(ValidationError) -> [LocalDate] {
        var out: [LocalDate] = []
        for part in text.split(separator: ",") { out.append(try LocalDate(parsing: String(part))) }
        return out
    }
}

struct DayOffRow: Codable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "daysOff"
    var dayOffId: Int64?
    var firstDate: String
    var lastDate: String
    var name: String
    var importSource: String?
    var importKey: String?
    var createdAt: Date

    init(_ d: DayOff, createdAt: Date) {
        dayOffId = d.id
        firstDate = d.first.description
        lastDate = d.last.description
        name = d.name
        importSource = d.importSource
        importKey = d.importKey
        self.createdAt = createdAt
    }

    func dayOff() throws(StoreError) -> DayOff {
        do throws(ValidationError) {
            var day = DayOff(
                id: dayOffId, first: try LocalDate(parsing: firstDate), last: try LocalDate(parsing: lastDate),
                name: name, importSource: importSource, importKey: importKey)
            try day.validate()
            return day
        } catch {
            throw StoreError.invalidRow(table: "daysOff", id: dayOffId, reason: error.message)
        }
    }

    mutating func didInsert(_ inserted: InsertionSuccess) {
        dayOffId = inserted.rowID
    }
}

struct CalendarSourceRow: Codable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "calendarSources"
    var sourceId: Int64?
    var kind: String
    var location: String
    var stationId: Int64?
    var format: String
    var contentHash: String
    var importedAt: Date
    var expandedThrough: String?

    func source() throws(StoreError) -> CalendarSource {
        guard let id = sourceId, let kind = CalendarImport.Kind(rawValue: kind) else {
            throw .invalidRow(table: "calendarSources", id: sourceId, reason: "unknown kind '\(kind)'.")
        }
        do throws(ValidationError) {
            return CalendarSource(
                id: id, kind: kind, location: location, stationID: stationId, format: format,
                contentHash: contentHash, importedAt: importedAt,
                expandedThrough: try expandedThrough.map { t throws(ValidationError) in try LocalDate(parsing: t) })
        } catch {
            throw .invalidRow(table: "calendarSources", id: sourceId, reason: error.message)
        }
    }

    mutating func didInsert(_ inserted: InsertionSuccess) {
        sourceId = inserted.rowID
    }
}

struct PodcastRow: Codable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "podcasts"
    var podcastId: Int64?
    var name: String
    var feedUrl: String
    var title: String
    /// The newest episodes, as JSON.
    var episodes: String
    var refreshedAt: Date
    var createdAt: Date
    var resumeEpisode: String?
    var resumeByte: Int64?

    init(_ p: Podcast, now: Date) {
        podcastId = p.id
        resumeEpisode = p.resume?.episode
        resumeByte = p.resume?.byte
        name = p.name
        feedUrl = p.feed.text
        title = p.title
        episodes = String(decoding: (try? PodcastRow.encoder.encode(p.episodes)) ?? Data("[]".utf8), as: UTF8.self)
        refreshedAt = p.refreshedAt
        createdAt = now
    }

    func podcast() throws(StoreError) -> Podcast {
        let list: [PodcastEpisode]
        do { list = try PodcastRow.decoder.decode([PodcastEpisode].self, from: Data(episodes.utf8)) } catch {
            throw StoreError.invalidRow(table: "podcasts", id: podcastId, reason: "its episodes are not readable JSON")
        }
        do throws(ValidationError) {
            return try Podcast(
                id: podcastId, name: name, feed: try StreamURL(stored: feedUrl), title: title, episodes: list,
                refreshedAt: refreshedAt,
                resume: resumeEpisode.map { PodcastResume(episode: $0, byte: resumeByte ?? 0) })
        } catch {
            throw StoreError.invalidRow(table: "podcasts", id: podcastId, reason: error.message)
        }
    }

    mutating func didInsert(_ inserted: InsertionSuccess) {
        podcastId = inserted.rowID
    }

    private static let encoder: JSONEncoder = {
        let e = JSONEncoder()
        e.dateEncodingStrategy = .secondsSince1970
        return e
    }()
    private static let decoder: JSONDecoder = {
        let d = JSONDecoder()
        d.dateDecodingStrategy = .secondsSince1970
        return d
    }()
}
