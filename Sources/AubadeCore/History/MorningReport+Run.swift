public import Foundation

extension MorningReport {
    /// One occurrence of one alarm, as the history tells it.
    public struct Run: Sendable, Hashable {
        /// How the run began.
        public enum Start: Sendable, Hashable {
            /// No event says it rang (missed, skipped, or not due yet).
            case notRung
            /// Rang at its time.
            case onTime
            /// Rang this many minutes after its time (R6 catch-up); nil when its time is not known.
            case late(minutes: Int?)
            /// First seen ringing again after a restart (R9); the first ring is not in the history given.
            case resumed
        }

        /// How the run ended.
        public enum End: Sendable, Hashable {
            /// Stopped by the user, with `input` when the detail names it; `detail` is the text as written.
            case dismissed(input: DismissInput?, detail: String)
            /// Silenced itself after its duration (R12).
            case autoSilenced(detail: String)
            /// Its ladder's last round rang unanswered.
            case unanswered(detail: String)
            /// Not rung (or its snooze's end not rung) because it was due too long ago (R6).
            case missed(detail: String)
            /// Passed over by skip-next, or (`dayOff` names it) because its date is a day off.
            case skipped(dayOff: String?)
            /// Its own next occurrence took over (in older histories, also another alarm: R13 before R38).
            case superseded(detail: String)
            /// Dropped by an edit, a disable or a removal (R10).
            case cancelled(detail: String)
        }

        /// The result of the pre-alarm check (R20).
        public enum Precheck: Sendable, Hashable {
            case passed
            /// Failed, with the reason as written.
            case failed(String)
        }

        /// One fallback: where to (as written, e.g. "tone"; nil when the detail doesn't say) and why.
        public struct Fallback: Sendable, Hashable {
            public var target: String?
            public var reason: String

            /// A fallback to `target` because of `reason`.
            public init(target: String?, reason: String) {
                self.target = target
                self.reason = reason
            }
        }

        /// Another alarm of the same ringing group (R38).
        public struct Companion: Sendable, Hashable {
            public var alarmID: Int64
            public var name: String

            /// Alarm `alarmID`, called `name`.
            public init(alarmID: Int64, name: String) {
                self.alarmID = alarmID
                self.name = name
            }
        }

        public var alarmID: Int64
        public var name: String
        /// The scheduled instant of the occurrence; nil when no event names it.
        public var scheduled: Date?
        /// The time of the run's first event.
        public var firstEventAt: Date
        public var start: Start = .notRung
        public var precheck: Precheck?
        /// Time from the start of ringing to verified sound (R16), from the first `audible` event.
        public var audibleAfter: Duration?
        /// The detail of an `audible` event whose delay could not be read, as written.
        public var audibleDetail: String?
        /// When its first frame reached the card against its second (positive: late), from the first `onset` event.
        public var onsetLate: Duration?
        public var fallbacks: [Fallback] = []
        /// Returns to the station after a fallback.
        public var recoveries = 0
        public var warnings: [String] = []
        /// Restarts during the run that resumed its ringing (R9), besides a `.resumed` start.
        public var resumes = 0
        public var snoozes = 0
        /// Snoozes refused because all were used.
        public var snoozesRefused = 0
        /// The highest step its ladder climbed to unanswered, and the rounds it rested between.
        public var climbedTo: String?
        public var rests = 0
        /// The wake-up checks after a Stop, in order: "woke" or "fell back asleep".
        public var wakeChecks: [String] = []
        /// Whether its snooze is running, as of the last event.
        public var inSnooze = false
        /// Nil while it is not over (ringing, snoozed, or not due yet).
        public var end: End?
        /// Alarms it rang together with from the moment it began ringing: those already ringing, and those
        /// that began at the same instant (R38).
        public var rangWith: [Companion] = []
        /// Alarms that began ringing later, while it rang, and rang together with it (R38).
        public var joinedBy: [Companion] = []
        /// When its latest ringing began, as the history tells it.
        var ringingSince: Date?
        /// The daemon did not make it heard in time and the second waker rang it (R35).
        public var secondWakerRang = false

        /// Whether an `audible` event says sound reached the device.
        public var wasAudible: Bool { audibleAfter != nil || audibleDetail != nil }

        /// A run of alarm `alarmID` (called `name`) for the occurrence `scheduled`, first seen at `firstEventAt`.
        public init(alarmID: Int64, name: String, scheduled: Date?, firstEventAt: Date) {
            self.alarmID = alarmID
            self.name = name
            self.scheduled = scheduled
            self.firstEventAt = firstEventAt
        }
    }
}
