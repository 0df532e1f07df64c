import AubadeCore
import AubadeStore
import Foundation

/// What `aubade status` shows from a running clock: next alarm, what plays, warnings, last morning's report.
public struct DaemonStatus: Codable, Sendable {
    public struct NextAlarm: Codable, Sendable {
        public var id: Int64
        public var name: String
        public var at: Date
    }

    public struct Ringing: Codable, Sendable {
        public var id: Int64
        public var name: String
        public var source: String
        public var sinceSeconds: Double
        public var audibleAfterSeconds: Double?
        public var fallbacks: [String]
    }

    public struct Snoozed: Codable, Sendable {
        public var id: Int64
        public var until: Date
    }

    public struct Radio: Codable, Sendable {
        public var kind: String
        public var source: String
        public var remainingSeconds: Double?
        public var title: String?
    }

    public var now: Date
    public var next: NextAlarm?
    public var ringing: Ringing?
    public var snoozed: [Snoozed]
    public var radio: Radio?
    public var warnings: [String]
    public var clockSynchronised: Bool
    public var report: [String]

    /// Human-readable lines.
    public var lines: [String] {
        var out: [String] = []
        if let ringing {
            let audible = ringing.audibleAfterSeconds.map { String(format: ", audible after %.1f s", $0) } ?? ", not audible yet"
            out.append("Ringing: \(ringing.name) (\(ringing.source)) for \(Int(ringing.sinceSeconds)) s\(audible)")
            for f in ringing.fallbacks { out.append("  fell back: \(f)") }
        }
        for s in snoozed { out.append("Snoozed: alarm \(s.id) until \(s.until.formatted(date: .omitted, time: .shortened))") }
        if let next {
            out.append("Next alarm: \(next.name) at \(next.at.formatted(date: .abbreviated, time: .shortened))")
        } else {
            out.append("Next alarm: none enabled")
        }
        if let radio {
            let left = radio.remainingSeconds.map { ", \(DurationText.format(Int($0))) left" } ?? ""
            out.append("Playing: \(radio.kind) — \(radio.source)\(left)\(radio.title.map { " — \($0)" } ?? "")")
        }
        if !clockSynchronised { out.append("Warning: the system clock is not synchronised (alarms ring by the best time known).") }
        for w in warnings { out.append("Warning: \(w)") }
        if !report.isEmpty {
            out.append("Last morning:")
            out += report.map { "  \($0)" }
        }
        return out
    }
}

extension AlarmClock {
    /// The live status.
    public func status() -> DaemonStatus {
        let now = clock.now()
        let names = Dictionary(scheduler.alarms.map { ($0.key, $0.value.name) }, uniquingKeysWith: { a, _ in a })
        let next = scheduler.alarms.keys.compactMap { id -> DaemonStatus.NextAlarm? in
            guard let occurrence = scheduler.nextOccurrence(of: id, after: now.wall) else { return nil }
            return DaemonStatus.NextAlarm(id: id, name: names[id] ?? "", at: occurrence.instant)
        }.min { $0.at < $1.at }
        let ringing = sounding.map { s in
            DaemonStatus.Ringing(id: s.alarmID, name: names[s.alarmID] ?? "", source: s.source,
                                 sinceSeconds: (now.mono - s.startedAt).inSeconds,
                                 audibleAfterSeconds: s.audibleAfter?.inSeconds, fallbacks: s.fallbacks)
        }
        let snoozed = scheduler.states.values.filter { $0.phase == .snoozed }.compactMap { state in
            state.snoozedUntil.map { DaemonStatus.Snoozed(id: state.alarmID, until: $0) }
        }.sorted { $0.id < $1.id }
        let radioStatus = radio.map { r -> DaemonStatus.Radio in
            switch r.kind {
            case .sleep(let timer):
                DaemonStatus.Radio(kind: "sleep timer", source: r.source, remainingSeconds: timer.remaining(at: now.mono).inSeconds, title: nil)
            case .reservation(_, let name):
                DaemonStatus.Radio(kind: "reserved programme \(name)", source: r.source, remainingSeconds: nil, title: nil)
            }
        }
        let since = now.wall.addingTimeInterval(-86_400)
        let events = (try? store.events(limit: 500, since: since)) ?? []
        let zones = Dictionary(scheduler.alarms.compactMap { id, alarm in
            alarm.timeZoneID.flatMap { TimeZone(identifier: $0) }.map { (id, $0) }
        }, uniquingKeysWith: { a, _ in a })
        let report = MorningReport.build(events: events, alarmNames: names, since: since,
                                         zone: scheduler.defaultZone, alarmZones: zones).lines
        return DaemonStatus(now: now.wall, next: next, ringing: ringing, snoozed: snoozed, radio: radioStatus,
                            warnings: warnings.keys.sorted().compactMap { warnings[$0] },
                            clockSynchronised: ClockSync.isSynchronised(), report: report)
    }
}
