public import Foundation

/// When the daily self-test of the microphone and the amplifier runs: a short quiet chirp through the sound engine,
/// listened for, so that a dead microphone or amplifier is found the day before rather than at the alarm. It runs
/// once a local day, from the user's hour on, in the daytime only — never during the night, an alarm or a sleep
/// timer, and never within a quarter of an hour of an alarm's occurrence (the chirp must not be taken for the alarm,
/// nor the alarm's room check spoilt), nor while anything else plays (the radio, a ring test, a chime: the chirp
/// must be heard alone). Pure: the clock says what is going on, this says when.
public struct SelfTestSchedule: Sendable, Equatable {
    /// The hours a self-test may start: 08:00 to 20:59 local. The night is never chirped at.
    public static let daytime = 8...20
    /// The daytime ends at 21:00: a test not run by then waits for the next day.
    public static let dayEndHour = 21
    /// No self-test this close to an alarm's occurrence, before or after.
    public static let clearance: TimeInterval = 15 * 60
    /// While an alarm rings or a sleep timer (or anything else) plays, it looks again this much later.
    public static let retry: TimeInterval = 10 * 60

    public let hour: Int

    /// Nil for an hour outside `daytime`.
    public init?(hour: Int) {
        guard Self.daytime.contains(hour) else { return nil }
        self.hour = hour
    }

    /// What the clock is doing.
    public struct Situation: Sendable, Equatable {
        public var alarmRinging: Bool
        public var sleepTimerRunning: Bool
        /// Anything else sounds: the radio, a ring test, a reservation's or a wake-up check's chime.
        public var playing: Bool
        /// The coming (and just past) occurrences of alarms that will ring.
        public var alarms: [Date]
        /// The local date of the last self-test run (passed or not).
        public var lastRun: LocalDate?

        public init(
            alarmRinging: Bool = false, sleepTimerRunning: Bool = false, playing: Bool = false, alarms: [Date] = [],
            lastRun: LocalDate? = nil
        ) {
            self.alarmRinging = alarmRinging
            self.sleepTimerRunning = sleepTimerRunning
            self.playing = playing
            self.alarms = alarms
            self.lastRun = lastRun
        }
    }

    public enum Decision: Sendable, Equatable {
        case runNow
        /// Ask again at this instant (a test may be due then).
        case wait(until: Date)
    }

    /// Run now, or when to look again.
    public func decide(now: Date, calendar: ZoneCalendar, situation: Situation) -> Decision {
        guard let today = calendar.localDate(of: now) else { return .wait(until: now + Self.retry) }
        let tomorrow = dayStart(after: today, calendar: calendar) ?? now + 86_400
        guard situation.lastRun.map({ $0 < today }) ?? true else { return .wait(until: tomorrow) }
        let start = calendar.instant(of: today, at: time(hour))
        let end = calendar.instant(of: today, at: time(Self.dayEndHour))
        if now < start { return .wait(until: start) }
        guard now < end else { return .wait(until: tomorrow) }
        var earliest = now
        if situation.alarmRinging || situation.sleepTimerRunning || situation.playing { earliest = now + Self.retry }
        // Clear of every alarm: moved past each one it comes too close to, as often as needed.
        for alarm in situation.alarms.sorted() where abs(alarm.timeIntervalSince(earliest)) < Self.clearance {
            earliest = alarm + Self.clearance
        }
        if earliest == now { return .runNow }
        return .wait(until: earliest < end ? earliest : tomorrow)
    }

    /// The start of the self-test's hour on the local day after `date`.
    private func dayStart(after date: LocalDate, calendar: ZoneCalendar) -> Date? {
        LocalDate(dayNumber: date.dayNumber + 1).map { calendar.instant(of: $0, at: time(hour)) }
    }

    private func time(_ hour: Int) -> LocalTime { LocalTime(unchecked: hour, 0) }
}
