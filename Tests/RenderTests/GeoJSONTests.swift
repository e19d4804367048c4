import Foundation
import SportsTimeCore
@testable import SportsTimeRender
import Testing

@Suite("GeoJSON route")
struct GeoJSONTests {
    private func parse(_ caseName: String) throws -> [[String: Any]] {
        let data = try #require(try Fixtures.render(caseName).file(named: "route.geojson")).data
        let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(root["type"] as? String == "FeatureCollection")
        return try #require(root["features"] as? [[String: Any]])
    }

    @Test("Stops are Points and drives are LineStrings, with day, game and order")
    func parsesBack() throws {
        let plan = try Fixtures.plan(Fixtures.feasibleCase)
        let features = try parse(Fixtures.feasibleCase)
        let best = try #require(plan.options.first)
        let games = features.filter {
            ($0["properties"] as? [String: Any])?["kind"] as? String == "game"
                && ($0["properties"] as? [String: Any])?["option"] as? Int == 1
        }
        #expect(games.count == best.visits.count)
        for (feature, visit) in zip(games, best.visits) {
            let properties = try #require(feature["properties"] as? [String: Any])
            let geometry = try #require(feature["geometry"] as? [String: Any])
            #expect(geometry["type"] as? String == "Point")
            let coordinates = try #require(geometry["coordinates"] as? [Double])
            #expect(coordinates == [visit.longitude, visit.latitude])
            #expect(properties["game"] as? String == visit.gameId)
            #expect(properties["day"] is Int)
            #expect(properties["date"] as? String == visit.localDate.iso8601)
        }
        #expect(games.compactMap { ($0["properties"] as? [String: Any])?["order"] as? Int } == Array(1...best.visits.count))
        let drives = features.filter {
            ($0["properties"] as? [String: Any])?["kind"] as? String == "drive"
                && ($0["properties"] as? [String: Any])?["option"] as? Int == 1
        }
        #expect(drives.count == best.legs.count)
        for drive in drives {
            let geometry = try #require(drive["geometry"] as? [String: Any])
            #expect(geometry["type"] as? String == "LineString")
            #expect((geometry["coordinates"] as? [[Double]])?.count == 2)
            let properties = try #require(drive["properties"] as? [String: Any])
            #expect(properties["day"] is Int && properties["order"] is Int)
        }
        // The first drive leaves TD Garden for Madison Square Garden.
        let first = try #require((drives.first?["geometry"] as? [String: Any])?["coordinates"] as? [[Double]])
        #expect(first == [[-71.062228, 42.366303], [-73.993611, 40.750556]])
        let kinds = Set(features.compactMap { ($0["properties"] as? [String: Any])?["kind"] as? String })
        #expect(kinds == ["start", "game", "drive", "end"])
    }

    @Test("Coordinates have at most 6 decimals and the file has one feature per line")
    func rounding() throws {
        var plan = try Fixtures.plan(Fixtures.feasibleCase)
        plan.options[0].visits[0].latitude = 42.36630349999
        plan.options[0].visits[0].longitude = -71.06222849999
        let data = RenderStage.render(plan, context: try Fixtures.context()).file(named: "route.geojson")!.data
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains("[-71.062228,42.366303]"))
        let numbers = try NSRegularExpression(pattern: #"-?\d+\.(\d+)"#)
        for match in numbers.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
            let decimals = try #require(Range(match.range(at: 1), in: text))
            #expect(text[decimals].count <= 6)
        }
        let lines = text.split(separator: "\n")
        #expect(lines.first == "{\"type\":\"FeatureCollection\",\"features\":[")
        #expect(lines.last == "]}")
        #expect(lines.dropFirst().dropLast().allSatisfy { $0.hasPrefix("{\"geometry\":") })
    }

    @Test("An infeasible plan's route holds just its start")
    func infeasible() throws {
        let features = try parse(Fixtures.infeasibleCase)
        #expect(features.count == 1)
        let properties = try #require(features.first?["properties"] as? [String: Any])
        #expect(properties["kind"] as? String == "start")
        #expect(properties["name"] as? String == "Prudential Center")
    }
}
