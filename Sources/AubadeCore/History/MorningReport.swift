public import Foundation

/// What each alarm did, read back from the event history: one `Run` per alarm occurrence, for
/// `aubade status`, the web page and the kiosk ("did it ring, was it heard, what stopped it").
///
/// Pure and tolerant: unknown kinds are ignored, detail text it cannot read is shown as written, and no
/// input makes it fail.
public struct MorningReport: Sendable, Hashable {
    /// The runs, in order of their scheduled time (or first event), then alarm id.
    public var runs: [Run]
    /// The zone the scheduled times are shown in (per alarm when given to `build`).
    public var zone: TimeZone
    /// Zones of alarms that have their own.
    public var alarmZones: [Int64: TimeZone]

    /// A report of `runs`, shown in `zone` (`alarmZones` for alarms with their own zone).
    public init(runs: [Run], zone: TimeZone, alarmZones: [Int64: TimeZone] = [:]) {
        self.runs = runs
        self.zone = zone
        self.alarmZones = alarmZones
    }

    /// Groups `events` (any order; ties on `at` keep `id` order, else the given order) by alarm and
    /// occurrence and keeps the runs whose scheduled time — or, when no event names it, first event — is at
    /// or after `since`. Events without an alarm (clock steps, sleep timer, reservations) are not runs.
    /// Times are shown in `zone` (pass the clock's zone; UTC when not given), or `alarmZones[id]`.
    public static func build(
        events: [HistoryEvent], alarmNames: [Int64: String], since: Date,
        zone: TimeZone = .gmt, alarmZones: [Int64: TimeZone] = [:]
    ) -> MorningReport {
        var grouping = RunGrouping(names: alarmNames)
        for event in chronological(events) { grouping.add(event) }
        let runs = grouping.finish()
            .filter { ($0.scheduled ?? $0.firstEventAt) >= since }
            .sorted { ($0.scheduled ?? $0.firstEventAt, $0.alarmID) < ($1.scheduled ?? $1.firstEventAt, $1.alarmID) }
        return MorningReport(runs: runs, zone: zone, alarmZones: alarmZones)
    }

    /// Oldest first; equal times by id when both have one, else in the given order (the store lists newest first,
    /// with ids; the engine's batches come oldest first, without).
    static func chronological(_ events: [HistoryEvent]) -> [HistoryEvent] {
        events.enumerated().sorted { a, b in
            if a.element.at != b.element.at { return a.element.at < b.element.at }
            if let x = a.element.id, let y = b.element.id, x != y { return x < y }
            return a.offset < b.offset
        }.map(\.element)
    }
}
