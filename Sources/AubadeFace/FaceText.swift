/// The face's words and numbers, as the kiosk's api.js writes them (in English: the face has no locale data).
public enum FaceText {
    static let weekdays = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
    static let months = [
        "January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November",
        "December",
    ]

    /// A local wall-clock moment: the day (days since 1970-01-01) and the second of that day.
    struct Local {
        var day: Int
        var second: Int

        init(_ t: Double, _ zone: FaceZone) {
            let local = Int(t.rounded(.down)) + zone.offset(at: t)
            day = local >= 0 ? local / 86_400 : (local - 86_399) / 86_400
            second = local - day * 86_400
        }

        /// Monday 0 … Sunday 6 (1970-01-01 was a Thursday).
        var weekday: Int { ((day % 7) + 7 + 3) % 7 }

        /// The proleptic Gregorian year, month (1–12) and day (1–31) (H. Hinnant's days-to-civil).
        var civil: (year: Int, month: Int, day: Int) {
            let z = day + 719_468
            let era = (z >= 0 ? z : z - 146_096) / 146_097
            let doe = z - era * 146_097
            let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
            let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
            let mp = (5 * doy + 2) / 153
            let d = doy - (153 * mp + 2) / 5 + 1
            let m = mp < 10 ? mp + 3 : mp - 9
            return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
        }
    }

    static func twoDigits(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }

    /// "07:42": the 24-hour time of Unix time `t` in `zone`.
    public static func clock(_ t: Double, _ zone: FaceZone) -> String {
        let local = Local(t, zone)
        return twoDigits(local.second / 3600) + ":" + twoDigits(local.second % 3600 / 60)
    }

    /// "Tuesday 25 November".
    public static func date(_ t: Double, _ zone: FaceZone) -> String {
        let local = Local(t, zone)
        let civil = local.civil
        return "\(weekdays[local.weekday]) \(civil.day) \(months[civil.month - 1])"
    }

    /// "today 07:30", "tomorrow 07:30" or "Tue 07:30", seen from `now`.
    public static func when(_ t: Double, _ zone: FaceZone, now: Double) -> String {
        let day = Local(t, zone).day
        let today = Local(now, zone).day
        let time = clock(t, zone)
        if day == today { return "today \(time)" }
        if day == today + 1 { return "tomorrow \(time)" }
        return "\(weekdays[Local(t, zone).weekday].prefix(3)) \(time)"
    }

    /// "29:41" or "1:05:00" for a count of seconds.
    public static func countdown(_ seconds: Double) -> String {
        let s = max(0, Int(seconds.rounded()))
        let h = s / 3600
        let m = s % 3600 / 60
        return h > 0 ? "\(h):\(twoDigits(m)):\(twoDigits(s % 60))" : "\(m):\(twoDigits(s % 60))"
    }

    /// "FIP — playing", "FIP — connecting…", "FIP — not playing: <problem>".
    public static func radio(_ radio: FaceState.Radio) -> String {
        let state =
            switch radio.state {
            case "connecting": "connecting…"
            case "playing": "playing"
            default: "not playing" + (radio.problem.map { ": \($0)" } ?? "")
            }
        return "\(radio.source) — \(state)"
    }
}
