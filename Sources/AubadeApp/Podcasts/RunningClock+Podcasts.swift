import AubadeCore
import Foundation

extension RunningClock {
    /// A `podcast:` alarm's check finished: the feed it read again is stored through the one edit path (a feed
    /// that could not be stored changes nothing the alarm needs: it plays the file downloaded), then the result
    /// goes where a station check's goes — the pre-check's into the alarm's plan, the look-ahead's into its warning.
    func episodeChecked(_ check: StationCheck, id: Int64, occurrence: Date, _ result: EpisodeCheck) async {
        if let feed = result.feed {
            do throws(ClockError) {
                _ = try await apply(.refreshPodcast(name: result.podcast, feed, at: deps.time.now().wall), deps.time.now())
                board.set("podcast-\(result.podcast)", nil)
            } catch {
                board.set(
                    "podcast-\(result.podcast)", "The feed of podcast \(result.podcast) was read but not stored: \(error.message)"
                )
            }
        }
        let now = deps.time.now()
        switch check {
        case .precheck:
            runner.precheckDone(id: id, occurrence: occurrence, failure: result.failure, episode: result.audio, now)
        case .lookahead:
            runner.lookaheadDone(id: id, occurrence: occurrence, failure: result.failure, now)
        }
    }
}
