import AubadeCore
import AubadeSystem
import Foundation
import Logging

/// The engine's audio thread: owns the device and every voice, applies commands, and writes one chunk per
/// turn — the newest alarm alone, or the radio with a chime mixed over it. It waits (without a timer) when
/// nothing sounds, and otherwise never polls faster than one audio chunk.
struct EngineLoop {
    let mailbox: EngineMailbox
    let state: EngineState
    let context: VoiceContext
    let logger: Logger?
    let prerollCap: Duration
    let tap: PlaybackTap
    private var device: OutputDevice
    private var voices: [SoundID: any Voice] = [:]
    private var preparedAt: [SoundID: MonotonicInstant] = [:]
    private var readySent: Set<SoundID> = []
    private var deviceError: String?
    /// Whether `deviceOpened` was said for the device open now (said once it took audio, or its test write
    /// while nothing sounds), so a device that opens and fails again in a loop is reported once, not each time.
    private var announcedOpen = false
    private var openedAt = MonotonicInstant(.zero)
    private var nextDeviceTry = MonotonicInstant(.zero)
    private var idleBackoff: Duration = .seconds(2)
    private var producedLastTurn = false
    private var mixerFor: SoundID?
    /// Prepared voices that begin by themselves so that their first frame is heard at an instant (`beginAt`).
    private var startAt: [SoundID: Scheduled] = [:]
    /// Alarm voices begun whose onset is still to be measured.
    private var onsets: [SoundID: PendingOnset] = [:]
    private var out: [Int16]
    private var chime: [Int16]
    private var duck = GainRamp(volume: 100)
    private var ducked = false

    /// Frames per turn with an alarm or a chime (23 ms at 44.1 kHz), and with the radio alone (93 ms: half
    /// the wake-ups; a stop or a volume change is still heard within one turn).
    static let shortTurn = 1024
    static let longTurn = 4096
    /// While the device is missing and nothing needs it, retries back off to this.
    static let idleRetryLimit: Duration = .seconds(60)
    /// While something should sound, the device is retried this often (each attempt is R19's: 2 s on the
    /// device, then the alternate).
    static let activeRetry: Duration = .seconds(2)

    init(
        mailbox: EngineMailbox, state: EngineState, options: SinkOptions, context: VoiceContext,
        prerollCap: Duration, tap: PlaybackTap, logger: Logger?
    ) {
        self.tap = tap
        self.mailbox = mailbox
        self.state = state
        self.context = context
        self.logger = logger
        self.prerollCap = prerollCap
        device = OutputDevice(options: options, rate: context.rate, logger: logger)
        out = [Int16](repeating: 0, count: 2 * EngineLoop.longTurn)
        chime = [Int16](repeating: 0, count: 2 * EngineLoop.longTurn)
    }

    /// A `beginAt`: the instant, and the wall clock's offset from the monotonic one when it was given — a step of
    /// the wall clock since makes the instant stale, and the voice then waits for its `begin`.
    struct Scheduled {
        var due: MonotonicInstant
        var wallOffset: Duration
    }

    /// An onset further from its instant than this is logged (it is reported in any case).
    static let onsetNotice: Duration = .milliseconds(20)

    /// More than this between the wall clock's offsets is a step, not NTP's slewing (0.5 ms a second at most).
    static let wallStep: Duration = .milliseconds(500)

    /// An alarm's first frame: when it was due and, once written, where it went in the device's stream.
    struct PendingOnset {
        var due: MonotonicInstant
        var position: Int64?
    }

    /// `CLOCK_MONOTONIC`, the clock of the daemon's scheduler: `beginAt` instants compare with it directly.
    private var now: MonotonicInstant { MonotonicInstant(Monotonic.now()) }

    mutating func run() {
        while true {
            for command in mailbox.take(waitingAtMost: nextWait()) {
                guard apply(command) else { return shutDown() }
            }
            let t = now
            maintainDevice(t)
            prefillPrepared(t)
            endFinished(t)
            let cap = startScheduled(t)
            turn(t, cap: cap)
            measureOnsets()
            publish()
        }
    }

    // MARK: Commands

