public import AubadeCore
public import Logging

/// The clock's buttons: the configured lines watched through a `GPIOPort` and delivered as raw
/// `ButtonEdge`s for `AubadeCore.ButtonPanel` to debounce and classify.
///
/// Contract: `open` never throws (docs/HOUSE-RULES.md §8). Lines that are missing, busy or unreadable turn
/// their buttons off with one warning, logged once and kept in `warning`; the other buttons keep working.
/// With no button left, `edges` stays open and silent until `stop()`. `edges` has one consumer;
/// cancelling the task that iterates it, or calling `stop()`, releases the lines (within the port's wait
/// timeout). `edges` finishes when the lines are released or the device fails (logged once).
public final class ButtonInput: Sendable {
    public let edges: AsyncStream<ButtonEdge>
    /// The buttons that work, in `ButtonRole` order.
    public let roles: [ButtonRole]
    /// One sentence when some or all configured buttons are off; nil when all work.
    public let warning: String?
    private let watch: (any GPIOWatch)?
    private let continuation: AsyncStream<ButtonEdge>.Continuation

    private init(roles: [ButtonRole], warning: String?, watch: (any GPIOWatch)?) {
        (edges, continuation) = AsyncStream<ButtonEdge>.makeStream(bufferingPolicy: .bufferingNewest(256))
        self.roles = roles
        self.warning = warning
        self.watch = watch
    }

    /// Requests the lines of `buttons` and starts delivering their edges.
    public static func open(_ buttons: [ButtonRole: GPIOLineRequest], gpio: any GPIOPort, logger: Logger) async -> ButtonInput {
        let ordered = ButtonRole.allCases.compactMap { role in buttons[role].map { (role, $0) } }
        guard !ordered.isEmpty else { return ButtonInput(roles: [], warning: nil, watch: nil) }
        let started: GPIOWatchStart
        do {
            started = try await gpio.watch(ordered.map(\.1))
        } catch {
            let warning = "Buttons are off: \(error.message)"
            logger.warning("\(warning)")
            return ButtonInput(roles: [], warning: warning, watch: nil)
        }
        let working = ordered.indices.filter { started.failures[$0] == nil }.map { ordered[$0].0 }
        var warning: String?
        if !started.failures.isEmpty {
            let off = ordered.indices.filter { started.failures[$0] != nil }
            let reasons = off.compactMap { started.failures[$0]?.message }.joined(separator: " ")
            warning = "Button(s) \(off.map { ordered[$0].0.rawValue }.joined(separator: ", ")) are off: \(reasons)"
            logger.warning("\(warning ?? "")")
        }
        let input = ButtonInput(roles: working, warning: warning, watch: started.watch)
        input.forward(started.watch, roles: ordered.map(\.0), logger: logger)
        return input
    }

    /// Stops watching and releases the lines. Idempotent.
    public func stop() {
        watch?.stop()
        continuation.finish()
    }

    private func forward(_ watch: any GPIOWatch, roles: [ButtonRole], logger: Logger) {
        let continuation = self.continuation
        let task = Task {
            for await event in watch.events where roles.indices.contains(event.index) {
                continuation.yield(
                    ButtonEdge(
                        role: roles[event.index], pressed: event.active, time: event.time,
                        isInitial: event.isInitial))
            }
            if let failure = watch.failure { logger.warning("Buttons are off: \(failure.message)") }
            continuation.finish()
        }
        continuation.onTermination = { _ in
            watch.stop()
            task.cancel()
        }
    }
}

/// The buttons are the clock's button source (`AubadeCore.ButtonSource`).
extension ButtonInput: ButtonSource {}
