import Foundation
public import ServiceLifecycle

/// Keeps imported calendars fresh: asks the clock to refresh the sources that are due
/// (`RunningClock.refreshCalendars` — a URL source every `[calendars] refresh`, and any source whose recurrences
/// need expanding further), then sleeps until the next is due: at least a minute, at most six hours. A calendar
/// whose bytes did not change writes nothing (R29); downloads run on threads of their own, never on the clock's.
public struct CalendarService: Service {
    let clock: RunningClock

    public init(clock: RunningClock) {
        self.clock = clock
    }

    public func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                guard case .wait(let wait)? = try? await clock.send(.refreshCalendars) else { break }
                do { try await Task.sleep(for: wait) } catch { return }
            }
        }
    }
}