    /// Carries out one command; false on shutdown.
    private mutating func apply(_ command: EngineCommand) -> Bool {
        switch command {
        case .play(let id, let request, let paused):
            let voice = makeVoice(id, request)
            voices[id] = voice
            preparedAt[id] = now
            if !paused { begin(id, due: now) }
        case .begin(let id):
            startAt[id] = nil
            begin(id, due: now)
        case .beginAt(let id, let instant):
            if let voice = voices[id], voice.begunAt == nil {
                startAt[id] = Scheduled(due: instant, wallOffset: Monotonic.wallOffset())
                // The card's own control is raised while the device is primed, not as the first frame is due
                // (opening a mixer takes a while on a slow machine).
                if voice.request.priority == .alarm { takeMixer(for: id) }
            }
        case .stop(let id):
            if voices[id] != nil { end(id, .requested) }
        case .volume(let id, let volume):
            voices[id]?.setVolume(max(0, min(volume, 100)))
        case .shutdown:
            return false
        }
        return true
    }

    private func makeVoice(_ id: SoundID, _ request: SoundRequest) -> any Voice {
        switch (request.content, request.priority) {
        case (_, .alarm):
            return AlarmVoice(id: id, request: request, context: context, logger: logger)
        case (.tone(let name), _):
            return ToneVoice(id: id, request: request, tone: name, context: context)
        case (.stations, _), (.episode, _):
            if request.fallback != nil { return AlarmVoice(id: id, request: request, context: context, logger: logger) }
            return RadioVoice(id: id, request: request, stations: FeedSource.of(request.content), context: context)
        }
    }

    /// Starts a prepared voice, applying the priority rule. `due`: when its first frame should be heard (the
    /// command's arrival, or a `beginAt` instant). `onTime`: begun by `startScheduled`, its first frame placed at
    /// `due` after what the device holds, which must then not be dropped.
    private mutating func begin(_ id: SoundID, due: MonotonicInstant, onTime: Bool = false) {
        guard let voice = voices[id], voice.begunAt == nil else { return }
        let priority = voice.request.priority
        let sounding = begun()
        if priority < .alarm, let alarm = sounding.first(where: { $0.request.priority == .alarm }) {
            return end(id, .failed("An alarm is sounding (\(alarm.id)); nothing else plays over it."))
        }
        var dropQueued = false
        for other in sounding where other.id != id {
            switch (priority, other.request.priority) {
            case (.alarm, .alarm), (.radio, .radio), (.chime, .chime):
                end(other.id, .replaced(by: id), quietly: true)
            case (.alarm, _):
                end(other.id, .preempted(by: id), quietly: true)
                dropQueued = true
            default:
                break
            }
        }
        // The alarm is heard at once, not after the radio still waiting in the device (R14: the radio never
        // delays or talks over an alarm); one alarm
        // replacing another keeps what waits, so the hand-over has no silent moment (R13).
        if dropQueued, !onTime, device.isOpen, !sounding.contains(where: { $0.request.priority == .alarm }) {
            device.dropQueued()
            for v in begun() { v.deviceRestarted(now: now) }
            forgetOnsetPositions()
        }
        voice.begin(at: onTime ? due : now)
        if priority == .alarm {
            onsets[id] = PendingOnset(due: due)
            takeMixer(for: id)
        }
        if !device.isOpen { nextDeviceTry = min(nextDeviceTry, now) }
    }

    /// Ends a voice: it stops, `stopped` is emitted, and when nothing else sounds the device is drained
    /// (a sound that reached its end plays out) or dropped (a stop is heard at once). `quietly`: another
    /// sound takes over the device at once, so what waits in it is left alone.
    private mutating func end(_ id: SoundID, _ reason: SoundEnd, quietly: Bool = false) {
        guard let voice = voices.removeValue(forKey: id) else { return }
        let wasSounding = voice.begunAt != nil
        voice.stop()
        preparedAt[id] = nil
        startAt[id] = nil
        onsets[id] = nil
        readySent.remove(id)
        if mixerFor == id {
            // Another alarm sounding keeps the control raised and owns its restore; else it goes back now.
            if let alarm = begun().last(where: { $0.request.priority == .alarm }) {
                mixerFor = alarm.id
            } else {
                device.restoreMixer()
                mixerFor = nil
            }
        }
        context.emit(.stopped(id, reason))
        guard wasSounding, !quietly, begun().isEmpty, device.isOpen else { return }
        if reason == .finished { device.drain() } else { device.dropQueued() }
    }

    private mutating func takeMixer(for id: SoundID) {
        if mixerFor != nil {
            mixerFor = id  // the control is already raised; the newest alarm now owns its restore
            return
        }
        guard device.isOpen else { return }
        mixerFor = id
        if let note = device.takeOverMixer() { context.emit(.mixer(id, note)) }
    }

    // MARK: The device

