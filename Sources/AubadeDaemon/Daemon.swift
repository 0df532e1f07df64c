public import AubadeApp
public import AubadeAudio
public import AubadeCore
public import AubadeHardware
public import AubadeHomeAssistant
import AubadePodcasts
public import AubadeServer
import AubadeStore
import AubadeSystem
public import Foundation
public import Logging
import ServiceLifecycle
import UnixSignals

/// `aubade run`: opens what the clock needs, in dependency order, runs the services in one `ServiceGroup`
/// until SIGTERM/SIGINT, and says READY to systemd only when an alarm could be heard: the database loaded,
/// the schedule computed, and the sound device opened with a test write taken (R34). Until then the clock
/// already runs — an alarm due meanwhile rings, retrying the device — and the status says what it waits for.
///
/// The composition root: the one place that names the concrete adapters (`SoundEngine`, `SQLiteClockStore`,
/// `LivePrecheck`, `CalendarLoader`, `SystemdNotifier`) and hands them to the running clock as its ports.
public enum Daemon {
    /// What the executable hands over: the parts it built from the config.
    public struct Parts: Sendable {
        public var databasePath: String
        public var configPath: String?
        public var options: ClockOptions
        public var sink: SinkOptions
        public var json: Bool
        public var fakeStart: Date?
        public var buttons: ButtonInput
        public var panel: ButtonPanel.Settings
        public var shake: any ShakeSensor
        public var network: any NetworkStatus
        /// Config problems (R36): shown as warnings, never a reason not to run.
        public var configWarnings: [String]
        /// The kiosk screen's backlight, and why the one configured cannot be used.
        public var backlight: (any Backlight, warning: String?)
        /// Where the web page and the JSON API listen; nil: they are off.
        public var http: ServerSettings?
        /// The Home Assistant face's broker and names; nil: no MQTT face.
        public var homeAssistant: HomeAssistantSettings?
        /// The public station directory the pages search; nil: off in the config.
        public var directory: (any StationDirectory)?
        /// The highest bandwidth of an HLS station's variant, bits per second (`[audio] hls_max_kbps`).
        public var hlsBandwidthCap = HLSPlaylist.defaultBandwidthCap
        /// The `[outputs]` lines (a bed shaker, a lamp), held inactive from the start and released at the end by
        /// `OutputService`. Not switched by the clock yet.
        public var outputs: any OutputSwitches = NullOutputs()
        /// The microphone's ALSA capture device (`[verify] microphone`); nil: no room check.
        public var microphone: String?

        public init(
            databasePath: String, configPath: String?, options: ClockOptions, sink: SinkOptions, json: Bool,
            fakeStart: Date?, buttons: ButtonInput, panel: ButtonPanel.Settings, shake: any ShakeSensor,
            network: any NetworkStatus, configWarnings: [String] = [],
            backlight: (any Backlight, warning: String?) = (NullBacklight(), nil), http: ServerSettings? = nil,
            homeAssistant: HomeAssistantSettings? = nil, directory: (any StationDirectory)? = nil
        ) {
            self.directory = directory
            self.homeAssistant = homeAssistant
            self.databasePath = databasePath
            self.configPath = configPath
            self.options = options
            self.sink = sink
            self.json = json
            self.fakeStart = fakeStart
            self.buttons = buttons
            self.panel = panel
            self.shake = shake
            self.network = network
            self.configWarnings = configWarnings
            self.backlight = backlight
            self.http = http
        }
    }

    /// Descriptors that must be free at start: the database (3), the control socket and its event loop (4),
    /// the sound device (2), and the runtime's reserve (`FileDescriptors.reserve`).
    static let minimumFreeDescriptors = 16

