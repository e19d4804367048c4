import Foundation
import SportsTimeCore
import Testing
@testable import SportsTimeMerge

/// Checks on the committed merged store (`out/merge/`) that every trip is planned on: no game counted
/// twice, no kickoff a source gives lost, the day/night knowledge of Retrosheet kept.
@Suite struct CommittedStoreTests {
    static let out = TestPaths.packageRoot.appendingPathComponent("out")

    static func envelopes<Record: Codable & Sendable>(_ type: Record.Type, in folder: String, kind: ArtifactKind) throws -> [String:
        [Record]]
    {
        let url = out.appendingPathComponent(folder)
        var byFile: [String: [Record]] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: url.path).sorted() where name.hasSuffix(".json") {
            let data = try Data(contentsOf: url.appendingPathComponent(name))
            byFile[name] = try EnvelopeReader.read(type, from: data, path: "\(folder)/\(name)", expecting: kind).records
        }
        return byFile
    }

    /// Two active games of one sport, season, home and away team within 3 days of each other are one
    /// game counted twice unless some source lists both (a series, or a doubleheader's two games).
    @Test func noActiveGameIsCountedTwice() throws {
        let games = try Self.envelopes(Game.self, in: "merge/games", kind: .games)
        let lineage = try Self.envelopes(GameLineage.self, in: "merge/lineage", kind: .lineage)
        var sources: [String: Set<String>] = [:]
        for entries in lineage.values { for entry in entries { sources[entry.id] = Set(entry.rows.map(\.source)) } }
        var checkedPairs = 0
        for (file, records) in games {
            var byPairing: [String: [Game]] = [:]
            for game in records where game.deprecatedAt == nil {
                byPairing["\(game.homeTeamId) \(game.awayTeamId)", default: []].append(game)
            }
            for pairing in byPairing.values {
                let sorted = pairing.sorted { ($0.localDate, $0.gameNumber ?? 1) < ($1.localDate, $1.gameNumber ?? 1) }
                for (i, a) in sorted.enumerated() {
                    for b in sorted[(i + 1)...] where b.localDate.daysSinceEpoch - a.localDate.daysSinceEpoch <= 3 {
                        checkedPairs += 1
                        let shared = sources[a.id, default: []].intersection(sources[b.id, default: []])
                        #expect(!shared.isEmpty, "\(file): \(a.id) and \(b.id) share no source: one game counted twice?")
                    }
                }
            }
        }
        #expect(checkedPairs > 1_000) // series and doubleheaders are common: the scan really ran
        #expect(sources["nfl-2023-2024-01-06-hou-at-ind"] == ["nfl-nflverse-2023-wk18", "nfl-spreadspoke-2022-2025"])
    }

    /// Every NFL game for which any normalized source gives an exact kickoff has one in the store.
    @Test func everyNFLKickoffASourceGivesIsInTheStore() throws {
        let merged = try Self.envelopes(Game.self, in: "merge/games", kind: .games)
        var byId: [String: Game] = [:]
        for records in merged.values {
            for game in records where game.sport == "nfl" {
                byId[game.id] = game
                for former in game.formerIds ?? [] { byId[former] = game }
            }
        }
        let normalized = try Self.envelopes(Game.self, in: "normalize/games", kind: .games)
        var known = 0
        for (file, records) in normalized where file.hasPrefix("nfl-") {
            for record in records where record.startKnowledge == .exact {
                let game = try #require(byId[record.id], "\(record.id) of \(file) is not in the store")
                known += 1
                // A start is kept on the game's own date; a game another source re-dated may lose it.
                guard game.localDate == record.localDate else { continue }
                #expect(game.startKnowledge == .exact && game.startUTC != nil, "\(game.id): \(file) gives its kickoff")
            }
        }
        #expect(known > 500)
        let nfl2023 = try #require(merged["nfl-2023.json"])
        #expect(nfl2023.filter { $0.startKnowledge == .exact }.count >= 270)
    }

    @Test func retrosheetDayAndNightFlagsReachTheStore() throws {
        let mlb2023 = try #require(try Self.envelopes(Game.self, in: "merge/games", kind: .games)["mlb-2023.json"])
        let day = mlb2023.filter { $0.startKnowledge == .day }.count
        let night = mlb2023.filter { $0.startKnowledge == .night }.count
        #expect(day > 700 && night > 1_500 && day + night >= 2_400)
    }
}
