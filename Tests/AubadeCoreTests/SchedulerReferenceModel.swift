import AubadeCore
import Foundation

/// A deliberately simple model of what the alarm engine must do, for the property tests. It knows one
/// fixed-offset zone (Asia/Kathmandu, +05:45 all year), so an occurrence is plain arithmetic on local
/// days; it handles every event at its exact instant; it states each rule of RELIABILITY.md directly.
/// Times are seconds since 1970 (wall) or since the simulation began (real, which is also monotonic).
struct ReferenceModel {
    static let offset = 5 * 3600 + 45 * 60

    struct Rule: Equatable {
        var hour: Int
        var minute: Int
        var days: Weekdays
        var enabled: Bool
        var duration: Int
        var snoozeMinutes: Int
        var maxSnoozes: Int
    }

    struct Ringing: Equatable {
        var id: Int64
        var occurrence: Int
        var start: Int
        var count: Int
    }

    struct Snooze: Equatable {
        var occurrence: Int
        var end: Int
        var count: Int
    }

    /// One line of the expected history: when (real seconds), what, which alarm, and — for a ring — the
    /// alarms already ringing that it rang with (R38), in the order they began.
    struct Entry: Comparable, CustomStringConvertible {
        var at: Int
        var kind: String
        var id: Int64?
        var with: [Int64] = []
        static func < (a: Entry, b: Entry) -> Bool { (a.at, a.kind, a.id ?? -1) < (b.at, b.kind, b.id ?? -1) }
        var description: String {
            "t+\(at) \(kind) \(id.map(String.init) ?? "-")" + (with.isEmpty ? "" : " with \(with)")
        }
    }

    let startWall: Int
    let window: Int
    var wallOffset = 0
    var rules: [Int64: Rule] = [:]
    /// Occurrences at or before this wall instant never ring.
    var handled: [Int64: Int] = [:]
    /// Per alarm: the latest occurrence acted on (rung or missed) or passed over when it was armed — the
    /// engine's stored `lastHandledOccurrence`, which an arming never goes below.
    var acted: [Int64: Int] = [:]
    /// The ringing group, in the order their ringing began: every alarm within its duration and neither
    /// snoozed nor dismissed (R38).
    var ringing: [Ringing] = []
    var snoozed: [Int64: Snooze] = [:]
    var log: [Entry] = []

    init(startWall: Int, catchUpWindow: Int) {
        self.startWall = startWall
        self.window = catchUpWindow
    }

    func wall(_ real: Int) -> Int { startWall + real + wallOffset }

    // MARK: occurrences, by arithmetic on local days

    static func occurrences(_ rule: Rule, after low: Int, through high: Int) -> [Int] {
        guard low < high else { return [] }
        let first = (low + offset).floorDiv(86_400) - 1
        let last = (high + offset).floorDiv(86_400) + 1
        return (first...last).compactMap { day in
            let o = day * 86_400 + rule.hour * 3600 + rule.minute * 60 - offset
            let weekday = Weekday(isoNumber: (day + 3).mod(7) + 1) ?? .monday
            return rule.days.contains(weekday) && o > low && o <= high ? o : nil
        }
    }

    static func next(_ rule: Rule, after low: Int) -> Int? {
        occurrences(rule, after: low, through: low + 8 * 86_400).first
    }

    static func previous(_ rule: Rule, atOrBefore high: Int) -> Int? {
        occurrences(rule, after: high - 8 * 86_400, through: high).last
    }

    // MARK: time passing

    /// The next real instant at which something happens by itself, if any.
    func nextEvent() -> Int? {
        var times: [Int] = []
        for r in ringing {
            if let rule = rules[r.id] { times.append(r.start + rule.duration) }
        }
        times += snoozed.values.map(\.end)
        for (id, rule) in rules where rule.enabled {
            if let o = ReferenceModel.next(rule, after: handled[id] ?? Int.min / 4) {
                times.append(o - startWall - wallOffset)
            }
        }
        return times.min()
    }

    /// Handles, in order, everything that happens by itself up to `real`.
    mutating func advance(to real: Int) {
        while let e = nextEvent(), e <= real {
            settle(at: e)
        }
    }

    /// What happens at `real`: auto-silence of each member at the end of its own duration (the others ring
    /// on), then snooze ends, then due occurrences.
    mutating func settle(at real: Int) {
        for r in ringing.sorted(by: { $0.id < $1.id }) {
            guard let rule = rules[r.id], r.start + rule.duration <= real else { continue }
            ringing.removeAll { $0.id == r.id }
            log.append(Entry(at: real, kind: "auto-silenced", id: r.id))
        }
        for (id, s) in snoozed.filter({ $0.value.end <= real }).sorted(by: { ($0.value.end, $0.key) < ($1.value.end, $1.key) }) {
            ring(id, occurrence: s.occurrence, at: real, kind: "snooze-ended")
        }
        due(at: real)
    }

