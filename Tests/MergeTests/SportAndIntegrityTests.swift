import Foundation
import SportsTimeCore
import Testing
@testable import SportsTimeMerge

/// Dynamic sports beside the built-in seven, colours and season months.
@Suite struct SportTests {
    func xfl(color: String = "#C8102E", start: Int = 2, end: Int = 5, active: Bool = true, id: String = "xfl") -> Sport {
        Sport(
            id: id, abbreviation: id.uppercased(), displayName: "United Football League", iconName: "football", colorHex: color,
            seasonStartMonth: start, seasonEndMonth: end, isActive: active, isBuiltIn: false,
            lastModified: T.referenceTime, source: "reference")
    }

    @Test func dynamicSportIsMergedBesideTheBuiltIns() throws {
        let result = try Merger.merge(MergeInput(reference: T.reference(teams: [], extraSports: [xfl()]), gameBatches: []))
        #expect(result.store.sports.count == 8)
        let catalog = result.store.sportCatalog
        #expect(try catalog.sport("xfl").displayName == "United Football League")
        #expect(try catalog.sport("nba").isBuiltIn)
        #expect(catalog.knownIds == ["mlb", "nba", "nhl", "nfl", "mls", "wnba", "nwsl", "xfl"])
    }

    @Test func unknownSportIsAnErrorListingTheKnownOnes() throws {
        let catalog = SportCatalog(sports: [xfl()])
        #expect(throws: UnknownSport.self) { try catalog.sport("cfl") }
        do {
            _ = try catalog.sport("cfl")
        } catch {
            #expect(error.description == "unknown sport 'cfl' (known: mlb, nba, nhl, nfl, mls, wnba, nwsl, xfl)")
        }
    }

    @Test func builtInIdIsLookedUpFirstEvenWithoutData() throws {
        let catalog = SportCatalog(sports: [Sport]())
        #expect(try catalog.sport("mlb").displayName == "Major League Baseball")
    }

    @Test func newerRecordRedefiningABuiltInWins() throws {
        var mlb = BuiltInSport.mlb.sport
        mlb.colorHex = "#002D72"; mlb.lastModified = T.instant("2026-02-01T00:00:00Z"); mlb.source = "reference"; mlb.isBuiltIn = false
        let result = try Merger.merge(MergeInput(reference: T.reference(teams: [], extraSports: [mlb]), gameBatches: []))
        #expect(try result.store.sportCatalog.sport("mlb").colorHex == "#002D72")
        #expect(result.counts(.sports)?.replaced == 1)
    }

    @Test func inactiveSportIsKeptInTheStore() throws {
        let result = try Merger.merge(MergeInput(reference: T.reference(teams: [], extraSports: [xfl(active: false)]), gameBatches: []))
        #expect(result.store.sports["xfl"]?.isActive == false)
    }

    @Test func seasonMonthsMayWrapTheYearEnd() throws {
        let winter = xfl(start: 11, end: 3, id: "winter")
        let result = try Merger.merge(MergeInput(reference: T.reference(teams: [], extraSports: [winter]), gameBatches: []))
        let sport = try #require(result.store.sports["winter"])
        #expect(sport.isInSeason(month: 1) && sport.isInSeason(month: 12) && !sport.isInSeason(month: 6))
        let nba = try result.store.sportCatalog.sport("nba")
        #expect(nba.isInSeason(month: 1) && nba.isInSeason(month: 10) && !nba.isInSeason(month: 8))
    }

    @Test func monthOutOfRangeIsRejected() throws {
        let result = try Merger.merge(MergeInput(reference: T.reference(teams: [], extraSports: [xfl(end: 13)]), gameBatches: []))
        #expect(result.store.sports["xfl"] == nil)
        #expect(
            result.rejects.first?.reason
                == "sport 'xfl': seasonEndMonth 13 is not a month (1-12; a season may wrap the year end, e.g. 10 to 6)")
    }

    @Test(arguments: [("#abc", "#AABBCC"), ("#a1b2c3", "#A1B2C3"), ("A1B2C3", "#A1B2C3"), ("#A1B2C3FF", "#A1B2C3")])
    func colourFormsAreNormalized(input: String, expected: String) throws {
        let result = try Merger.merge(MergeInput(reference: T.reference(teams: [], extraSports: [xfl(color: input)]), gameBatches: []))
        #expect(result.store.sports["xfl"]?.colorHex == expected)
    }

    @Test(arguments: ["red", "#12345", "abc", "#GGGGGG", "#A1B2C3F", ""])
    func badColourIsRejectedWithTheRecordId(color: String) throws {
        let result = try Merger.merge(MergeInput(reference: T.reference(teams: [], extraSports: [xfl(color: color)]), gameBatches: []))
        #expect(result.store.sports["xfl"] == nil)
        let reject = try #require(result.rejects.first)
        #expect(reject.recordId == "xfl")
        #expect(reject.reason.hasPrefix("sport 'xfl': colour '\(color)' is not a hex colour"))
        #expect(reject.file == "fixtures/reference/sports.yaml")
        #expect(result.counts(.sports)?.rejected == 1 && result.countsAddUp)
    }

    @Test func sportIdMustBeASlug() throws {
        let result = try Merger.merge(MergeInput(reference: T.reference(teams: [], extraSports: [xfl(id: "X FL")]), gameBatches: []))
        #expect(result.rejects.first?.reason.contains("not a lowercase slug") == true)
    }
}

