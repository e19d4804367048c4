import Foundation
import SportsTimeCore
import SportsTimeTestSupport
import Testing
@testable import SportsTimeMerge

/// The files the merge writes, and their independence from input order.
@Suite struct OutputTests {
    @Test func shuffledBatchesAndRecordsGiveIdenticalBytes() throws {
        let scenario = try ScenarioGenerator.make(seed: 7, runs: 1)
        let input = scenario.fullInput
        let expected = try T.outputs(try Merger.merge(input), input)
        var rng = SplitMix64(seed: 99)
        for _ in 0..<5 {
            var shuffled = input
            shuffled.gameBatches.shuffle(using: &rng)
            for index in shuffled.gameBatches.indices { shuffled.gameBatches[index].records.shuffle(using: &rng) }
            shuffled.reference.stadiums.shuffle(using: &rng)
            shuffled.reference.teams.shuffle(using: &rng)
            shuffled.reference.leagueStructures.shuffle(using: &rng)
            shuffled.overrides.shuffle(using: &rng)
            let files = try T.outputs(try Merger.merge(shuffled), shuffled)
            #expect(files.keys.sorted() == expected.keys.sorted())
            for path in expected.keys.sorted() {
                // rejects.jsonl lines carry file lines, which follow record order within a file; with no
                // line numbers known (hand-built batches) the bytes must match exactly.
                #expect(files[path] == expected[path], "\(path) changed when the input order changed")
            }
        }
    }

    /// The season digests worked out once for the shrink guard are the ones each games file would work out
    /// from its own games: the files are the same bytes either way, and every season has its digests.
    @Test func seasonDigestsWorkedOutOnceAreTheFilesOwn() throws {
        for seed: UInt64 in [7, 11, 23] {
            let scenario = try ScenarioGenerator.make(seed: seed, runs: 2)
            let input = scenario.fullInput
            let result = try Merger.merge(input)
            let hash: @Sendable (String) -> String = { ArtifactFiles.sha256(Data($0.utf8)) }
            let digests = MergeOutput.seasonDigests(of: result, hash: hash)
            var perFile: [String: Data] = [:]
            try MergeOutput.produce(for: result, input: input, hashes: [:], settings: [:], idsDigest: hash) {
                perFile[$0.path] = $0.data
            }
            var once: [String: Data] = [:]
            try MergeOutput.produce(
                for: result, input: input, hashes: [:], settings: [:], idsDigest: hash, seasonDigests: digests
            ) { once[$0.path] = $0.data }
            #expect(once == perFile, "seed \(seed)")
            let seasons = Set(result.store.games.values.map { "\($0.sport)-\($0.season)" })
            #expect(Set(digests.keys) == seasons)
            for (key, digest) in digests {
                let file = try #require(perFile["games/\(key).json"])
                let header = try EnvelopeReader.headerSkippingRecords(of: file, path: key, expecting: .games)
                #expect(header.meta?[.activeIdsSha256] == digest.activeIds)
                #expect(header.meta?[.rowsSha256] == digest.rows)
                let active = result.store.games.values.filter { "\($0.sport)-\($0.season)" == key && $0.deprecatedAt == nil }
                #expect(digest.activeIds == hash(ShrinkGuard.idsText(active.map(\.id))))
            }
        }
    }

