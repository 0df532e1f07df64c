import Foundation

extension MorningReport {
    /// One line per run for people, e.g. "Work 07:00 — rang on time, audible after 0.8 s, fell back to the
    /// tone (The station sent a web page, not audio.), snoozed 2×, stopped by button". Alarms that rang
    /// together are named on each other's lines: "Gym 08:00 — rang on time with Work, …" and
    /// "Work 07:55 — rang on time, joined by Gym, …" (R38).
    public var lines: [String] {
        runs.map(line)
    }

    /// The line of one run.
    public func line(_ run: Run) -> String {
        let time = run.scheduled.map { " " + LocalTime($0, in: alarmZones[run.alarmID] ?? zone).description } ?? ""
        return "\(run.name)\(time) — " + MorningReport.phrases(run).joined(separator: ", ")
    }

    /// The phrases of a line, in the order things happen.
    static func phrases(_ run: Run) -> [String] {
        var out: [String] = []
        if case .failed(let reason) = run.precheck { out.append("pre-check failed" + aside(reason)) }
        let with = run.rangWith.isEmpty ? "" : " with " + names(run.rangWith)
        if run.secondWakerRang {
            // What the daemon did after the waker (a late catch-up, a resume) is in the history, not the line.
            out.append("the daemon did not answer; the second waker rang" + with)
        } else if let start = startPhrase(run.start) {
            out.append(start + with)
        } else if !with.isEmpty {
            out.append("rang" + with)
        }
        if !run.joinedBy.isEmpty { out.append("joined by " + names(run.joinedBy)) }
        if let late = run.onsetLate { out.append(onsetPhrase(late)) }
        if let delay = run.audibleAfter {
            out.append("audible after \(tenths(delay)) s")
        } else if let detail = run.audibleDetail {
            out.append("audible" + aside(detail))
        } else if run.start != .notRung && !run.secondWakerRang {
            out.append("not confirmed audible")
        }
        for f in run.fallbacks { out.append("fell back" + target(f.target) + aside(f.reason)) }
        if run.recoveries > 0 { out.append("back on the station" + times(run.recoveries)) }
        for w in run.warnings { out.append("warning" + aside(w)) }
        if run.resumes > 0 { out.append("resumed after a restart" + times(run.resumes)) }
        if run.snoozes > 0 { out.append("snoozed \(run.snoozes)×") }
        if run.snoozesRefused > 0 { out.append("snooze refused" + times(run.snoozesRefused)) }
        if let step = run.climbedTo { out.append("unanswered, climbed to \(step)") }
        if run.rests > 0 { out.append("rang again after \(run.rests) rest(s)") }
        out.append(endPhrase(run))
        for answer in run.wakeChecks { out.append("wake-up check: \(answer)") }
        return out
    }

    /// "first sound 3 ms after its second", "… 2 ms before …", "… on its second".
    public static func onsetPhrase(_ late: Duration) -> String {
        let ms = HistoryDetail.milliseconds(late)
        if ms == 0 { return "first sound on its second" }
        let size = abs(ms) >= 1000 ? "\(tenths(.milliseconds(abs(ms)))) s" : "\(abs(ms)) ms"
        return "first sound \(size) \(ms > 0 ? "after" : "before") its second"
    }

    private static func startPhrase(_ start: Run.Start) -> String? {
        switch start {
        case .notRung: nil
        case .onTime: "rang on time"
        case .late(let minutes?): "rang \(minutes) min late"
        case .late(nil): "rang late"
        case .resumed: "resumed after a restart"
        }
    }

    private static func endPhrase(_ run: Run) -> String {
        switch run.end {
        case .dismissed(let input, let detail):
            switch input {
            case .button?: "stopped by button"
            case .shake?: "stopped by shake"
            case .cli?: "stopped from the command line"
            case .api?: "stopped from the web page or API"
            case .mqtt?: "stopped from Home Assistant (MQTT)"
            case nil: "stopped" + aside(detail)
            }
        case .autoSilenced(let detail):
            detail.hasPrefix("after ") ? "auto-silenced \(detail)" : "auto-silenced" + aside(detail)
        case .unanswered(let detail): "unanswered" + aside(detail)
        case .missed(let detail):
            run.start == .notRung && (detail.isEmpty || HistoryDetail.occurrence(in: detail) != nil)
                ? "missed, never rang" : "missed" + aside(detail)
        case .skipped(let dayOff?): "skipped: \(dayOff) (a day off)"
        case .skipped(nil): "skipped (skip-next)"
        case .superseded(let detail): "superseded" + aside(detail)
        case .cancelled(let detail): "cancelled" + aside(detail)
        case nil:
            if run.start == .notRung, run.snoozes == 0, !run.wasAudible, run.fallbacks.isEmpty {
                "not rung yet"
            } else if run.inSnooze {
                "still snoozed"
            } else {
                "still ringing"
            }
        }
    }

    /// "Gym", "Gym and Nap", "Gym, Nap and Work".
    private static func names(_ companions: [Run.Companion]) -> String {
        let all = companions.map(\.name)
        guard all.count > 1, let last = all.last else { return all.first ?? "" }
        return all.dropLast().joined(separator: ", ") + " and " + last
    }

    /// " (text)", or nothing for empty text.
    private static func aside(_ text: String) -> String {
        text.isEmpty ? "" : " (\(text))"
    }

    private static func times(_ n: Int) -> String {
        n > 1 ? " \(n)×" : ""
    }

    private static func target(_ name: String?) -> String {
        switch name {
        case nil: ""
        case HistoryDetail.FallbackTarget.tone.rawValue?: " to the tone"
        case HistoryDetail.FallbackTarget.alternate.rawValue?: " to the alternate stream"
        case let other?: " to \(other)"
        }
    }

    /// Seconds with one decimal, the rest cut off: 850 ms is "0.8", 12 345 ms is "12.3".
    static func tenths(_ d: Duration) -> String {
        let c = d.components
        let ms = max(0, c.seconds * 1000 + c.attoseconds / 1_000_000_000_000_000)
        return "\(ms / 1000).\(ms % 1000 / 100)"
    }
}
