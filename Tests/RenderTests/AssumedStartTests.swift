import Foundation
import SportsTimeTestSupport
import SportsTimeCore
@testable import SportsTimeRender
import Testing

/// Games whose start is not published (a day/night flag, or nothing) are shown with the start the plan
/// assumed, marked as assumed, in every format; drives laid out around such a start say so.
@Suite("Assumed starts")
struct AssumedStartTests {
    /// The feasible fixture with three starts made unpublished: game 1 (TD Garden, Nov 1) a day game
    /// assumed at 13:10, game 3 (Madison Square Garden, Nov 2) a night game assumed at 19:10, game 4
    /// (Barclays Center, Nov 3) TBD assumed at 19:00; the drives next to games 3 and 4 rest on them.
    static func plan() throws -> TripPlan {
        var plan = try Fixtures.plan(Fixtures.feasibleCase)
        var option = try #require(plan.options.first)
        func assume(_ index: Int, _ knowledge: StartKnowledge, _ time: String) {
            option.visits[index].startUTC = nil
            option.visits[index].localTime = nil
            option.visits[index].startKnowledge = knowledge
            option.visits[index].assumedLocalTime = time
        }
        assume(0, .day, "13:10")
        assume(2, .night, "19:10")
        assume(3, .unknown, "19:00")
        for index in option.visits.indices where option.visits[index].startKnowledge == nil {
            option.visits[index].startKnowledge = .exact
        }
        let night = option.visits[2].gameId, tbd = option.visits[3].gameId
        option.legs[0].assumedStartGameIds = [night]
        option.legs[1].assumedStartGameIds = [night, tbd]
        option.legs[2].assumedStartGameIds = [tbd]
        plan.options[0] = option
        return plan
    }

    static func render() throws -> RenderedItinerary {
        RenderStage.render(try plan(), context: try Fixtures.context(), planPath: "out/plan/assumed.json")
    }

    static func text(_ rendered: RenderedItinerary, _ name: String) throws -> String {
        String(decoding: try #require(rendered.file(named: name)).data, as: UTF8.self)
    }

    @Test("The itinerary with assumed starts matches the recorded files")
    func goldens() throws {
        let rendered = try Self.render()
        for name in ["itinerary.md", "itinerary.html", "trip.ics"] {
            let file = try #require(rendered.file(named: name))
            try Golden.assertMatches(file.data, expected: Fixtures.folder.appendingPathComponent("assumed-starts/expected/\(name)"))
        }
    }

    @Test("Game times say which start is assumed and why")
    func gameTimeWording() throws {
        let visits = try #require(try Self.plan().options.first).visits
        #expect(Format.gameTime(visits[0]) == "1:10 PM EDT (assumed: day game, exact time not published)")
        #expect(Format.gameTime(visits[2]) == "7:10 PM EST (assumed: night game, exact time not published)")
        #expect(Format.gameTime(visits[3]) == "time to be announced (planned for 7:00 PM EST)")
        #expect(Format.gameTime(visits[1]) == "8:00 PM EDT")
        // A plan written before start knowledge was recorded: no local time means TBD, nothing assumed.
        var old = visits[1]
        old.startKnowledge = nil; old.localTime = nil; old.startUTC = nil
        #expect(old.knowledge == .unknown && Format.gameTime(old) == "time to be announced")
    }

    @Test("Markdown and HTML show assumed starts and the drives that rest on them")
    func markdownAndHTML() throws {
        let rendered = try Self.render()
        let markdown = try Self.text(rendered, "itinerary.md")
        #expect(markdown.contains("1:10 PM EDT (assumed: day game, exact time not published), TD Garden"))
        #expect(markdown.contains("time to be announced (planned for 7:00 PM EST), Barclays Center"))
        #expect(markdown.contains("planned around an assumed 7:10 PM EST night-game start at Madison Square Garden"))
        #expect(
            markdown.contains(
                "planned around an assumed 7:10 PM EST night-game start at Madison Square Garden and "
                    + "an assumed 7:00 PM EST start at Barclays Center (time to be announced)"))
        // The day game is laid out at 13:10, so it comes before the 20:00 game of the same day.
        let nov1 = try #require(markdown.split(separator: "\n").first { $0.contains("Sat, Nov 1") && $0.contains("TD Garden") })
        let day = try #require(nov1.range(of: "1:10 PM EDT (assumed")), evening = try #require(nov1.range(of: "8:00 PM EDT"))
        #expect(day.lowerBound < evening.lowerBound)
        // The margin before a game is measured against those assumed starts, and says so.
        #expect(markdown.contains("| Smallest margin before a game | 2 h 38 min (3 starts assumed) |"))
        // Drives next to exact starts say nothing about assumptions.
        #expect(!markdown.contains("KeyBank Center, planned around"))

        let html = try Self.text(rendered, "itinerary.html")
        #expect(html.contains("1:10 PM EDT (assumed: day game, exact time not published) · TD Garden"))
        #expect(
            html.contains(
                "<span class=\"meta assumed\">planned around an assumed 7:10 PM EST night-game start at Madison Square Garden</span>"))
    }

    @Test("The calendar keeps unpublished starts as all-day events and names the assumed start")
    func calendar() throws {
        let rendered = try Self.render()
        let data = try #require(rendered.file(named: "trip.ics")).data
        let validator = ICalendarValidator(data)
        #expect(validator.problems == [])
        let events = try #require(validator.calendar).components("VEVENT")
        func event(_ index: Int) throws -> CalendarComponent {
            let id = try #require(try Self.plan().options.first).visits[index].gameId
            return try #require(events.first { $0.first("UID")?.value == "\(id)@sportstime" })
        }
        let day = try event(0)
        #expect(day.first("DTSTART")?.parameters["VALUE"] == "DATE" && day.first("DTSTART")?.value == "20251101")
        #expect(ICalendarText.unescape(try #require(day.first("SUMMARY")).value).hasSuffix("(day game, time to be announced)"))
        let dayText = ICalendarText.unescape(try #require(day.first("DESCRIPTION")).value)
        #expect(dayText.contains("Start time not published, only that it is a day game; the plan assumes 1:10 PM EDT"))
        let night = try event(2)
        let nightText = ICalendarText.unescape(try #require(night.first("DESCRIPTION")).value)
        #expect(nightText.contains("only that it is a night game; the plan assumes 7:10 PM EST"))
        #expect(nightText.contains("leaving 11:00 AM EST (planned around the assumed start)."))
        let tbd = try event(3)
        #expect(ICalendarText.unescape(try #require(tbd.first("SUMMARY")).value).hasSuffix("(time to be announced)"))
        #expect(
            ICalendarText.unescape(try #require(tbd.first("DESCRIPTION")).value)
                .contains("Start time to be announced; the plan assumes 7:00 PM EST"))
        // An exact start stays a timed event.
        #expect(try event(1).first("DTSTART")?.parameters["TZID"] == "America/New_York")
    }
}