/// References must resolve: a record pointing at a missing one is rejected with the reason.
@Suite struct IntegrityTests {
    let time = T.instant("2023-03-01T00:00:00Z")

    @Test func teamWithUnknownSportOrStadiumIsRejected() throws {
        var reference = T.reference(teams: ["mlb-bos"])
        reference.teams.append(T.team("cfl-tor", sport: "cfl", stadium: "park-mlb-bos"))
        reference.teams.append(T.team("mlb-xxx", stadium: "nowhere-park"))
        let result = try Merger.merge(MergeInput(reference: reference, gameBatches: []))
        #expect(result.store.teams.keys.sorted() == ["mlb-bos"])
        let reasons = result.rejects.map(\.reason)
        #expect(reasons.contains("team 'cfl-tor': unknown sport 'cfl' (known: mlb, nba, nhl, nfl, mls, wnba, nwsl)"))
        #expect(reasons.contains("team 'mlb-xxx': home stadium 'nowhere-park' is not a known stadium"))
        #expect(result.rejects.allSatisfy { $0.file == "fixtures/reference/teams.csv" })
        #expect(result.counts(.teams)?.rejected == 2 && result.countsAddUp)
    }

    @Test func gameWithUnknownTeamStadiumOrSportIsRejected() throws {
        let reference = T.reference(teams: ["mlb-bos", "mlb-nyy"])
        let good = T.game(date: "2023-04-10", away: "mlb-nyy", home: "mlb-bos", source: "s", lastModified: time)
        let unknownTeam = T.game(date: "2023-04-11", away: "mlb-xxx", home: "mlb-bos", source: "s", lastModified: time)
        let unknownStadium = T.game(
            date: "2023-04-12", away: "mlb-nyy", home: "mlb-bos", stadium: "atlantis", source: "s", lastModified: time)
        let unknownSport = T.game(sport: "cfl", date: "2023-04-13", away: "mlb-nyy", home: "mlb-bos", source: "s", lastModified: time)
        var badSeason = T.game(season: "23", date: "2023-04-14", away: "mlb-nyy", home: "mlb-bos", source: "s", lastModified: time)
        badSeason.id = Game.makeId(
            sport: "mlb", season: "23", localDate: T.date("2023-04-14"), awayTeamId: "mlb-nyy", homeTeamId: "mlb-bos", gameNumber: nil)
        var wrongId = T.game(date: "2023-04-15", away: "mlb-nyy", home: "mlb-bos", source: "s", lastModified: time)
        wrongId.localDate = T.date("2023-04-16")
        var batch = T.batch(source: "s", scrapedAt: time, games: [good, unknownTeam, unknownStadium, unknownSport, badSeason, wrongId])
        batch.firstRecordLine = 10
        let result = try Merger.merge(MergeInput(reference: reference, gameBatches: [batch]))
        #expect(result.store.games.keys.sorted() == [good.id])
        let byId = Dictionary(uniqueKeysWithValues: result.rejects.map { ($0.recordId!, $0) })
        #expect(byId[unknownTeam.id]?.reason == "game '\(unknownTeam.id)': away team 'mlb-xxx' is not a known team")
        #expect(byId[unknownStadium.id]?.reason == "game '\(unknownStadium.id)': stadium 'atlantis' is not a known stadium")
        #expect(byId[unknownSport.id]?.reason.contains("unknown sport 'cfl' (known: mlb, nba") == true)
        #expect(byId[badSeason.id]?.reason.contains("season '23' is not like 2025 or 2025-26") == true)
        #expect(byId[wrongId.id]?.reason.contains("the id does not match the game's fields") == true)
        // Lines point into the batch file (record i on line first + i, in file order).
        #expect(byId[unknownTeam.id]?.line == 11)
        #expect(byId[unknownTeam.id]?.file == "out/normalize/games/s.json")
        #expect(byId[unknownTeam.id]?.raw?.contains("\"awayTeamId\":\"mlb-xxx\"") == true)
        #expect(result.counts(.games)?.rejected == 5 && result.countsAddUp)
    }

