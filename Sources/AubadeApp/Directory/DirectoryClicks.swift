import AubadeCore
import AubadeSystemAsync
import Foundation
import Logging

/// The directory's popularity count, as its users are asked to keep it: when a station saved from the directory
/// starts playing — on the radio or for an alarm — a click is counted (`StationDirectory.countClick`), at most once
/// a day per station, as background work: nothing waits for it, a failure is only logged. Which stations were
/// counted today is kept in memory (the directory counts one click per address and day itself). Not Sendable: the
/// clock actor owns it.
final class DirectoryClicks {
    private let directory: (any StationDirectory)?
    private let effects: Effects
    private let logger: Logger?
    /// The day (days since 1970, UTC) each station's click was last counted.
    private var countedOn: [String: Int] = [:]

    init(directory: (any StationDirectory)?, effects: Effects, logger: Logger? = nil) {
        self.directory = directory
        self.effects = effects
        self.logger = logger
    }

    /// `station` starts playing at `now`.
    func played(_ station: Station?, at now: Date) {
        guard let directory, let id = station?.directory?.id else { return }
        let day = Int((now.timeIntervalSince1970 / 86_400).rounded(.down))
        guard countedOn[id] != day else { return }
        countedOn[id] = day
        let logger = logger
        effects.append(
            .job {
                do throws(DirectoryError) {
                    try await runBlocking("aubade-directory") { () throws(DirectoryError) in try directory.countClick(id: id) }
                } catch {
                    logger?.info("the directory's click for \(id) was not counted: \(error.message)")
                }
            })
    }
}
