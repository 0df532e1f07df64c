public import AubadeCore
public import AubadeSystem

/// The daemon's service manager is systemd: AubadeSystem's one notifier (shared with the second waker) is the
/// core's `ServiceNotifier` port.
extension SystemdNotifier: ServiceNotifier {}
