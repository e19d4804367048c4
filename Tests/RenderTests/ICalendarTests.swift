import Foundation
import SportsTimeCore
@testable import SportsTimeRender
import Testing

@Suite("iCalendar")
struct ICalendarTests {
    @Test("The calendars validate: CRLF, folding at 75 octets, escaping, required properties", arguments: Fixtures.cases)
    func validates(caseName: String) throws {
        let data = try #require(try Fixtures.render(caseName).file(named: "trip.ics")).data
        let validator = ICalendarValidator(data)
        #expect(validator.problems == [])
    }

    @Test("The feasible trip's calendar parses back to the best option's games")
    func parsesBack() throws {
        let plan = try Fixtures.plan(Fixtures.feasibleCase)
        let data = try #require(try Fixtures.render(Fixtures.feasibleCase).file(named: "trip.ics")).data
        let calendar = try #require(ICalendarValidator(data).calendar)
        let events = calendar.components("VEVENT")
        let best = try #require(plan.options.first)
        #expect(events.count == best.visits.count)
        for (event, visit) in zip(events, best.visits) {
            #expect(event.first("UID")?.value == "\(visit.gameId)@sportstime")
            let start = try #require(event.first("DTSTART"))
            #expect(start.parameters["TZID"] == visit.timeZone)
            let time = try #require(visit.localTime).replacingOccurrences(of: ":", with: "")
            #expect(start.value == visit.localDate.iso8601.replacingOccurrences(of: "-", with: "") + "T" + time + "00")
            let summary = ICalendarText.unescape(try #require(event.first("SUMMARY")).value)
            #expect(summary.hasSuffix("\(visit.awayTeamName) at \(visit.homeTeamName)"))
            #expect(event.first("GEO")?.value == "\(NumberText.trimmed(visit.latitude, 6));\(NumberText.trimmed(visit.longitude, 6))")
        }
        // The data's lastModified is the stamp (NBA and NHL were scraped at different times).
        #expect(events[0].first("DTSTAMP")?.value == "20251020T083000Z")
        #expect(events[1].first("DTSTAMP")?.value == "20251015T120000Z")
        // 2.5 h occupancy from the plan's constants.
        #expect(events[0].first("DTEND")?.value == "20251101T153000")
        // Accented names survive folding and escaping.
        let montreal = try #require(events.first { $0.first("UID")?.value.contains("phi-at-mtl") == true })
        #expect(ICalendarText.unescape(try #require(montreal.first("LOCATION")).value) == "Centre Bell, Montréal, QC, Canada")
        let zones = calendar.components("VTIMEZONE").compactMap { $0.first("TZID")?.value }
        #expect(zones == ["America/New_York", "America/Toronto"])
        #expect(ICalendarText.unescape(try #require(calendar.first("NAME")).value) == "Northeast Hoops & Hockey")
    }

    @Test("An infeasible plan gets a valid calendar with no events that says why")
    func infeasibleCalendar() throws {
        let data = try #require(try Fixtures.render(Fixtures.infeasibleCase).file(named: "trip.ics")).data
        let calendar = try #require(ICalendarValidator(data).calendar)
        #expect(calendar.components("VEVENT").isEmpty)
        let description = ICalendarText.unescape(try #require(calendar.first("DESCRIPTION")).value)
        #expect(description.hasPrefix("No trip was found for this request."))
        #expect(calendar.components("VTIMEZONE").count == 1)
    }

    @Test("A game with its time TBD is an all-day event")
    func timeTBD() throws {
        var plan = try Fixtures.plan(Fixtures.feasibleCase)
        plan.options[0].visits[2].localTime = nil
        plan.options[0].visits[2].startUTC = nil
        let data = RenderStage.render(plan, context: try Fixtures.context()).file(named: "trip.ics")!.data
        let validator = ICalendarValidator(data)
        #expect(validator.problems == [])
        let event = try #require(validator.calendar?.components("VEVENT")[2])
        #expect(event.first("DTSTART") == ContentLine(name: "DTSTART", parameters: ["VALUE": "DATE"], value: "20251102"))
        #expect(event.first("DTEND")?.value == "20251103")
        let summary = ICalendarText.unescape(try #require(event.first("SUMMARY")).value)
        #expect(summary.hasSuffix("(time to be announced)"))
    }

    @Test("A game the merged store lacks gets the documented fixed DTSTAMP and a warning")
    func missingGameStamp() throws {
        let base = try Fixtures.catalog()
        let catalog = RenderCatalog(sports: Array(base.sportsById.values), stadiums: Array(base.stadiumsById.values), gameLastModified: [:])
        let itinerary = RenderStage.render(
            try Fixtures.plan(Fixtures.feasibleCase),
            context: RenderContext(catalog: catalog, baseMap: .empty))
        let calendar = try #require(ICalendarValidator(itinerary.file(named: "trip.ics")!.data).calendar)
        #expect(calendar.components("VEVENT").allSatisfy { $0.first("DTSTAMP")?.value == "20260101T000000Z" })
        #expect(itinerary.diagnostics.contains { $0.severity == .warning && $0.message.contains("not in the merged store") })
    }

    @Test("Escaping covers backslash, semicolon, comma and newline, and round-trips")
    func escaping() {
        let raw = "a\\b;c,d\ne\r\u{7}f"
        #expect(ICalendarText.escape(raw) == "a\\\\b\\;c\\,d\\nef")
        let plain = "Bulls; Knicks, \\ and\nmore"
        #expect(ICalendarText.unescape(ICalendarText.escape(plain)) == plain)
    }

    @Test("Folding keeps lines within 75 octets, never splits a character, and unfolds to the original")
    func folding() throws {
        let line = "DESCRIPTION:" + String(repeating: "Montréal Canadiens — Centre Bell ", count: 9)
        let folded = ICalendarText.fold(line)
        #expect(folded.count > 1)
        for physical in folded { #expect(physical.utf8.count <= 75) }
        for physical in folded.dropFirst() { #expect(physical.hasPrefix(" ")) }
        #expect(folded.first?.utf8.count == 75 || folded.first?.utf8.count == 74 || folded.first?.utf8.count == 73)
        let joined = folded.joined(separator: "\r\n") + "\r\n"
        #expect(ICalendarText.unfold(joined) == [line])
        #expect(ICalendarText.fold("SHORT:x") == ["SHORT:x"])
        #expect(ICalendarText.unfold("A:b\nC:d\r\n") == nil)
    }

    @Test("The validator catches what it is meant to catch")
    func validatorRejectsBadFiles() {
        func problems(_ text: String) -> [String] { ICalendarValidator(Data(text.utf8)).problems }
        let good =
            "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//x//y//EN\r\nBEGIN:VEVENT\r\nUID:a\r\nDTSTAMP:20250101T000000Z\r\nDTSTART:20250101T000000Z\r\nSUMMARY:ok\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
        #expect(problems(good) == [])
        #expect(!problems(good.replacingOccurrences(of: "\r\n", with: "\n")).isEmpty)
        #expect(!problems(good.replacingOccurrences(of: "SUMMARY:ok", with: "SUMMARY:a,b")).isEmpty)
        #expect(!problems(good.replacingOccurrences(of: "SUMMARY:ok", with: "SUMMARY:" + String(repeating: "x", count: 80))).isEmpty)
        #expect(!problems(good.replacingOccurrences(of: "UID:a\r\n", with: "")).isEmpty)
        #expect(
            !problems(good.replacingOccurrences(of: "DTSTART:20250101T000000Z", with: "DTSTART;TZID=Nowhere/Zone:20250101T000000")).isEmpty)
        #expect(!problems(good.replacingOccurrences(of: "PRODID:-//x//y//EN\r\n", with: "")).isEmpty)
    }

    @Test("VTIMEZONE observances come from tzdata transitions for the trip's year")
    func timeZoneRules() throws {
        let newYork = try #require(TimeZone(identifier: "America/New_York"))
        let observances = TimeZoneRules.observances(of: newYork, years: 2025...2025)
        #expect(observances.map(\.localOnset) == ["20241103T020000", "20250309T020000", "20251102T020000"])
        #expect(observances.map(\.isDaylight) == [false, true, false])
        #expect(observances.map(\.name) == ["EST", "EDT", "EST"])
        #expect(observances.map { ICalendarFormat.offset($0.offsetTo) } == ["-0500", "-0400", "-0500"])
        #expect(observances.map { ICalendarFormat.offset($0.offsetFrom) } == ["-0400", "-0500", "-0400"])

        let phoenix = try #require(TimeZone(identifier: "America/Phoenix"))
        let arizona = TimeZoneRules.observances(of: phoenix, years: 2025...2025)
        #expect(arizona.count == 1)
        #expect(arizona.first?.isDaylight == false)
        #expect(arizona.first.map { ICalendarFormat.offset($0.offsetTo) } == "-0700")
        #expect(arizona.first?.localOnset == "19700101T000000")
    }
}
