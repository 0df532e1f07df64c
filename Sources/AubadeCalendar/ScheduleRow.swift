import AubadeCore
import Foundation

/// One row of a JSON or CSV schedule — when (days, or one date, or a list of dates), from, until, what — as
/// `programs` rows: one per weekday for a weekly row ("mon-fri" is five rows, each on its weekday), one for a
/// daily row, one with its date or dates. Its import key is the row's `id` when it has one, else made of its
/// days, begin and title (stable while those stay); a weekly row's keys add the weekday.
struct ScheduleRow {
    var line: Int
    var id: String?
    /// "mon-fri", "sat,sun", "daily", a weekday — or a date "YYYY-MM-DD" (CSV's weekday column takes one too).
    var days: String?
    var date: String?
    var dates: [String]?
    var start: String?
    var end: String?
    var title: String?
    var host: String?
    var description: String?
    var location: String?
    var url: String?
    var zoneID: String?

    func programmes() throws(CalendarError) -> [Programme] {
        do throws(ValidationError) {
            guard let name = ICalendarReader.name(title) else { throw ValidationError("the programme has no title.") }
            let begin = try LocalTime(parsing: start ?? "", field: "The start")
            let finish = try LocalTime(parsing: end ?? "", field: "The end")
            var base = Programme(
                name: name, begin: begin, end: finish, host: ICalendarReader.text(host),
                details: ICalendarReader.text(description), timeZoneID: zoneID,
                location: ICalendarReader.text(location), url: ICalendarReader.text(url))
            let when: String
            var rows: [Programme] = []
            if let dates, !dates.isEmpty {
                var parsed: [LocalDate] = []
                for d in dates { parsed.append(try LocalDate(parsing: d, field: "A date")) }
                let unique = Array(Set(parsed)).sorted()
                if unique.count == 1 { base.date = unique[0] } else { base.dates = unique }
                when = unique.map(\.description).joined(separator: ",")
                rows = [base]
            } else if let single = date ?? days.flatMap({ ScheduleRow.looksLikeDate($0) ? $0 : nil }) {
                base.date = try LocalDate(parsing: single, field: "The date")
                when = single
                rows = [base]
            } else {
                let text = (days ?? "daily").trimmedText
                let weekdays = try Weekdays(parsing: text)
                when = text.lowercased()
                if weekdays == .all {
                    rows = [base]
                } else {
                    rows = weekdays.days.map { day in
                        var p = base
                        p.weekday = day
                        return p
                    }
                }
            }
            let key =
                id.map { $0.trimmedText }.flatMap { $0.isEmpty ? nil : $0 }
                ?? "\(when)|\(begin)|\(name.lowercased())"
            return try rows.map { row throws(ValidationError) in
                var p = row
                p.importKey = p.weekday.map { "\(key)#\($0.shortName)" } ?? key
                try p.validate()
                return p
            }
        } catch {
            throw CalendarError(line: line, ScheduleRow.lowercasedFirst(error.message))
        }
    }

    static func looksLikeDate(_ text: String) -> Bool {
        let t = text.trimmedText
        return t.count == 10 && t.first?.isNumber == true && t.dropFirst(4).first == "-"
    }

    /// "The start '25:00' is not…" → "the start '25:00' is not…", to follow "line 3: ".
    static func lowercasedFirst(_ sentence: String) -> String {
        guard let first = sentence.first, first.isUppercase, sentence.dropFirst().first?.isLowercase == true else {
            return sentence
        }
        return first.lowercased() + sentence.dropFirst()
    }
}