    @Test func gamesAreSplitPerSportAndSeason() throws {
        let reference = T.reference(teams: ["mlb-bos", "mlb-nyy", "nba-bos", "nba-nyk"])
        let time = T.instant("2025-09-01T00:00:00Z")
        let input = MergeInput(
            reference: reference,
            gameBatches: [
                T.batch(
                    source: "mlb-src", scrapedAt: time,
                    games: [
                        T.game(date: "2023-04-10", away: "mlb-nyy", home: "mlb-bos", source: "mlb-src", lastModified: time),
                        T.game(season: "2024", date: "2024-04-10", away: "mlb-nyy", home: "mlb-bos", source: "mlb-src", lastModified: time),
                    ]),
                T.batch(
                    source: "nba-src", scope: "nba-2025-26", scrapedAt: time,
                    games: [
                        T.game(
                            sport: "nba", season: "2025-26", date: "2026-01-10", away: "nba-nyk", home: "nba-bos", source: "nba-src",
                            lastModified: time)
                    ]),
            ])
        let result = try Merger.merge(input)
        let files = try T.files(
            for: result, input: input,
            hashes: [
                "out/normalize/games/mlb-src.json": "aa", "out/normalize/games/nba-src.json": "bb", "fixtures/reference/teams.csv": "cc",
            ], settings: [.mergeVersion: "x"])
        #expect(
            files.map(\.path) == [
                "games/mlb-2023.json", "games/mlb-2024.json", "games/nba-2025-26.json", "league-structures.json",
                "lineage/mlb-2023.json", "lineage/mlb-2024.json", "lineage/nba-2025-26.json",
                "merge-report.json", "rejects.jsonl", "sports.json", "stadium-aliases.json", "stadiums.json",
                "sync-state.json", "team-aliases.json", "teams.json",
            ])
        let lineage = String(decoding: files[6].data, as: UTF8.self)
        #expect(lineage.contains("\"kind\": \"sportstime.lineage\""))
        #expect(lineage.contains("\"recordId\":\"nba-2025-26-2026-01-10-nyk-at-bos\""))
        let nba = String(decoding: files[2].data, as: UTF8.self)
        #expect(nba.contains("\"kind\": \"sportstime.games\""))
        #expect(
            nba.contains(
                "\"meta\": {\"activeGames\":\"1\",\"firstDate\":\"2026-01-10\",\"lastDate\":\"2026-01-10\",\"rows.nba-src\":\"1\",\"season\":\"2025-26\",\"sport\":\"nba\"}"
            ))
        #expect(nba.contains("{\"path\":\"out/normalize/games/nba-src.json\",\"sha256\":\"bb\"}"))
        #expect(!nba.contains("mlb-src"))
        let teams = String(decoding: files.first { $0.path == "teams.json" }!.data, as: UTF8.self)
        #expect(teams.contains("fixtures/reference/teams.csv"))
        #expect(teams.hasSuffix("}\n"))
        let envelope = try EnvelopeReader.read(Game.self, from: files[2].data, path: "games/nba-2025-26.json", expecting: .games)
        #expect(envelope.records.count == 1)
    }

    @Test func reportAndSyncStateRoundTrip() throws {
        let scenario = try ScenarioGenerator.make(seed: 3, runs: 1)
        let input = scenario.fullInput
        let result = try Merger.merge(input)
        let files = try T.outputs(result, input)
        let report = try EnvelopeReader.read(
            MergeReportRecord.self, from: files["merge-report.json"]!, path: "merge-report.json",
            expecting: .mergeReport)
        #expect(report.records == result.report)
        #expect(report.meta[.mode] == "full")
        #expect(report.records.map(\.id) == report.records.map(\.id).sorted())
        let counts = report.records.compactMap { if case .counts(let c) = $0 { c } else { nil } }
        #expect(counts.count == 7 && counts.allSatisfy(\.addsUp))
        let reportText = String(decoding: files["merge-report.json"]!, as: UTF8.self)
        #expect(reportText.contains("{\"applied\":"))
        #expect(reportText.contains("\"type\":\"conflict\""))
        let sync = try EnvelopeReader.read(SyncState.self, from: files["sync-state.json"]!, path: "sync-state.json", expecting: .syncState)
        #expect(sync.records.map(\.id).sorted() == EntityKind.allCases.map(\.rawValue).sorted())
        #expect(sync.records.first { $0.id == "games" }?.recordCount == result.store.games.count)
        #expect(sync.records.first { $0.id == "games" }?.highWater == ScenarioGenerator.day(40))
        let rejects = String(decoding: files["rejects.jsonl"]!, as: UTF8.self).split(separator: "\n")
        #expect(rejects.count == result.rejects.count)
        #expect(result.rejects.count == EntityKind.allCases.reduce(0) { $0 + (result.counts($1)?.rejected ?? 0) })
    }

    /// The previous store read back from the written files equals the store it was written from.
    @Test func previousMergeReadsBackWhatWasWritten() throws {
        let scenario = try ScenarioGenerator.make(seed: 11, runs: 1)
        let input = scenario.fullInput
        let result = try Merger.merge(input)
        let files = try T.outputs(result, input)
        var entityFiles: [EntityKind: PreviousMergeReader.File] = [:]
        for kind in EntityKind.allCases where kind != .games {
            entityFiles[kind] = .init(path: "out/merge/\(kind.outputFileName)", data: files[kind.outputFileName]!)
        }
        let gameFiles = files.filter { $0.key.hasPrefix("games/") }.map {
            PreviousMergeReader.File(path: "out/merge/\($0.key)", data: $0.value)
        }
        let (previous, settings) = try PreviousMergeReader.read(
            entityFiles: entityFiles, gameFiles: gameFiles,
            syncState: .init(path: "out/merge/sync-state.json", data: files["sync-state.json"]!))
        #expect(previous.store == result.store)
        #expect(previous.highWater[.games] == ScenarioGenerator.day(40))
        #expect(settings == input.settingsMeta { "h\($0.count)" })
    }

    @Test func incrementalIsBlockedWhenSettingsChange() {
        let before: [MetaKey: String] = [.mergeVersion: "0.1.0", .overrides: "abc", .priority(of: "espn"): "1"]
        #expect(MergeInput.incrementalBlocker(previous: before, current: before) == nil)
        #expect(MergeInput.incrementalBlocker(previous: before, current: before.merging([.priority(of: "new"): "4"]) { a, _ in a }) == nil)
        #expect(
            MergeInput.incrementalBlocker(previous: before, current: before.merging([.overrides: "def"]) { _, b in b })
                == "the overrides changed since the earlier merge")
        #expect(
            MergeInput.incrementalBlocker(previous: before, current: before.merging([.priority(of: "espn"): "2"]) { _, b in b })
                == "source 'espn' changed priority from 1 to 2")
        #expect(MergeInput.incrementalBlocker(previous: before, current: before.merging([.mergeVersion: "0.2.0"]) { _, b in b }) != nil)
    }
}

