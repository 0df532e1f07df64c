/// Port: the clock's output lines (`[outputs]`: a bed shaker, a lamp), each switched on — then following its
/// configured `OutputPattern` from that moment — or off. Implementations: `GPIOOutputs` (AubadeHardware: libgpiod
/// output requests driven by their own thread), `NullOutputs` (a machine without GPIO, or no output configured),
/// `FakeOutputs` (AubadeHardwareTesting, for the code above the hardware).
///
/// Contract:
/// - `set(_:on:)` never blocks and never throws: it hands the change to the driver and returns. Switching on an
///   output already on keeps its pattern's phase; switching off drives the line to its inactive level at once.
///   An output that is not `available` ignores it (the clock still rings: rule 8).
/// - `state` is what was last asked (`on`), not a reading of the pin.
/// - Lines are held from the driver's start to its end; at the end (`shutdown`, the daemon's graceful stop)
///   every line is driven inactive, then released. A process that is killed cannot do that: the systemd unit
///   runs `aubade outputs off` after any exit (`ExecStopPost=`).
/// - Thread-safe: calls may come from any thread or task.
public protocol OutputSwitches: Sendable {
    /// The outputs configured and held, in `OutputName` order.
    var available: [OutputName] { get }
    /// Switches `name` on (its pattern from now) or off (inactive now).
    func set(_ name: OutputName, on: Bool)
    /// Whether `name` was last switched on.
    func isOn(_ name: OutputName) -> Bool
    /// Why outputs that are configured are not available, one sentence each, for the status and `doctor`.
    var problems: [OutputName: String] { get }
    /// Drives every line inactive and releases it; returns when that is done (the daemon's graceful end: the
    /// `OutputService`). Idempotent; `set` does nothing afterwards.
    func shutdown() async
}

extension OutputSwitches {
    /// Switches every available output off.
    public func allOff() {
        for name in available { set(name, on: false) }
    }
}