    /// Opens the device when it is closed and its retry time has come: at once while something should sound
    /// and every 2 s after that (each attempt R19's), backing off to a minute while idle (a clock without a card wakes rarely).
    private mutating func maintainDevice(_ t: MonotonicInstant) {
        guard !device.isOpen, t >= nextDeviceTry else { return }
        if let problem = device.open() {
            let active = !begun().isEmpty || !startAt.isEmpty
            nextDeviceTry = now + (active ? EngineLoop.activeRetry : idleBackoff)
            if !active { idleBackoff = min(idleBackoff * 2, EngineLoop.idleRetryLimit) }
            if problem != deviceError {
                deviceError = problem
                logger?.warning("sound device: \(problem)")
                context.emit(.deviceFailed(problem))
            }
            announcedOpen = false
            return
        }
        openedAt = now
        idleBackoff = .seconds(2)
        for voice in voices.values { voice.deviceRestarted(now: now) }
        forgetOnsetPositions()
        if begun().isEmpty && startAt.isEmpty { announceOpen() }  // else once it takes audio (`write`, `prime`)
        if let alarm = begun().first(where: { $0.request.priority == .alarm }) {
            mixerFor = nil
            takeMixer(for: alarm.id)
        }
    }

    /// The device took audio (a sound's, or the silence it is primed with). Reopened after a failure, it counts as
    /// working again only once it has taken audio for a while (a card that fails again at once is one failure, not
    /// a stream of recoveries); until then no voice reports anything heard.
    private mutating func tookAudio(_ t: MonotonicInstant) {
        if !announcedOpen, deviceError == nil || t - openedAt >= EngineLoop.activeRetry { announceOpen() }
    }

    private mutating func announceOpen() {
        guard !announcedOpen else { return }
        announcedOpen = true
        deviceError = nil
        context.emit(.deviceOpened(name: device.name ?? device.options.device))
    }

    /// A write failed: the device is closed and tried again — at once when it had been working (a glitch),
    /// after 2 s when it fails again right after opening (a card that is gone), so a failing card never
    /// spins the audio thread. Reported once per episode, and again only when the reason changes.
    private mutating func deviceFailed(_ problem: String) {
        if announcedOpen || problem != deviceError {
            logger?.error("sound device failed: \(problem)")
            context.emit(.deviceFailed(problem))
        }
        announcedOpen = false
        deviceError = problem
        mixerFor = nil
        forgetOnsetPositions()
        nextDeviceTry = now - openedAt < EngineLoop.activeRetry ? now + EngineLoop.activeRetry : now
    }

    // MARK: Turns

    /// Prepared voices buffer their first audio; `ready` is sent once each can begin at once (or after the
    /// pre-roll cap, so a caller waiting for it is never left waiting).
    private mutating func prefillPrepared(_ t: MonotonicInstant) {
        for (id, voice) in voices where voice.begunAt == nil && !readySent.contains(id) {
            let waited = t - (preparedAt[id] ?? t)
            let deviceKnown = device.isOpen || deviceError != nil
            if deviceKnown && (voice.prefill() || waited >= prerollCap) {
                readySent.insert(id)
                context.emit(.ready(id))
            }
        }
    }

    /// Ends voices that reached their limit (audio written or wall time) or cannot go on.
    private mutating func endFinished(_ t: MonotonicInstant) {
        for voice in begun() {
            if let failure = voice.failure {
                end(voice.id, .failed(failure))
            } else if voice.finished {
                end(voice.id, .finished)
            } else if let limit = voice.request.limit, let begunAt = voice.begunAt,
                voice.framesProduced >= Int64(context.frames(limit)) || t - begunAt >= limit
            {
                end(voice.id, .finished)
            }
        }
    }

