import Foundation
import SportsTimeCore
import struct SportsTimeTestSupport.SplitMix64
import Testing
@testable import SportsTimeMerge

/// A merge must not lose published games silently (issue 15).
@Suite struct ShrinkGuardTests {
    func published(_ ids: [String], source: String = "retro", key: String = "mlb-2023") -> ShrinkGuard.PublishedSeason {
        ShrinkGuard.PublishedSeason(
            key: key, path: "out/merge/games/\(key).json",
            games: ids.enumerated().map { .init(id: $1, sources: [source], line: 10 + $0) })
    }

    func active(_ ids: [String], season: String = "mlb-2023") -> [ShrinkGuard.CandidateGame] {
        ids.map { ShrinkGuard.CandidateGame(id: $0, season: season, isActive: true) }
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
            ShrinkGuard.CandidateGame(id: "c", season: "mlb-2023", isActive: false),
            ShrinkGuard.CandidateGame(id: "d", season: "mlb-2023", isActive: false),
        ]
        #expect(ShrinkGuard.shrinks(published: [published(["a", "b", "c", "d"])], candidates: candidates, allowances: [:]).isEmpty)
    }

    @Test func aGameKeptUnderANewIdIsPresentThroughItsFormerIds() {
        let candidates =
            active(["a", "b", "c"]) + [ShrinkGuard.CandidateGame(id: "d2", formerIds: ["d"], season: "mlb-2023", isActive: true)]
        #expect(ShrinkGuard.shrinks(published: [published(["a", "b", "c", "d"])], candidates: candidates, allowances: [:]).isEmpty)
    }

    /// A game renamed by a data fix (a team's id changed in the reference) is the same game when it keeps
    /// a source's own game id, or — for a source with none — the same scraped row under a new id. A game
    /// dropped while a new one takes its place (a placeholder filled in) keeps the count and is still lost.
    @Test func aRenameIsProvedBySourceIdOrScrapedRowAndASwapIsALoss() throws {
        var season = published(["a", "b", "c", "d"])
        season.games[3].sourceKeys = [ShrinkGuard.sourceKey(source: "retro", id: "D")]
        let renamedById =
            active(["a", "b", "c"]) + [
                ShrinkGuard.CandidateGame(
                    id: "e", season: "mlb-2023", isActive: true, sourceKeys: [ShrinkGuard.sourceKey(source: "retro", id: "D")])
            ]
        #expect(ShrinkGuard.shrinks(published: [season], candidates: renamedById, allowances: [:]).isEmpty)

        var rowOnly = published(["a", "b", "c", "d"])
        rowOnly.games[3].rows = [ShrinkGuard.rowKey(source: "retro", row: "2023SKED.TXT:40")]
        let renamedByRow =
            active(["a", "b", "c"]) + [
                ShrinkGuard.CandidateGame(
                    id: "e", season: "mlb-2023", isActive: true, rows: [ShrinkGuard.rowKey(source: "retro", row: "2023SKED.TXT:40")])
            ]
        #expect(ShrinkGuard.shrinks(published: [rowOnly], candidates: renamedByRow, allowances: [:]).isEmpty)
        // The row now feeds a game that was published already (a row deleted above shifted it): not a rename.
        let shifted =
            active(["a", "b", "c"]) + [
                ShrinkGuard.CandidateGame(
                    id: "c", season: "mlb-2023", isActive: true, rows: [ShrinkGuard.rowKey(source: "retro", row: "2023SKED.TXT:40")])
            ]
        #expect(ShrinkGuard.shrinks(published: [rowOnly], candidates: shifted, allowances: [:]).map(\.lost) == [["d"]])

        let swapped = try #require(
            ShrinkGuard.shrinks(published: [published(["a", "b", "c", "d"])], candidates: active(["a", "b", "c", "e"]), allowances: [:])
                .first)
        #expect((swapped.before, swapped.after, swapped.lost) == (4, 4, ["d"]))
        #expect(
            ShrinkGuard.diagnostic(for: swapped, batchSources: ["retro"]).message
                == "mlb-2023 would lose published games although other games keep it at 4 active games: 1 published game is in no batch and no newer batch soft-deleted it (d); from source 'retro'; nothing was written"
        )
        #expect(
            ShrinkGuard.diagnostic(for: swapped, batchSources: []).fix?.contains("retiredSources: [{source: retro, reason: ...}]") == true)
    }

    /// The verdict on a merge whose published season lost games: one located error for the season (its
    /// source's lost rows are the same games, not told again); a retired source's drop is a note.
    @Test func checkRefusesALostSeasonOnceAndNotesARetiredSource() throws {
        var game = Game(
            id: "a", sport: "mlb", season: "2023", kind: .regular, startUTC: nil,
            localDate: try #require(LocalDate(year: 2023, month: 4, day: 1)), timeTBD: true, homeTeamId: "mlb-bos",
            awayTeamId: "mlb-nyy", stadiumId: "fenway-park", neutralSite: false, gameNumber: nil,
            status: .scheduled, sourceIds: [:], lastModified: Instant(secondsSinceEpoch: 0), source: "retro")
        game.formerIds = ["b0"]
        var season = published(["a", "b0", "c"])
        season.rows = [Row(gameId: "c", source: "retro", sourceGameId: nil, row: "SKED.TXT:3")]
        let candidate = ShrinkGuard.Candidate(
            games: ["a": game], lineage: MergeLineage(), allowances: [:], retired: [], batchSources: ["retro"])
        let verdict = ShrinkGuard.check(published: [season], candidate: candidate)
        #expect(verdict.notes.isEmpty)
        #expect(
            verdict.refusals.map(\.description) == [
                "out/merge/games/mlb-2023.json:12: error: mlb-2023 would go from 3 to 1 active games: 1 published game is in no batch and no newer batch soft-deleted it (c); from source 'retro'; nothing was written. Fix the source's files (a file cut short, a header-only file, a batch refused upstream) and run again, or, if the drop is intended, declare it on the source in pipeline/sources.yaml: allowShrink: {reason: ...}."
            ])
        let retired = RetiredSource(
            source: "retro", reason: "gone", location: SourceLocation(path: "fixtures/overrides/retired.yaml", line: 2))
        let allowed = ShrinkGuard.check(
            published: [season],
            candidate: ShrinkGuard.Candidate(
                games: ["a": game], lineage: MergeLineage(), allowances: [:], retired: [retired], batchSources: []))
        #expect(allowed.passes)
        #expect(
            allowed.notes == [
                "note: mlb-2023 goes from 3 to 1 active games (1 published game dropped), as declared by allowShrink of 'retro': retired (fixtures/overrides/retired.yaml:2): gone",
                "note: source 'retro' no longer gives rows to 1 published game of mlb-2023, as declared: retired (fixtures/overrides/retired.yaml:2): gone",
            ])
        // The same digests as published: nothing is compared.
        season.hasSameActiveIds = true
        season.hasSameRows = true
        #expect(ShrinkGuard.check(published: [season], candidate: candidate).refusals.isEmpty)
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

    typealias Row = ShrinkGuard.SourceRow

    @Test func aSourceThatNoLongerFeedsGamesIsRefusedEvenWhenOthersStillListThem() throws {
        let published = [
            "nfl-2017": (
                path: "out/merge/games/nfl-2017.json",
                rows: [
                    Row(gameId: "g1", source: "espn", sourceGameId: "1", row: "games.csv:2"),
                    Row(gameId: "g1", source: "spreadspoke", sourceGameId: nil, row: "scores.csv:10"),
                    Row(gameId: "g2", source: "espn", sourceGameId: "2", row: "games.csv:3"),
                    Row(gameId: "g2", source: "spreadspoke", sourceGameId: nil, row: "scores.csv:11"),
                ]
            )
        ]
        // spreadspoke cut: only ESPN still lists the two games.
        let current = [
            Row(gameId: "g1", source: "espn", sourceGameId: "1", row: "games.csv:2"),
            Row(gameId: "g2", source: "espn", sourceGameId: "2", row: "games.csv:3"),
        ]
        var shrinks = ShrinkGuard.sourceShrinks(
            published: published, current: current, formerIds: [:], publishedIds: ["g1", "g2"], allowances: [:])
        #expect(shrinks.map(\.source) == ["spreadspoke"])
        var shrink = try #require(shrinks.first)
        #expect((shrink.before, shrink.after, shrink.lostGames, shrink.isAllowed) == (2, 0, ["g1", "g2"], false))
        shrink.line = 140
        #expect(
            ShrinkGuard.diagnostic(for: shrink, batchSources: ["espn", "spreadspoke"]).description
                == "out/merge/games/nfl-2017.json:140: error: source 'spreadspoke' would no longer give rows to 2 published games of nfl-2017 (g1, g2), though other sources may still list them: what only it says (a kickoff, a score, a status) would be lost; nothing was written. Fix the source's files (a file cut short, a scrape missing games or rows replaced) and run again, or, if the drop is intended, declare it on the source in pipeline/sources.yaml: allowShrink: {reason: ...}."
        )
        // A source with no batch at all is named as such, with how to retire it; a declared drop is a note.
        let gone = ShrinkGuard.diagnostic(for: shrink, batchSources: ["espn"])
        #expect(gone.message.contains("'spreadspoke' (no batch from it in this merge"))
        #expect(gone.fix?.contains("retiredSources: [{source: spreadspoke, reason: ...}]") == true)
        shrinks = ShrinkGuard.sourceShrinks(
            published: published, current: current, formerIds: [:], publishedIds: ["g1", "g2"],
            allowances: ["spreadspoke": "2017 rows withdrawn upstream"])
        #expect(shrinks.first?.isAllowed == true)
        #expect(
            ShrinkGuard.note(for: shrinks[0])
                == "note: source 'spreadspoke' no longer gives rows to 2 published games of nfl-2017, as declared: 2017 rows withdrawn upstream"
        )
    }

    /// Rows that now feed the same game under another id, a duplicate joined into its real game, or a
    /// renamed game, still reach it; a row replaced by another game of the same source does not.
    @Test func rowsAreFollowedByIdFormerIdOwnIdOrRenamedRow() {
        let published = [
            "nba-2025-26": (
                path: "out/merge/games/nba-2025-26.json",
                rows: [
                    Row(gameId: "dup", source: "csv", sourceGameId: "7", row: "s.csv:8"),
                    Row(gameId: "moved", source: "json", sourceGameId: "8", row: "s.json:9"),
                    Row(gameId: "renamed", source: "retro", sourceGameId: nil, row: "SKED.TXT:4"),
                    Row(gameId: "replaced", source: "espn", sourceGameId: "9", row: "games.csv:5"),
                ]
            )
        ]
        let current = [
            Row(gameId: "real", source: "csv", sourceGameId: "7", row: "s.csv:8"), // the duplicate joined
            Row(gameId: "new-date", source: "json", sourceGameId: "8", row: "s.json:9"), // re-dated: former id
            Row(gameId: "new-id", source: "retro", sourceGameId: nil, row: "SKED.TXT:4"), // same row, new id
            Row(gameId: "other", source: "espn", sourceGameId: "99", row: "games.csv:5"), // another game in its row
        ]
        let shrinks = ShrinkGuard.sourceShrinks(
            published: published, current: current, formerIds: ["new-date": ["moved"]],
            publishedIds: ["dup", "moved", "renamed", "replaced", "real"], allowances: [:])
        #expect(shrinks.map(\.source) == ["espn"])
        #expect(shrinks.first?.lostGames == ["replaced"])
    }

    /// The season texts built by buckets are `idsText` and `rowsText` exactly, for sources that are
    /// prefixes of one another, hold punctuation below and above the tab, a tab itself or letters that
    /// are not ASCII (the last two take the sorting path; the Kelvin sign is `==` to `K` but not spelled
    /// like it), and for ids of any kind.
    @Test func seasonTextsEqualTheSortedTexts() {
        let sources = ["a", "a-b", "ab", "a b", "a\u{1}", "b", "a\tb", "é", "e\u{301}", "K", "\u{212A}", "retro", "retro-2"]
        let idParts = ["mlb", "2023", "-", "a", "é", "\u{301}", "_", "~", " "]
        var generator = SplitMix64(seed: 15)
        for round in 0..<400 {
            // Rounds alternate between ASCII-only sources without a tab and any of them.
            let pool = round % 2 == 0 ? sources.filter { $0.utf8.allSatisfy { $0 < 0x80 } && !$0.contains("\t") } : sources
            var games: [(id: String, isActive: Bool)] = []
            var rowsOf: [String: [String]] = [:]
            var seen = Set<String>()
            for _ in 0..<Int(generator.next() % 12) {
                let id = (0..<(1 + Int(generator.next() % 4))).map { _ in idParts[Int(generator.next() % UInt64(idParts.count))] }.joined()
                guard seen.insert(id).inserted else { continue }
                games.append((id, generator.next() % 3 != 0))
                rowsOf[id] = (0..<Int(generator.next() % 4)).map { _ in pool[Int(generator.next() % UInt64(pool.count))] }
            }
            let texts = ShrinkGuard.seasonTexts(games: games) { id, body in rowsOf[id, default: []].forEach(body) }
            let rows = games.flatMap { game in rowsOf[game.id, default: []].map { (source: $0, gameId: game.id) } }
            #expect(texts.ids == ShrinkGuard.idsText(games.filter(\.isActive).map(\.id)), "round \(round)")
            #expect(texts.rows == ShrinkGuard.rowsText(rows), "round \(round)")
            #expect(texts.order.map { games[$0].id } == games.map(\.id).sorted(), "round \(round)")
        }
    }
}
