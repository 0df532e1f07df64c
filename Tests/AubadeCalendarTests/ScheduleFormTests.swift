import AubadeCalendar
import AubadeCore
import Foundation
import Testing

@Suite("The JSON and CSV schedule forms")
struct ScheduleFormTests {
    @Test func theJSONFormGivesWeeklyDailyAndDatedRows() throws {
        let read = try Fixtures.programmes("schedule.json", now: "2027-03-20T00:00:00Z")
        #expect(read.format == "json" && read.expandedThrough == nil)
        let rows = Fixtures.byKey(read.programmes)
        for day in ["mon", "tue", "wed", "thu", "fri"] {
            let row = try #require(rows["matin#\(day)"], "one row per weekday, keyed by the entry's id")
            #expect(row.weekday?.shortName == day && row.name == "Le Matin" && row.host == "Claire")
            #expect(row.timeZoneID == "Europe/Paris" && row.details == "Infos, météo et musique")
        }
        let night = try #require(read.programmes.first { $0.name == "Nuit blanche" })
        #expect(try night.date == Fixtures.date("2027-03-27") && night.end == Fixtures.time("02:00"))
        let concert = try #require(read.programmes.first { $0.name == "Concert" })
        #expect(try concert.dates == Fixtures.dates(["2027-04-02", "2027-04-09"]), "sorted")
        let jazz = try #require(read.programmes.first { $0.name == "Jazz" })
        #expect(jazz.weekday == nil && jazz.date == nil && jazz.dates == nil && jazz.url == "https://radio-paris.test/jazz")
        #expect(read.programmes.count == 8)
    }

    @Test func theCSVFormWithQuotesAndAHeader() throws {
        let read = try Fixtures.programmes("schedule.csv", now: "2027-03-20T00:00:00Z")
        #expect(read.format == "csv")
        let names = read.programmes.map(\.name)
        #expect(names.filter { $0 == "Breakfast" }.count == 5 && names.filter { $0 == "Weekend Wake-up" }.count == 2)
        let breakfast = try #require(read.programmes.first { $0.name == "Breakfast" })
        #expect(breakfast.details == "News, weather; and music" && breakfast.host == "Sam" && breakfast.timeZoneID == nil)
        let owls = try #require(read.programmes.first { $0.name == "Night Owls" })
        #expect(try owls.weekday == .sunday && owls.begin == Fixtures.time("23:00") && owls.end == Fixtures.time("01:00"))
        // A quoted field over two lines: one line of text (R40).
        #expect(owls.details == "Late talk over two lines")
        let concert = try #require(read.programmes.first { $0.name == "Concert" })
        #expect(try concert.date == Fixtures.date("2027-03-27") && concert.host == nil)
        #expect(read.programmes.count == 9)
        #expect(Set(read.programmes.compactMap(\.importKey)).count == 9, "every row has its own key")
    }

    @Test func theSameScheduleKeepsItsKeysWhenReadAgain() throws {
        let a = try Fixtures.programmes("schedule.csv", now: "2027-03-20T00:00:00Z")
        let b = try Fixtures.programmes("schedule.csv", now: "2027-05-20T00:00:00Z")
        #expect(a.programmes.map(\.importKey) == b.programmes.map(\.importKey))
        #expect(a.contentHash == b.contentHash && a.contentHash.count == 64)
    }
}
