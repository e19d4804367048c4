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
        let sports = try EnvelopeReader.read(Sport.self, at: mergeFolder.appendingPathComponent("sports.json"),
                                             displayPath: "sports.json", expecting: .sports).records
        let stadiums = try EnvelopeReader.read(Stadium.self, at: mergeFolder.appendingPathComponent("stadiums.json"),
                                               displayPath: "stadiums.json", expecting: .stadiums).records
        var stamps: [String: Instant] = [:]
        for file in ["nba-2025-26.json", "nhl-2025-26.json"] {
            let games = try EnvelopeReader.read(Game.self, at: mergeFolder.appendingPathComponent("games/\(file)"),
                                                displayPath: file, expecting: .games).records
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

/// Golden-file comparison: a mismatch fails with a unified-style diff; `RECORD_GOLDENS=1` rewrites
/// the expected file and fails on purpose, so a recording run can never pass.
enum Golden {
    static var isRecording: Bool { ProcessInfo.processInfo.environment["RECORD_GOLDENS"] == "1" }

    static func assertMatches(_ actual: Data, expected url: URL, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        if isRecording {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try actual.write(to: url)
            Issue.record("Recorded \(url.path). Unset RECORD_GOLDENS and run again.", sourceLocation: sourceLocation)
            return
        }
        guard let expected = FileManager.default.contents(atPath: url.path) else {
            Issue.record("No golden file at \(url.path). Record it with RECORD_GOLDENS=1 swift test --filter RenderTests.",
                         sourceLocation: sourceLocation)
            return
        }
        if expected != actual {
            let diff = LineDiff.unified(old: String(decoding: expected, as: UTF8.self), new: String(decoding: actual, as: UTF8.self),
                                        oldName: url.path, newName: "rendered")
            Issue.record("Output differs from \(url.lastPathComponent) (re-record with RECORD_GOLDENS=1 if intended):\n\(diff)",
                         sourceLocation: sourceLocation)
        }
    }
}

/// A small line diff (longest common subsequence) for golden-test failures.
enum LineDiff {
    static func unified(old: String, new: String, oldName: String, newName: String, context: Int = 2, maxLines: Int = 120) -> String {
        let a = old.components(separatedBy: "\n"), b = new.components(separatedBy: "\n")
        guard a.count * b.count <= 9_000_000 else {
            let first = zip(a, b).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(a.count, b.count)
            return "--- \(oldName)\n+++ \(newName)\nfirst difference at line \(first + 1):\n-\(first < a.count ? a[first] : "")\n+\(first < b.count ? b[first] : "")"
        }
        var lcs = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in stride(from: a.count - 1, through: 0, by: -1) {
            for j in stride(from: b.count - 1, through: 0, by: -1) {
                lcs[i][j] = a[i] == b[j] ? lcs[i + 1][j + 1] + 1 : max(lcs[i + 1][j], lcs[i][j + 1])
            }
        }
        var ops: [(Character, String)] = []
        var i = 0, j = 0
        while i < a.count || j < b.count {
            if i < a.count, j < b.count, a[i] == b[j] { ops.append((" ", a[i])); i += 1; j += 1 }
            else if j < b.count, i == a.count || lcs[i][j + 1] >= lcs[i + 1][j] { ops.append(("+", b[j])); j += 1 }
            else { ops.append(("-", a[i])); i += 1 }
        }
        var keep = [Bool](repeating: false, count: ops.count)
        for (index, op) in ops.enumerated() where op.0 != " " {
            for k in max(0, index - context)...min(ops.count - 1, index + context) { keep[k] = true }
        }
        var lines = ["--- \(oldName)", "+++ \(newName)"]
        var skipped = false
        for (index, op) in ops.enumerated() {
            if keep[index] {
                if skipped { lines.append("@@"); skipped = false }
                lines.append("\(op.0)\(op.1)")
            } else { skipped = true }
            if lines.count > maxLines { lines.append("... (diff cut)"); break }
        }
        return lines.joined(separator: "\n")
    }
}
