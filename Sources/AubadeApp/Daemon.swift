import AubadeAudio
import AubadeConfig
import AubadeCore
import AubadeHardware
import AubadeStore
import Foundation
import Logging
import ServiceLifecycle
import UnixSignals

/// `aubade run`: opens what the clock needs, in dependency order, says READY to systemd only when an alarm
/// could ring (database loaded, schedule computed, sound device opened, tone checked — R34), then runs the
/// services in one `ServiceGroup` until SIGTERM/SIGINT.
public enum Daemon {
    /// What the executable hands over: the parts it built from the config.
    public struct Parts: Sendable {
        public var databasePath: String
        public var options: AlarmClock.Options
        public var json: Bool
        public var fakeStart: Date?
        public var buttons: ButtonInput
        public var panel: ButtonPanel.Settings
        public var shake: any ShakeSensor
        public var network: any NetworkStatus

        public init(databasePath: String, options: AlarmClock.Options, json: Bool, fakeStart: Date?, buttons: ButtonInput,
                    panel: ButtonPanel.Settings, shake: any ShakeSensor, network: any NetworkStatus) {
            self.databasePath = databasePath
            self.options = options
            self.json = json
            self.fakeStart = fakeStart
            self.buttons = buttons
            self.panel = panel
            self.shake = shake
            self.network = network
        }
    }

    public struct StartFailure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Runs the clock until a shutdown signal.
    public static func run(_ parts: Parts, logger: Logger) async throws {
        let startedAt = ContinuousClock.now
        let clock = DaemonClock(fakeStart: parts.fakeStart)
        let output = DaemonOutput(json: parts.json, wall: { clock.now().wall })
        let notifier = SystemdNotifier()
        notifier.status("starting: opening the database")
        let control: ControlServer
        do throws(ControlServer.Failure) { control = try ControlServer(databasePath: parts.databasePath) } catch {
            throw StartFailure(description: error.description)
        }
        defer { control.shutdown() }
        notifier.status("starting: checking the sound device and the tone")
        let soundProblem = checkSound(parts.options.sink)
        let waker = LoopWaker()
        let alarmClock = try openClock(parts, clock: clock, output: output, logger: logger, wake: { waker.wake() })
        if let soundProblem { await alarmClock.setWarning("sound", soundProblem) }
        if let warning = parts.buttons.warning { await alarmClock.setWarning("buttons", warning, announce: false) }
        await alarmClock.networkChanged(parts.network.current())
        await alarmClock.start()
        control.serve { request in await alarmClock.handle(request) }
        let summary = await alarmClock.summary()
        let readyMs = Int(((ContinuousClock.now - startedAt) / .milliseconds(1)).rounded())
        output.emit("ready", ["ready_ms": readyMs, "alarms": summary, "socket": control.path])
        notifier.ready(status: summary)

        let services: [any Service] = [
            SchedulerService(clock: alarmClock, waker: waker, notifier: notifier, logger: logger),
            InputService(clock: alarmClock, buttons: parts.buttons, settings: parts.panel, shake: parts.shake, logger: logger),
            NetworkService(clock: alarmClock, status: parts.network),
        ]
        let group = ServiceGroup(configuration: ServiceGroupConfiguration(
            services: services.map { ServiceGroupConfiguration.ServiceConfiguration(service: $0) },
            gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        try await group.run()
        notifier.stopping()
        await alarmClock.shutdown()
        output.emit("exiting")
    }

    /// The clock over the database; when the database cannot be read, over the schedule's backup copy, with
    /// the fault shown (R27: never start with zero alarms silently). Neither: the daemon cannot start.
    static func openClock(_ parts: Parts, clock: DaemonClock, output: DaemonOutput, logger: Logger,
                          wake: @escaping @Sendable () -> Void) throws -> AlarmClock {
        let fault: StoreError
        do throws(StoreError) {
            let store = try Store.open(path: parts.databasePath)
            let alarmClock = try AlarmClock(store: store, options: parts.options, clock: clock, output: output,
                                            logger: logger, wakeLoop: wake)
            if let reason = store.readOnlyReason { output.emit("warning", ["message": reason.description]) }
            return alarmClock
        } catch {
            fault = error
        }
        guard let backup = try? ScheduleSnapshot(databasePath: parts.databasePath).load() else {
            throw StartFailure(description: fault.description)
        }
        output.emit("warning", ["message": "\(fault.description) Running from the backup copy (\(backup.alarms.count) alarm(s))."])
        logger.error("\(fault.description) Running from the backup copy of the schedule.")
        return AlarmClock(backup: backup, fault: fault.description, options: parts.options, clock: clock, output: output,
                          logger: logger, wakeLoop: wake)
    }

    /// Opens the device (2 s retry, then the alternate — R19) and renders a second of the tone (R17).
    /// A problem is a warning: the alarm's own sound keeps retrying the device.
    static func checkSound(_ sink: SinkOptions) -> String? {
        var tone = ToneGenerator(tone: .classic)
        let samples = tone.render(frames: 44_100)
        let peak = samples.map { abs(Int($0)) }.max() ?? 0
        guard peak > 3000 else { return "The built-in tone renders silence; the fallback would not be heard." }
        do throws(AudioError) {
            let device = try AlsaSink(device: sink.device, alternate: sink.alternate, paced: false)
            device.close()
            return nil
        } catch {
            return "\(error.description) Alarms will keep trying it."
        }
    }
}
