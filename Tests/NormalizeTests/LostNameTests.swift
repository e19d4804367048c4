import Foundation
import SportsTimeCore
import SportsTimeNormalize
import Testing

/// Renames that keep history: a stadium renamed in `fixtures/reference/stadiums.csv` without its
/// old name as an alias used to drop every game that printed the old name, silently. Normalize now compares
/// with the published games and names the alias row to add.
@Suite struct LostNameTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The committed reference files, with `edit` applied to the named files' text.
    private func reference(_ edits: [String: (String) -> String]) throws -> ReferenceData {
        let folder = Self.root.appendingPathComponent("fixtures/reference")
        var files: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path)
        where name.hasSuffix(".csv") || name.hasSuffix(".yaml") {
            let text = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
            files[name] = Data((edits[name]?(text) ?? text).utf8)
        }
        var diagnostics = Diagnostics()
        return try ReferenceLoader.parse(files: files, displayPath: "fixtures/reference", diagnostics: &diagnostics)
    }

    /// The committed ingest batch of `source`.
    private func batch(_ source: String) throws -> RawBatch {
        let path = "out/ingest/\(source)/games.json"
        let data = try Data(contentsOf: Self.root.appendingPathComponent(path))
        let envelope = try EnvelopeReader.read(RawGame.self, from: data, path: path, expecting: .rawGames)
        return try RawBatch(path: path, meta: envelope.meta, games: envelope.records)
    }

    /// The committed (published) games of `source`.
    private func published(_ source: String) throws -> [Game] {
        let path = "out/normalize/games/\(source).json"
        let data = try Data(contentsOf: Self.root.appendingPathComponent(path))
        return try EnvelopeReader.read(Game.self, from: data, path: path, expecting: .games).records
    }

    /// TD Garden renamed "TD Garden Arena", `last_modified` bumped, as the README's data-fix example says.
    private static func renameTDGarden(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            guard line.hasPrefix("td-garden,TD Garden,") else { return String(line) }
            return String(line)
                .replacingOccurrences(of: "td-garden,TD Garden,", with: "td-garden,TD Garden Arena,")
                .replacingOccurrences(
                    of: #",20\d\d-\d\d-\d\dT\d\d:\d\d:\d\dZ,"#, with: ",2026-11-24T00:00:00Z,", options: .regularExpression)
        }.joined(separator: "\n")
    }

    static let aliasRow = "td-garden,TD Garden,,2026-11-24,,2026-11-24T00:00:00Z,renamed TD Garden Arena 2026-11-24"

    @Test func renamedStadiumWithoutAliasIsCaughtWithTheAliasRowToAdd() throws {
        let sources = ["nba-2025-26", "nhl-2025-26"]
        let batches = try sources.map(batch)
        let previous = Dictionary(uniqueKeysWithValues: try sources.map { ($0, try published($0)) })
        let atGarden = previous.values.joined().filter { $0.stadiumId == "td-garden" }
        #expect(atGarden.count == 86)
        #expect(Set(atGarden.map(\.homeTeamId)) == ["nba-bos", "nhl-bos"])

        // Unchanged reference: nothing lost.
        let unchanged = try normalize(batches: batches, reference: try reference([:]))
        #expect(unchanged.lostNames(comparedWith: previous, reference: try reference([:])).isEmpty)

        // Renamed without an alias: the 86 Celtics and Bruins games would be dropped, and the check says so.
        let renamed = try reference(["stadiums.csv": Self.renameTDGarden])
        let result = try normalize(batches: batches, reference: renamed)
        let written = Set(result.batches.flatMap(\.games).map(\.id))
        #expect(atGarden.filter { !written.contains($0.id) }.count == 86)
        #expect(result.unresolved.contains { $0.value == "TD Garden" && $0.field == "venue" })
        let lost = result.lostNames(comparedWith: previous, reference: renamed)
        try #require(lost.count == 1)
        #expect(lost[0].games == 86)
        #expect(lost[0].sources == sources)
        #expect(lost[0].aliasRow == Self.aliasRow)
        #expect(
            lost[0].diagnostic(referencePath: "fixtures/reference", line: 412).description
                == "fixtures/reference/stadiums.csv:412: error: 'TD Garden' no longer resolves: it resolved to stadium td-garden "
                + "(now named 'TD Garden Arena') in the published games, and 86 games of nba-2025-26, nhl-2025-26 would be "
                + "dropped. Keep the old name as an alias valid until the change: add this row to "
                + "fixtures/reference/stadium-aliases.csv: \(Self.aliasRow).")

        // The row it gives fixes it: every game is back, at the same stadium, and nothing is lost.
        let fixed = try reference([
            "stadiums.csv": Self.renameTDGarden,
            "stadium-aliases.csv": { $0 + Self.aliasRow + "\n" },
        ])
        let again = try normalize(batches: batches, reference: fixed)
        #expect(again.lostNames(comparedWith: previous, reference: fixed).isEmpty)
        #expect(again.batches.flatMap(\.games).map(\.id).sorted() == unchanged.batches.flatMap(\.games).map(\.id).sorted())
        #expect(again.batches.flatMap(\.games).filter { $0.stadiumId == "td-garden" }.count == 86)
    }

    @Test func renamedTeamGivesATeamAliasRowForTheAwaySide() throws {
        typealias G = RawFixture
        let games = [
            G.game("1", home: "New York Yankees", away: "Cleveland Guardians", date: "2024-06-01", line: 2),
            G.game("2", home: "Cleveland Guardians", away: "New York Yankees", date: "2024-06-08", line: 3),
        ]
        let batch = try G.batch("test", system: "testsys", games: games)
        let before = try normalize(batches: [batch], reference: TestReference.data)
        let previous = ["test": before.batches.flatMap(\.games)]
        #expect(previous["test"]?.count == 2)

        var renamed = TestReference.data
        let changed = TestReference.instant("2026-03-02T00:00:00Z")
        for index in renamed.teams.indices where renamed.teams[index].id == "mlb-cle" {
            renamed.teams[index].name = "Spiders"; renamed.teams[index].lastModified = changed
        }
        let after = try normalize(batches: [batch], reference: renamed)
        #expect(after.gameCount == 0)
        let lost = after.lostNames(comparedWith: previous, reference: renamed)
        try #require(lost.count == 1)
        #expect(lost[0].entity == .team && lost[0].previousId == "mlb-cle" && lost[0].games == 2)
        #expect(
            lost[0].aliasRow
                == "mlb-cle,fullName,Cleveland Guardians,,2026-03-02,,2026-03-02T00:00:00Z,renamed Cleveland Spiders 2026-03-02")
        #expect(
            lost[0].diagnostic(referencePath: "fixtures/reference", line: nil).description.hasPrefix(
                "fixtures/reference/teams.csv: error: 'Cleveland Guardians' no longer resolves: it resolved to team mlb-cle"))
    }

    @Test func aGameThatNeverResolvedOrNamedNoVenueIsNotLost() throws {
        typealias G = RawFixture
        let batch = try G.batch(
            "test", system: "testsys",
            games: [
                G.game("1", home: "Boston Red Sox", away: "New York Yankees", venue: "Nowhere Field", date: "2024-06-01")
            ])
        let result = try normalize(batches: [batch], reference: TestReference.data)
        #expect(result.gameCount == 0)
        // No game published at that provenance: a name that never resolved is unresolved, not lost.
        #expect(result.lostNames(comparedWith: [:], reference: TestReference.data).isEmpty)
    }

    /// The committed NBA batch as if its first game were deleted from the feed: every other row takes the
    /// line of the row before it.
    private func nbaWithFirstGameDeleted() throws -> RawBatch {
        let committed = try batch("nba-2025-26")
        func line(_ game: RawGame) -> Int { Int(game.provenance.split(separator: ":").last ?? "") ?? 0 }
        let ordered = committed.games.sorted { line($0) < line($1) }
        var shifted: [RawGame] = []
        for index in ordered.indices.dropFirst() {
            var game = ordered[index]
            game.provenance = ordered[index - 1].provenance
            shifted.append(game)
        }
        return try RawBatch(path: committed.path, meta: committed.meta, games: shifted)
    }

    /// Deleting the first game of the committed NBA feed moves every other row up to the line of the one
    /// before it. The rows that never resolved (exhibitions against clubs outside the league, 'MEL
    /// (United)') now sit at lines of published games, and must not be taken for names that were lost.
    @Test func aRowDeletedAboveIsNotTakenForALostName() throws {
        let cut = try nbaWithFirstGameDeleted()
        let previous = ["nba-2025-26": try published("nba-2025-26")]
        let result = try normalize(batches: [cut], reference: try reference([:]))
        #expect(result.unresolved.contains { $0.value.hasPrefix("MEL") })
        #expect(result.lostNames(comparedWith: previous, reference: try reference([:])).isEmpty)
    }

    /// A real rename below a deleted row is still caught: the Suns' `PHX (Suns)` alias removed, and the
    /// first game of the feed deleted so every row moved up a line. The rows are found by the feed's own
    /// game ids, not by their lines.
    @Test func aRenameBelowADeletedRowIsStillCaught() throws {
        let cut = try nbaWithFirstGameDeleted()
        let previous = ["nba-2025-26": try published("nba-2025-26")]
        let withoutSuns = try reference([
            "team-aliases.csv": { text in
                text.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.contains(",PHX (Suns),") }
                    .joined(separator: "\n")
            }
        ])
        let result = try normalize(batches: [cut], reference: withoutSuns)
        let lost = result.lostNames(comparedWith: previous, reference: withoutSuns)
        #expect(lost.map(\.value) == ["PHX (Suns)"])
        #expect(lost.first?.previousId == "nba-phx" && (lost.first?.games ?? 0) > 70)
    }
}
