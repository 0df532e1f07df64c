import AubadeApp
import Foundation

/// Whether a clock runs on the database doctor looks at, and what it says of itself — asked through its
/// control socket with the same `status` command `aubade status` sends, never worked out again here.
enum DaemonProbe: Sendable {
    case running(DaemonStatus)
    /// The socket (or its folder) is there but this user may not use it: it belongs to the clock's user.
    case noAccess(socket: String)
    /// Nobody listens on the socket.
    case notRunning(socket: String)
    /// Something took the connection but the clock did not answer (hung, or starting).
    case failed(String)

    /// Blocks up to 10 s (the socket exchange): call it off the cooperative pool.
    static func ask(databasePath: String) -> DaemonProbe {
        let socket = ControlProtocol.socketPath(forDatabase: databasePath)
        let folder = (socket as NSString).deletingLastPathComponent
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue,
            access(folder, X_OK) != 0
        {
            return .noAccess(socket: socket)
        }
        if FileManager.default.fileExists(atPath: socket), access(socket, W_OK) != 0 { return .noAccess(socket: socket) }
        do throws(ControlClient.Failure) {
            switch try ControlClient.send(.status, databasePath: databasePath, timeout: 10) {
            case .success(.status(let status)): return .running(status)
            case .success: return .failed("it answered the status request with something else.")
            case .failure(let error): return .failed(error.message)
            }
        } catch {
            if case .notRunning = error { return .notRunning(socket: socket) }
            return .failed(error.description)
        }
    }

    var status: DaemonStatus? {
        if case .running(let status) = self { return status }
        return nil
    }

    /// Whether a clock may be running (so doctor must not open its sound device): running, or not askable.
    var mayHoldDevice: Bool {
        switch self {
        case .running, .noAccess, .failed: true
        case .notRunning: false
        }
    }

    /// The "daemon" line. `alarmsSet`: whether an enabled alarm exists (then a clock that is not running is a
    /// problem: nothing will ring).
    func check(databasePath: String, alarmsSet: Bool) -> DoctorCheck {
        switch self {
        case .running(let status):
            let ready = status.sound.open ? "" : " It has not said READY: its sound device is not open."
            return .ok("daemon", "The clock is running on \(databasePath).\(ready)")
        case .noAccess(let socket):
            return .warning(
                "daemon",
                "The clock's control socket \(socket) is not open to this user, so doctor cannot ask the clock how it is.",
                fix: "Run doctor as root or as the clock's user: sudo -u aubade aubade doctor.")
        case .notRunning:
            let start = "Start it: sudo systemctl enable --now aubade (or aubade run)."
            if alarmsSet {
                return .problem("daemon", "The clock is not running on \(databasePath), so no alarm will ring.", fix: start)
            }
            return .warning("daemon", "The clock is not running on \(databasePath) (no alarm is set either).", fix: start)
        case .failed(let why):
            return .problem(
                "daemon", "The clock did not answer on its control socket: \(why)",
                fix: "See its log (journalctl -u aubade -n 50) and restart it: sudo systemctl restart aubade.")
        }
    }
}
