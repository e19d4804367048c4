import Foundation
import SportsTimeTestSupport
import SportsTimeCore
import SportsTimeNormalize
import Testing

@Suite struct NormalizerTests {
    typealias G = RawFixture

    /// A batch with something of everything: resolved, unresolved, ambiguous, placeholder, duplicate games.
    private func mixedBatches() throws -> [RawBatch] {
        var games: [RawGame] = [
            G.game("1", home: "BOS", away: "NYA", date: "2024-05-01"),
            G.game("2", home: "BOS", away: "NYA", date: "2024-05-02"),
            G.game("3", home: "BOS", away: "NYA", date: "2024-05-02"),
            G.game("4", home: "TBD", away: "NYA", date: "2024-05-03"),
            G.game("5", home: "", away: "NYA", date: "2024-05-04"),
            G.game("6", home: "BOS", away: "BOS", date: "2024-05-05"),
            G.game("7", home: "Boston", away: "CHN", venue: "Fenway", date: "2024-05-06"),
        ]
        // "SEA" is unknown, in 12 games.
        for day in 1...12 {
            games.append(G.game("\(100 + day)", home: "SEA", away: "CHN", date: "2024-06-\(10 + day)"))
        }
        let nfl: [RawGame] = [
            G.game("1", source: "nfl", sport: "nfl", home: "New York", away: "Bills", venue: "MetLife Stadium", date: "2025-10-05"),
            G.game("2", source: "nfl", sport: "nfl", home: "Jets", away: "Bills", venue: "MetLife Stadium", date: "2025-10-12"),
        ]
        return [
            try G.batch("test", system: "retrosheet", games: games),
            try G.batch("nfl", system: "spreadspoke", sport: "nfl", season: "2025", games: nfl),
        ]
    }

    @Test func nothingIsLost() throws {
        let result = try normalize(batches: try mixedBatches(), reference: TestReference.data)
        #expect(result.inputCount == 21)
        #expect(result.inputCount == result.gameCount + result.rejects.count)
        for batch in result.batches {
            #expect(batch.inputCount == batch.games.count + batch.rejects.count, "\(batch.source)")
        }
        #expect(result.gameCount == 3)
        let reasons = Dictionary(uniqueKeysWithValues: result.rejects.map { ($0.recordId ?? "", $0.reason) })
        #expect(reasons["test:3"]?.hasPrefix("duplicate of test:2") == true)
        #expect(reasons["test:4"] == "home team is a placeholder ('TBD')")
        #expect(reasons["test:5"] == "home team is blank")
        #expect(reasons["test:6"] == "home and away team are both mlb-bos")
        #expect(reasons["test:7"] == "unresolved venue 'Fenway'")
        #expect(reasons["test:101"] == "unresolved home team 'SEA'")
        #expect(reasons["nfl:1"] == "ambiguous home team 'New York' (nfl-nyg, nfl-nyj)")
        let reject = try #require(result.rejects.first { $0.recordId == "test:101" })
        #expect(reject.file == "fixtures/scraped/test/games.csv")
        #expect(reject.line == 101)
        #expect(reject.raw == "2024-06-11 CHN at SEA")
    }

