import AubadeApp
import AubadeCore
import Foundation

/// The next alarm and whether it would be heard as configured: its station if that can be played now, else
/// the tone; not at all when the sound device, the clock or the alarms themselves are missing.
struct AlarmVerdict: Encodable, Sendable {
    struct NextAlarm: Encodable, Sendable {
        var id: Int64
        var name: String
        var at: Date
        /// What it is set to play: "tone", a station's name or a stream address.
        var source: String
        /// What it would play now: the source, or "tone" when the station cannot be played; nil when it
        /// would not be heard at all.
        var heardAs: String?
    }

    var next: NextAlarm?
    /// nil when no alarm is set, or doctor could not ask the clock.
    var heard: Bool?
    var check: DoctorCheck

    /// The checks whose problem silences every alarm.
    static let blocking: Set<String> = ["sound", "daemon", "database", "disk", "play"]

    static func judge(
        daemon: DaemonProbe, storage: StorageProbe, stations: [StationProbe], checks: [DoctorCheck],
        zone: TimeZone, now: Date = Date()
    ) -> AlarmVerdict {
        let alarms = storage.alarms
        var next: NextAlarm?
        if let n = daemon.status?.next {
            next = NextAlarm(id: n.id, name: n.name, at: n.at, source: "", heardAs: nil)
        } else if daemon.status == nil {
            next = alarms.filter(\.enabled).compactMap { a -> NextAlarm? in
                guard let id = a.id,
                    let at = AlarmSchedule.next(of: a, after: now, defaultZone: zone, honouringSkip: true)?.instant
                else { return nil }
                return NextAlarm(id: id, name: a.name, at: at, source: "", heardAs: nil)
            }.min { $0.at < $1.at }
        }
        guard var next else {
            let why = daemon.status != nil || storage.settings != nil ? "No alarm is enabled" : "No alarm could be found"
            return AlarmVerdict(
                next: nil, heard: nil,
                check: .warning(
                    "alarm", "\(why): nothing will ring.",
                    fix: "Add one: aubade alarm add --name Work --time 06:45 --days mon-fri --source tone."))
        }
        let alarm = alarms.first { $0.id == next.id }
        let probe = stations.first { $0.target.alarmIDs.contains(next.id) }
        switch alarm?.sound {
        case .tone, nil: next.source = alarm == nil ? "unknown" : "tone"
        case .station(let id): next.source = storage.stations[id]?.name ?? "station \(id)"
        case .stream(let url): next.source = url.text
        case .podcast(let choice): next.source = choice.text
        }
        let when = Self.format(next.at, zone: zone, now: now)
        let blockers = checks.filter { Self.blocking.contains($0.check) && $0.status == .problem }
        guard blockers.isEmpty else {
            let reasons = blockers.map(\.message).joined(separator: " ")
            return AlarmVerdict(
                next: next, heard: false,
                check: .problem(
                    "alarm", "\(next.name) at \(when) would not be heard: \(reasons)",
                    fix: blockers[0].fix ?? ""))
        }
        if case .noAccess = daemon {
            return AlarmVerdict(
                next: next, heard: nil,
                check: .warning(
                    "alarm", "\(next.name) at \(when): doctor could not ask the clock whether it would be heard.",
                    fix: "Run doctor as root or as the clock's user: sudo -u aubade aubade doctor."))
        }
        var what: String
        if next.source == "tone" {
            next.heardAs = "tone"
            what = "the tone"
        } else if let probe, probe.problem != nil {
            next.heardAs = "tone"
            what = "the tone, not \(next.source), which cannot be played now"
        } else if alarm == nil {
            next.heardAs = nil
            what = "its sound (doctor could not read the alarms to say which)"
        } else {
            next.heardAs = next.source
            what = next.source
        }
        return AlarmVerdict(next: next, heard: true, check: .ok("alarm", "\(next.name) at \(when) would be heard: \(what)."))
    }

    /// "Tue 24 Nov 06:45 (in 9 h 12 min)", 24-hour, in the clock's zone.
    static func format(_ date: Date, zone: TimeZone, now: Date) -> String {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_GB")
        f.timeZone = zone
        f.dateFormat = "EEE d MMM HH:mm"
        let minutes = max(0, Int(date.timeIntervalSince(now) / 60))
        let inText = minutes >= 60 ? "\(minutes / 60) h \(minutes % 60) min" : "\(minutes) min"
        return "\(f.string(from: date)) (in \(inText))"
    }
}
