import Foundation
import SportsTimeCore
import Testing
@testable import SportsTimeMerge

/// A merge must not lose published games silently (issue 15).
@Suite struct ShrinkGuardTests {
    func published(_ ids: [String], source: String = "retro", key: String = "mlb-2023") -> ShrinkGuard.PublishedSeason {
        ShrinkGuard.PublishedSeason(
            key: key, path: "out/merge/games/\(key).json",
            games: ids.enumerated().map { .init(id: $1, sources: [source], line: 10 + $0) })
    }

    func active(_ ids: [String], season: String = "mlb-2023") -> [ShrinkGuard.Candidate] {
        ids.map { ShrinkGuard.Candidate(id: $0, season: season, isActive: true) }
    }

    @Test func aSeasonCutInHalfIsAShrinkNamingItsSource() throws {
        let shrinks = ShrinkGuard.shrinks(
            published: [published(["a", "b", "c", "d"])], candidates: active(["a", "b"]),
            allowances: [:])
        let shrink = try #require(shrinks.first)
        #expect(shrinks.count == 1)
        #expect((shrink.season, shrink.before, shrink.after, shrink.lost, shrink.sources) == ("mlb-2023", 4, 2, ["c", "d"], ["retro"]))
        #expect(shrink.firstLostLine == 12)
        #expect(!shrink.isAllowed)
        let text = ShrinkGuard.diagnostic(for: shrink, batchSources: ["retro"]).description
        #expect(
            text
                == "out/merge/games/mlb-2023.json:12: error: mlb-2023 would go from 4 to 2 active games: 2 published games are in no batch and no newer batch soft-deleted them (c, d); from source 'retro'; nothing was written. Fix the source's files (a file cut short, a header-only file, a batch refused upstream) and run again, or, if the drop is intended, declare it on the source in pipeline/sources.yaml: allowShrink: {reason: ...}."
        )
        #expect(ShrinkGuard.diagnostic(for: shrink, batchSources: []).message.contains("'retro' (no batch from it in this merge"))
    }

    @Test func softDeletedGamesAreNotLost() {
        var candidates = active(["a", "b"])
        candidates += [
            ShrinkGuard.Candidate(id: "c", season: "mlb-2023", isActive: false),
            ShrinkGuard.Candidate(id: "d", season: "mlb-2023", isActive: false),
        ]
        #expect(ShrinkGuard.shrinks(published: [published(["a", "b", "c", "d"])], candidates: candidates, allowances: [:]).isEmpty)
    }

    @Test func aGameKeptUnderANewIdIsPresentThroughItsFormerIds() {
        let candidates = active(["a", "b", "c"]) + [ShrinkGuard.Candidate(id: "d2", formerIds: ["d"], season: "mlb-2023", isActive: true)]
        #expect(ShrinkGuard.shrinks(published: [published(["a", "b", "c", "d"])], candidates: candidates, allowances: [:]).isEmpty)
        // A rename alone (same count, old id gone, a new id) does not shrink the season either.
        #expect(
            ShrinkGuard.shrinks(
                published: [published(["a", "b", "c", "d"])], candidates: active(["a", "b", "c", "e"]),
                allowances: [:]
            ).isEmpty)
    }

    @Test func candidatesReadFormerIdsThroughTheClosure() throws {
        let game = Game(
            id: "mlb-2023-x", sport: "mlb", season: "2023", kind: .regular, startUTC: nil,
            localDate: try #require(LocalDate(year: 2023, month: 4, day: 1)), timeTBD: true, homeTeamId: "mlb-bos",
            awayTeamId: "mlb-nyy", stadiumId: "fenway-park", neutralSite: false, gameNumber: nil,
            status: .scheduled, sourceIds: [:], lastModified: Instant(secondsSinceEpoch: 0), source: "s")
        #expect(
            ShrinkGuard.candidates([game], formerIds: { _ in ["old"] })
                == [ShrinkGuard.Candidate(id: "mlb-2023-x", formerIds: ["old"], season: "mlb-2023", isActive: true)])
    }

    @Test func aDeclaredShrinkIsAllowedOnlyWhenEverySourceDeclaresIt() throws {
        var season = published(["a", "b", "c"])
        season.games[2].sources = ["other"]
        let one = try #require(
            ShrinkGuard.shrinks(
                published: [season], candidates: active(["a"]),
                allowances: ["retro": "cut short"]
            ).first)
        #expect(one.sources == ["other", "retro"])
        #expect(!one.isAllowed)
        let both = try #require(
            ShrinkGuard.shrinks(
                published: [season], candidates: active(["a"]),
                allowances: ["retro": "cut short", "other": "dropped", "unrelated": "x"]
            ).first)
        #expect(both.isAllowed)
        #expect(both.reasons == ["retro": "cut short", "other": "dropped"])
        #expect(
            ShrinkGuard.note(for: both)
                == "note: mlb-2023 goes from 3 to 1 active games (2 published games dropped), as declared by allowShrink of 'other': dropped; 'retro': cut short"
        )
    }

    @Test func oneLostGameIsToldInTheSingular() throws {
        let shrink = try #require(
            ShrinkGuard.shrinks(published: [published(["a", "b"])], candidates: active(["a"]), allowances: [:]).first)
        #expect(
            ShrinkGuard.diagnostic(for: shrink, batchSources: ["retro"]).message
                == "mlb-2023 would go from 2 to 1 active games: 1 published game is in no batch and no newer batch soft-deleted it (b); from source 'retro'; nothing was written"
        )
    }

    @Test func aSeasonThatVanishesEntirelyIsAShrinkAndOtherSeasonsAreUntouched() {
        let shrinks = ShrinkGuard.shrinks(
            published: [published(["a"], key: "nfl-2021"), published(["x"], key: "nfl-2022")],
            candidates: active(["x"], season: "nfl-2022"), allowances: [:])
        #expect(shrinks.map(\.season) == ["nfl-2021"])
        #expect(shrinks.first?.after == 0)
    }

    // MARK: per source

    @Test func aSourceThatLosesRowsIsRefusedEvenWhenOthersStillListTheGames() throws {
        let published = ["nfl-2017": (path: "out/merge/games/nfl-2017.json", rows: ["espn": 267, "spreadspoke": 267])]
        var shrinks = ShrinkGuard.sourceShrinks(
            published: published, current: ["nfl-2017": ["espn": 267, "spreadspoke": 130]], allowances: [:])
        #expect(shrinks.map(\.source) == ["spreadspoke"])
        var shrink = try #require(shrinks.first)
        #expect((shrink.before, shrink.after, shrink.isAllowed) == (267, 130, false))
        shrink.lostGames = ["nfl-2017-2017-12-03-a-at-b", "nfl-2017-2017-12-03-c-at-d"]
        shrink.line = 140
        #expect(
            ShrinkGuard.diagnostic(for: shrink, batchSources: ["espn", "spreadspoke"]).description
                == "out/merge/games/nfl-2017.json:140: error: source 'spreadspoke' would give nfl-2017 130 rows where the published games have 267: 137 games would lose what it says of them (nfl-2017-2017-12-03-a-at-b, nfl-2017-2017-12-03-c-at-d), even where other sources still list them (a kickoff, a score, a status only it gives); nothing was written. Fix the source's files (a file cut short, a scrape missing games) and run again, or, if the drop is intended, declare it on the source in pipeline/sources.yaml: allowShrink: {reason: ...}."
        )
        // A source with no batch at all is named as such; a declared drop is a note.
        #expect(
            ShrinkGuard.diagnostic(for: shrink, batchSources: ["espn"]).message.contains("'spreadspoke' (no batch from it in this merge"))
        shrinks = ShrinkGuard.sourceShrinks(
            published: published, current: ["nfl-2017": ["espn": 267, "spreadspoke": 130]],
            allowances: ["spreadspoke": "2017 rows withdrawn upstream"])
        #expect(shrinks.first?.isAllowed == true)
        #expect(
            ShrinkGuard.note(for: shrinks[0])
                == "note: source 'spreadspoke' gives nfl-2017 130 rows where the published games have 267, as declared by allowShrink: 2017 rows withdrawn upstream"
        )
    }

    @Test func rowsThatMoveBetweenGamesOrGrowAreNoShrink() {
        let published = ["nba-2025-26": (path: "out/merge/games/nba-2025-26.json", rows: ["json": 1265, "csv": 1271])]
        // Duplicates joined into fewer games keep every row; a new source is not compared.
        #expect(
            ShrinkGuard.sourceShrinks(
                published: published, current: ["nba-2025-26": ["json": 1265, "csv": 1271, "new": 3]], allowances: [:]
            ).isEmpty)
        #expect(ShrinkGuard.sourceShrinks(published: [:], current: ["nba-2025-26": ["json": 1]], allowances: [:]).isEmpty)
    }
}
