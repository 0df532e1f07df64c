/// Port: the service manager the daemon reports to — systemd's notify protocol in `aubade run`
/// (`SystemdNotifier`, in the daemon's composition), nothing at all elsewhere. Contract: every call returns at
/// once and never fails (a service manager going away must not stop an alarm); thread-safe.
public protocol ServiceNotifier: Sendable {
    /// Half the watchdog interval the service manager asked for, or nil when there is no watchdog.
    var watchdogInterval: Duration? { get }
    /// The service is up: database loaded, schedule computed, sound device opened and a test write taken (R34).
    func ready(status: String)
    /// Proof of life, sent from the scheduler loop (never from a free-running timer).
    func watchdog()
    /// A one-line status.
    func status(_ text: String)
    func stopping()
    /// Still starting, and alive: the service manager waits `by` longer before it gives up on the start.
    func extendStartTimeout(by duration: Duration)
}
