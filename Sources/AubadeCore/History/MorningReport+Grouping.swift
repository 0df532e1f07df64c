import Foundation

/// Sorts history events into runs, one per alarm occurrence. An event that names its occurrence ("due …")
/// joins that occurrence's run; one that doesn't joins the alarm's open run (begun, not yet ended), or
/// starts a run of its own. Pre-check results without an occurrence wait for the alarm's next run.
struct RunGrouping {
    private struct Key: Hashable {
        var alarmID: Int64
        var occurrence: Date
    }

    private let names: [Int64: String]
    private var runs: [MorningReport.Run] = []
    private var byOccurrence: [Key: Int] = [:]
    private var open: [Int64: Int] = [:]
    private var pending: [Int64: [HistoryEvent]] = [:]
    /// The last self-test's reason, while it did not hear its chirp.
    private var selfTestFailure: String?

    init(names: [Int64: String]) {
        self.names = names
    }

    /// Adds one event; they must come oldest first.
    mutating func add(_ event: HistoryEvent) {
        // The microphone's daily self-test has no alarm: a failed one is a warning of each run that begins after it,
        // until one hears its chirp again.
        if let kind = HistoryKind(rawValue: event.kind), kind == .selfTestHeard || kind == .selfTestNotHeard {
            selfTestFailure = kind == .selfTestNotHeard ? event.detail.trimmingSpaces : nil
            return
        }
        guard let id = event.alarmID, let kind = HistoryKind(rawValue: event.kind), RunGrouping.isRunKind(kind) else {
            return
        }
        let due = HistoryDetail.occurrence(in: event.detail)
        if due == nil, kind == .precheckFailed || kind == .precheckPassed {
            pending[id, default: []].append(event)
            return
        }
        let index = runIndex(for: id, due: due, at: event.at)
        RunGrouping.apply(kind, event, to: &runs[index])
        if RunGrouping.isRingStart(kind) {
            link(index, with: HistoryDetail.ringingWith(in: event.detail), at: event.at)
            runs[index].ringingSince = event.at
        }
        if RunGrouping.isTerminal(kind) {
            if open[id] == index { open[id] = nil }
        } else {
            open[id] = index
        }
    }

    /// Run `index` began ringing at `at` while alarms `others` rang (R38): it rang with them, and each of
    /// their open runs was joined by it — or rang with it, when that one began at the same instant.
    private mutating func link(_ index: Int, with others: [Int64], at: Date) {
        let me = MorningReport.Run.Companion(alarmID: runs[index].alarmID, name: runs[index].name)
        for other in others where other != me.alarmID {
            RunGrouping.add(.init(alarmID: other, name: names[other] ?? "Alarm \(other)"), to: &runs[index].rangWith)
            guard let j = open[other], j != index else { continue }
            if runs[j].ringingSince == at {
                RunGrouping.add(me, to: &runs[j].rangWith)
            } else if !runs[j].rangWith.contains(me) {
                RunGrouping.add(me, to: &runs[j].joinedBy)
            }
        }
    }

    private static func add(_ companion: MorningReport.Run.Companion, to list: inout [MorningReport.Run.Companion]) {
        if !list.contains(companion) { list.append(companion) }
    }

    /// The runs, pre-checks still waiting included as runs of their own.
    mutating func finish() -> [MorningReport.Run] {
        for id in pending.keys.sorted() {
            if let first = pending[id]?.first { _ = newRun(id, scheduled: nil, at: first.at) }
        }
        return runs
    }

    private mutating func runIndex(for id: Int64, due: Date?, at: Date) -> Int {
        guard let due else { return open[id] ?? newRun(id, scheduled: nil, at: at) }
        let key = Key(alarmID: id, occurrence: due)
        if let index = byOccurrence[key] { return index }
        if let index = open[id], runs[index].scheduled == nil {
            runs[index].scheduled = due
            byOccurrence[key] = index
            return index
        }
        return newRun(id, scheduled: due, at: at)
    }

    /// Appends a run for alarm `id`, with the pre-checks that waited for it.
    private mutating func newRun(_ id: Int64, scheduled: Date?, at: Date) -> Int {
        let waiting = pending.removeValue(forKey: id) ?? []
        var run = MorningReport.Run(
            alarmID: id, name: names[id] ?? "Alarm \(id)", scheduled: scheduled,
            firstEventAt: min(waiting.first?.at ?? at, at))
        for event in waiting {
            if let kind = HistoryKind(rawValue: event.kind) { RunGrouping.apply(kind, event, to: &run) }
        }
        if let selfTestFailure { run.warnings.append("the microphone's self-test before it failed: \(selfTestFailure)") }
        runs.append(run)
        if let scheduled { byOccurrence[Key(alarmID: id, occurrence: scheduled)] = runs.count - 1 }
        return runs.count - 1
    }

