import AubadeCore
import Foundation
import Logging

/// The audio thread of an `AlarmSound`. Each turn writes one chunk (about 23 ms) to the device — station
/// audio, or the tone — then reads how far the device got and tells the supervisor what was actually heard.
struct AlarmSoundEngine {
    let plan: AlarmSoundPlan
    let sinkOptions: SinkOptions
    let sound: AlarmSound
    let logger: Logger?

    private var sink: AlsaSink?
    private var feed: StationFeed?
    private var feedEndedAt: ContinuousClock.Instant?
    private var supervisor: SoundSupervisor
    private var tone: ToneGenerator
    private var stationGain: GainRamp
    private var toneGain: GainRamp
    private var stationRamped = false
    /// Frames written to the current device (for matching its progress) and in all (for the duration).
    private var framesWritten: Int64 = 0
    private var totalFrames: Int64 = 0
    /// Chunks written but not yet consumed by the device.
    private var inFlight: [Written] = []

    struct Written {
        var end: Int64
        /// The station's level in it (mean square before the volume), and whether the station filled it.
        var meanSquare: Double
        var full: Bool
        var tone: Bool
    }
    private var lastDeviceError: String?
    /// The station's chunks of the last 2 s (consumed by the card, or taken in the background while the
    /// tone plays): the window "verified audio" is judged on.
    private var window: [(meanSquare: Double, full: Bool)] = []
    private static let levelWindowChunks = 2 * AlarmSound.rate / AlarmSound.chunkFrames
    private let clock = ContinuousClock()
    private let origin: ContinuousClock.Instant

    /// A feed that ended for good while the tone plays is tried again after this long.
    static let refetchDelay: Duration = .seconds(30)

    init(plan: AlarmSoundPlan, sinkOptions: SinkOptions, sound: AlarmSound, logger: Logger?) {
        self.plan = plan
        self.sinkOptions = sinkOptions
        self.sound = sound
        self.logger = logger
        origin = clock.now
        supervisor = SoundSupervisor(stationCount: plan.stations.count, startedAt: MonotonicInstant(.zero),
                                     preselectedFallback: plan.preselectedFallback)
        tone = ToneGenerator(tone: plan.tone, sampleRate: AlarmSound.rate)
        stationGain = GainRamp(volume: plan.fadeStartVolume)
        toneGain = GainRamp(volume: plan.toneVolume)
    }

    private var now: MonotonicInstant { MonotonicInstant(clock.now - origin) }

    mutating func run() {
        // Pre-roll: open the device and start the station before the alarm second.
        guard openDevice() else { return }
        syncFeed()
        while !sound.hasBegun {
            if sound.isStopRequested { return close(drop: true) }
            Thread.sleep(forTimeInterval: 0.002)
        }
        supervisor = SoundSupervisor(stationCount: plan.stations.count, startedAt: now,
                                     preselectedFallback: plan.preselectedFallback)
        if let reason = plan.preselectedFallback, !plan.stations.isEmpty {
            sound.emit(.fallback(from: SoundSupervisor.Source.station(0).description, to: "tone", reason: reason))
        }
        let limit = plan.duration.map { Int64($0.frames(at: AlarmSound.rate)) }
        var chunk = [Int16](repeating: 0, count: 2 * AlarmSound.chunkFrames)
        while !sound.isStopRequested {
            let frames = limit.map { Int(min(Int64(AlarmSound.chunkFrames), $0 - totalFrames)) } ?? AlarmSound.chunkFrames
            if frames <= 0 { return close(drop: false) }
            syncFeed()
            let turn = chunk.withUnsafeMutableBufferPointer { fill(UnsafeMutableBufferPointer(rebasing: $0[0..<(2 * frames)])) }
            guard writeChunk(chunk[0..<(2 * frames)]) else { return close(drop: true) }
            let onTone = supervisor.current == .tone
            inFlight.append(Written(end: framesWritten, meanSquare: turn.meanSquare, full: turn.full, tone: onTone))
            if onTone { remember(turn.meanSquare, full: turn.full) }
            observe()
        }
        close(drop: true)
    }

    /// Fills one chunk with what should play now; reports whether the station's audio in it is audible.
    private mutating func fill(_ out: UnsafeMutableBufferPointer<Int16>) -> (full: Bool, meanSquare: Double) {
        let frames = out.count / 2
        let got = feed?.pull(frames: frames, into: out) ?? 0
        let meanSquare = AlarmSoundEngine.meanSquare(UnsafeBufferPointer(rebasing: out[0..<(2 * got)]))
        switch supervisor.current {
        case .station:
            for i in (2 * got)..<out.count { out[i] = 0 }
            if got > 0 && !stationRamped {
                stationRamped = true
                stationGain.ramp(to: plan.volume, over: plan.fadeIn.frames(at: AlarmSound.rate))
            }
            stationGain.apply(to: out, channels: 2)
        case .tone:
            tone.render(into: out, frames: frames)
            toneGain.apply(to: out, channels: 2)
        }
        return (got == frames, meanSquare)
    }

    private mutating func remember(_ meanSquare: Double, full: Bool) {
        window.append((meanSquare, full))
        if window.count > AlarmSoundEngine.levelWindowChunks { window.removeFirst() }
    }

