/// The buttons as a whole: raw edges in, debounced and classified commands out (R15).
///
/// Pure state machine. The owning service feeds it every `ButtonEdge` from the GPIO adapter, calls
/// `tick(at:)` no later than `nextDeadline` (on the same clock as the edges' timestamps), and carries out
/// the returned commands. Each command carries when its press began (`pressedAt`, on the edges' clock,
/// `CLOCK_MONOTONIC`): the alarm engine ignores a press that began before the alarm started (R15) — that
/// rule lives there alone. A button whose line was down when requested (`ButtonEdge.isInitial`) is
/// ignored until released: a stuck button never fires.
public struct ButtonPanel: Hashable, Sendable {
    public struct Settings: Hashable, Sendable {
        public var debounce: Duration
        public var longPress: Duration
        public var mapping: ButtonMapping

        public init(
            debounce: Duration = .milliseconds(30), longPress: Duration = .seconds(1),
            mapping: ButtonMapping = .standard
        ) {
            self.debounce = debounce
            self.longPress = longPress
            self.mapping = mapping
        }
    }

    /// One recognised press and the action it maps to.
    public struct Command: Hashable, Sendable {
        public var role: ButtonRole
        public var kind: PressClassifier.Kind
        public var action: ButtonAction
        /// When the press was recognised.
        public var time: Duration
        /// When the button went down.
        public var pressedAt: Duration

        public init(
            role: ButtonRole, kind: PressClassifier.Kind, action: ButtonAction, time: Duration,
            pressedAt: Duration? = nil
        ) {
            self.role = role
            self.kind = kind
            self.action = action
            self.time = time
            self.pressedAt = pressedAt ?? time
        }
    }

    private struct Button: Hashable, Sendable {
        var debouncer: Debouncer
        var classifier: PressClassifier
    }

    public let settings: Settings
    private var buttons: [ButtonRole: Button] = [:]

    public init(settings: Settings = Settings()) {
        self.settings = settings
    }

    /// The earliest time `tick(at:)` has something to report; nil when nothing is pending.
    public var nextDeadline: Duration? {
        buttons.values.flatMap { [$0.debouncer.deadline, $0.classifier.deadline] }.compactMap { $0 }.min()
    }

    /// True while `role` is down (debounced).
    public func isDown(_ role: ButtonRole) -> Bool {
        buttons[role]?.debouncer.level ?? false
    }

    public mutating func handle(_ edge: ButtonEdge) -> [Command] {
        if edge.isInitial {
            let classifier = PressClassifier(longPress: settings.longPress, initiallyHeld: edge.pressed)
            buttons[edge.role] = Button(
                debouncer: Debouncer(window: settings.debounce, level: edge.pressed, at: edge.time),
                classifier: classifier)
            return []
        }
        var button = buttons[edge.role] ?? newButton()
        var commands: [Command] = []
        for change in button.debouncer.edge(pressed: edge.pressed, at: edge.time) {
            commands += classify(change, &button, role: edge.role)
        }
        buttons[edge.role] = button
        return commands
    }

    public mutating func tick(at now: Duration) -> [Command] {
        var commands: [Command] = []
        for role in ButtonRole.allCases {
            guard var button = buttons[role] else { continue }
            if let change = button.debouncer.tick(at: now) {
                commands += classify(change, &button, role: role)
            }
            commands += button.classifier.tick(at: now).map { command(role, $0) }
            buttons[role] = button
        }
        return commands.sorted { $0.time < $1.time }
    }

    private func newButton() -> Button {
        Button(debouncer: Debouncer(window: settings.debounce), classifier: PressClassifier(longPress: settings.longPress))
    }

    private func classify(_ change: Debouncer.Change, _ button: inout Button, role: ButtonRole) -> [Command] {
        var presses = button.classifier.tick(at: change.time)
        presses +=
            change.pressed
            ? button.classifier.pressed(at: change.time)
            : button.classifier.released(at: change.time)
        return presses.map { command(role, $0) }
    }

    private func command(_ role: ButtonRole, _ press: PressClassifier.Press) -> Command {
        Command(
            role: role, kind: press.kind, action: settings.mapping.action(for: role, press.kind), time: press.time,
            pressedAt: press.pressedAt)
    }
}
