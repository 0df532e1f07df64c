/// What a recognised shake does to a ringing alarm — configurable; by default it stops an alarm that has
/// shake-to-stop on (`isShaked`) and snoozes any other.
public struct ShakeResponse: Hashable, Sendable {
    public enum Action: String, Hashable, Sendable, CaseIterable {
        case stop, snooze, none
    }

    public var whenShakeToStop: Action
    public var otherwise: Action

    public init(whenShakeToStop: Action = .stop, otherwise: Action = .snooze) {
        self.whenShakeToStop = whenShakeToStop
        self.otherwise = otherwise
    }

    public func action(for alarm: Alarm) -> Action {
        alarm.shakeToStop ? whenShakeToStop : otherwise
    }
}