    /// R6/R11: of the occurrences not yet handled up to now, the latest rings if due at most G ago.
    mutating func due(at real: Int) {
        let now = wall(real)
        var toRing: [(Int, Int64)] = []
        for id in rules.keys.sorted() {
            guard let rule = rules[id], rule.enabled else { continue }
            let list = ReferenceModel.occurrences(rule, after: handled[id] ?? now - 60, through: now)
            guard let latest = list.last else { continue }
            handled[id] = latest
            acted[id] = max(acted[id] ?? latest, latest)
            for _ in list.dropLast() { log.append(Entry(at: real, kind: "missed", id: id)) }
            if now - latest <= window {
                toRing.append((latest, id))
            } else {
                log.append(Entry(at: real, kind: "missed", id: id))
            }
        }
        for (o, id) in toRing.sorted(by: { $0 < $1 }) {
            ring(id, occurrence: o, at: real, kind: now - o >= 60 ? "rang-late" : "rang")
        }
    }

    /// R13, R38: the new ring joins whatever rings; only the alarm's own previous occurrence is superseded.
    mutating func ring(_ id: Int64, occurrence: Int, at real: Int, kind: String) {
        var count = 0
        let own = ringing.first { $0.id == id }?.occurrence ?? snoozed[id]?.occurrence
        if let own, own != occurrence {
            log.append(Entry(at: real, kind: "superseded", id: id))
        } else if kind == "snooze-ended" {
            count = snoozed[id]?.count ?? 0
        }
        snoozed[id] = nil
        ringing.removeAll { $0.id == id }
        log.append(Entry(at: real, kind: kind, id: id, with: ringing.map(\.id)))
        ringing.append(Ringing(id: id, occurrence: occurrence, start: real, count: count))
    }

    // MARK: what people do

    /// Snooze without an alarm: every member with snoozes left snoozes; the others ring on, refused.
    mutating func snoozePressed(at real: Int) {
        for r in ringing {
            guard let rule = rules[r.id] else { continue }
            if r.count < rule.maxSnoozes {
                snoozed[r.id] = Snooze(occurrence: r.occurrence, end: real + rule.snoozeMinutes * 60, count: r.count + 1)
                ringing.removeAll { $0.id == r.id }
                log.append(Entry(at: real, kind: "snoozed", id: r.id))
            } else {
                log.append(Entry(at: real, kind: "snooze-refused", id: r.id))
            }
        }
    }

    /// Stop without an alarm: every member is dismissed; snoozes stay.
    mutating func stopPressed(at real: Int) {
        for r in ringing { log.append(Entry(at: real, kind: "dismissed", id: r.id)) }
        ringing = []
    }

    /// R10: a pending ring or snooze of `id` is dropped.
    mutating func cancel(_ id: Int64, at real: Int) {
        guard ringing.contains(where: { $0.id == id }) || snoozed[id] != nil else { return }
        ringing.removeAll { $0.id == id }
        snoozed[id] = nil
        log.append(Entry(at: real, kind: "cancelled", id: id))
    }

    /// R11: from now on only occurrences from this minute on ring; the latest one before this minute counts
    /// as acted on. An occurrence acted on never rings again, but one merely in the future of an earlier
    /// arming (before a backward clock step) may.
    mutating func arm(_ id: Int64, at real: Int) {
        let minuteAgo = wall(real) - 60
        if let rule = rules[id], let previous = ReferenceModel.previous(rule, atOrBefore: minuteAgo) {
            acted[id] = max(acted[id] ?? previous, previous)
        }
        handled[id] = max(acted[id] ?? minuteAgo, minuteAgo)
    }

    mutating func save(_ id: Int64, _ rule: Rule, at real: Int) {
        let old = rules[id]
        rules[id] = rule
        let timing =
            old.map {
                $0.hour != rule.hour || $0.minute != rule.minute || $0.days != rule.days
                    || $0.enabled != rule.enabled
            } ?? true
        if timing {
            if old != nil { cancel(id, at: real) }
            if rule.enabled { arm(id, at: real) }
        }
        due(at: real)
    }

    mutating func remove(_ id: Int64, at real: Int) {
        cancel(id, at: real)
        rules[id] = nil
        handled[id] = nil
        acted[id] = nil
        due(at: real)
    }

    /// R5/R6: the wall clock jumps; durations do not; a forward jump catches up.
    mutating func step(by seconds: Int, at real: Int) {
        wallOffset += seconds
        log.append(Entry(at: real, kind: "clock-step", id: nil))
        due(at: real)
    }

    /// R9: a restart resumes every ringing alarm (and snoozes, silently), in the order they began, ties by id.
    mutating func restart(at real: Int) {
        let order = ringing.sorted { ($0.start, $0.id) < ($1.start, $1.id) }
        for (index, r) in order.enumerated() {
            log.append(Entry(at: real, kind: "resumed", id: r.id, with: order.prefix(index).map(\.id)))
        }
        ringing = order
    }
}

extension Int {
    func floorDiv(_ d: Int) -> Int { self >= 0 ? self / d : (self - d + 1) / d }
    func mod(_ d: Int) -> Int { ((self % d) + d) % d }
}
