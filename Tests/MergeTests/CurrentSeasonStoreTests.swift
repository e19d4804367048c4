import Foundation
import SportsTimeCore
import Testing

/// The current seasons in the committed merged store (`out/merge/`): one record per game of each file, the
/// placeholders not told as facts, home, alternate home and neutral sites as docs/design.md §4 states them.
@Suite struct CurrentSeasonStoreTests {
    static func games(_ season: String) throws -> [Game] {
        try CommittedStoreTests.envelopes(Game.self, in: "merge/games", kind: .games)["\(season).json"]?
            .filter { $0.deprecatedAt == nil } ?? []
    }

    @Test func everySeasonHasItsFilesCounts() throws {
        #expect(try Self.games("nba-2026-27").count == 1200)
        #expect(try Self.games("nhl-2026-27").count == 1344)
        #expect(try Self.games("nfl-2026").count == 272)
        #expect(try Self.games("wnba-2026").count == 331)
        #expect(try Self.games("wnba-2026").filter { $0.status == .postponed }.count == 1)
        #expect(try Self.games("nwsl-2026").count == 240)
        let nwsl2025 = try Self.games("nwsl-2025")
        #expect(nwsl2025.filter { $0.kind == .regular }.count == 182 && nwsl2025.filter { $0.kind == .postseason }.count == 7)
    }

    @Test func theNBACupGamesArePendingNotAbsent() throws {
        let data = try Data(contentsOf: CommittedStoreTests.out.appendingPathComponent("merge/merge-report.json"))
        let report = try EnvelopeReader.read(MergeReportRecord.self, from: data, path: "merge-report.json", expecting: .mergeReport)
        let pending = report.records.compactMap { if case .pending(let p) = $0 { p } else { nil } }
        #expect(pending.map(\.id) == ["pending:nba-2026-27"])
        #expect(pending.first?.pending == 30 && pending.first?.listed == 1200 && pending.first?.expected == 1230)
        #expect(pending.first?.teams.count == 30 && pending.first?.teams.values.allSatisfy { $0 == 2 } == true)
    }

    @Test func noPlaceholderIsAFact() throws {
        // NFL week 18's one shared kickoff is not a start.
        let week18 = try Self.games("nfl-2026").filter { $0.localDate.iso8601 == "2027-01-10" }
        #expect(week18.count == 16 && week18.allSatisfy { $0.startKnowledge == .unknown && $0.startUTC == nil })
        // The one "TBA" venue of NWSL 2026 is to be confirmed, planned at Angel City's home; no other game is.
        let assumed = try Self.games("nwsl-2026").filter { $0.venueAssumed == true }
        #expect(assumed.map(\.id) == ["nwsl-2026-2026-11-01-bos-at-la"])
        #expect(assumed.first?.stadiumId == "bmo-stadium")
        for season in ["nba-2026-27", "nhl-2026-27", "nfl-2026", "wnba-2026", "nwsl-2025"] {
            #expect(try Self.games(season).allSatisfy { $0.venueAssumed == nil }, "\(season)")
        }
    }

    @Test func alternateHomesAreHomeGamesAndNoHomeOfEitherTeamIsNeutral() throws {
        let nwsl = try Self.games("nwsl-2026")
        // Gotham's World Cup-summer home games at Citi Field and Icahn Stadium are home games.
        let displaced = nwsl.filter { $0.homeTeamId == "nwsl-njny" && ["citi-field", "icahn-stadium"].contains($0.stadiumId) }
        #expect(displaced.count == 2 && displaced.allSatisfy { !$0.neutralSite })
        // The Spurs in Austin, Toronto's Tempo at Scotiabank Arena: home games.
        let austin = try Self.games("nba-2026-27").filter { $0.stadiumId == "moody-center" }
        #expect(austin.count == 3 && austin.allSatisfy { $0.homeTeamId == "nba-sas" && !$0.neutralSite })
        let tempo = try Self.games("wnba-2026").filter { $0.homeTeamId == "wnba-tor" && $0.stadiumId == "scotiabank-arena" }
        #expect(!tempo.isEmpty && tempo.allSatisfy { !$0.neutralSite })
        // Every international NFL game is neutral, Jacksonville's in London too (its source does not flag it).
        let abroad = try Self.games("nfl-2026").filter { $0.neutralSite }
        #expect(abroad.count == 9)
        #expect(abroad.contains { $0.homeTeamId == "nfl-jax" && $0.stadiumId == "tottenham-hotspur-stadium" })
        // The NWSL 2025 final at PayPal Park, the home of neither finalist, is neutral.
        let final = try Self.games("nwsl-2025").filter {
            $0.kind == .postseason && $0.stadiumId == "paypal-park" && $0.homeTeamId != "nwsl-bay"
        }
        #expect(final.count == 1 && final.allSatisfy(\.neutralSite))
    }
}
