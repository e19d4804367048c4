import Foundation
import SportsTimeCore
@testable import SportsTimeRender
import Testing

/// Paths and loaders shared by the render tests. Everything is read from the source tree.
enum Fixtures {
    static let testsFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    static let folder = testsFolder.appendingPathComponent("Fixtures")
    static let repositoryRoot = testsFolder.deletingLastPathComponent().deletingLastPathComponent()
    static let mergeFolder = folder.appendingPathComponent("merge")
    static let geoFolder = repositoryRoot.appendingPathComponent("fixtures/geo")

    /// The two hand-built plans: a feasible NBA/NHL trip through the Northeast and Canada, and an infeasible one.
    static let feasibleCase = "northeast-hoops-hockey"
    static let infeasibleCase = "newark-toronto-same-day"
    static let cases = [feasibleCase, infeasibleCase]

    static func planURL(_ name: String) -> URL {
        folder.appendingPathComponent(name).appendingPathComponent("input/plan.json")
    }

    static func plan(_ name: String) throws -> TripPlan {
        let envelope = try EnvelopeReader.read(TripPlan.self, at: planURL(name), displayPath: name, expecting: .tripPlan)
        return try #require(envelope.records.first)
    }

    static func catalog() throws -> RenderCatalog {
        let sports = try EnvelopeReader.read(
            Sport.self, at: mergeFolder.appendingPathComponent("sports.json"),
            displayPath: "sports.json", expecting: .sports
        ).records
        let stadiums = try EnvelopeReader.read(
            Stadium.self, at: mergeFolder.appendingPathComponent("stadiums.json"),
            displayPath: "stadiums.json", expecting: .stadiums
        ).records
        var stamps: [String: Instant] = [:]
        for file in ["nba-2025-26.json", "nhl-2025-26.json"] {
            let games = try EnvelopeReader.read(
                Game.self, at: mergeFolder.appendingPathComponent("games/\(file)"),
                displayPath: file, expecting: .games
            ).records
            for game in games { stamps[game.id] = game.lastModified }
        }
        return RenderCatalog(sports: sports, stadiums: stadiums, gameLastModified: stamps)
    }

    static let baseMap: BaseMap = {
        do {
            let countries = try Data(contentsOf: geoFolder.appendingPathComponent("countries.geojson"))
            let states = try Data(contentsOf: geoFolder.appendingPathComponent("us-states.json"))
            return BaseMap(countries: try BaseMap.shapes(fromGeoJSON: countries), regions: try BaseMap.shapes(fromGeoJSON: states))
        } catch {
            Issue.record("cannot load fixtures/geo: \(error)")
            return .empty
        }
    }()

    static func context(paper: PaperSize = .letter) throws -> RenderContext {
        RenderContext(catalog: try catalog(), baseMap: baseMap, paper: paper)
    }

    static func render(_ name: String, paper: PaperSize = .letter) throws -> RenderedItinerary {
        RenderStage.render(try plan(name), context: try context(paper: paper), planPath: "out/plan/\(name).json")
    }

    static func text(_ itinerary: RenderedItinerary, _ name: String) throws -> String {
        String(decoding: try #require(itinerary.file(named: name)).data, as: UTF8.self)
    }
}
