public import AubadeCore
public import ServiceLifecycle

/// The outputs' end in the one `ServiceGroup`: the lines (a bed shaker, a lamp) are held from the daemon's start,
/// inactive, and at the graceful end driven inactive and released (`OutputSwitches.shutdown`) — also when the
/// group is cancelled. The driving itself runs on the outputs' own thread (`GPIOOutputs`); the clock switches
/// them through the port.
public struct OutputService: Service {
    let outputs: any OutputSwitches

    public init(outputs: any OutputSwitches) {
        self.outputs = outputs
    }

    public func run() async throws {
        try? await gracefulShutdown()
        await outputs.shutdown()
    }
}
