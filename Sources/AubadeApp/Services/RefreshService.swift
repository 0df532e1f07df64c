import Foundation
public import ServiceLifecycle

/// Keeps what the clock fetches in the background fresh: sends the clock its refresh `turn` — the calendar sources
/// that are due (`.refreshCalendars`: a URL every `[calendars] refresh`, any source again from its cached copy when
/// its expansion runs short), the podcasts' feeds (`.refreshPodcasts`: every `[podcasts] refresh`), the stations
/// saved from the directory (`.refreshDirectory`: once a day) — then sleeps as long as the clock says (at least a
/// minute, at most six hours). Everything fetched is fetched on threads of its own, never on the clock's, and
/// stored through the clock's one edit path.
public struct RefreshService: Service {
    let clock: RunningClock
    let turn: ClockInput
    let name: String

    /// `turn` is one of the clock's refresh inputs; `name` says which in logs.
    public init(clock: RunningClock, turn: ClockInput, name: String) {
        self.clock = clock
        self.turn = turn
        self.name = name
    }

    public static func calendars(_ clock: RunningClock) -> RefreshService {
        RefreshService(clock: clock, turn: .refreshCalendars, name: "calendars")
    }

    public static func podcasts(_ clock: RunningClock) -> RefreshService {
        RefreshService(clock: clock, turn: .refreshPodcasts, name: "podcasts")
    }

    public static func directory(_ clock: RunningClock) -> RefreshService {
        RefreshService(clock: clock, turn: .refreshDirectory, name: "directory")
    }

    public func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                guard case .wait(let wait)? = try? await clock.send(turn) else { break }
                do { try await Task.sleep(for: wait) } catch { return }
            }
        }
    }
}