    @Test func newerInvalidRecordKeepsTheOlderValidOne() throws {
        let reference = T.reference(teams: ["mlb-bos", "mlb-nyy"])
        let valid = T.game(date: "2023-04-10", away: "mlb-nyy", home: "mlb-bos", source: "s", lastModified: time)
        let later = T.instant("2023-04-01T00:00:00Z")
        let invalid = T.game(date: "2023-04-10", away: "mlb-nyy", home: "mlb-bos", stadium: "atlantis", source: "s", lastModified: later)
        let result = try Merger.merge(
            MergeInput(
                reference: reference,
                gameBatches: [
                    T.batch(source: "s", scrapedAt: time, games: [valid]), T.batch(source: "s", scrapedAt: later, games: [invalid]),
                ]))
        #expect(result.store.games[valid.id]?.stadiumId == "park-mlb-bos")
        #expect(result.rejects.count == 1)
    }

    @Test func leagueStructureParentsResolveAfterTheKindIsFolded() throws {
        func structure(_ id: String, parent: String?, level: LeagueStructure.Level = .division) -> LeagueStructure {
            LeagueStructure(
                id: id, sport: "mlb", level: level, name: id, parentId: parent, displayOrder: 1,
                lastModified: T.referenceTime, source: "reference")
        }
        // "al" sorts after "al-east"-style children would not; use ids where the child sorts first.
        let reference = T.reference(
            teams: [],
            structures: [
                structure("mlb-a-east", parent: "mlb-z-league"), structure("mlb-z-league", parent: nil, level: .league),
                structure("mlb-orphan", parent: "mlb-missing"), structure("mlb-orphan-child", parent: "mlb-orphan"),
                structure("cfl-east", parent: nil),
            ])
        var withCfl = reference
        withCfl.leagueStructures[4].sport = "cfl"
        let result = try Merger.merge(MergeInput(reference: withCfl, gameBatches: []))
        #expect(result.store.leagueStructures.keys.sorted() == ["mlb-a-east", "mlb-z-league"])
        let reasons = Dictionary(uniqueKeysWithValues: result.rejects.map { ($0.recordId!, $0.reason) })
        #expect(reasons["mlb-orphan"] == "league structure 'mlb-orphan': parent 'mlb-missing' is not a known league structure")
        #expect(reasons["mlb-orphan-child"] == "league structure 'mlb-orphan-child': parent 'mlb-orphan' was refused")
        #expect(reasons["cfl-east"]?.contains("unknown sport 'cfl'") == true)
        let counts = try #require(result.counts(.leagueStructures))
        #expect(counts.read == 5 && counts.applied == 2 && counts.rejected == 3 && counts.addsUp)
    }

    @Test func aliasesMustNameKnownTeamsAndStadiums() throws {
        let reference = T.reference(
            teams: ["mlb-bos"],
            teamAliases: [
                TeamAlias(id: "a1", teamId: "mlb-bos", kind: .sourceCode, value: "BOS", lastModified: T.referenceTime, source: "reference"),
                TeamAlias(id: "a2", teamId: "mlb-xxx", kind: .sourceCode, value: "XXX", lastModified: T.referenceTime, source: "reference"),
                TeamAlias(
                    id: "a3", teamId: "mlb-bos", kind: .name, value: "Pilgrims", validFrom: T.date("1910-01-01"),
                    validUntil: T.date("1900-01-01"), lastModified: T.referenceTime, source: "reference"),
            ],
            stadiumAliases: [
                StadiumAlias(id: "s1", stadiumId: "park-mlb-bos", name: "Old Park", lastModified: T.referenceTime, source: "reference"),
                StadiumAlias(id: "s2", stadiumId: "gone-park", name: "Gone", lastModified: T.referenceTime, source: "reference"),
            ])
        let result = try Merger.merge(MergeInput(reference: reference, gameBatches: []))
        #expect(result.store.teamAliases.keys.sorted() == ["a1"])
        #expect(result.store.stadiumAliases.keys.sorted() == ["s1"])
        #expect(result.rejects.count == 3)
        #expect(result.countsAddUp)
    }

    @Test func stadiumWithBadZoneOrCoordinatesIsRejected() throws {
        var reference = T.reference(teams: [])
        reference.stadiums = [T.stadium("frankfurt-arena", zone: "Europe/Frankfurt"), T.stadium("ok-park")]
        var offMap = T.stadium("off-map")
        offMap.latitude = 123
        reference.stadiums.append(offMap)
        let result = try Merger.merge(MergeInput(reference: reference, gameBatches: []))
        #expect(result.store.stadiums.keys.sorted() == ["ok-park"])
        #expect(
            result.rejects.map(\.reason).contains(
                "stadium 'frankfurt-arena': time zone 'Europe/Frankfurt' is not an IANA zone (e.g. America/New_York)"))
    }

    @Test func teamWithUnknownDivisionIsAWarningNotAReject() throws {
        var reference = T.reference(teams: [])
        reference.stadiums = [T.stadium("park-mlb-bos")]
        reference.teams = [T.team("mlb-bos", division: "mlb-al-east")]
        let result = try Merger.merge(MergeInput(reference: reference, gameBatches: []))
        #expect(result.store.teams["mlb-bos"] != nil)
        #expect(result.warnings.map(\.message) == ["team 'mlb-bos' names division 'mlb-al-east', which is not a known league structure"])
    }
}