/// Reading normalized batches.
@Suite struct BatchReaderTests {
    func envelope(meta: [MetaKey: String], games: [Game]) throws -> Data {
        try Envelope(kind: .games, producer: Producer(stage: "normalize"), meta: meta, records: games).canonicalData()
    }

    let time = T.instant("2020-07-10T00:00:00Z")

    @Test func metaBecomesTheBatchOriginAndLinesAreKnown() throws {
        let games = [
            T.game(season: "2020", date: "2020-07-24", away: "mlb-nyy", home: "mlb-bos", source: "retro", lastModified: time),
            T.game(season: "2020", date: "2020-07-23", away: "mlb-nyy", home: "mlb-was", source: "retro", lastModified: time),
        ]
        let data = try envelope(
            meta: [
                .source: "retro", .system: "retrosheet", .sport: "mlb", .season: "2020",
                .scope: "mlb-2020", .scrapedAt: "2020-07-10T00:00:00Z", .priority: "3",
            ], games: games)
        let batch = try BatchReader.gameBatchAndMeta(from: data, path: "out/normalize/games/retro.json").batch
        #expect(
            batch.origin
                == BatchOrigin(
                    source: "retro", system: "retrosheet", scope: "mlb-2020", scrapedAt: time, priority: 3,
                    path: "out/normalize/games/retro.json"))
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        let first = try #require(batch.firstRecordLine)
        #expect(lines[first - 1].contains(batch.records[0].id))
        #expect(lines[first].contains(batch.records[1].id))
    }

    @Test func scopeAndSystemDefault() throws {
        let data = try envelope(
            meta: [.source: "espn-nfl", .sport: "nfl", .season: "2023", .scrapedAt: "2023-09-01T00:00:00Z"], games: [])
        let batch = try BatchReader.gameBatchAndMeta(from: data, path: "x.json").batch
        #expect(batch.origin.system == "espn-nfl" && batch.origin.scope == "nfl-2023" && batch.origin.priority == 0)
        #expect(batch.firstRecordLine == nil)
    }

    @Test func missingScrapedAtIsAnInputError() throws {
        let data = try envelope(meta: [.source: "s"], games: [])
        #expect(throws: PipelineError.self) { try BatchReader.gameBatchAndMeta(from: data, path: "out/normalize/games/s.json").batch }
        do { _ = try BatchReader.gameBatchAndMeta(from: data, path: "out/normalize/games/s.json").batch } catch let error as PipelineError {
            #expect(error.description.hasPrefix("out/normalize/games/s.json:1: error: the batch's meta has no 'scrapedAt'"))
            #expect(error.exitCode == 2)
        }
    }

    @Test func recordFromANewerSchemaThatDoesNotDecodeIsKeptAsUnreadable() throws {
        let game = T.game(season: "2020", date: "2020-07-24", away: "mlb-nyy", home: "mlb-bos", source: "s", lastModified: time)
        var text = String(decoding: try envelope(meta: [.source: "s", .scrapedAt: "2020-07-10T00:00:00Z"], games: [game]), as: UTF8.self)
        // A v3 record whose shape this build cannot decode (a field renamed).
        text = text.replacingOccurrences(
            of: "\"records\": [\n", with: "\"records\": [\n    {\"id\":\"mlb-2020-future\",\"schemaVersion\":3,\"venue\":{\"id\":\"x\"}},\n"
        )
        let batch = try BatchReader.gameBatchAndMeta(from: Data(text.utf8), path: "s.json").batch
        #expect(batch.records.count == 1)
        #expect(batch.unreadable == [UnreadableRecord(id: "mlb-2020-future", schemaVersion: 3)])
        // A version-2 record that does not decode is an error with its line.
        let broken = text.replacingOccurrences(of: "\"schemaVersion\":3", with: "\"schemaVersion\":2")
        do {
            _ = try BatchReader.gameBatchAndMeta(from: Data(broken.utf8), path: "s.json").batch
            Issue.record("expected an error")
        } catch let error as PipelineError {
            #expect(error.description.hasPrefix("s.json:"))
            #expect(error.description.contains("records do not match sportstime.games v2"))
        }
    }

    @Test func envelopeFromANewerSchemaIsRefused() throws {
        var text = String(decoding: try envelope(meta: [.source: "s", .scrapedAt: "2020-07-10T00:00:00Z"], games: []), as: UTF8.self)
        text = text.replacingOccurrences(of: "\"schemaVersion\": 2", with: "\"schemaVersion\": 3")
        do {
            _ = try BatchReader.gameBatchAndMeta(from: Data(text.utf8), path: "out/normalize/games/s.json").batch
            Issue.record("expected an error")
        } catch let error as PipelineError {
            #expect(error.description.contains("schemaVersion 3 is newer than this build reads (up to 2)"))
        }
    }
}
