public import AubadeCore
public import Foundation

/// What `aubade status` (and the page, and the kiosk) shows of a running clock: the next alarm, what
/// sounds and whether it is heard, what the radio does, warnings, and the last morning's report.
public struct DaemonStatus: Codable, Sendable, Hashable {
    public struct NextAlarm: Codable, Sendable, Hashable {
        public var id: Int64
        public var name: String
        public var at: Date
    }

    public struct Ringing: Codable, Sendable, Hashable {
        public var id: Int64
        public var name: String
        public var source: String
        public var sinceSeconds: Double
        public var audibleAfterSeconds: Double?
        /// When its first frame reached the card against its second, in ms (positive: late); nil until measured.
        public var onsetMilliseconds: Double?
        /// Why nothing is heard now (the sound device failed), or nil while it is heard or starting.
        public var notAudible: String?
        public var fallbacks: [String]
    }

    public struct Snoozed: Codable, Sendable, Hashable {
        public var id: Int64
        public var until: Date
    }

    public struct Radio: Codable, Sendable, Hashable {
        public var kind: String
        public var source: String
        public var remainingSeconds: Double?
        public var title: String?
        /// "connecting", "playing" or "not playing" (with `problem`), as the sound engine reported.
        public var state: String
        public var problem: String?
        public var volume: Int
    }

    public struct Sound: Codable, Sendable, Hashable {
        public var device: String?
        public var open: Bool
        public var problem: String?
    }

    /// The second waker (R35), from its state file: whether it runs, the ring it is armed for, a ring of its own.
    public struct Waker: Codable, Sendable, Hashable {
        public var running: Bool
        public var armedAlarm: Int64?
        public var armedAlarmName: String?
        /// When it rings unless the clock has made that alarm heard by then (the alarm's time plus the grace).
        public var armedAt: Date?
        public var ringingAlarm: Int64?
        public var ringingSince: Date?
        public var problem: String?

        public init(
            running: Bool, armedAlarm: Int64? = nil, armedAlarmName: String? = nil, armedAt: Date? = nil,
            ringingAlarm: Int64? = nil, ringingSince: Date? = nil, problem: String? = nil
        ) {
            self.running = running
            self.armedAlarm = armedAlarm
            self.armedAlarmName = armedAlarmName
            self.armedAt = armedAt
            self.ringingAlarm = ringingAlarm
            self.ringingSince = ringingSince
            self.problem = problem
        }

        /// The waker as its report says (`report` nil, or a waker not alive: not running).
        public init(_ report: WakerReport?) {
            guard let report, report.running else {
                self.init(running: false)
                return
            }
            self.init(
                running: true, armedAlarm: report.armed?.alarm,
                armedAlarmName: report.armed.flatMap { $0.name.isEmpty ? nil : $0.name }, armedAt: report.armed?.at,
                ringingAlarm: report.ringing?.alarm, ringingSince: report.ringing?.started,
                problem: report.problem.isEmpty ? nil : report.problem)
        }

        /// "Second waker: armed for Work (alarm 1) at Tue 24 Nov 08:01", "… RINGING alarm 1 …", "… not running …".
        public func line(zone: TimeZone) -> String {
            guard running else {
                return "Second waker: not running, so nothing rings if the clock itself fails (see deploy/aubade-waker.service)."
            }
            var text: String
            if let id = ringingAlarm {
                let since = ringingSince.map { " since \(DaemonStatus.clock($0, zone, date: false))" } ?? ""
                text = "Second waker: RINGING alarm \(id)\(since) — the clock did not make it heard"
            } else if let id = armedAlarm, let at = armedAt {
                let name = armedAlarmName.map { "\($0) (alarm \(id))" } ?? "alarm \(id)"
                text =
                    "Second waker: armed for \(name) at \(DaemonStatus.clock(at, zone, date: true)), if the clock has not made it heard by then"
            } else {
                text = "Second waker: running, nothing to guard"
            }
            if let problem { text += "; \(problem)" }
            return text + "."
        }
    }

