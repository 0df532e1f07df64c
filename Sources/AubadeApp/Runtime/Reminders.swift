import AubadeCore
import Foundation

/// Reserved programmes (the `programs` table's `isOrdered`): when one starts, the radio chimes and tunes to
/// its station (`RadioPlayer.reserve`). Each start happens once, keyed by programme and instant; starts are
/// computed per local date like alarms (`ReservationSchedule`), so DST gaps and overlaps behave the same.
/// A value, part of `ClockState`; it reads the programmes from the clock's catalogue.
struct Reminders {
    private var lastCheck: Date?
    private var done: Set<String> = []

    /// The next reserved start after `now`, for the loop's wake-up.
    func next(after now: Date, zone: TimeZone, _ catalogue: Catalogue) -> Date? {
        ReservationSchedule.next(after: now, programmes: catalogue.programmes, zone: zone)?.start
    }

    /// The reserved starts that came since the last look, each once.
    mutating func due(_ now: Date, zone: TimeZone, _ catalogue: Catalogue) -> [ReservationStart] {
        let from = lastCheck ?? now
        lastCheck = now
        guard from < now else { return [] }
        return ReservationSchedule.due(from: from, through: now, programmes: catalogue.programmes, zone: zone).filter { start in
            done.insert("\(start.programmeID)@\(start.start.timeIntervalSince1970)\(start.isReminder ? "r" : "")").inserted
        }
    }
}
