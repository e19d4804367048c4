import Foundation
import Testing
@testable import SportsTimeCore

/// The committed `fixtures/reference/`, found from this file's path.
private let committedReference = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("fixtures/reference")

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

    @Test(arguments: [
        "", "2026-13-01T00:00:00Z", "2026-02-30T00:00:00Z", "2026-06-12", "2026-06-12T25:00:00Z", "2026-06-12T10:00:00", "yesterday",
    ])
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
        #expect(LocalDate(year: 2026, month: 11, day: 21)!.isoWeekday == 6) // a Saturday
        #expect(LocalDate(daysSinceEpoch: 0).iso8601 == "1970-01-01")
    }

    /// The layouts read without the general parser (`YYYY-MM-DD`, `YYYYMMDD`) give what it gives: every
    /// day of four years in both, impossible dates, and near misses of either layout.
    @Test func fastDateLayoutsReadAsTheGeneralParserDoes() throws {
        func general(_ text: String) -> LocalDate? {
            var parser = FixedParser(Substring(text))
            guard let date = parser.parseDate(), parser.isAtEnd else { return nil }
            return date
        }
        var texts = [
            "20230230", "2023-02-30", "20231301", "00000000", "99991231", "2024-02-29", "20240229", "20230229",
            "2023-0330", "202303-30", "2023033a", "+2023033", "2023 330", "2023-3-30", "2023033", "202303300",
            "2023-03-3", "2023/03/30", "２０２３０３３０", "",
        ]
        for days in Int64(19_000)...Int64(20_461) {
            let date = LocalDate(daysSinceEpoch: days)
            texts.append(date.iso8601)
            texts.append(date.iso8601.replacingOccurrences(of: "-", with: ""))
        }
        for text in texts {
            #expect(LocalDate(iso8601: text) == general(text), "\(text)")
            #expect(LocalDate(iso8601: Substring(text)) == general(text), "\(text)")
        }
        #expect(LocalDate(iso8601: "20230330") == LocalDate(year: 2023, month: 3, day: 30))
        #expect(LocalDate(iso8601: "20230230") == nil)
    }

    /// Dates are stored packed (6 bytes); order, equality and the day count are those of the calendar,
    /// checked day by day over four centuries, and a day count no schedule holds does not trap.
    @Test func packedDatesKeepCalendarOrderAndArithmetic() throws {
        var previous = LocalDate(daysSinceEpoch: -73_000)
        for days in Int64(-72_999)...Int64(73_000) {
            let date = LocalDate(daysSinceEpoch: days)
            #expect(date.daysSinceEpoch == days)
            #expect(previous < date && !(date < previous) && previous != date)
            #expect(LocalDate(year: date.year, month: date.month, day: date.day) == date)
            previous = date
        }
        #expect(MemoryLayout<LocalDate>.size == 6)
        let far = LocalDate(daysSinceEpoch: Int64.max / 2)
        #expect(far.year == Int(Int32.max))
    }

    @Test func stadiumLocalDateAcrossMidnight() throws {
        // A 7:30 pm Pacific start is the next day in UTC.
        let zone = try #require(ZonedTime.zone("America/Los_Angeles"))
        let start = ZonedTime.instant(date: LocalDate(year: 2022, month: 9, day: 8)!, hour: 19, minute: 30, in: zone)
        #expect(start.iso8601 == "2022-09-09T02:30:00Z")
        #expect(start.utcDate.iso8601 == "2022-09-09")
        #expect(ZonedTime.localDate(of: start, in: zone).iso8601 == "2022-09-08")
        #expect(ZoneAbbreviations.abbreviation(zone: "America/Los_Angeles", at: start) == "PDT")
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
        ("Asia/Kolkata", "2025-10-02T16:00:00Z", "IST"), ("Asia/Kathmandu", "2025-10-02T16:00:00Z", "UTC+05:45"),
        ("America/New_York", "1990-07-01T18:00:00Z", "EDT"), ("Europe/London", "1970-01-01T00:00:00Z", "BST"),
        ("Not/A_Zone", "2025-07-01T18:00:00Z", "Not/A_Zone"),
    ])
    func zoneAbbreviations(zone: String, instant: String, expected: String) throws {
        #expect(ZoneAbbreviations.abbreviation(zone: zone, at: Instant(iso8601: instant)!) == expected)
    }

    /// Every zone a committed stadium uses, named in January and in July 2026. A new stadium zone
    /// fails here until its names are added, so a name in the outputs is never a surprise.
    @Test func everyStadiumZoneHasItsExpectedAbbreviations() throws {
        let expected: [String: (january: String, july: String)] = [
            "America/Chicago": ("CST", "CDT"), "America/Denver": ("MST", "MDT"), "America/Detroit": ("EST", "EDT"),
            "America/Edmonton": ("MST", "MDT"), "America/Indiana/Indianapolis": ("EST", "EDT"),
            "America/Kentucky/Louisville": ("EST", "EDT"), "America/Los_Angeles": ("PST", "PDT"),
            "America/Mexico_City": ("CST", "CST"), "America/New_York": ("EST", "EDT"), "America/Phoenix": ("MST", "MST"),
            "America/Puerto_Rico": ("AST", "AST"), "America/Sao_Paulo": ("BRT", "BRT"), "America/Toronto": ("EST", "EDT"),
            "America/Vancouver": ("PST", "PDT"), "America/Winnipeg": ("CST", "CDT"), "Asia/Dubai": ("GST", "GST"),
            "Asia/Macau": ("CST", "CST"), "Australia/Melbourne": ("AEDT", "AEST"), "Europe/Berlin": ("CET", "CEST"),
            "Europe/Dublin": ("GMT", "IST"), "Europe/Helsinki": ("EET", "EEST"), "Europe/London": ("GMT", "BST"),
            "Europe/Madrid": ("CET", "CEST"), "Europe/Paris": ("CET", "CEST"), "Europe/Prague": ("CET", "CEST"),
            "Europe/Stockholm": ("CET", "CEST"),
        ]
        let data = try ReferenceLoader.load(from: committedReference, displayPath: "fixtures/reference")
        let zones = Set(data.stadiums.map(\.timeZone))
        #expect(zones.count > 20)
        let january = try #require(Instant(iso8601: "2026-01-15T18:00:00Z"))
        let july = try #require(Instant(iso8601: "2026-07-15T18:00:00Z"))
        for zone in zones.sorted() {
            guard let names = expected[zone] else {
                Issue.record("stadium zone \(zone) has no expected abbreviations here")
                continue
            }
            #expect(ZoneAbbreviations.abbreviation(zone: zone, at: january) == names.january, "\(zone) January")
            #expect(ZoneAbbreviations.abbreviation(zone: zone, at: july) == names.july, "\(zone) July")
        }
    }

    /// Without tzdata files the table (and the region guess) must give the names tzdata would.
    @Test func fallbackWithoutTzdataAgreesWithTzdata() throws {
        let data = try ReferenceLoader.load(from: committedReference, displayPath: "fixtures/reference")
        let zones = Set(data.stadiums.map(\.timeZone)).union(ZoneAbbreviations.namedZones.keys)
        let instants = ["2026-01-15T18:00:00Z", "2026-07-15T18:00:00Z"].compactMap { Instant(iso8601: $0) }
        for zone in zones.sorted() {
            for instant in instants {
                #expect(
                    ZoneAbbreviations.fallback(zone: zone, at: instant, guessFromRegion: true)
                        == ZoneAbbreviations.abbreviation(zone: zone, at: instant), "\(zone) \(instant.iso8601)")
            }
        }
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
