import AubadeCore
import Foundation

/// Reserved programmes (the `programs` table's `isOrdered`): when one starts, the radio chimes and tunes to
/// its station (`RadioPlayer.reserve`). Each start happens once, keyed by programme and instant; starts are
/// computed per local date like alarms (`ReservationSchedule`), so DST gaps and overlaps behave the same.
/// Not Sendable: the clock actor owns it.
final class Reminders {
    let catalogue: Catalogue
    private var lastCheck: Date?
    private var done: Set<String> = []

    init(catalogue: Catalogue) {
        self.catalogue = catalogue
    }

    /// The next reserved start after `now`, for the loop's wake-up.
    func next(after now: Date, zone: TimeZone) -> Date? {
        ReservationSchedule.next(after: now, programmes: catalogue.programmes, zone: zone)?.start
    }

    /// The reserved starts that came since the last look, each once.
    func due(_ now: Date, zone: TimeZone) -> [ReservationStart] {
        let from = lastCheck ?? now
        lastCheck = now
        guard from < now else { return [] }
        return ReservationSchedule.due(from: from, through: now, programmes: catalogue.programmes, zone: zone).filter { start in
            done.insert("\(start.programmeID)@\(start.start.timeIntervalSince1970)\(start.isReminder ? "r" : "")").inserted
        }
    }
}
