import Foundation
import SportsTimeCore
@testable import SportsTimeRender
import Testing

/// The traveller's view: every day of a trip shown, the same in HTML and Markdown; multi-day
/// drives split per day; every leg on the map; infeasible requests with their branch trips.
/// Runs on the committed plans and merged store (`out/`), which is what a reader of the itineraries sees.
@Suite struct EveryDayTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func context() throws -> RenderContext {
        let merge = root.appendingPathComponent("out/merge")
        let sports = try EnvelopeReader.read(
            Sport.self, at: merge.appendingPathComponent("sports.json"),
            displayPath: "sports.json", expecting: .sports
        ).records
        let stadiums = try EnvelopeReader.read(
            Stadium.self, at: merge.appendingPathComponent("stadiums.json"),
            displayPath: "stadiums.json", expecting: .stadiums
        ).records
        var stamps: [String: Instant] = [:]
        for file in try FileManager.default.contentsOfDirectory(atPath: merge.appendingPathComponent("games").path).sorted() {
            let url = merge.appendingPathComponent("games/\(file)")
            for game in try EnvelopeReader.read(Game.self, at: url, displayPath: file, expecting: .games).records {
                stamps[game.id] = game.lastModified
            }
        }
        return RenderContext(
            catalog: RenderCatalog(sports: sports, stadiums: stadiums, gameLastModified: stamps),
            baseMap: Fixtures.baseMap, paper: .letter)
    }

    static func plan(_ id: String) throws -> TripPlan {
        let url = root.appendingPathComponent("out/plan/\(id).json")
        return try #require(
            EnvelopeReader.read(
                TripPlan.self, at: url, displayPath: "out/plan/\(id).json",
                expecting: .tripPlan
            ).records.first)
    }

    /// The `<div class="day">` blocks of the HTML, in order.
    static func htmlDays(_ html: String) -> [String] {
        html.components(separatedBy: "<div class=\"day\">").dropFirst().map { $0.components(separatedBy: "<div class=\"day\">")[0] }
    }

    @Test func cascadiaShowsADrivingEntryOnEveryDrivingDay() throws {
        let plan = try Self.plan("mls-2025-cascadia")
        let itinerary = RenderStage.render(plan, context: try Self.context(), planPath: "out/plan/mls-2025-cascadia.json")
        let html = try Fixtures.text(itinerary, "itinerary.html")
        let markdown = try Fixtures.text(itinerary, "itinerary.md")
        #expect(!html.contains("Nothing planned."))
        let best = try #require(plan.options.first)
        let days = Self.htmlDays(html)
        // The first option's days come first in the HTML; every plan day with driving has a drive entry.
        let drivingDates = best.days.filter { $0.drivingHours > 0 }.map(\.date)
        #expect(drivingDates.count >= 8)
        for date in drivingDates {
            let block = try #require(days.first { $0.contains(Format.shortDate(date)) }, "no day for \(date)")
            #expect(block.contains("event drive"), "no drive shown on \(date)")
        }
        // The 991-mile drive BC Place → PayPal Park is split per day: 4 parts, starts and stops, an overnight named.
        let parts = markdown.components(separatedBy: "BC Place → PayPal Park, day ").count - 1
        #expect(parts == 4)
        #expect(markdown.contains("BC Place → PayPal Park, day 2 of 4, 9:00 AM PDT to 3:00 PM PDT"))
        #expect(markdown.contains("overnight"))
        #expect(html.contains("BC Place → PayPal Park, day 4 of 4"))
        // Markdown rows of driving days list a drive, not "–".
        for date in drivingDates {
            let row = try #require(markdown.split(separator: "\n").first { $0.contains("| \(Format.shortDate(date)) |") })
            #expect(!row.contains("| – |"), "Markdown shows no drive on \(date): \(row)")
        }
        // Every leg is drawn (the stadium stop Lumen Field has coordinates), and nothing is left to warn about.
        #expect(itinerary.diagnostics.isEmpty, "\(itinerary.diagnostics)")
        let outline = OptionOutline(option: best, request: plan.request)
        #expect(outline.paths.count == best.legs.count)
        #expect(outline.paths.first?.touchesStartOrEnd == true) // Seattle → Lumen Field, before any game
    }

    @Test func splitPartsAddUpToTheDrive() throws {
        let plan = try Self.plan("mls-2025-cascadia")
        for option in plan.options {
            let outline = OptionOutline(option: option, request: plan.request)
            var hours: [Int: Double] = [:]
            for day in outline.days {
                for case .drivePart(let index, _, let part) in day.events {
                    hours[index, default: 0] += part.hours
                    #expect(part.date == day.date)
                }
            }
            for (index, total) in hours { #expect(abs(total - option.legs[index].hours) < 0.05) }
        }
    }

    @Test func infeasibleRequestShowsItsBranchTripsInMilesWithGameNames() throws {
        let plan = try Self.plan("nba-coast-to-coast-infeasible")
        #expect(plan.options.isEmpty && !(plan.branches ?? []).isEmpty)
        let itinerary = RenderStage.render(plan, context: try Self.context(), planPath: "out/plan/nba-coast-to-coast-infeasible.json")
        for name in ["itinerary.md", "itinerary.html"] {
            let text = try Fixtures.text(itinerary, name)
            #expect(text.contains("Branch 1: best trip for a compatible set of must-see games"))
            #expect(text.contains("Denver Nuggets at New York Knicks"))
            #expect(text.contains("mi (4,727 km) apart"))
            #expect(!text.contains("branches lists"))
        }
    }
}
