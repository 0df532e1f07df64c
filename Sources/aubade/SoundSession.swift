import AubadeApp
import AubadeAudio
import AubadeConfig
import AubadeCore
import AubadeSystem
import Foundation

/// A sound the CLI plays: in this process through its own `SoundEngine` when no clock runs on the
/// database, else through the running clock (one device, one engine: a CLI never fights the daemon for an
/// exclusive `hw:` card). Either way the events come out the same and Ctrl-C stops the sound.
enum SoundSession {
    /// How a sound was started, so the caller can print its events and stop it. `events` carries this
    /// sound's events and the device's, and ends after its `stopped`.
    struct Started {
        let id: SoundID
        let label: String
        let events: AsyncStream<SoundEvent>
        let stop: @Sendable () -> Void
        /// Called with each event: begins a prepared sound at its `ready`.
        let onEvent: @Sendable (SoundEvent) -> Void
        /// A podcast's episode played in this process: its podcast and the episode's id (its position is kept).
        var episode: (podcast: String, id: String)?
    }

    /// What `Started.listen` saw: when the card first took the sound's audio, and why it failed, if it did.
    struct Outcome {
        var heardAfter: Duration?
        var failure: String?
    }

    /// The engine for a sound played in this process, on the config's device.
    static func engine(_ context: CommandContext) -> SoundEngine {
        let audio = context.configuration.audio
        let engine = SoundEngine(
            options: SoundEngine.Options(
                sink: SinkOptions(
                    device: audio.device,
                    alternate: audio.alternateDevice),
                hlsBandwidthCap: audio.hlsMaxKbps * 1000))
        engine.start()
        return engine
    }

    /// Sends `command` to the running clock and follows the sound it starts; nil when no clock runs.
    static func throughDaemon(_ command: ClockCommand, context: CommandContext) throws -> Started? {
        let exchange: ControlClient.Exchange
        do throws(ControlClient.Failure) {
            exchange = try ControlClient.open(ControlProtocol.Request(command, follow: true), databasePath: context.databasePath)
        } catch {
            if case .notRunning = error { return nil }
            throw CLIError.failed(error.description)
        }
        guard let first = exchange.next() else { throw CLIError.failed("The running clock did not answer.") }
        if let error = first.error { throw CLIError(error) }
        guard case .sound(let id, let label, _) = first.reply else {
            throw CLIError.failed("The running clock started no sound.")
        }
        exchange.waitForever()
        let (events, continuation) = AsyncStream.makeStream(of: SoundEvent.self, bufferingPolicy: .unbounded)
        NamedThread.start("aubade.events") {
            while let line = exchange.next() {
                if let event = line.event { continuation.yield(event) }
            }
            continuation.finish()
        }
        let database = context.databasePath
        return Started(
            id: id, label: label, events: events,
            stop: {
                _ = try? ControlClient.send(.stopSound(id), databasePath: database, timeout: 3)
            }, onEvent: { _ in })
    }

    /// Plays `request` in this process (prepared first when `prepare`: it begins once `ready`). The caller
    /// is the engine's one consumer.
    static func inProcess(_ request: SoundRequest, label: String, engine: SoundEngine, prepare: Bool) -> Started {
        let id = engine.play(request, paused: prepare)
        return Started(
            id: id, label: label, events: engine.events, stop: { engine.stop(id) },
            onEvent: { event in
                if prepare, case .ready(id) = event { engine.begin(id) }
            })
    }
}

extension CLIError {
    /// A refusal of the running clock, with the exit code its kind calls for.
    init(_ error: ClockError) {
        switch error.kind {
        case .invalid, .unprocessable, .notFound, .conflict: self = .badInput(error.message)
        case .refused, .unauthorized, .unavailable, .failed, .upstream, .off: self = .failed(error.message)
        }
    }
}

extension SoundSession.Started {
    /// Follows the sound to its `stopped`, handing each event to `onEvent` and then to `each`. Listening is not
    /// an alarm: a device that fails stops the sound (there is nothing to wait for); the first failure is kept.
    func listen(_ each: (SoundEvent) -> Void = { _ in }) async -> SoundSession.Outcome {
        var outcome = SoundSession.Outcome()
        for await event in events {
            onEvent(event)
            each(event)
            switch event {
            case .audible(id, _, let after) where outcome.heardAfter == nil:
                outcome.heardAfter = after
            case .deviceFailed(let problem):
                outcome.failure = problem
                stop()
            case .stopped(id, let end):
                if case .failed(let reason) = end { outcome.failure = outcome.failure ?? reason }
            default:
                break
            }
            if case .stopped(id, _) = event { break }
        }
        return outcome
    }
}
