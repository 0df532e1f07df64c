import AubadeCore
import Foundation

/// The directory's popularity count, as its users are asked to keep it: when a person starts a station saved from
/// the directory on the radio (`play`, the sleep timer, the page's player; never an alarm, which is not a choice made
/// then), a click is counted (`StationDirectory.countClick`), at most once a day per station, as background work:
/// nothing waits for it, a failure is only logged. Which stations were counted today is kept in memory (the
/// directory itself counts one click per address and station a day). A value, part of the radio's state.
struct DirectoryClicks {
    /// The day (days since 1970, UTC) each station's click was last counted.
    private var countedOn: [String: Int] = [:]

    /// `station` starts playing at `now`.
    mutating func played(_ station: Station?, at now: Date, _ c: inout ClockContext) {
        guard c.caps.directory, let id = station?.directory?.id else { return }
        let day = Int((now.timeIntervalSince1970 / 86_400).rounded(.down))
        guard countedOn[id] != day else { return }
        countedOn[id] = day
        c.effects.append(.countClick(id))
    }
}