    @Test func placeholdersAreOnlyWhatResolvesToNothing() throws {
        let games = [
            // Retrosheet's TBA is Tampa Bay.
            G.game("1", home: "TBA", away: "NYA", date: "2023-04-01"),
            G.game("2", home: "BOS", away: "TBD", date: "2023-04-02"),
            // The NBA feed prints a missing team as "()".
            G.game("3", home: " ()", away: "NYA", date: "2023-04-03"),
            // A placeholder venue counts as not given: the home team's park.
            G.game("4", home: "BOS", away: "NYA", venue: "TBD", date: "2023-04-04"),
        ]
        let retrosheet = try normalize(
            batches: [try G.batch("test", system: "retrosheet", games: games)],
            reference: TestReference.data)
        #expect(retrosheet.batches[0].games.map(\.homeTeamId) == ["mlb-tb", "mlb-bos"])
        #expect(retrosheet.batches[0].games.map(\.stadiumId) == ["tropicana-field", "fenway-park"])
        #expect(retrosheet.rejects.map(\.reason) == ["away team is a placeholder ('TBD')", "home team is a placeholder ('()')"])
        #expect(retrosheet.unresolved.isEmpty)
        // For another source system TBA is not a code: a placeholder, not an unresolved name.
        let espn = try normalize(
            batches: [
                try G.batch(
                    "test", system: "espn",
                    games: [
                        G.game("1", home: "TBA", away: "Yankees", date: "2023-04-01")
                    ])
            ], reference: TestReference.data)
        #expect(espn.rejects.map(\.reason) == ["home team is a placeholder ('TBA')"])
        #expect(espn.unresolved.isEmpty)
    }

    @Test func unresolvedNamesSayWhereAndSuggest() throws {
        let result = try normalize(batches: try mixedBatches(), reference: TestReference.data)
        #expect(result.unresolved.map(\.id) == ["nfl:team:New York", "test:team:SEA", "test:venue:Fenway"])

        let sea = result.unresolved[1]
        #expect(sea.source == "test" && sea.sport == "mlb" && sea.field == "team" && sea.value == "SEA")
        #expect(sea.occurrences == 12)
        #expect(sea.seenAt.count == 10)
        // Sorted by file, then line as a number.
        #expect(sea.seenAt.first == "fixtures/scraped/test/games.csv:101")
        #expect(sea.seenAt.last == "fixtures/scraped/test/games.csv:110")

        let fenway = result.unresolved[2]
        #expect(fenway.suggestions.first == "Fenway Park (fenway-park)", "\(fenway.suggestions)")

        let newYork = result.unresolved[0]
        #expect(newYork.suggestions.prefix(2) == ["New York (nfl-nyg)", "New York (nfl-nyj)"], "\(newYork.suggestions)")
    }

