import Foundation
import SportsTimeCore
import Testing

/// Sources added by YAML alone in formats unlike any committed source (`NewSources/`): a headerless
/// game log, a file whose season type is derived from two columns, and a JSON feed with nested teams.
/// Each runs through the built ingest, normalize and merge; the merged games must carry the derived values.
@Suite(.serialized) struct NewSourceTests {
    static let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    static let fixtures = here.appendingPathComponent("NewSources")

    /// A scratch repository: the repository's reference data and schemas, an empty overrides folder,
    /// `NewSources/sources.yaml` as the spec and `NewSources/scraped/` as the scraped files.
    static func workspace() throws -> URL {
        let manager = FileManager.default
        let root = manager.temporaryDirectory.appendingPathComponent("new-sources-\(UUID().uuidString)")
        for part in ["fixtures/reference", "pipeline/schemas"] {
            try manager.createDirectory(
                at: root.appendingPathComponent(part).deletingLastPathComponent(), withIntermediateDirectories: true)
            try manager.copyItem(at: BadInputTests.packageRoot.appendingPathComponent(part), to: root.appendingPathComponent(part))
        }
        try manager.createDirectory(at: root.appendingPathComponent("fixtures/overrides"), withIntermediateDirectories: true)
        try manager.copyItem(at: fixtures.appendingPathComponent("sources.yaml"), to: root.appendingPathComponent("pipeline/sources.yaml"))
        try manager.copyItem(at: fixtures.appendingPathComponent("scraped"), to: root.appendingPathComponent("fixtures/scraped"))
        return root
    }

    static let steps: [[String]] = [
        ["sportstime-ingest", "--sources", "pipeline/sources.yaml", "--out", "out/ingest"],
        ["sportstime-normalize", "--in", "out/ingest", "--reference", "fixtures/reference", "--out", "out/normalize"],
        [
            "sportstime-merge", "--normalized", "out/normalize", "--reference", "fixtures/reference",
            "--overrides", "fixtures/overrides", "--out", "out/merge",
        ],
    ]

    /// Runs ingest → normalize → merge and returns the merged games of `file` (`out/merge/games/<file>`), by id.
    static func mergedGames(_ files: [String]) throws -> (games: [String: Game], root: URL, stderr: String) {
        let bin = try #require(BadInputTests.binFolder, "build the executables first (swift build --build-tests)")
        let root = try workspace()
        var stderr = ""
        for step in steps {
            let (status, text) = try BadInputTests.run(step, in: root, bin: bin)
            stderr += text
            #expect(status == 0, "\(step[0]) exited \(status): \(text)")
        }
        var games: [String: Game] = [:]
        for file in files {
            let path = "out/merge/games/\(file)"
            let data = try Data(contentsOf: root.appendingPathComponent(path))
            for game in try EnvelopeReader.read(Game.self, from: data, path: path, expecting: .games).records { games[game.id] = game }
        }
        return (games, root, stderr)
    }

    @Test func threeNewFormatsGoThroughMergeWithTheirDerivedValues() throws {
        let (games, root, stderr) = try Self.mergedGames(["mlb-2022.json", "nfl-2021.json", "nfl-2022.json"])
        defer { try? FileManager.default.removeItem(at: root) }
        #expect(stderr.contains("ingest: mlb-2022-gamelog: read 6, written 6, rejected 0, filtered 0"), "\(stderr)")
        #expect(stderr.contains("ingest: nfl-espn-weeks: read 7, written 7, rejected 0, filtered 0"), "\(stderr)")
        #expect(stderr.contains("ingest: nfl-scoreboard-json: read 4, written 4, rejected 0, filtered 0"), "\(stderr)")

        // (a) Headerless game log: the doubleheader numbered from column2, day/night from column10.
        let first = try #require(games["mlb-2022-2022-06-04-stl-at-chc"], "\(games.keys.sorted())")
        let second = try #require(games["mlb-2022-2022-06-04-stl-at-chc-g2"])
        #expect(first.gameNumber == 1 && second.gameNumber == 2)
        #expect(first.startKnowledge == .day && second.startKnowledge == .night)
        let single = try #require(games["mlb-2022-2022-04-08-bos-at-nyy"])
        #expect(single.gameNumber == nil && single.startKnowledge == .day && single.status == .scheduled)
        #expect(games.keys.filter { $0.hasPrefix("mlb-2022-") }.count == 6)

        // (b) Season type from week + month: week 18 in January stays regular; week 1 in January is postseason.
        let week18 = try #require(games["nfl-2022-2023-01-08-ne-at-buf"], "\(games.keys.sorted())")
        #expect(week18.kind == .regular && week18.season == "2022")
        let wildCard = try #require(games["nfl-2022-2023-01-15-mia-at-buf"])
        #expect(wildCard.kind == .postseason && wildCard.season == "2022")
        let september = try #require(games["nfl-2022-2022-09-11-no-at-atl"])
        #expect(september.kind == .regular)
        #expect(games.values.filter { $0.sport == "nfl" && $0.season == "2022" && $0.kind == .postseason }.count == 3)

        // (c) Nested JSON: home picked by [homeAway=home]; kind, status and neutral site derived.
        let superBowl = try #require(games["nfl-2021-2022-02-13-lar-at-cin"], "\(games.keys.sorted())")
        #expect(superBowl.kind == .postseason && superBowl.neutralSite && superBowl.status == .final)
        #expect(superBowl.stadiumId == "sofi-stadium")
        let opener = try #require(games["nfl-2022-2022-09-08-buf-at-lar"])
        #expect(opener.kind == .regular && !opener.neutralSite && opener.status == .final)
        #expect(opener.startUTC == Instant(iso8601: "2022-09-09T00:20:00Z"))

        // Every ingest folder has its filtered.jsonl (empty here: no row fails the filters).
        for id in ["mlb-2022-gamelog", "nfl-espn-weeks", "nfl-scoreboard-json"] {
            let data = try Data(contentsOf: root.appendingPathComponent("out/ingest/\(id)/filtered.jsonl"))
            #expect(data.isEmpty)
        }
    }
}