    /// Verified audio (RELIABILITY.md): the station filled every chunk of the last 2 s and their RMS is above
    /// −40 dBFS. A quiet passage inside music does not fail it; a gap in the data, or a short burst, does.
    private var verified: Bool {
        guard window.count >= AlarmSoundEngine.levelWindowChunks, window.allSatisfy(\.full) else { return false }
        let mean = window.reduce(0) { $0 + $1.meanSquare } / Double(window.count)
        return mean > AlarmSound.audibleRMS * AlarmSound.audibleRMS
    }

    /// Hands the new facts to the supervisor and carries out its decisions.
    private mutating func observe() {
        let played = sink?.framesPlayed ?? framesWritten
        var heardTone = false
        while let first = inFlight.first, first.end <= played {
            if first.tone { heardTone = true } else { remember(first.meanSquare, full: first.full) }
            inFlight.removeFirst()
        }
        let t = now
        var decisions = supervisor.update(now: t, heard: verified, failure: feed?.takeFailure())
        if heardTone { decisions += supervisor.toneHeard(now: t) }
        for decision in decisions { carry(decision) }
    }

    private mutating func carry(_ decision: SoundSupervisor.Decision) {
        switch decision {
        case .audible(let source, let after):
            sound.emit(.audible(source: source.description, after: after))
        case .fallBack(let from, let to, let reason):
            logger?.warning("alarm falls back from \(from) to \(to): \(reason)")
            sound.emit(.fallback(from: from.description, to: to.description, reason: reason))
            window.removeAll()
            if to == .tone { toneGain = GainRamp(volume: plan.toneVolume) }
            stationRamped = false
            stationGain = GainRamp(volume: plan.fadeStartVolume)
        case .recover(let to):
            sound.emit(.recovered(to: to.description))
            stationRamped = true
            stationGain = GainRamp(volume: plan.volume)
        }
    }

    /// Keeps the feed on the station the supervisor wants; restarts a dead one (after a pause) while on the tone.
    private mutating func syncFeed() {
        guard let wanted = supervisor.stationToFetch, wanted < plan.stations.count else {
            feed?.stop()
            feed = nil
            return
        }
        if let feed, feed.index == wanted {
            guard feed.hasEnded, supervisor.current == .tone else { return }
            let endedAt = feedEndedAt ?? clock.now
            feedEndedAt = endedAt
            guard clock.now - endedAt >= AlarmSoundEngine.refetchDelay else { return }
        }
        feed?.stop()
        feedEndedAt = nil
        window.removeAll()
        let sound = self.sound
        feed = StationFeed(index: wanted, url: plan.stations[wanted], rate: AlarmSound.rate,
                           allowLoopback: plan.allowLoopback) { event in
            switch event {
            case .title(let title): sound.emit(.title(title))
            case .stalled(let after): sound.emit(.streamNote("The station stalled (no data for \(Int(after.inSeconds)) s)."))
            case .reconnecting(let attempt, let delay):
                sound.emit(.streamNote("Reconnecting to the station (attempt \(attempt), in \(Int(delay.inSeconds)) s)."))
            case .error(let reason, _): sound.emit(.streamNote(reason))
            case .connecting, .playing, .stopped: break
            }
        }
    }

    /// Opens the device, retrying every 2 s (after AlsaSink's own 2 s and the alternate, R19) until it
    /// opens or the alarm is stopped.
    private mutating func openDevice() -> Bool {
        while !sound.isStopRequested {
            do throws(AudioError) {
                let sink = try AlsaSink(device: sinkOptions.device, alternate: sinkOptions.alternate,
                                        paced: sinkOptions.paced, logger: logger)
                try sink.configure(rate: AlarmSound.rate, channels: 2)
                self.sink = sink
                lastDeviceError = nil
                sound.emit(.deviceReady(sink.device))
                return true
            } catch {
                if error.description != lastDeviceError {
                    lastDeviceError = error.description
                    sound.emit(.deviceError(error.description))
                }
                Thread.sleep(forTimeInterval: 2)
            }
        }
        return false
    }

    /// Writes a chunk; on a device failure reopens it (the chunk is lost, the alarm goes on).
    private mutating func writeChunk(_ chunk: ArraySlice<Int16>) -> Bool {
        var failure: AudioError?
        chunk.withUnsafeBufferPointer { buffer in
            do throws(AudioError) { try sink?.write(buffer) } catch { failure = error }
        }
        framesWritten += Int64(chunk.count / 2)
        totalFrames += Int64(chunk.count / 2)
        guard let failure else { return true }
        sound.emit(.deviceError(failure.description))
        sink?.close()
        sink = nil
        inFlight.removeAll()
        guard openDevice() else { return false }
        framesWritten = 0
        return true
    }

    private mutating func close(drop: Bool) {
        feed?.stop()
        feed = nil
        if drop { sink?.stop() } else { sink?.drain() }
        sink?.close()
        sink = nil
    }

    /// Mean of the squared samples (the RMS squared).
    static func meanSquare(_ samples: UnsafeBufferPointer<Int16>) -> Double {
        guard !samples.isEmpty else { return 0 }
        var sum = 0.0
        for s in samples { sum += Double(s) * Double(s) }
        return sum / Double(samples.count)
    }
}
