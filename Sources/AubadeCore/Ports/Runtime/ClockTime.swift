/// Port: the clock's two clocks, read together: the wall clock for alarm rules and the monotonic clock for
/// durations. Implementations: `DaemonClock` (AubadeApp: the machine's clocks, or a wall clock starting at a fake
/// instant) and `ManualClock` (AubadeTesting: moves only when a test moves it). Contract: thread-safe, never
/// blocks.
public protocol ClockTime: Sendable {
    func now() -> SchedulerTime
}
