import AubadeCore
import Foundation

extension AlarmRunner {
    /// How far ahead the station of a coming alarm is checked: the evening before a morning alarm.
    static let lookaheadHorizon: TimeInterval = 12 * 3600
    /// How often the look-ahead check is repeated…
    static let lookaheadInterval: Duration = .seconds(3600)
    /// …until this long before the alarm; its last result stands until the pre-check takes over.
    static let lookaheadLastStart: TimeInterval = 3600

    /// Hours before a station alarm, checks its station the way the pre-check will (reachable, decodes; or known
    /// to be refused already — Wi-Fi-only off Wi-Fi), once an hour in the background, so that the kiosk, the
    /// page and `status` can say the evening before "its station cannot be reached: it will start on the tone"
    /// while there is time to do something. A `podcast:` alarm's episode is downloaded then. It only warns: what
    /// the alarm plays is decided by the pre-check 5 minutes before (R20), which takes over the warning.
    mutating func lookAhead(_ now: SchedulerTime, _ c: inout ClockContext) {
        let soon = ringingSoon(now, within: AlarmRunner.lookaheadHorizon)
        for (id, check) in lookaheads
        where prechecks[id]?.occurrence == check.occurrence
            || !soon.contains(where: { $0.id == id && $0.instant == check.occurrence })
        {
            lookaheads[id] = nil
            c.warn("lookahead-\(id)", nil)
        }
        for (id, occurrence) in soon where occurrence.timeIntervalSince(now.wall) > AlarmRunner.lookaheadLastStart {
            guard let alarm = scheduler.alarms[id], scheduler.state(of: id).phase == .idle else { continue }
            switch alarm.sound {
            case .station, .podcast: break
            case .tone, .stream: continue
            }
            if let check = lookaheads[id], check.occurrence == occurrence,
                check.running || now.mono - check.checkedAt < AlarmRunner.lookaheadInterval
            {
                continue
            }
            startLookahead(alarm, id: id, occurrence: occurrence, now, &c)
        }
    }

    private mutating func startLookahead(
        _ alarm: Alarm, id: Int64, occurrence: Date, _ now: SchedulerTime, _ c: inout ClockContext
    ) {
        lookaheads[id] = Lookahead(occurrence: occurrence, checkedAt: now.mono, failure: lookaheads[id]?.failure)
        checkStation(alarm, id: id, occurrence: occurrence, as: .lookahead, &c)
    }

    /// A look-ahead check finished: a standing warning while its station fails, none once it works.
    mutating func lookaheadDone(id: Int64, occurrence: Date, failure: String?, _ now: SchedulerTime, _ c: inout ClockContext) {
        guard var check = lookaheads[id], check.occurrence == occurrence else { return }
        check.running = false
        check.checkedAt = now.mono
        check.failure = failure
        lookaheads[id] = check
        guard let failure, let alarm = scheduler.alarms[id] else {
            c.warn("lookahead-\(id)", nil)
            return
        }
        c.warn(
            "lookahead-\(id)", "Alarm \(alarm.name) at \(alarm.time): \(failure) Unless that changes, it will start on the tone.")
    }
}