    static func isRunKind(_ kind: HistoryKind) -> Bool {
        switch kind {
        case .clockStep, .timeZoneChanged, .reservationStarted, .sleepStarted, .sleepEnded, .selfTestHeard, .selfTestNotHeard:
            false
        default: true
        }
    }

    /// Kinds that say an alarm began ringing (and may name the alarms it rang with).
    static func isRingStart(_ kind: HistoryKind) -> Bool {
        switch kind {
        case .rang, .rangLate, .resumed, .snoozeEnded: true
        default: false
        }
    }

    static func isTerminal(_ kind: HistoryKind) -> Bool {
        switch kind {
        case .dismissed, .autoSilenced, .unanswered, .missed, .skipped, .superseded, .cancelled: true
        default: false
        }
    }

    /// What one event tells about its run.
    static func apply(_ kind: HistoryKind, _ event: HistoryEvent, to run: inout MorningReport.Run) {
        let detail = event.detail.trimmingSpaces
        switch kind {
        case .rang:
            if run.start == .notRung { run.start = .onTime }
            run.inSnooze = false
        case .rangLate:
            let late = run.scheduled.map { max(Int(event.at.timeIntervalSince($0) / 60), 0) }
            if run.start == .notRung { run.start = .late(minutes: late) }
            run.inSnooze = false
        case .resumed:
            if run.start == .notRung { run.start = .resumed } else { run.resumes += 1 }
            run.inSnooze = false
        case .snoozeEnded: run.inSnooze = false
        case .snoozed:
            run.snoozes += 1
            run.inSnooze = true
        case .snoozeRefused: run.snoozesRefused += 1
        case .dismissed: run.end = .dismissed(input: HistoryDetail.dismissInput(in: detail), detail: detail)
        case .autoSilenced: run.end = .autoSilenced(detail: detail)
        case .unanswered: run.end = .unanswered(detail: detail)
        case .climbed: run.climbedTo = HistoryDetail.climbedTo(in: detail) ?? run.climbedTo
        case .escalated: run.climbedTo = LadderStep.everything.description
        case .rested:
            run.rests += 1
            run.inSnooze = true
        case .missed: run.end = .missed(detail: detail)
        case .skipped: run.end = .skipped(dayOff: HistoryDetail.dayOff(in: detail))
        case .superseded: run.end = .superseded(detail: detail)
        case .cancelled: run.end = .cancelled(detail: detail)
        case .audible: noteAudible(detail, &run)
        case .onset: if run.onsetLate == nil { run.onsetLate = HistoryDetail.onsetLate(in: detail) }
        case .fallback:
            let parsed = HistoryDetail.fallback(in: detail)
            run.fallbacks.append(.init(target: parsed.target, reason: parsed.reason))
        case .recovered: run.recoveries += 1
        case .warning, .notHeard: run.warnings.append(detail)
        case .precheckFailed: run.precheck = .failed(detail)
        case .precheckPassed: if run.precheck == nil { run.precheck = .passed }
        case .secondWaker: noteSecondWaker(detail, &run)
        case .wakeCheck: break
        case .woke: run.wakeChecks.append("woke")
        case .fellBackAsleep:
            // It rings again: the run is not over until it ends again.
            run.wakeChecks.append("fell back asleep")
            run.end = nil
        case .clockStep, .timeZoneChanged, .reservationStarted, .sleepStarted, .sleepEnded, .selfTestHeard, .selfTestNotHeard:
            break
        }
        if isTerminal(kind) { run.inSnooze = false }
    }

    /// A ring of the second waker (R35): the run was rung by it, and a person's stop or its duration ended it
    /// there ("end=stop by=button", "end=duration"); a snooze there counts as one.
    private static func noteSecondWaker(_ detail: String, _ run: inout MorningReport.Run) {
        run.secondWakerRang = true
        let words = detail.split(whereSeparator: { $0 == " " || $0 == "," })
        if words.contains("end=stop") {
            let input = words.first { $0.hasPrefix("by=") }.flatMap { DismissInput(rawValue: String($0.dropFirst(3))) }
            run.end = .dismissed(input: input, detail: "on the second waker")
        } else if words.contains("end=duration") {
            run.end = .autoSilenced(detail: "on the second waker, after its duration")
        } else if words.contains("end=snooze") {
            run.snoozes += 1
            run.inSnooze = true
        }
    }

    /// The first `audible` event counts: it is the time to sound at the start.
    private static func noteAudible(_ detail: String, _ run: inout MorningReport.Run) {
        guard !run.wasAudible else { return }
        if let delay = HistoryDetail.audibleDelay(in: detail) {
            run.audibleAfter = delay
        } else {
            run.audibleDetail = detail
        }
    }
}
