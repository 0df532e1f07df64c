import AubadeApp
import AubadeConfig
import AubadeCore
import AubadeDaemon
import AubadeHardware
import AubadeSystemAsync
import AubadeWakerFiles
import Foundation

/// Everything `doctor` found, as printed in JSON: `checks` (one per line of the text report), whether the next
/// alarm would be heard, and the details the checks were made from.
struct DoctorReport: Encodable {
    var checks: [DoctorCheck]
    /// Whether the next alarm would be heard; nil when no alarm is set or the clock could not be asked.
    var heard: Bool?
    var next: AlarmVerdict.NextAlarm?
    var daemon: Daemon
    var config: Config
    var libgpiod: String
    var chips: [GPIOChipInfo]
    var buttons: [Line]
    /// Every button's effective actions, wired or not: a long press with no entry of its own shows the short one.
    var mapping: [Mapping]
    var shake: Shake
    /// The `[outputs]` lines, each tried as an output (`OutputProbe`).
    var outputs: [OutputLine] = []
    var network: Network
    /// The routes the network line was made from (not printed: `network` shows them).
    var networkSnapshot = NetworkSnapshot()
    /// The clock faces running on this machine, with what each costs (`FaceProbe`).
    var faces: [FaceProbe.Face] = []

    struct Daemon: Encodable {
        var running: Bool
        var socket: String
        /// What the running clock says of itself (as `aubade status --json` prints it).
        var status: DaemonStatus?
    }

    /// Gathers every check. Blocking reads (ALSA, sysfs, SQLite, the socket) run off the cooperative pool; the
    /// stations are tried at once, each on its own thread. `procRoot` is where /proc is (a fake tree, for tests).
    static func gather(_ context: CommandContext, play: Bool, backlightRoot: String = "", procRoot: String = "/proc") async
        -> DoctorReport
    {
        let database = context.databasePath
        let config = context.configuration
        let daemon = await runBlocking("aubade.doctor") { DaemonProbe.ask(databasePath: database) }
        let storage = await runBlocking("aubade.doctor") {
            StorageProbe.read(databasePath: database, daemonRunning: daemon.status != nil)
        }
        let hardware = await runBlocking("aubade.doctor") {
            (
                hardware: gatherHardware(context, settings: storage.settings, gpio: LibGPIOD(), network: SysfsNetworkStatus()),
                sound: SoundProbe.device(config.audio, daemon: daemon), mixer: SoundProbe.mixer(config.audio),
                microphone: MicrophoneProbe.check(config.verify),
                disk: StorageProbe.disk(databasePath: database),
                synchronised: ClockSync.isSynchronised(), rtc: ClockProbe.rtc(),
                waker: DaemonStatus.Waker(SecondWaker.report(databasePath: database)),
                faces: FaceProbe.faces(proc: procRoot), memory: FaceProbe.memoryKB(proc: procRoot)
            )
        }
        var report = hardware.hardware
        report.faces = hardware.faces
        let outputs = config.outputs
        report.outputs = await runBlocking("aubade.doctor") { DoctorReport.probeOutputs(outputs, gpio: LibGPIOD(), drive: true) }
        let targets = StationProbe.targets(alarms: storage.alarms, stations: storage.stations)
        let streaming = NetworkPolicy.streaming(wifiOnly: storage.settings?.isWifi ?? false, network: report.networkSnapshot)
        let stations = await StationProbe.tryAll(
            targets, allowLoopback: config.audio.allowLocalStreams, streaming: streaming,
            hlsBandwidthCap: config.audio.hlsMaxKbps * 1000)

        let alarmsSet = storage.alarms.contains(where: \.enabled)
        var checks = [
            report.configCheck(), daemon.check(databasePath: database, alarmsSet: alarmsSet),
            hardware.sound, hardware.mixer, hardware.microphone,
        ]
        if play {
            let volume = storage.settings?.toneVolume ?? AppSettings().toneVolume
            checks.append(await SoundProbe.play(context, daemon: daemon, volume: volume))
        }
        checks += [
            report.buttonsCheck(daemonRunning: daemon.status != nil),
            report.shakeCheck(alarms: storage.alarms, daemonRunning: daemon.status != nil),
            report.outputsCheck(daemonRunning: daemon.status != nil),
            report.networkCheck(), ClockProbe.synchronisation(synchronised: hardware.synchronised), hardware.rtc,
            storage.check, hardware.disk,
            Self.wakerCheck(hardware.waker, alarmsSet: alarmsSet),
            BacklightProbe.check(
                config.display, root: backlightRoot,
                sunrises: storage.alarms.filter { $0.enabled && $0.sunriseSeconds > 0 }.map(\.name),
                daemonWarning: daemon.status?.warnings.first { $0.hasPrefix("The screen's backlight") }),
            FaceProbe.check(hardware.faces, memoryKB: hardware.memory),
        ]
        checks += stations.map(\.check)
        if let mqtt = await MQTTProbe.check(config.mqtt) { checks.append(mqtt) }
        let zone = (try? context.defaultZone()) ?? TimeZone.current
        let verdict = AlarmVerdict.judge(daemon: daemon, storage: storage, stations: stations, checks: checks, zone: zone)
        checks.append(verdict.check)

        report.checks = checks
        report.heard = verdict.heard
        report.next = verdict.next
        let socket: String
        switch daemon {
        case .noAccess(let s), .notRunning(let s): socket = s
        default: socket = ControlProtocol.socketPath(forDatabase: database)
        }
        report.daemon = Daemon(running: daemon.status != nil, socket: socket, status: daemon.status)
        return report
    }

    private enum CodingKeys: String, CodingKey {
        case checks, heard, next, daemon, config, libgpiod, chips, buttons, mapping, shake, outputs, network, faces
    }
}