    public var now: Date
    public var zone: String
    public var next: NextAlarm?
    public var ringing: Ringing?
    public var snoozed: [Snoozed]
    public var radio: Radio?
    public var sound: Sound
    public var warnings: [String]
    public var clockSynchronised: Bool
    /// What every face says while the kernel's clock is not synchronised (R7).
    public static let notSynchronised = "The system clock is not synchronised, so alarms ring by the best time known."
    public var report: [String]
    /// The second waker, when this clock tells one (R35).
    public var waker: Waker? = nil
    /// The kiosk's face: its state and the backlight's level, and the sunrise while one runs.
    public var face: Face? = nil

    /// The kiosk's face as `FacePlan` decided it last.
    public struct Face: Codable, Sendable, Hashable {
        /// "day", "night", "awake", "sunrise", "ringing" or "off".
        public var state: String
        public var backlightPercent: Int
        public var sunriseAlarm: Int64?
        public var sunriseAt: Date?
        /// 0…100.
        public var sunriseProgress: Int?

        /// "Face: sunrise for alarm 1 at 07:00, 35 % of the way, backlight 22 %" or "Face: night, backlight 10 %".
        public func line(zone: TimeZone) -> String {
            if let id = sunriseAlarm, let at = sunriseAt, let progress = sunriseProgress {
                return
                    "Face: sunrise for alarm \(id) at \(DaemonStatus.clock(at, zone, date: false)), \(progress) % of the way, backlight \(backlightPercent) %"
            }
            return "Face: \(state), backlight \(backlightPercent) %"
        }
    }

    /// Human-readable lines, times in 24-hour form in the clock's zone (as everywhere else).
    public var lines: [String] {
        let zone = TimeZone(identifier: self.zone) ?? .current
        var out: [String] = []
        if let ringing {
            let heard: String
            if let why = ringing.notAudible {
                heard = " — NOT AUDIBLE: \(why)"
            } else if let after = ringing.audibleAfterSeconds {
                heard = String(format: ", audible after %.1f s", after)
            } else {
                heard = ", not audible yet"
            }
            let onset = ringing.onsetMilliseconds.map { ", " + MorningReport.onsetPhrase(.microseconds(Int64($0 * 1000))) } ?? ""
            out.append("Ringing: \(ringing.name) (\(ringing.source)) for \(Int(ringing.sinceSeconds)) s\(onset)\(heard)")
            for f in ringing.fallbacks { out.append("  fell back: \(f)") }
        }
        if let face { out.append(face.line(zone: zone)) }
        for s in snoozed { out.append("Snoozed: alarm \(s.id) until \(DaemonStatus.clock(s.until, zone, date: false))") }
        if let next {
            out.append("Next alarm: \(next.name) at \(DaemonStatus.clock(next.at, zone, date: true))")
        } else {
            out.append("Next alarm: none enabled")
        }
        if let radio {
            let left = radio.remainingSeconds.map { ", \(DurationText.format(Int($0))) left" } ?? ""
            let state = radio.problem.map { "not playing: \($0)" } ?? radio.state
            out.append("Radio: \(radio.kind) — \(radio.source), \(state)\(left)\(radio.title.map { " — \($0)" } ?? "")")
        }
        if !sound.open {
            out.append("Warning: the sound device \(sound.device ?? "") is not open\(sound.problem.map { ": \($0)" } ?? "."))")
        }
        if let waker { out.append(waker.line(zone: zone)) }
        if !clockSynchronised { out.append("Warning: \(DaemonStatus.notSynchronised)") }
        for w in warnings { out.append("Warning: \(w)") }
        if !report.isEmpty {
            out.append("Last morning:")
            out += report.map { "  \($0)" }
        }
        return out
    }

    /// "Tue 24 Nov 07:30" or "07:30", 24-hour, in `zone`.
    static func clock(_ date: Date, _ zone: TimeZone, date withDate: Bool) -> String {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_GB")
        f.timeZone = zone
        f.dateFormat = withDate ? "EEE d MMM HH:mm" : "HH:mm"
        return f.string(from: date)
    }
}
