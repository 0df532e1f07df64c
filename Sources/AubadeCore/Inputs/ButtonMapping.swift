/// Which action each button's short and long press asks for — plain data, so the config can change it.
/// A long press with no entry of its own does what the short press does (a sleepy user holding snooze
/// still snoozes).
public struct ButtonMapping: Hashable, Sendable {
    public var short: [ButtonRole: ButtonAction]
    public var long: [ButtonRole: ButtonAction]

    public init(short: [ButtonRole: ButtonAction], long: [ButtonRole: ButtonAction] = [:]) {
        self.short = short
        self.long = long
    }

    /// Snooze, stop, play/pause, sleep (+15 min per press, a long press cancels), volume up/down.
    public static let standard = ButtonMapping(
        short: [
            .snooze: .snooze, .stop: .stop, .playPause: .playPause, .sleep: .sleep(addMinutes: 15),
            .volumeUp: .volumeUp, .volumeDown: .volumeDown,
        ],
        long: [.sleep: .sleepCancel])

    public func action(for role: ButtonRole, _ kind: PressClassifier.Kind) -> ButtonAction {
        switch kind {
        case .short: short[role] ?? .none
        case .long: long[role] ?? short[role] ?? .none
        }
    }
}