    public struct StartFailure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Runs the clock until a shutdown signal: the control socket and, with `parts.http`, the HTTP face serve it
    /// in the same `ServiceGroup` and shut down with it.
    public static func run(_ parts: Parts, logger: Logger) async throws {
        let startedAt = ContinuousClock.now
        let time = DaemonClock(fakeStart: parts.fakeStart)
        let output = DaemonOutput(json: parts.json, wall: { time.now().wall })
        let notifier = SystemdNotifier()
        notifier.status("starting: opening the database")
        // Descriptors are a resource that must never run out (see `FileDescriptors`): take what the system
        // allows, and refuse, in one sentence, a limit too low to run on at all.
        FileDescriptors.raiseLimit()
        guard FileDescriptors.haveFree(Daemon.minimumFreeDescriptors) else {
            throw StartFailure(
                description:
                    "The clock may open only \(FileDescriptors.limit) files at once (ulimit -n, or LimitNOFILE= in its unit), too few to run; raise it to at least 64."
            )
        }
        let control: ControlServer
        do throws(ControlServer.Failure) { control = try await ControlServer.bind(databasePath: parts.databasePath) } catch {
            throw StartFailure(description: error.description)
        }
        let announcement = RuntimeAnnouncement(database: parts.databasePath, socket: control.path, config: parts.configPath)
            .write()
        defer { if let announcement { RuntimeAnnouncement.remove(announcement) } }

        let (store, loaded, fault, notice) = try openStore(parts, output: output, logger: logger)
        let engine = SoundEngine(
            options: SoundEngine.Options(sink: parts.sink, hlsBandwidthCap: parts.hlsBandwidthCap), logger: logger)
        engine.start()
        // The room check listens to what this engine plays (its tap), on a thread of its own.
        let roomCheck = parts.microphone.map { RoomCheck(microphone: $0, playback: engine.playback, logger: logger) }
        defer { roomCheck?.shutdown() }
        let work = WorkService()
        // The calendars' cached copies live beside the database; the backup copy keeps none.
        let calendars: (any CalendarFetcher)? =
            store is SQLiteClockStore
            ? CalendarLoader(
                cache: CalendarCache(databasePath: parts.databasePath), allowLoopback: parts.options.allowLoopback,
                horizonDays: parts.options.calendars.horizonDays)
            : nil
        // The episodes downloaded for alarms live beside the database too.
        let podcasts: (any PodcastFetcher)? =
            store is SQLiteClockStore
            ? PodcastLibrary(
                cache: EpisodeCache(databasePath: parts.databasePath, allowLoopback: parts.options.allowLoopback),
                allowLoopback: parts.options.allowLoopback)
            : nil
        let deps = ClockDependencies(
            store: store, sound: engine, time: time, jobs: work, precheck: LivePrecheck(hlsBandwidthCap: parts.hlsBandwidthCap),
            network: parts.network, output: output, isClockSynchronised: ClockSync.isSynchronised,
            systemZone: SystemZone.current, logger: logger, backlight: parts.backlight.0,
            calendars: calendars, podcasts: podcasts, directory: parts.directory,
            logos: store is SQLiteClockStore ? StationLogos(databasePath: parts.databasePath) : nil, outputs: parts.outputs,
            room: roomCheck.map(RoomCheckListener.init))
        let clock = RunningClock(loaded: loaded, deps: deps, options: parts.options, fault: fault)
        for (i, warning) in parts.configWarnings.enumerated() {
            _ = try? await clock.send(.warning(key: "config-\(i)", text: warning, announce: false))
        }
        if let notice { _ = try? await clock.send(.warning(key: "restored", text: notice, announce: false)) }
        if let warning = parts.buttons.warning {
            _ = try? await clock.send(.warning(key: "buttons", text: warning, announce: false))
        }
        if let warning = parts.backlight.warning {
            _ = try? await clock.send(.warning(key: "backlight-open", text: warning, announce: false))
        }
        _ = try? await clock.send(.network(parts.network.current()))
        let inputs = InputService(clock: clock, buttons: parts.buttons, settings: parts.panel, shake: parts.shake)
        // The Home Assistant face follows the clock from before its start, so it misses none of its events.
        var homeAssistant: [any Service] = []
        if let settings = parts.homeAssistant,
            let service = await HomeAssistantService(clock: clock, settings: settings, logger: logger)
        {
            homeAssistant.append(service)
        }
        notifier.status("starting: waiting for the sound device")
        let started = try? await clock.send(
            .start(ringingChanged: inputs.ringingChanged) { summary in
                let readyMs = Int(((ContinuousClock.now - startedAt) / .milliseconds(1)).rounded())
                // `mono`: the machine's CLOCK_MONOTONIC beside this line's `t`, so a script can place the clock's
                // seconds on the clock of the sound card's and the kernel's timestamps.
                output.emit(
                    "ready",
                    [
                        "ready_ms": readyMs, "alarms": summary, "socket": control.path,
                        "mono": DaemonClock.monotonic() / .microseconds(1) / 1_000_000,
                    ])
                notifier.ready(status: summary)
            })
        output.emit("started", ["alarms": started?.reply.message ?? "", "socket": control.path])

        let services: [any Service] =
            [
                OutputService(outputs: parts.outputs),
                SoundEventService(clock: clock, engine: engine),
                work,
                SchedulerService(clock: clock, waker: clock.waker, notifier: notifier),
                inputs,
                NetworkService(clock: clock, status: parts.network),
                RefreshService.calendars(clock),
                RefreshService.podcasts(clock),
                RefreshService.directory(clock),
                ControlService(server: control, clock: clock, logger: logger),
            ] + httpFace(parts.http, clock: clock, logger: logger) + homeAssistant
        let group = ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: services.map { ServiceGroupConfiguration.ServiceConfiguration(service: $0) },
                gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        try await group.run()
        notifier.stopping()
        output.emit("exiting")
    }

