import Foundation
import SportsTimeTestSupport
import SportsTimeCore
@testable import SportsTimeRender
import Testing

@Suite("Golden itineraries")
struct GoldenTests {
    @Test("Markdown, HTML, iCalendar and GeoJSON match the recorded files", arguments: Fixtures.cases)
    func documentsMatchGoldens(caseName: String) throws {
        let itinerary = try Fixtures.render(caseName)
        #expect(itinerary.files.map(\.name) == ["itinerary.md", "itinerary.html", "trip.ics", "route.geojson"])
        for file in itinerary.files {
            try Golden.assertMatches(file.data, expected: Fixtures.folder.appendingPathComponent("\(caseName)/expected/\(file.name)"))
        }
    }

    @Test("The index lists every itinerary, sorted by request id")
    func indexMatchesGolden() throws {
        let plans = try Fixtures.cases.reversed().map(Fixtures.plan)
        let data = RenderStage.index(of: plans, catalog: try Fixtures.catalog())
        try Golden.assertMatches(data, expected: Fixtures.folder.appendingPathComponent("index/expected/README.md"))
        let text = String(decoding: data, as: UTF8.self)
        let first = try #require(text.range(of: "newark-toronto-same-day/itinerary.md"))
        let second = try #require(text.range(of: "northeast-hoops-hockey/itinerary.md"))
        #expect(first.lowerBound < second.lowerBound)
    }

    @Test("Rendering is deterministic and independent of option order in the input", arguments: Fixtures.cases)
    func deterministic(caseName: String) throws {
        let context = try Fixtures.context()
        var plan = try Fixtures.plan(caseName)
        let once = RenderStage.render(plan, context: context).files
        let twice = RenderStage.render(plan, context: context).files
        #expect(once == twice)
        plan.options.reverse()
        let reordered = RenderStage.render(plan, context: context).files
        #expect(reordered == once)
    }

    @Test("No emoji or other pictographs reach any output", arguments: Fixtures.cases)
    func noEmoji(caseName: String) throws {
        for file in try Fixtures.render(caseName).files {
            let text = String(decoding: file.data, as: UTF8.self)
            let pictographs = text.unicodeScalars.filter {
                $0.properties.isEmojiPresentation || (0x1F000...0x1FAFF).contains($0.value) || $0.value == 0xFE0F
            }
            #expect(pictographs.isEmpty, "\(file.name) contains \(pictographs.map { String($0) })")
        }
    }
}