    /// Writes one chunk: the newest alarm alone, else the radio with the chime mixed over it — at most `cap`
    /// frames, the room left before a scheduled sound's first frame; with nothing sounding before one, silence
    /// (the device primed, so it runs and has its delay when that frame comes).
    private mutating func turn(_ t: MonotonicInstant, cap: Int64?) {
        producedLastTurn = false
        guard device.isOpen else { return }
        let sounding = begun()
        let limit = cap.map { Int(min($0, Int64(EngineLoop.longTurn))) }
        guard !sounding.isEmpty else {
            if let limit { prime(frames: min(limit, EngineLoop.shortTurn)) }
            return
        }
        if let alarm = sounding.last(where: { $0.request.priority == .alarm }) {
            let frames = framesFor(alarm, min(EngineLoop.shortTurn, limit ?? .max))
            guard frames > 0 else { return }
            if onsets[alarm.id] != nil, onsets[alarm.id]?.position == nil { onsets[alarm.id]?.position = device.written }
            let n = out.withUnsafeMutableBufferPointer { alarm.render(into: $0, frames: frames) }
            write(n, voices: [alarm], t)
            return
        }
        let radio = sounding.last { $0.request.priority == .radio }
        let chimeVoice = sounding.last { $0.request.priority == .chime }
        let size = min(chimeVoice == nil ? EngineLoop.longTurn : EngineLoop.shortTurn, limit ?? .max)
        var n = 0
        if let radio {
            let want = framesFor(radio, size)
            n = out.withUnsafeMutableBufferPointer { radio.render(into: $0, frames: want) }
        }
        // The radio dips 12 dB beneath a chime (ramped over 50 ms) and comes back over 100 ms after it.
        if (chimeVoice != nil) != ducked {
            ducked = chimeVoice != nil
            duck.ramp(to: ducked ? 70 : 100, over: context.rate / (ducked ? 20 : 10))
        }
        out.withUnsafeMutableBufferPointer { duck.apply(to: UnsafeMutableBufferPointer(rebasing: $0[0..<(2 * n)]), channels: 2) }
        if let chimeVoice {
            let want = framesFor(chimeVoice, n > 0 ? n : size)
            let c = chime.withUnsafeMutableBufferPointer { chimeVoice.render(into: $0, frames: want) }
            mixChime(radioFrames: n, chimeFrames: c)
            n = max(n, c)
        }
        // A station still connecting has nothing yet: the device stays primed until the scheduled sound's frame.
        if n == 0, let limit { return prime(frames: min(limit, EngineLoop.shortTurn)) }
        write(n, voices: [radio, chimeVoice].compactMap { $0 }, t)
    }

    /// Writes `frames` of silence while a scheduled sound waits for its second.
    private mutating func prime(frames: Int) {
        guard frames > 0 else { return }
        for i in 0..<(2 * frames) { out[i] = 0 }
        let problem = out.withUnsafeBufferPointer { device.write(UnsafeBufferPointer(rebasing: $0[0..<(2 * frames)])) }
        if let problem { return deviceFailed(problem) }
        tookAudio(now)
        producedLastTurn = true
    }

    // MARK: On the second

    /// Begins the scheduled voices whose first frame goes with the next frame written, and returns how many frames
    /// may be written before the next one's (nil: no limit). A device that cannot say what it holds (an unpaced
    /// plugin), or none open, begins them by the system clock at their instant.
    private mutating func startScheduled(_ t: MonotonicInstant) -> Int64? {
        guard let (id, scheduled) = startAt.min(by: { $0.value.due < $1.value.due }) else { return nil }
        let due = scheduled.due
        let stepped = Monotonic.wallOffset() - scheduled.wallOffset
        if stepped > EngineLoop.wallStep || stepped < .zero - EngineLoop.wallStep {
            // The wall clock was set since: the alarm's second is no longer this instant. The clock's next turn
            // notices the step and says when (a new `beginAt`, or `begin`).
            startAt[id] = nil
            logger?.notice("the wall clock stepped by \(stepped) before sound \(id) began; it waits for the clock")
            return startScheduled(t)
        }
        let before = device.isOpen ? DeviceClock.framesBefore(due: due, timeline: device.timeline(), rate: context.rate) : nil
        if let before {
            guard before == 0 else { return before }
        } else {
            guard t >= due else { return nil }
        }
        startAt[id] = nil
        begin(id, due: due, onTime: true)
        return startScheduled(t)
    }

    /// Reports when each new alarm's first frame is heard, from the device's reading just after it was written (a
    /// stream that has not started yet is read again next turn).
    private mutating func measureOnsets() {
        for (id, pending) in onsets {
            guard let position = pending.position, position < device.written else { continue }
            let late: Duration
            let timing: OnsetTiming
            if let timeline = device.timeline() {
                guard timeline.running else { continue }
                late = DeviceClock.heard(position: position, timeline: timeline, rate: context.rate) - pending.due
                timing = timeline.deviceTimestamp ? .device : .delay
            } else {
                late = now - pending.due
                timing = .write
            }
            onsets[id] = nil
            if late > EngineLoop.onsetNotice || late < .zero - EngineLoop.onsetNotice {
                logger?.notice("sound \(id) was heard \(late) from its instant (\(timing.rawValue))")
            }
            context.emit(.onset(id, late: late, timing: timing))
        }
    }

    /// What was written never played (the device reopened, failed or was emptied): the next frame written is the
    /// first heard.
    private mutating func forgetOnsetPositions() {
        for id in onsets.keys { onsets[id]?.position = nil }
    }

