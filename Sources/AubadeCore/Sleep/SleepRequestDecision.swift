/// The answer to "start a sleep timer now?" (`SleepTimer.decide(alarmRinging:)`).
public enum SleepRequestDecision: Hashable, Sendable {
    /// Start it.
    case start
    /// Don't; the sentence says why, for the user.
    case refused(String)
}
