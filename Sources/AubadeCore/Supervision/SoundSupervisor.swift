import Foundation

/// Decides what a ringing alarm plays: its station, the station's alternate address, or the built-in tone
/// (R16). Pure: the audio thread feeds it what the sound card actually consumed and what the stream did,
/// with the monotonic time, and carries out the switches it returns (docs/HOUSE-RULES.md §4).
///
/// Rules:
/// - A station source falls back when no audible station audio reached the sound card for `silenceLimit`
///   (10 s) — from the start, or at any moment while ringing — or at once when the stream failed before it
///   was ever heard (a refused connection, a web page, a 404: the failure is knowable, so waiting the
///   10 s would only make the user late).
/// - Stations are tried in order; after the last one comes the tone.
/// - While the tone plays, the primary station keeps being tried in the background; it takes over again only
///   after `recoveryLimit` (15 s) of uninterrupted audible audio.
/// - A pre-alarm check that failed (R20) starts the alarm on the tone at once.
/// - A source that plays to its end (a podcast episode) hands over to the next at once and is not fetched again.
public struct SoundSupervisor: Sendable, Hashable {
    /// What plays now.
    public enum Source: Sendable, Hashable, CustomStringConvertible {
        /// The station address at this index of the alarm's list (0 = primary, 1 = alternate).
        case station(Int)
        case tone

        public var description: String {
            switch self {
            case .station(let i): i == 0 ? "station" : "alternate station"
            case .tone: "tone"
            }
        }
    }

    /// What the audio thread must do after an update.
    public enum Decision: Sendable, Hashable {
        /// The current source was heard for the first time, `after` the alarm started.
        case audible(Source, after: Duration)
        /// Play `to` instead of `from`, because of `reason` (one sentence).
        case fallBack(from: Source, to: Source, reason: String)
        /// The station was heard long enough in the background: play it again.
        case recover(to: Source)
    }

    public static let silenceLimit: Duration = .seconds(10)
    public static let recoveryLimit: Duration = .seconds(15)

    /// How many station addresses the alarm has (0 when it plays the tone by choice).
    public let stationCount: Int
    public private(set) var current: Source
    /// When the alarm began sounding.
    public let startedAt: MonotonicInstant
    /// Last time the current source was heard (or when it was selected).
    private var lastHeard: MonotonicInstant
    /// Whether the current station source has been heard since it was selected.
    private var heardCurrent = false
    /// Start of the current run of uninterrupted background audio while on the tone.
    private var backgroundRunStart: MonotonicInstant?
    private var announcedAudible: Set<Source> = []
    /// Sources that played to their end (`ended`): never fetched again.
    private var exhausted: Set<Int> = []

    /// A supervisor for an alarm that began at `startedAt`; `preselectedFallback` is the reason a pre-alarm
    /// check failed, which starts it on the tone.
    public init(stationCount: Int, startedAt: MonotonicInstant, preselectedFallback: String? = nil) {
        self.stationCount = max(0, stationCount)
        self.startedAt = startedAt
        self.lastHeard = startedAt
        self.current = (stationCount > 0 && preselectedFallback == nil) ? .station(0) : .tone
    }

    /// The station the stream side should be fetching: the current one, or the primary while on the tone
    /// (nil when the alarm has no station).
    public var stationToFetch: Int? {
        switch current {
        case .station(let i): i
        case .tone: stationCount > 0 && !exhausted.contains(0) ? 0 : nil
        }
    }

    /// The current source played to its end (an episode's last frame reached the card): the next source plays at
    /// once (the tone after the last), and this one is not fetched again.
    public mutating func ended(now: MonotonicInstant, reason: String) -> [Decision] {
        guard case .station(let index) = current else { return [] }
        exhausted.insert(index)
        return fallBack(from: index, now: now, reason: reason)
    }

    /// Source `index` played to its end while another plays (an episode read in the background under the tone): it
    /// is not fetched again, so it can never take over from its beginning.
    public mutating func ended(source index: Int) {
        exhausted.insert(index)
        backgroundRunStart = nil
    }

    /// How long audio must be heard to count as verified (RELIABILITY.md: above −40 dBFS for 2 s).
    public static let verifyWindow: Duration = .seconds(2)

    /// One observation. `heard`: the last `verifyWindow` of the fetched station's audio was verified — audible
    /// and without a gap, as the sound card consumed it (on a station) or as it arrived (on the tone, in the
    /// background). The `audible` report dates the sound from the start of that window.
    /// `failure`: the stream reported a failure since the previous update (nil when none).
    public mutating func update(now: MonotonicInstant, heard: Bool, failure: String? = nil) -> [Decision] {
        switch current {
        case .tone:
            return updateOnTone(now: now, heard: heard, failure: failure)
        case .station(let index):
            if heard {
                lastHeard = now
                heardCurrent = true
                return announce(.station(index), now: now)
            }
            if let failure, !heardCurrent {
                return fallBack(from: index, now: now, reason: failure)
            }
            if now - lastHeard >= SoundSupervisor.silenceLimit {
                let reason =
                    failure
                    ?? (heardCurrent
                        ? "The station went silent for \(Int(SoundSupervisor.silenceLimit.inSeconds)) s."
                        : "No audio from the station within \(Int(SoundSupervisor.silenceLimit.inSeconds)) s.")
                return fallBack(from: index, now: now, reason: reason)
            }
            return []
        }
    }

    /// The sound device failed and opened again (or what waited in it was dropped): nothing was heard
    /// meanwhile through no fault of the source, so its silence is counted from `now`, and whatever is heard
    /// next is reported audible again.
    public mutating func deviceRestarted(now: MonotonicInstant) {
        lastHeard = now
        backgroundRunStart = nil
        announcedAudible = []
    }

    /// Tells the supervisor the tone reached the sound card (for the `audible` report).
    public mutating func toneHeard(now: MonotonicInstant) -> [Decision] {
        guard current == .tone else { return [] }
        return announce(.tone, now: now)
    }

    private mutating func updateOnTone(now: MonotonicInstant, heard: Bool, failure: String?) -> [Decision] {
        guard stationCount > 0, heard, failure == nil else {
            backgroundRunStart = nil
            return []
        }
        let runStart = backgroundRunStart ?? now
        backgroundRunStart = runStart
        guard now - runStart >= SoundSupervisor.recoveryLimit else { return [] }
        select(.station(0), now: now)
        heardCurrent = true
        return [.recover(to: .station(0))]
    }

    private mutating func fallBack(from index: Int, now: MonotonicInstant, reason: String) -> [Decision] {
        let next: Source = index + 1 < stationCount ? .station(index + 1) : .tone
        select(next, now: now)
        return [.fallBack(from: .station(index), to: next, reason: reason)]
    }

    private mutating func select(_ source: Source, now: MonotonicInstant) {
        current = source
        lastHeard = now
        heardCurrent = false
        backgroundRunStart = nil
    }

    private mutating func announce(_ source: Source, now: MonotonicInstant) -> [Decision] {
        guard !announcedAudible.contains(source) else { return [] }
        announcedAudible.insert(source)
        let window = source == .tone ? .zero : SoundSupervisor.verifyWindow
        return [.audible(source, after: max(.zero, now - startedAt - window))]
    }
}