    /// Frames `voice` may still render this turn (its `limit` counted in audio).
    private func framesFor(_ voice: any Voice, _ size: Int) -> Int {
        guard let limit = voice.request.limit else { return size }
        return Int(max(0, min(Int64(size), Int64(context.frames(limit)) - voice.framesProduced)))
    }

    /// Adds the chime over the (already ducked) radio.
    private mutating func mixChime(radioFrames: Int, chimeFrames: Int) {
        let frames = max(radioFrames, chimeFrames)
        for i in (2 * radioFrames)..<(2 * frames) { out[i] = 0 }
        for i in 0..<(2 * chimeFrames) {
            out[i] = Int16(clamping: Int32(out[i]) + Int32(chime[i]))
        }
    }

    private mutating func write(_ frames: Int, voices sounding: [any Voice], _ t: MonotonicInstant) {
        guard frames > 0 else { return }
        let problem = out.withUnsafeBufferPointer { device.write(UnsafeBufferPointer(rebasing: $0[0..<(2 * frames)])) }
        if let problem { return deviceFailed(problem) }
        tookAudio(t)
        producedLastTurn = true
        publishChunk(frames, voice: sounding.first)
        for voice in sounding {
            voice.wrote(endingAt: device.written)
            if announcedOpen { voice.observe(played: device.played, now: t) }
        }
    }

    /// Tells the room check what was just written, piece by piece (`PlaybackTap.pieceFrames`, finer than its
    /// blocks): each piece's level, the tone sounding in its middle, when its first frame is heard and whether the
    /// device was running then.
    private func publishChunk(_ frames: Int, voice: (any Voice)?) {
        let start = device.written - Int64(frames)
        let timeline = device.timeline()
        let now = Monotonic.now()
        for offset in stride(from: 0, to: frames, by: PlaybackTap.pieceFrames) {
            let count = min(PlaybackTap.pieceFrames, frames - offset)
            let position = start + Int64(offset)
            let rms = out.withUnsafeBufferPointer {
                PlaybackTap.rms(UnsafeBufferPointer(rebasing: $0[(2 * offset)..<(2 * (offset + count))]))
            }
            let heardAt = timeline.map { DeviceClock.heard(position: position, timeline: $0, rate: context.rate).sinceOrigin }
            let tone = voice?.toneFrequencies(atFrame: offset + count / 2) ?? .none
            tap.publish(
                position: position, frames: count, rate: context.rate, heardAt: heardAt ?? now,
                running: timeline?.running ?? true, block: PlayedBlock(rms: rms, tone: tone))
        }
    }

    /// How long the thread may wait for a command before its next turn.
    private func nextWait() -> Duration? {
        let sounding = begun()
        if device.isOpen, producedLastTurn, !sounding.isEmpty { return .zero }
        var waits: [Duration] = []
        if !sounding.isEmpty { waits.append(device.isOpen ? .milliseconds(20) : max(.zero, nextDeviceTry - now)) }
        if voices.values.contains(where: { $0.begunAt == nil })
            && readySent.count < voices.values.filter({ $0.begunAt == nil }).count
        {
            waits.append(.milliseconds(50))
        }
        if !device.isOpen { waits.append(max(.zero, nextDeviceTry - now)) }
        // Priming: a turn at once (the writes pace it); a device that cannot say what it holds: the instant itself.
        if let due = startAt.values.map(\.due).min() { waits.append(device.timeline() != nil ? .zero : max(.zero, due - now)) }
        for voice in sounding {
            if let limit = voice.request.limit, let begunAt = voice.begunAt {
                waits.append(max(.zero, begunAt + limit - now))
            }
        }
        return waits.min()
    }

    /// Voices that are sounding, oldest first.
    private func begun() -> [any Voice] {
        voices.values.filter { $0.begunAt != nil }.sorted { $0.id < $1.id }
    }

    private func publish() {
        let sounding = begun()
        let level = sounding.lazy.compactMap { ($0 as? AlarmVoice)?.bufferLevel ?? ($0 as? RadioVoice)?.bufferLevel }.first
        state.update(
            EngineState.Snapshot(
                deviceOpen: device.isOpen, deviceName: device.name, deviceProblem: deviceError,
                deviceOpens: device.opens, sounding: sounding.map(\.id), bufferLevel: level))
    }

    private mutating func shutDown() {
        for id in voices.keys.sorted() { end(id, .shutdown, quietly: true) }
        device.close()
        publish()
    }
}
