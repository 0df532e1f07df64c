import ArgumentParser
import AubadeApp
import AubadeCore
import AubadeStore
import Foundation

/// `aubade alarm next`: the next firings of all enabled alarms, computed by the engine's own recurrence
/// code (`AlarmSchedule.upcoming`), so `--now` and `--tz` answer "what happens on that DST night?" exactly
/// as the daemon would. Occurrences passed over are listed too, with why ("skipped: Christmas Day" for a day
/// off), and each ring with the programme on air then on the alarm's station.
struct AlarmNext: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "next", abstract: "Preview the next firings of all enabled alarms.",
        discussion: "Example: aubade alarm next --count 3 --now 2026-03-28T22:00:00+01:00 --tz Europe/Berlin")
    static let countRange = 1...100

    @OptionGroup var global: GlobalOptions
    @Option(help: "How many firings to list (1-100).") var count = 5
    @Option(help: "Preview from this instant instead of now: ISO-8601 with a UTC offset, e.g. 2026-03-28T22:00:00+01:00.")
    var now: String?
    @Option(help: "The zone of alarms that name none (default: the clock's zone).") var tz: String?

    func run() throws {
        guard AlarmNext.countRange.contains(count) else {
            throw CLIError.badInput("--count \(count) is out of range; use 1 to 100.")
        }
        let from = try AlarmNext.instant(parsing: now) ?? Date()
        let context = try global.context()
        let zone = try tz.map { try Alarm.validTimeZone($0) } ?? context.defaultZone()
        let schedule = try context.scheduleOrBackup()
        let fault = schedule.fault
        let firings = AlarmSchedule.upcoming(
            schedule.alarms, after: from, count: count, defaultZone: zone,
            daysOff: DaysOff(schedule.daysOff), includeSkipped: true)
        let guide = ProgrammeGuide(programmes: schedule.programmes, zone: zone)
        let byID = Dictionary(schedule.alarms.compactMap { a in a.id.map { ($0, a) } }, uniquingKeysWith: { a, _ in a })
        let onAir = firings.map { f in
            f.skip == nil
                ? f.alarmID.flatMap { byID[$0] }.flatMap { guide.onAir(for: $0, at: f.occurrence.instant)?.programme.name } : nil
        }
        let within24h = firings.first { $0.skip == nil }.map { $0.occurrence.instant.timeIntervalSince(from) <= 86_400 } ?? false
        if context.json {
            Output.json(NextDocument(now: from, zone: zone, firings: firings, onAir: onAir, alarmWithin24h: within24h))
        } else {
            printText(firings, onAir: onAir, from: from, zone: zone, within24h: within24h)
        }
        if fault != nil { throw ExitCode(1) }
    }

    /// Parses `--now`; nil when not given. The text must carry its offset ("Z" or "+01:00").
    static func instant(parsing text: String?) throws -> Date? {
        guard let text else { return nil }
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if let date = try? Date(trimmed, strategy: .iso8601) { return date }
        if let date = try? Date(trimmed, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)) {
            return date
        }
        throw CLIError.badInput(
            "--now '\(text)' is not an ISO-8601 instant with a UTC offset; write it like 2026-03-28T22:00:00+01:00.")
    }

    private func printText(_ firings: [Firing], onAir: [String?], from: Date, zone: TimeZone, within24h: Bool) {
        let start = Firing.offsetText(zone.secondsFromGMT(for: from))
        print("From \(from.formatted(.iso8601)) (UTC\(start), default zone \(zone.identifier)):")
        if !firings.isEmpty {
            Output.table(
                ["ID", "NAME", "DAY", "LOCAL TIME", "ZONE", "UTC", "NOTE"],
                zip(firings, onAir).map { f, program in
                    [
                        f.alarmID.map(String.init) ?? "-", f.alarmName, f.localWeekday, f.localText, f.zone.identifier,
                        f.occurrence.instant.formatted(.iso8601), f.skip.map(\.note) ?? program.map { "on air: \($0)" } ?? "",
                    ]
                })
        }
        if !within24h {
            print(firings.isEmpty ? "No alarm in the next 24 h (no enabled alarm fires)." : "No alarm in the next 24 h.")
        }
    }
}

/// `alarm next --json`: one object.
private struct NextDocument: Encodable {
    struct Entry: Encodable {
        var id: Int64?
        var name: String
        /// The date the alarm's rule names (can differ from the local date inside a gap over midnight).
        var date: String
        var local: String
        var utcOffset: String
        var zone: String
        var utc: String
        /// Passed over: why ("skipped: Christmas Day", "skipped once (skip-next)").
        var skipped: Bool
        var reason: String?
        /// The programme on air on the alarm's station when it rings.
        var onAir: String?
    }

    var now: String
    var timeZone: String
    var firings: [Entry]
    var alarmWithin24h: Bool

    init(now: Date, zone: TimeZone, firings: [Firing], onAir: [String?], alarmWithin24h: Bool) {
        self.now = now.formatted(.iso8601)
        timeZone = zone.identifier
        self.firings = zip(firings, onAir).map { f, program in
            Entry(
                id: f.alarmID, name: f.alarmName, date: f.occurrence.date.description, local: f.localText,
                utcOffset: f.utcOffsetText, zone: f.zone.identifier, utc: f.occurrence.instant.formatted(.iso8601),
                skipped: f.skip != nil, reason: f.skip?.sentence, onAir: program)
        }
        self.alarmWithin24h = alarmWithin24h
    }
}

extension SkipReason {
    /// The NOTE column: "skipped: Christmas Day", "skipped once (skip-next)".
    var note: String {
        switch self {
        case .skipNext: "skipped once (skip-next)"
        case .dayOff(let name): "skipped: \(name)"
        }
    }
}
