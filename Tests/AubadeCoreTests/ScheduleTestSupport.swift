import AubadeCore
import Foundation
import Testing

/// Shared helpers of the alarm-engine tests.
enum Fixture {
    /// Parses "2026-03-29T01:30:00Z".
    static func instant(_ text: String) throws -> Date {
        try Date(text, strategy: .iso8601)
    }

    static func zone(_ id: String) throws -> TimeZone {
        try #require(TimeZone(identifier: id), "zone \(id) is unknown to Foundation")
    }

    static func date(_ text: String) throws -> LocalDate {
        try LocalDate(parsing: text)
    }

    static func time(_ text: String) throws -> LocalTime {
        try LocalTime(parsing: text)
    }

    /// An alarm with an id, defaults elsewhere; `days` as the CLI takes them ("daily", "mon-fri", "once").
    static func alarm(
        id: Int64 = 1, _ time: String, days: String = "daily", date: String? = nil,
        zone: String? = nil, duration: Int = 900, snoozeMinutes: Int = 9, maxSnoozes: Int = 3,
        enabled: Bool = true, skip: String? = nil, shake: Bool = false
    ) throws -> Alarm {
        let recurrence: Recurrence
        if days == "once" {
            recurrence = .once(try LocalDate(parsing: try #require(date, "a one-shot alarm needs a date")))
        } else {
            recurrence = .weekly(try Weekdays(parsing: days))
        }
        return Alarm(
            id: id, name: "alarm \(id)", time: try LocalTime(parsing: time), recurrence: recurrence,
            durationSeconds: duration, shakeToStop: shake, enabled: enabled, sound: .tone, volume: 70,
            fadeInSeconds: 20, snoozeMinutes: snoozeMinutes, maxSnoozes: maxSnoozes,
            skipDate: try skip.map { try LocalDate(parsing: $0) }, timeZoneID: zone)
    }
}
