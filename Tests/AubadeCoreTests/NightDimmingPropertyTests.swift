import AubadeCore
import Foundation
import PropertyBased
import Testing

/// Random evenings of events — ticks, touches, alarms starting and stopping, new settings, new zones and
/// wall-clock steps — run through `FacePlan`. After every event: while an alarm rings the target is
/// full brightness, undimmed, at once; the backlight is always 1…100; `changed` is exactly "differs from
/// the previous target"; and, in zones without DST, outside alarms and wake periods the page is dimmed
/// exactly when the local minute of the day lies in the window (an independent reading of local time).
@Suite("Night dimming: property tests")
struct NightDimmingPropertyTests {
    enum Event: Sendable {
        case tick, touch, ring, stop, settings(from: Int?, until: Int?, level: Int), zone(Int), step(seconds: Int)
    }

    struct Evening: Sendable, CustomStringConvertible {
        var start: Int
        var zone: Int
        var from: Int?
        var until: Int?
        var level: Int
        var events: [(gap: Int, event: Event)]

        var description: String {
            "start=\(start) zone=\(zone) from=\(String(describing: from)) until=\(String(describing: until)) level=\(level) events=\(events)"
        }
    }

    static let zones = ["Europe/Berlin", "America/New_York", "UTC", "Asia/Kolkata", "Asia/Kathmandu", "Australia/Lord_Howe"]
    static let fixedZones: Set<String> = ["UTC", "Asia/Kolkata", "Asia/Kathmandu"]

    static let generator = Generator<Evening, Shrink.None<Evening>> { rng in
        func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &rng) }
        func minute() -> Int? { int(0...9) == 0 ? nil : int(0...1439) }
        // Around the year's DST changes as often as not: 2026-03-07…04-06 or 2026-10-23…11-22, else any day.
        let base = [1_772_841_600, 1_792_713_600, 1_767_225_600][int(0...2)]
        var events: [(gap: Int, event: Event)] = []
        for _ in 0..<int(20...80) {
            let event: Event
            switch int(0...19) {
            case 0...5: event = .tick
            case 6...8: event = .touch
            case 9...11: event = .ring
            case 12...14: event = .stop
            case 15: event = .settings(from: minute(), until: minute(), level: int(1...100))
            case 16: event = .zone(int(0...(zones.count - 1)))
            default: event = .step(seconds: int(-7200...7200))
            }
            events.append((gap: [0, 1, 29, 30, 31, 600, 3599, 7200][int(0...7)], event: event))
        }
        return Evening(
            start: base + int(0...(30 * 86_400)), zone: int(0...(zones.count - 1)), from: minute(),
            until: minute(), level: int(1...100), events: events)
    }

    static func settings(_ from: Int?, _ until: Int?, _ level: Int) -> NightDimmingSettings {
        func time(_ m: Int?) -> LocalTime? { m.flatMap { try? LocalTime(hour: $0 / 60, minute: $0 % 60) } }
        return (try? NightDimmingSettings(from: time(from), until: time(until), level: level))
            ?? (try! NightDimmingSettings(from: nil, until: nil, level: level))
    }

    @Test("never dimmed while an alarm rings; dimmed exactly inside the window otherwise")
    func invariants() async {
        var seen: [FaceDecision.Reason: Int] = [:]
        await propertyCheck(count: 300, input: Self.generator) { evening in
            var zone = TimeZone(identifier: Self.zones[evening.zone])!
            var current = Self.settings(evening.from, evening.until, evening.level)
            var machine = FacePlan(settings: current, zone: zone)
            var wall = Date(timeIntervalSince1970: TimeInterval(evening.start))
            var mono = MonotonicInstant(seconds: 100)
            var ringing = false
            var awakeUntil: MonotonicInstant?
            var previous: FaceTarget?
            for (gap, event) in evening.events {
                wall = wall.addingTimeInterval(TimeInterval(gap))
                mono = mono + .seconds(gap)
                var now = SchedulerTime(wall: wall, mono: mono)
                let d: FaceDecision
                switch event {
                case .tick: d = machine.tick(at: now)
                case .touch:
                    d = machine.touched(at: now)
                    awakeUntil = mono + .seconds(30)
                case .ring:
                    d = machine.alarmStartedRinging(at: now)
                    ringing = true
                case .stop:
                    d = machine.alarmStoppedRinging(at: now)
                    if ringing { awakeUntil = mono + .seconds(30) }
                    ringing = false
                case .settings(let from, let until, let level):
                    current = Self.settings(from, until, level)
                    d = machine.settingsChanged(current, at: now)
                case .zone(let index):
                    zone = TimeZone(identifier: Self.zones[index])!
                    d = machine.zoneChanged(zone, at: now)
                case .step(let seconds):
                    wall = wall.addingTimeInterval(TimeInterval(seconds))
                    now = SchedulerTime(wall: wall, mono: mono)
                    d = machine.tick(at: now)
                }
                seen[d.reason, default: 0] += 1
                #expect(d.changed == (d.target != previous), "\(event) at \(now)")
                previous = d.target
                #expect((1...100).contains(d.target.backlightPercent))
                if ringing {
                    #expect(d.target == .full && d.reason == .ringing, "\(event) at \(now): \(d)")
                    continue
                }
                #expect(d.reason != .ringing)
                let awake = awakeUntil.map { mono < $0 } ?? false
                guard let window = current.window else {
                    #expect(d.target == .full && d.reason == .off)
                    continue
                }
                guard Self.fixedZones.contains(zone.identifier) else { continue }
                let inside = Self.inWindow(wall, window, zone)
                #expect(d.target.dimmed == (inside && !awake), "\(window) at \(now) in \(zone.identifier): \(d)")
                if inside && !awake { #expect(d.target.backlightPercent == current.level) }
                if !inside { #expect(d.target == .full) }
            }
        }
        for reason in [FaceDecision.Reason.ringing, .awake, .night, .day, .off] {
            #expect(seen[reason, default: 0] >= 20, "\(reason) happened \(seen[reason, default: 0]) times: \(seen)")
        }
    }

    /// Whether the local minute of the day of `instant` lies in `window`, read with Foundation's calendar.
    static func inWindow(_ instant: Date, _ window: DimmingWindow, _ zone: TimeZone) -> Bool {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let parts = calendar.dateComponents([.hour, .minute], from: instant)
        let minute = parts.hour! * 60 + parts.minute!
        let from = window.from.minutesSinceMidnight, until = window.until.minutesSinceMidnight
        return from < until ? (from <= minute && minute < until) : (minute >= from || minute < until)
    }
}
