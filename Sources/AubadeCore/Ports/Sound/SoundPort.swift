/// Port: the sound engine as the clock uses it. Every call returns at once; what happens comes out of `events`,
/// in order, to one consumer (the daemon's sound-event service). Implementations: `SoundEngine` (AubadeAudio:
/// curl, mpg123, ALSA) and, for in-process tests, `FakeSound` (AubadeTesting), which records the calls and lets a
/// test say what the engine would report.
public protocol SoundPort: Sendable {
    var events: AsyncStream<SoundEvent> { get }
    /// Plays `request` now, or prepares it (`paused`) until `begin`, under the name `id` (the running clock names
    /// its sounds, so an effect can name a sound before the engine has been told of it).
    func play(_ id: SoundID, _ request: SoundRequest, paused: Bool)
    func begin(_ id: SoundID)
    /// Begins a prepared sound by itself so that its first frame reaches the card at `instant` (`CLOCK_MONOTONIC`,
    /// the clock of `SchedulerTime.mono` in the daemon): the engine primes the device with silence and starts
    /// writing early by what the device holds. Sent again, it moves the instant; a `begin` before it begins it at
    /// once, and one after it changes nothing.
    func begin(_ id: SoundID, at instant: MonotonicInstant)
    func stop(_ id: SoundID)
    func setVolume(_ id: SoundID, _ volume: Int)
    /// The device as the engine holds it now.
    var device: DeviceStatus { get }
    /// Stops every sound, closes the device and ends `events`: the daemon's last step.
    func shutdown() async
}
