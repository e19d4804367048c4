import Foundation
import SportsTimeCore
@testable import SportsTimeIngest
import Testing

@Suite struct DateLayoutTests {
    func parts(_ layout: String, _ text: String) throws -> DateLayout.Parts? {
        try DateLayout(layout).parse(text)
    }

    @Test func calendarDates() throws {
        #expect(try parts("M/d/yyyy", "9/28/2025")?.date == LocalDate(year: 2025, month: 9, day: 28))
        #expect(try parts("M/d/yyyy", "10/05/2025")?.date == LocalDate(year: 2025, month: 10, day: 5))
        #expect(try parts("yyyyMMdd", "20230330")?.date == LocalDate(year: 2023, month: 3, day: 30))
        #expect(try parts("yyyyMMdd", "2023330") == nil)
        #expect(try parts("EEE MMM d yyyy", "Fri May 19 2023")?.date == LocalDate(year: 2023, month: 5, day: 19))
        #expect(try parts("EEE, MMM d, yyyy", "Sat, Mar 29, 2025")?.date == LocalDate(year: 2025, month: 3, day: 29))
        #expect(try parts("EEEE d MMMM yyyy", "Saturday 29 March 2025")?.date == LocalDate(year: 2025, month: 3, day: 29))
        #expect(try parts("MMM d yyyy", "Sept 3 2025")?.date == LocalDate(year: 2025, month: 9, day: 3))
        #expect(try parts("dd.MM.yy", "04.03.25")?.date == LocalDate(year: 2025, month: 3, day: 4))
    }

    @Test func impossibleDatesAndLeftoverTextDoNotParse() throws {
        #expect(try parts("yyyy-MM-dd", "2023-02-30") == nil)
        #expect(try parts("yyyy-MM-dd", "2023-13-01") == nil)
        #expect(try parts("yyyy-MM-dd", "2023-03-01x") == nil)
        #expect(try parts("EEE MMM d yyyy", "Fry May 19 2023") == nil)
    }

    @Test func timesOfDay() throws {
        let seven30 = try parts("h:mma", "7:30p")
        #expect(seven30?.hour == 19 && seven30?.minute == 30)
        #expect(try parts("h:mm a", "12:05 AM")?.hour == 0)
        #expect(try parts("h:mm a", "12:05 pm")?.hour == 12)
        #expect(try parts("h:mm a", "8:00 P.M.")?.hour == 20)
        #expect(try parts("HH:mm", "20:15")?.minute == 15)
        #expect(try parts("HH:mm", "24:00") == nil)
        #expect(try parts("h:mm a", "13:00 PM") == nil)
    }

    @Test func instantsWithOffsetsAndNamedLayouts() throws {
        #expect(try parts("yyyy-MM-dd'T'HH:mm:ssXXX", "2025-10-03T21:00:00-05:00")?.instant == Instant(iso8601: "2025-10-04T02:00:00Z"))
        #expect(try parts("iso8601", "2025-10-04T02:00:00Z")?.instant == Instant(iso8601: "2025-10-04T02:00:00Z"))
        let naive = try parts("iso8601", "2025-10-04T02:00")
        #expect(naive?.instant == nil && naive?.hour == 2 && naive?.date == LocalDate(year: 2025, month: 10, day: 4))
        #expect(try parts("iso8601", "2025-10-04")?.date == LocalDate(year: 2025, month: 10, day: 4))
        #expect(try parts("epoch", "1759543200")?.instant == Instant(iso8601: "2025-10-04T02:00:00Z"))
        #expect(try parts("epochMillis", "1759543200000")?.instant == Instant(iso8601: "2025-10-04T02:00:00Z"))
    }

    @Test func badLayoutsAreRefusedWhenCompiled() {
        #expect(throws: DateLayout.LayoutError.self) { try DateLayout("yyyy-QQ-dd") }
        #expect(throws: DateLayout.LayoutError.self) { try DateLayout("h:mm") }
        #expect(throws: DateLayout.LayoutError.self) { try DateLayout("yyyy-MM-dd'T") }
    }
}