    /// A second feed whose team names no alias of its system knows (the NBA CSV's `PHX (Suns)` under a
    /// system of its own): past its rejectThreshold the batch is refused with a warning that names the
    /// reasons, every row is a reject, and the names are listed as unresolved with suggestions.
    @Test func aBatchThatResolvesLessThanItsThresholdAllowsIsRefused() throws {
        func batch(threshold: String) throws -> RawBatch {
            var batch = try G.batch(
                "feed", system: "other-feed",
                games: (1...10).map {
                    G.game("\($0)", source: "feed", home: "SEA (Mariners)", away: "New York Yankees", date: "2024-06-\(10 + $0)")
                }
                    + [G.game("11", source: "feed", home: "BOS", away: "New York Yankees", date: "2024-06-30")])
            batch.meta[.rejectThreshold] = threshold
            return batch
        }
        let refused = try normalize(batches: [try batch(threshold: "0.02")], reference: TestReference.data)
        let result = try #require(refused.batches.first)
        #expect(result.isRefused && result.games.isEmpty && result.rejects.count == 11)
        #expect(result.rejects.allSatisfy { $0.reason.hasPrefix("batch refused: 10 of 11 games of source 'feed' did not resolve") })
        let warning = try #require(refused.diagnostics.first { $0.message.contains("did not resolve") })
        #expect(warning.severity == .warning)
        #expect(
            warning.description
                == "fixtures/scraped/feed/games.csv:1: warning: 10 of 11 games of source 'feed' did not resolve, more than its rejectThreshold (2.0%); the batch is refused: unresolved home team 'SEA (Mariners)' (10×). Add the names as aliases of system 'other-feed' in fixtures/reference/team-aliases.csv or stadium-aliases.csv (out/normalize/unresolved.json lists each with suggestions), or map them in pipeline/sources.yaml; raise rejectThreshold if these rows are expected."
        )
        #expect(refused.unresolved.map(\.value) == ["SEA (Mariners)"])
        // Within the threshold the resolved game is kept and the others are rejects, as before.
        let kept = try normalize(batches: [try batch(threshold: "10")], reference: TestReference.data)
        #expect(kept.gameCount == 1 && kept.rejects.count == 10 && !kept.batches[0].isRefused)
    }

    @Test func inputOrderDoesNotMatter() throws {
        let batches = try mixedBatches()
        let reference = TestReference.data
        let expected = try normalize(batches: batches, reference: reference)
        var shuffled = batches.reversed().map { batch -> RawBatch in
            var copy = batch
            copy.games.reverse()
            return copy
        }
        #expect(try normalize(batches: shuffled, reference: reference) == expected)
        var generator = SplitMix64(seed: 7)
        for _ in 0..<5 {
            shuffled = shuffled.shuffled(using: &generator).map { batch in
                var copy = batch
                copy.games.shuffle(using: &generator)
                return copy
            }
            #expect(try normalize(batches: shuffled, reference: reference) == expected)
        }
        // The reference's own order does not matter either.
        var reordered = reference
        reordered.teams.reverse(); reordered.teamAliases.reverse(); reordered.stadiums.reverse()
        reordered.stadiumAliases.reverse()
        #expect(try normalize(batches: batches, reference: reordered) == expected)
    }

    @Test func twoBatchesOfOneSourceAreRefused() throws {
        var second = try G.batch("test", system: "espn", games: [])
        second.path = "out/ingest/other/games.json"
        #expect(throws: PipelineError.self) {
            try normalize(
                batches: [try G.batch("test", system: "retrosheet", games: []), second],
                reference: TestReference.data)
        }
    }

    @Test func batchMetaIsChecked() throws {
        #expect(throws: PipelineError.self) {
            try RawBatch(
                path: "out/ingest/x/games.json",
                meta: [
                    .source: "x", .system: "espn", .sport: "mlb",
                    .season: "2024",
                ], games: [])
        }
        #expect(throws: PipelineError.self) {
            try RawBatch(
                path: "out/ingest/x/games.json",
                meta: [
                    .source: "x", .system: "espn", .sport: "mlb",
                    .season: "2024", .scrapedAt: "yesterday",
                ], games: [])
        }
        #expect(throws: PipelineError.self) {
            try RawBatch(
                path: "out/ingest/x/games.json",
                meta: [
                    .source: "../x", .system: "espn", .sport: "mlb",
                    .season: "2024", .scrapedAt: "2026-01-15T12:00:00Z",
                ],
                games: [])
        }
        let batch = try RawBatch(
            path: "out/ingest/x/games.json",
            meta: [
                .source: "x", .system: "ESPN", .sport: "mlb", .season: "2024",
                .scope: "mlb-2024", .scrapedAt: "2026-01-15T12:00:00Z", .priority: "5",
                .rowsRead: "dropped",
            ],
            games: [])
        #expect(batch.system == "espn")
        #expect(
            batch.meta == [
                .source: "x", .system: "ESPN", .sport: "mlb", .season: "2024", .scope: "mlb-2024",
                .scrapedAt: "2026-01-15T12:00:00Z", .priority: "5",
            ])
    }

    @Test func theBatchMetaIsCarriedToTheOutput() throws {
        let result = try normalize(batches: try mixedBatches(), reference: TestReference.data)
        let test = try #require(result.batches.first { $0.source == "test" })
        #expect(test.meta[.scope] == "mlb-2024")
        #expect(test.meta[.priority] == "10")
        #expect(test.path == "out/ingest/test/games.json")
        #expect(
            result.summary(writtenTo: "out/normalize")
                == "sportstime-normalize: 2 batches, 21 games in: 3 written, 18 rejected; 3 unresolved names -> out/normalize")
    }
}
