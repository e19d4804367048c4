import Foundation
import Testing
@testable import SportsTimeCore

@Suite struct TimeTests {
    @Test(arguments: [
        ("2026-06-12T23:05:00Z", "2026-06-12T23:05:00Z"),
        ("2026-06-12T23:05Z", "2026-06-12T23:05:00Z"),
        ("2025-10-03T21:00:00-05:00", "2025-10-04T02:00:00Z"),
        ("2025-10-04T02:00:00.000Z", "2025-10-04T02:00:00Z"),
        ("20251004T020000Z", "2025-10-04T02:00:00Z"),
        ("1969-12-31T23:59:59Z", "1969-12-31T23:59:59Z"),
        ("2024-02-29T12:00:00+05:30", "2024-02-29T06:30:00Z"),
    ])
    func parsesISOInstants(text: String, canonical: String) throws {
        let instant = try #require(Instant(iso8601: text))
        #expect(instant.iso8601 == canonical)
    }

    @Test(arguments: ["", "2026-13-01T00:00:00Z", "2026-02-30T00:00:00Z", "2026-06-12", "2026-06-12T25:00:00Z", "2026-06-12T10:00:00", "yesterday"])
    func refusesNonInstants(text: String) {
        #expect(Instant(iso8601: text) == nil)
    }

    @Test func instantAgreesWithFoundation() {
        let formatter = ISO8601DateFormatter()
        for seconds in stride(from: Int64(-86_400 * 400), to: 86_400 * 365 * 80, by: 86_400 * 37 + 3_607) {
            let instant = Instant(secondsSinceEpoch: seconds)
            #expect(instant.iso8601 == formatter.string(from: instant.date))
        }
    }

    @Test func localDateArithmetic() throws {
        let date = try #require(LocalDate(iso8601: "2024-02-28"))
        #expect(date.adding(days: 1).iso8601 == "2024-02-29")
        #expect(date.adding(days: 2).iso8601 == "2024-03-01")
        #expect(date.days(until: LocalDate(year: 2025, month: 2, day: 28)!) == 366)
        #expect(LocalDate(year: 2023, month: 2, day: 29) == nil)
        #expect(LocalDate(year: 2026, month: 11, day: 21)!.isoWeekday == 6)  // a Saturday
        #expect(LocalDate(daysSinceEpoch: 0).iso8601 == "1970-01-01")
    }

    @Test func stadiumLocalDateAcrossMidnight() throws {
        // A 7:30 pm Pacific start is the next day in UTC.
        let zone = try #require(ZonedTime.zone("America/Los_Angeles"))
        let start = ZonedTime.instant(date: LocalDate(year: 2022, month: 9, day: 8)!, hour: 19, minute: 30, in: zone)
        #expect(start.iso8601 == "2022-09-09T02:30:00Z")
        #expect(start.utcDate.iso8601 == "2022-09-09")
        #expect(ZonedTime.localDate(of: start, in: zone).iso8601 == "2022-09-08")
        #expect(ZonedTime.abbreviation(of: zone, at: start) == "PDT")
    }

    @Test func wallClockThroughDaylightSavingTransitions() throws {
        let zone = try #require(ZonedTime.zone("America/New_York"))
        let winter = ZonedTime.instant(date: LocalDate(year: 2025, month: 1, day: 15)!, hour: 19, minute: 0, in: zone)
        let summer = ZonedTime.instant(date: LocalDate(year: 2025, month: 7, day: 15)!, hour: 19, minute: 0, in: zone)
        #expect(winter.iso8601 == "2025-01-16T00:00:00Z")
        #expect(summer.iso8601 == "2025-07-15T23:00:00Z")
        // 02:30 on the spring-forward day does not exist; it resolves to a real instant that day.
        let gap = ZonedTime.instant(date: LocalDate(year: 2025, month: 3, day: 9)!, hour: 2, minute: 30, in: zone)
        #expect(ZonedTime.localDate(of: gap, in: zone).iso8601 == "2025-03-09")
    }

    @Test(arguments: [
        ("America/New_York", "2025-07-01T18:00:00Z", "EDT"), ("America/New_York", "2025-01-01T18:00:00Z", "EST"),
        ("America/Chicago", "2025-07-01T18:00:00Z", "CDT"), ("America/Denver", "2025-01-01T18:00:00Z", "MST"),
        ("America/Phoenix", "2025-07-01T18:00:00Z", "MST"), ("America/Toronto", "2025-07-01T18:00:00Z", "EDT"),
        ("Europe/London", "2025-07-01T18:00:00Z", "BST"), ("Europe/Berlin", "2025-01-01T18:00:00Z", "CET"),
        ("Australia/Melbourne", "2025-01-01T18:00:00Z", "AEDT"), ("Asia/Dubai", "2025-10-02T16:00:00Z", "GST"),
        ("Asia/Kolkata", "2025-10-02T16:00:00Z", "UTC+05:30"),
    ])
    func zoneAbbreviations(zone: String, instant: String, expected: String) throws {
        let tz = try #require(ZonedTime.zone(zone))
        #expect(ZonedTime.abbreviation(of: tz, at: Instant(iso8601: instant)!) == expected)
    }

    @Test func zoneValidity() {
        #expect(ZonedTime.isValidZone("Europe/Berlin"))
        #expect(!ZonedTime.isValidZone("Europe/Frankfurt"))
        #expect(!ZonedTime.isValidZone("EST5"))
    }

    @Test func greatCircleDistances() {
        let fenway = Coordinate(latitude: 42.346389, longitude: -71.0975)
        let yankee = Coordinate(latitude: 40.829167, longitude: -73.926389)
        let km = GreatCircle.kilometres(from: fenway, to: yankee)
        #expect(abs(km - 291.0) < 2)
        #expect(GreatCircle.kilometres(from: fenway, to: fenway) == 0)
        #expect(abs(GreatCircle.miles(from: fenway, to: yankee) - km / 1.609344) < 1e-9)
    }
}