    /// The store over the database — rebuilt from the schedule's backup copy when the file is missing or
    /// empty, and said so loudly; when the database cannot be read, the backup copy itself, with the fault
    /// shown (R27: never start with zero alarms silently). Neither: the daemon cannot start.
    static func openStore(_ parts: Parts, output: DaemonOutput, logger: Logger) throws
        -> (store: any ClockStore, loaded: StoredClock, fault: String?, notice: String?)
    {
        let fault: StoreError
        do throws(StoreError) {
            let opened = try Store.openRestoringBackup(path: parts.databasePath)
            let store = SQLiteClockStore(opened.store)
            let loaded = try store.load()
            if let reason = store.readOnlyReason { output.emit("warning", ["message": reason]) }
            var notice: String?
            if let copy = opened.restored {
                notice =
                    "The database \(parts.databasePath) was missing or empty; \(copy.alarms.count) alarm(s), \(copy.stations.count) station(s) and the settings were restored from the backup copy written \(copy.writtenAt.formatted(.iso8601)). The event history before it is lost."
            } else if let problem = opened.backupProblem {
                notice =
                    "The database \(parts.databasePath) was missing or empty and its backup copy cannot be used (\(problem.description)); the clock starts with no alarms."
            }
            if let notice {
                output.emit("warning", ["message": notice])
                logger.error("\(notice)")
            }
            return (store, loaded, nil, notice)
        } catch {
            fault = error
        }
        guard let backup = try? ScheduleSnapshot(databasePath: parts.databasePath).load() else {
            throw StartFailure(description: fault.description)
        }
        let message =
            "\(fault.description) Running from the backup copy of the schedule written \(backup.writtenAt.formatted(.iso8601)) (\(backup.alarms.count) alarm(s)); changes are not saved."
        output.emit("warning", ["message": message])
        logger.error("\(message)")
        let store = BackupClockStore(backup)
        return (store, (try? store.load()) ?? StoredClock(), message, nil)
    }

    /// The web page and the JSON API, announced with the address a browser on this machine reaches them at.
    static func httpFace(_ settings: ServerSettings?, clock: RunningClock, logger: Logger) -> [any Service] {
        guard let settings else { return [] }
        return [
            HTTPService(clock: clock, settings: settings, logger: logger) { port in
                let host = settings.host.contains(":") ? "[\(settings.host)]" : settings.host
                let shown = ["0.0.0.0", "[::]"].contains(host) ? "127.0.0.1" : host
                _ = try? await clock.send(.announce("http", ["url": "http://\(shown):\(port)/", "port": port]))
            }
        ]
    }
}
