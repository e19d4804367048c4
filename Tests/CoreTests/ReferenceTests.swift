import Foundation
import Testing
@testable import SportsTimeCore

/// The committed `fixtures/reference/`, found from this file's path.
private let committedReference = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("fixtures/reference")

private let stamp = "2026-11-21T00:00:00Z"

/// A tiny, valid reference directory that each error test breaks in one place.
private struct MiniReference {
    var files: [String: String] = [
        "sports.yaml": """
        - id: ufl
          abbreviation: UFL
          displayName: United Football League
          iconName: football
          colorHex: "#14213D"
          seasonStartMonth: 3
          seasonEndMonth: 6
          isActive: true
          lastModified: "\(stamp)"

        """,
        "stadiums.csv": """
        id,name,city,region,country,latitude,longitude,time_zone,capacity,opened_year,last_modified,source_note
        fenway-park,Fenway Park,Boston,MA,USA,42.346389,-71.097500,America/New_York,,1912,\(stamp),test
        ford-field,Ford Field,Detroit,MI,USA,42.340133,-83.045678,America/Detroit,65000,2002,\(stamp),test

        """,
        "teams.csv": """
        id,sport,market,name,abbreviation,home_stadium_id,conference_id,division_id,last_modified
        mlb-bos,mlb,Boston,Red Sox,BOS,fenway-park,mlb-al,mlb-al-east,\(stamp)
        ufl-mich,ufl,Michigan,Panthers,MICH,ford-field,,,\(stamp)

        """,
        "league-structures.csv": """
        id,sport,level,name,abbreviation,parent_id,display_order,last_modified
        mlb,mlb,league,Major League Baseball,MLB,,1,\(stamp)
        mlb-al,mlb,conference,American League,AL,mlb,1,\(stamp)
        mlb-al-east,mlb,division,American League East,AL East,mlb-al,1,\(stamp)

        """,
        "team-aliases.csv": """
        team_id,kind,value,valid_from,valid_until,source_system,last_modified,note
        mlb-bos,sourceCode,BOS,,,retrosheet,\(stamp),test
        mlb-bos,fullName,Boston Americans,,1907-12-31,,\(stamp),test

        """,
        "stadium-aliases.csv": """
        stadium_id,name,valid_from,valid_until,source_system,last_modified,note
        fenway-park,Fenway,,,,\(stamp),test

        """,
    ]

    /// Writes the files into a fresh temporary directory.
    func write() throws -> URL {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("reference-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for (name, text) in files {
            try Data(text.utf8).write(to: directory.appendingPathComponent(name))
        }
        return directory
    }

    func load(diagnostics: inout Diagnostics) throws -> ReferenceData {
        let directory = try write()
        defer { try? FileManager.default.removeItem(at: directory) }
        return try ReferenceLoader.load(from: directory, displayPath: "fixtures/reference", diagnostics: &diagnostics)
    }

    func load() throws -> ReferenceData {
        var diagnostics = Diagnostics()
        return try load(diagnostics: &diagnostics)
    }

    /// The messages of a failing load (empty when it succeeds).
    func errors() -> [String] {
        do {
            _ = try load()
            return []
        } catch let error as PipelineError {
            #expect(error.exitCode == ExitStatus.invalidInput)
            return error.diagnostics.map(\.description)
        } catch {
            Issue.record("unexpected error \(error)")
            return []
        }
    }

    /// This reference with `old` replaced by `new` in `file` (the text must be there).
    func replacing(_ old: String, with new: String, in file: String) -> MiniReference {
        var copy = self
        let text = files[file] ?? ""
        #expect(text.contains(old), "\(file) does not contain \(old)")
        copy.files[file] = text.replacingOccurrences(of: old, with: new)
        return copy
    }

    func appending(_ line: String, to file: String) -> MiniReference {
        var copy = self
        copy.files[file] = (files[file] ?? "") + line + "\n"
        return copy
    }
}

@Suite("Reference data")
struct ReferenceTests {
    // MARK: committed fixtures

    @Test func committedReferenceLoadsWithoutErrorsOrWarnings() throws {
        var diagnostics = Diagnostics()
        let data = try ReferenceLoader.load(
            from: committedReference, displayPath: "fixtures/reference",
            diagnostics: &diagnostics)
        #expect(diagnostics.items.map(\.description) == [])
        #expect(data.sports.map(\.id) == ["mlb", "mls", "nba", "nfl", "nhl", "nwsl", "ufl", "wnba", "xfl"])
        var teamsPerSport: [String: Int] = [:]
        for team in data.teams { teamsPerSport[team.sport, default: 0] += 1 }
        // NHL: 32 clubs plus the suspended Arizona Coyotes franchise (nhl-ari) that 2023-24 games name.
        #expect(teamsPerSport == ["mlb": 30, "nba": 30, "nhl": 33, "nfl": 32, "mls": 30, "wnba": 15, "nwsl": 16, "ufl": 8])
        #expect(data.stadiums.count > 200)
        #expect(data.teamAliases.count > 800)
        #expect(data.stadiumAliases.count > 300)
    }

    @Test func everyCommittedStadiumHasPlausibleCoordinatesAndAValidZone() throws {
        let data = try ReferenceLoader.load(from: committedReference, displayPath: "fixtures/reference")
        for stadium in data.stadiums {
            #expect(stadium.coordinate.isPlausible, "\(stadium.id)")
            #expect(ZonedTime.isValidZone(stadium.timeZone), "\(stadium.id): \(stadium.timeZone)")
            #expect(!stadium.city.isEmpty && !stadium.country.isEmpty, "\(stadium.id)")
        }
        let byId = Dictionary(uniqueKeysWithValues: data.stadiums.map { ($0.id, $0) })
        // Spot checks against the source files.
        #expect(byId["deutsche-bank-park"]?.timeZone == "Europe/Berlin") // greerre wrote Europe/Frankfurt
        #expect(byId["sdccu-stadium"].map { $0.longitude < 0 } == true) // greerre had the sign wrong
        #expect(byId["fenway-park"]?.latitude == 42.346389)
        #expect(byId["etihad-arena"]?.timeZone == "Asia/Dubai")
    }

    @Test func committedRecordsAreStampedAndSortedById() throws {
        let data = try ReferenceLoader.load(from: committedReference, displayPath: "fixtures/reference")
        let ids: [[String]] = [
            data.sports.map(\.id), data.stadiums.map(\.id), data.teams.map(\.id),
            data.leagueStructures.map(\.id), data.teamAliases.map(\.id), data.stadiumAliases.map(\.id),
        ]
        for list in ids {
            #expect(list == list.sorted())
            #expect(Set(list).count == list.count)
        }
        let ufl = try #require(data.sports.first { $0.id == "ufl" })
        #expect(ufl.source == "reference" && ufl.schemaVersion == 1 && !ufl.isBuiltIn && ufl.isActive)
        #expect(ufl.colorHex == "#14213D" && ufl.seasonStartMonth == 3 && ufl.seasonEndMonth == 6)
        let xfl = try #require(data.sports.first { $0.id == "xfl" })
        #expect(!xfl.isActive)
        let nba = try #require(data.sports.first { $0.id == "nba" })
        #expect(nba.isBuiltIn && nba.source == "built-in")
        let team = try #require(data.teams.first { $0.id == "mlb-ath" })
        #expect(team.source == "reference" && team.schemaVersion == 1)
        #expect(team.lastModified == Instant(iso8601: stamp))
        #expect(team.fullName == "Sacramento Athletics" && team.homeStadiumId == "sutter-health-park")
    }

    /// (A reference file that names an unknown sport is refused with the known ids listed:
    /// `teamsMustNameAKnownSportAndAnExistingHomeStadium`.)
    @Test func sportLookupPrefersBuiltInsAndIsNilWhenUnknown() throws {
        let data = try ReferenceLoader.load(from: committedReference, displayPath: "fixtures/reference")
        #expect(data.sport(withId: "nba")?.isBuiltIn == true)
        #expect(data.sport(withId: "ufl")?.displayName == "United Football League")
        #expect(data.sport(withId: "cfl") == nil)
    }

    // MARK: alias validity edges (committed data)

    @Test func aliasValidityEdgesAroundRenamesAndRelocations() throws {
        let data = try ReferenceLoader.load(from: committedReference, displayPath: "fixtures/reference")
        func teamAlias(_ team: String, _ value: String, _ system: String? = nil) throws -> TeamAlias {
            try #require(data.teamAliases.first { $0.teamId == team && $0.value == value && $0.sourceSystem == system })
        }
        func stadiumAlias(_ stadium: String, _ name: String) throws -> StadiumAlias {
            try #require(data.stadiumAliases.first { $0.stadiumId == stadium && $0.name == name && $0.sourceSystem == nil })
        }
        /// Expects the alias to apply on every day of `valid` and on none of `invalid`.
        func expect(
            _ isValid: (LocalDate) -> Bool, valid: [String], invalid: [String],
            sourceLocation: Testing.SourceLocation = #_sourceLocation
        ) {
            for text in valid + invalid {
                guard let date = LocalDate(iso8601: text) else {
                    Issue.record("bad test date \(text)", sourceLocation: sourceLocation)
                    continue
                }
                #expect(isValid(date) == valid.contains(text), "\(text)", sourceLocation: sourceLocation)
            }
        }

        let oakland = try teamAlias("mlb-ath", "Oakland Athletics")
        expect(oakland.isValid, valid: ["2024-12-31"], invalid: ["2025-01-01"])
        let sacramento = try teamAlias("mlb-ath", "Sacramento Athletics")
        expect(sacramento.isValid, valid: ["2025-01-01"], invalid: ["2024-12-31"])
        let retrosheetOAK = try teamAlias("mlb-ath", "OAK", "retrosheet")
        expect(retrosheetOAK.isValid, valid: ["2023-09-30"], invalid: ["2025-03-27"])

        let arizona = try teamAlias("nhl-ari", "ARI", "nhl-schedule")
        expect(arizona.isValid, valid: ["2024-04-17"], invalid: ["2024-10-08"])
        let utah = try teamAlias("nhl-uta", "UTA", "nhl-schedule")
        expect(utah.isValid, valid: ["2024-04-18"], invalid: ["2024-04-17"])

        let raidersOakland = try #require(
            data.teamAliases.first {
                $0.teamId == "nfl-lv" && $0.value == "Oakland Raiders" && $0.validFrom != nil
            })
        expect(raidersOakland.isValid, valid: ["2020-01-21"], invalid: ["2020-01-22"])
        let raidersVegas = try teamAlias("nfl-lv", "Las Vegas Raiders")
        expect(raidersVegas.isValid, valid: ["2020-01-22"], invalid: ["2020-01-21"])

        let pnc = try stadiumAlias("lenovo-center", "PNC Arena")
        expect(pnc.isValid, valid: ["2024-09-11"], invalid: ["2024-09-12"])
        let rate = try stadiumAlias("rate-field", "Guaranteed Rate Field")
        expect(rate.isValid, valid: ["2016-11-01"], invalid: ["2016-10-31"])
        expect(rate.isValid, valid: ["2024-12-31"], invalid: ["2025-01-01"])
        let heinz = try stadiumAlias("acrisure-stadium", "Heinz Field")
        expect(heinz.isValid, valid: ["2022-07-10"], invalid: ["2022-07-11"])
        let fedEx = try stadiumAlias("northwest-stadium", "FedExField")
        expect(fedEx.isValid, valid: ["2023-12-31"], invalid: ["2024-09-15"])
        // A source that writes old names on later games gets its own undated alias.
        #expect(
            data.stadiumAliases.contains {
                $0.stadiumId == "highmark-stadium" && $0.name == "New Era Field" && $0.sourceSystem == "nflverse" && $0.validUntil == nil
            })
        // "New York" alone names two NHL clubs and two NFL teams: never an alias.
        #expect(!data.teamAliases.contains { $0.value == "New York" })
    }

    // MARK: a valid tiny reference

    @Test func tinyReferenceLoadsFromATemporaryDirectory() throws {
        let data = try MiniReference().load()
        #expect(data.sports.count == 8)
        let alias = try #require(data.teamAliases.first { $0.value == "Boston Americans" })
        #expect(alias.id == "mlb-bos-fullname-boston-americans")
        #expect(alias.validUntil == LocalDate(year: 1907, month: 12, day: 31) && alias.sourceSystem == nil)
        #expect(data.stadiumAliases.map(\.id) == ["fenway-park-fenway"])
        #expect(data.teams.first { $0.id == "ufl-mich" }?.conferenceId == nil)
    }

    @Test func headerColumnsMayComeInAnyOrderAndABOMIsAccepted() throws {
        let reference = MiniReference().replacing(
            "id,sport,level,name,abbreviation,parent_id,display_order,last_modified",
            with: "\u{FEFF}sport,id,name,level,abbreviation,parent_id,display_order,last_modified", in: "league-structures.csv"
        )
        .replacing("mlb,mlb,league,Major League Baseball", with: "mlb,mlb,Major League Baseball,league", in: "league-structures.csv")
        .replacing("mlb-al,mlb,conference,American League", with: "mlb,mlb-al,American League,conference", in: "league-structures.csv")
        .replacing(
            "mlb-al-east,mlb,division,American League East", with: "mlb,mlb-al-east,American League East,division",
            in: "league-structures.csv")
        let data = try reference.load()
        #expect(data.leagueStructures.map(\.level) == [.league, .conference, .division])
    }

    // MARK: errors, each with its exact message

    @Test func unknownAndMissingColumnsAreErrorsOnTheHeaderLine() {
        let columns = "id,name,city,region,country,latitude,longitude,time_zone,capacity,opened_year,last_modified,source_note"
        let unknown = MiniReference().replacing("source_note\n", with: "source_note,seats\n", in: "stadiums.csv")
            .replacing(",test\n", with: ",test,1\n", in: "stadiums.csv")
        #expect(
            unknown.errors() == [
                "fixtures/reference/stadiums.csv:1: error: unknown column 'seats'. Use exactly the columns \(columns)."
            ])
        let missing = MiniReference().replacing(",opened_year,", with: ",", in: "stadiums.csv")
            .replacing(",1912,", with: ",", in: "stadiums.csv").replacing(",2002,", with: ",", in: "stadiums.csv")
        #expect(
            missing.errors() == [
                "fixtures/reference/stadiums.csv:1: error: missing column 'opened_year'. Use exactly the columns \(columns)."
            ])
        let twice = MiniReference().replacing("source_note\n", with: "source_note,name\n", in: "stadiums.csv")
            .replacing(",test\n", with: ",test,x\n", in: "stadiums.csv")
        #expect(
            twice.errors() == [
                "fixtures/reference/stadiums.csv:1: error: column 'name' appears more than once. Keep one of them."
            ])
    }

    @Test func aMissingFileIsAnError() {
        var reference = MiniReference()
        reference.files["teams.csv"] = nil
        #expect(
            reference.errors() == [
                "fixtures/reference/teams.csv: error: the file is missing. Restore it, or create it with the header "
                    + "id,sport,market,name,abbreviation,home_stadium_id,conference_id,division_id,last_modified."
            ])
    }

    @Test func aShortRowIsAnErrorOnItsLine() {
        let reference = MiniReference().appending("mlb-nyy,mlb,New York,Yankees,NYY", to: "teams.csv")
        #expect(
            reference.errors() == [
                "fixtures/reference/teams.csv:4: error: the row has 5 fields but the header has 9. "
                    + "Quote fields that contain commas and give every column a value (empty is allowed)."
            ])
    }

    @Test func duplicateIdsAreErrors() {
        let stadium = MiniReference().appending(
            "fenway-park,Fenway Park,Boston,MA,USA,42.3,-71.1,America/New_York,,1912,\(stamp),again", to: "stadiums.csv")
        #expect(
            stadium.errors() == [
                "fixtures/reference/stadiums.csv:4: error: duplicate stadium id 'fenway-park': line 2 has the same id. "
                    + "Keep one row, or change one of them."
            ])
        // Alias ids fold case and accents, so these two are the same alias.
        let alias = MiniReference().appending("mlb-bos,sourceCode,bos,,,retrosheet,\(stamp),lowercase", to: "team-aliases.csv")
        #expect(
            alias.errors() == [
                "fixtures/reference/team-aliases.csv:4: error: duplicate team alias 'mlb-bos-sourcecode-retrosheet-bos': "
                    + "line 2 has it too (the same team_id, kind, source_system, value and valid_from "
                    + "(case, accents and punctuation ignored)). Keep one row, or change one of them."
            ])
    }

    @Test func invalidTimeZonesAreErrors() {
        let reference = MiniReference().replacing("America/Detroit", with: "Europe/Frankfurt", in: "stadiums.csv")
        #expect(
            reference.errors() == [
                "fixtures/reference/stadiums.csv:3: error: stadium 'ford-field': time_zone 'Europe/Frankfurt' is not an "
                    + "IANA time zone. Use a tzdata name such as America/New_York or Europe/Berlin."
            ])
    }

    @Test func implausibleCoordinatesAreErrors() {
        let zero = MiniReference().replacing("42.340133,-83.045678", with: "0,0", in: "stadiums.csv")
        #expect(
            zero.errors() == [
                "fixtures/reference/stadiums.csv:3: error: stadium 'ford-field': coordinates 0,0 are not a place on earth. "
                    + "Use decimal degrees: latitude -90...90, longitude -180...180, not 0,0."
            ])
        let north = MiniReference().replacing("42.340133", with: "95.5", in: "stadiums.csv")
        #expect(north.errors().count == 1)
        let text = MiniReference().replacing("-83.045678", with: "83W", in: "stadiums.csv")
        #expect(
            text.errors() == [
                "fixtures/reference/stadiums.csv:3: error: stadium 'ford-field': longitude '83W' is not a number. "
                    + "Write decimal degrees, e.g. 42.346389."
            ])
    }

    @Test func teamsMustNameAKnownSportAndAnExistingHomeStadium() {
        let sport = MiniReference().replacing("ufl-mich,ufl,", with: "ufl-mich,arenafootball,", in: "teams.csv")
        #expect(
            sport.errors() == [
                "fixtures/reference/teams.csv:3: error: team 'ufl-mich': sport 'arenafootball' is not known. Use one of: "
                    + "mlb, mls, nba, nfl, nhl, nwsl, ufl, wnba (dynamic sports are defined in sports.yaml)."
            ])
        let home = MiniReference().replacing("MICH,ford-field,", with: "MICH,ford-feld,", in: "teams.csv")
        #expect(
            home.errors() == [
                "fixtures/reference/teams.csv:3: error: team 'ufl-mich': home_stadium_id 'ford-feld' is not in stadiums.csv. "
                    + "Add the stadium or fix the id."
            ])
        let division = MiniReference().replacing("mlb-al,mlb-al-east,", with: "mlb-al,mlb-al-west,", in: "teams.csv")
        #expect(
            division.errors() == [
                "fixtures/reference/teams.csv:2: error: team 'mlb-bos': division_id 'mlb-al-west' is not in "
                    + "league-structures.csv. Add that structure or fix the id."
            ])
    }

    @Test func structureParentsMustExistAndFitTheLevel() {
        let missing = MiniReference().replacing("AL East,mlb-al,", with: "AL East,mlb-a,", in: "league-structures.csv")
        let errors = missing.errors()
        #expect(
            errors.contains(
                "fixtures/reference/league-structures.csv:4: error: league structure 'mlb-al-east': parent_id 'mlb-a' is "
                    + "not in league-structures.csv. Add that structure or fix the id."))
        let level = MiniReference().replacing("AL East,mlb-al,", with: "AL East,mlb,", in: "league-structures.csv")
        #expect(
            level.errors().contains(
                "fixtures/reference/league-structures.csv:4: error: league structure 'mlb-al-east': parent 'mlb' is a "
                    + "league, not a conference. A conference belongs to a league and a division to a conference."))
    }

    @Test func aliasTargetsMustExist() {
        let team = MiniReference().appending("mlb-nyy,abbreviation,NYY,,,,\(stamp),x", to: "team-aliases.csv")
        #expect(
            team.errors() == [
                "fixtures/reference/team-aliases.csv:4: error: team alias 'NYY': team_id 'mlb-nyy' is not in teams.csv. "
                    + "Add the team or fix the id."
            ])
        let stadium = MiniReference().appending(
            "yankee-stadium,Yankee Stadium II,,,retrosheet,\(stamp),x",
            to: "stadium-aliases.csv")
        #expect(
            stadium.errors() == [
                "fixtures/reference/stadium-aliases.csv:3: error: stadium alias 'Yankee Stadium II': stadium_id "
                    + "'yankee-stadium' is not in stadiums.csv. Add the stadium or fix the id."
            ])
    }

    @Test func validFromMustNotBeAfterValidUntil() {
        let reference = MiniReference().appending(
            "mlb-bos,fullName,Boston Pilgrims,1908-01-01,1907-12-31,,\(stamp),x",
            to: "team-aliases.csv")
        #expect(
            reference.errors() == [
                "fixtures/reference/team-aliases.csv:4: error: team alias 'Boston Pilgrims': valid_from 1908-01-01 is "
                    + "after valid_until 1907-12-31. Swap or correct the dates (both days are inclusive)."
            ])
        // The same day on both ends is a one-day alias, which is fine.
        let oneDay = MiniReference().appending(
            "mlb-bos,fullName,Boston Pilgrims,1907-12-31,1907-12-31,,\(stamp),x",
            to: "team-aliases.csv")
        #expect(oneDay.errors() == [])
        let badDate = MiniReference().appending(
            "mlb-bos,fullName,Boston Pilgrims,1907-02-30,,,\(stamp),x",
            to: "team-aliases.csv")
        #expect(
            badDate.errors() == [
                "fixtures/reference/team-aliases.csv:4: error: team alias 'Boston Pilgrims': valid_from '1907-02-30' is "
                    + "not a date. Write it like 2024-12-31, or leave it empty."
            ])
    }

    @Test func aliasKindAndLastModifiedAreChecked() {
        let kind = MiniReference().appending("mlb-bos,nickname,Sox,,,,\(stamp),x", to: "team-aliases.csv")
        #expect(
            kind.errors() == [
                "fixtures/reference/team-aliases.csv:4: error: team alias 'Sox': kind 'nickname' is not known. "
                    + "Use one of: abbreviation, name, fullName, sourceCode."
            ])
        let modified = MiniReference().replacing(
            "fenway-park,Fenway,,,,\(stamp)", with: "fenway-park,Fenway,,,,yesterday",
            in: "stadium-aliases.csv")
        #expect(
            modified.errors() == [
                "fixtures/reference/stadium-aliases.csv:2: error: stadium alias 'Fenway': last_modified 'yesterday' is not "
                    + "an ISO-8601 instant. Write it like 2026-06-12T00:00:00Z, and bump it whenever the row changes."
            ])
    }

    @Test func badColoursAreRejectedNamingTheSport() {
        let reference = MiniReference().replacing("\"#14213D\"", with: "\"#14213\"", in: "sports.yaml")
        #expect(
            reference.errors() == [
                "fixtures/reference/sports.yaml:1: error: sport 'ufl': colorHex '#14213' is not a colour. "
                    + "Use #RGB, #RRGGBB, RRGGBB or #RRGGBBAA."
            ])
    }

    @Test(arguments: [
        ("#0af", "#00AAFF"), ("#14213D", "#14213D"), ("14213d", "#14213D"), ("#14213d80", "#14213D"),
        ("#FFF", "#FFFFFF"), (" #0af\t", "#00AAFF"),
    ])
    func colourFormsNormalizeToRRGGBB(input: String, expected: String) throws {
        #expect(ColorHex.normalize(input) == expected)
        let data = try MiniReference().replacing("\"#14213D\"", with: "\"\(input)\"", in: "sports.yaml").load()
        #expect(data.sports.first { $0.id == "ufl" }?.colorHex == expected)
    }

    @Test(arguments: ["", "#", "0af", "#12", "#1234", "12345", "#14213D8", "14213D80", "#GGGGGG", "# 14213D", "#14213D800"])
    func malformedColoursAreRejected(input: String) {
        #expect(ColorHex.normalize(input) == nil)
    }

    @Test func seasonMonthsMustBeOneToTwelve() {
        let reference = MiniReference().replacing("seasonEndMonth: 6", with: "seasonEndMonth: 13", in: "sports.yaml")
        #expect(
            reference.errors() == [
                "fixtures/reference/sports.yaml:1: error: sport 'ufl': seasonEndMonth 13 is not a month. Use 1 to 12."
            ])
    }

    @Test func builtInSportsCannotBeRedefinedAndUnknownKeysAreRejected() {
        let builtIn = MiniReference().replacing("- id: ufl", with: "- id: nfl", in: "sports.yaml")
            .replacing("ufl-mich,ufl,", with: "ufl-mich,nfl,", in: "teams.csv")
        #expect(
            builtIn.errors() == [
                "fixtures/reference/sports.yaml:1: error: sport 'nfl' is built in and cannot be redefined here. "
                    + "Choose another id, or patch the built-in sport through fixtures/overrides."
            ])
        let unknownKey = MiniReference().replacing("  isActive: true", with: "  isActive: true\n  league: true", in: "sports.yaml")
        let errors = unknownKey.errors()
        #expect(
            errors == [
                "fixtures/reference/sports.yaml:9:3: error: unknown key 'league' in [0]. Use one of: abbreviation, "
                    + "colorHex, displayName, iconName, id, isActive, lastModified, seasonEndMonth, seasonStartMonth."
            ])
    }

    @Test func everyErrorIsReportedAtOnceInFileAndLineOrder() {
        let reference = MiniReference()
            .replacing("America/Detroit", with: "Mars/Olympus", in: "stadiums.csv")
            .replacing("MICH,ford-field,", with: "MICH,nowhere,", in: "teams.csv")
            .replacing("seasonStartMonth: 3", with: "seasonStartMonth: 0", in: "sports.yaml")
        let errors = reference.errors()
        #expect(errors.count == 3)
        #expect(
            errors.map { $0.components(separatedBy: ": error").first ?? "" } == [
                "fixtures/reference/sports.yaml:1", "fixtures/reference/stadiums.csv:3", "fixtures/reference/teams.csv:3",
            ])
    }

    @Test func aliasesThatOnlyMayClashAreWarnings() throws {
        // Different kinds (a name and an abbreviation), or one row for every system and one for a system.
        let reference = MiniReference()
            .appending("mlb-nyy,mlb,New York,Yankees,NYY,fenway-park,mlb-al,mlb-al-east,\(stamp)", to: "teams.csv")
            .appending("mlb-nyy,abbreviation,Sox,,,,\(stamp),x", to: "team-aliases.csv")
            .appending("mlb-bos,name,SOX,2000-01-01,,,\(stamp),x", to: "team-aliases.csv")
            .appending("mlb-nyy,name,Sux,,,retrosheet,\(stamp),x", to: "team-aliases.csv")
            .appending("mlb-bos,name,SUX,,,,\(stamp),x", to: "team-aliases.csv")
        var diagnostics = Diagnostics()
        _ = try reference.load(diagnostics: &diagnostics)
        #expect(
            diagnostics.items.map(\.description) == [
                "fixtures/reference/team-aliases.csv:5: warning: team alias 'SOX' names both 'mlb-nyy' (line 4) and "
                    + "'mlb-bos' on the same dates. Give the aliases non-overlapping dates or source systems, or remove one.",
                "fixtures/reference/team-aliases.csv:7: warning: team alias 'SUX' names both 'mlb-nyy' (line 6) and "
                    + "'mlb-bos' on the same dates. Give the aliases non-overlapping dates or source systems, or remove one.",
            ])
        // Different source systems or dates do not clash.
        let separate = MiniReference()
            .appending("mlb-nyy,mlb,New York,Yankees,NYY,fenway-park,mlb-al,mlb-al-east,\(stamp)", to: "teams.csv")
            .appending("mlb-nyy,name,Sox,,1999-12-31,,\(stamp),x", to: "team-aliases.csv")
            .appending("mlb-bos,name,SOX,2000-01-01,,,\(stamp),x", to: "team-aliases.csv")
        var none = Diagnostics()
        _ = try separate.load(diagnostics: &none)
        #expect(none.items.isEmpty)
    }

    /// Issue 15: one alias value for two teams dropped their games one by one; the file is refused.
    @Test func oneAliasForTwoTeamsOfOneKindAndSystemRefusesTheFile() {
        let reference = MiniReference()
            .appending("mlb-nyy,mlb,New York,Yankees,NYY,fenway-park,mlb-al,mlb-al-east,\(stamp)", to: "teams.csv")
            .appending("mlb-nyy,name,Sox,2010-01-01,,retrosheet,\(stamp),x", to: "team-aliases.csv")
            .appending("mlb-bos,name,SOX,2000-01-01,2012-12-31,retrosheet,\(stamp),x", to: "team-aliases.csv")
        #expect(
            reference.errors() == [
                "fixtures/reference/team-aliases.csv:5: error: team alias 'SOX' (name, source system 'retrosheet') names 'mlb-nyy' on line 4 "
                    + "and 'mlb-bos' on line 5, on overlapping dates. A value names one team on a date: give the rows dates that do not "
                    + "overlap or different source_system values, or remove one."
            ])
    }

    /// Issue 15: a flipped longitude sign is refused; every committed stadium passes.
    @Test func stadiumCoordinatesMustAgreeWithZoneAndCountry() throws {
        let flipped = MiniReference().replacing("42.346389,-71.097500", with: "42.346389,71.097500", in: "stadiums.csv")
        #expect(
            flipped.errors() == [
                "fixtures/reference/stadiums.csv:2: error: stadium 'fenway-park': coordinates 42.3464,71.0975 are outside USA "
                    + "(latitude 17°N to 72°N, longitude 180°W to 64°W). Check the signs and the order of latitude and longitude "
                    + "(west and south are negative), the time_zone and the country."
            ])
        #expect(StadiumPlacement.problem(latitude: 52.5, longitude: -13.4, timeZone: "Europe/Berlin", country: "Germany") == nil)
        #expect(
            StadiumPlacement.problem(latitude: 52.5, longitude: -73.4, timeZone: "Europe/Berlin", country: "Germany")
                == "coordinates 52.5000,-73.4000 are not in Europe, where its time zone Europe/Berlin is (latitude 34°N to 82°N, longitude 32°W to 70°E)"
        )
        #expect(
            StadiumPlacement.problem(latitude: 42.3, longitude: -150.0, timeZone: "America/New_York", country: "USA")
                == "longitude -150.0000 is -10.0 hours of sun time from UTC, but its time zone America/New_York is UTC-5.0")
        #expect(StadiumPlacement.problem(latitude: -37.8, longitude: 144.9, timeZone: "Australia/Melbourne", country: "Australia") == nil)
        let committed = try ReferenceLoader.load(from: committedReference, displayPath: "fixtures/reference")
        #expect(committed.stadiums.count == 224)
    }

    // MARK: dated homes (team-homes.csv)

    @Test func committedDatedHomesPlaceTeamsWhereTheyPlayedOnEachDate() throws {
        let data = try ReferenceLoader.load(from: committedReference, displayPath: "fixtures/reference")
        let teams = Dictionary(uniqueKeysWithValues: data.teams.map { ($0.id, $0) })
        func home(_ team: String, _ day: String) throws -> String {
            let team = try #require(teams[team])
            let date = try #require(LocalDate(iso8601: day))
            return data.homeStadiumId(of: team, on: date)
        }
        // Athletics: Oakland Coliseum through 2024 (the teams.csv home is Sutter Health Park).
        #expect(try home("mlb-ath", "1968-04-16") == "sutter-health-park") // before the first Oakland game: not curated
        #expect(try home("mlb-ath", "1968-04-17") == "oakland-coliseum")
        #expect(try home("mlb-ath", "2024-09-26") == "oakland-coliseum")
        #expect(try home("mlb-ath", "2024-12-31") == "oakland-coliseum")
        #expect(try home("mlb-ath", "2025-01-01") == "sutter-health-park")
        #expect(try home("mlb-ath", "2025-03-28") == "sutter-health-park")
        // Blue Jays: Buffalo 2020, Dunedin and Buffalo 2021, Toronto from 2021-07-30.
        #expect(try home("mlb-tor", "2019-09-29") == "rogers-centre")
        #expect(try home("mlb-tor", "2020-07-28") == "rogers-centre")
        #expect(try home("mlb-tor", "2020-07-29") == "sahlen-field")
        #expect(try home("mlb-tor", "2020-09-27") == "sahlen-field")
        #expect(try home("mlb-tor", "2021-04-08") == "td-ballpark")
        #expect(try home("mlb-tor", "2021-05-24") == "td-ballpark")
        #expect(try home("mlb-tor", "2021-05-25") == "sahlen-field")
        #expect(try home("mlb-tor", "2021-07-21") == "sahlen-field")
        #expect(try home("mlb-tor", "2021-07-29") == "sahlen-field")
        #expect(try home("mlb-tor", "2021-07-30") == "rogers-centre")
        // Rays: Tropicana Field except 2025 at Steinbrenner Field.
        #expect(try home("mlb-tb", "2024-09-29") == "tropicana-field")
        #expect(try home("mlb-tb", "2025-03-28") == "george-m-steinbrenner-field")
        #expect(try home("mlb-tb", "2025-12-31") == "george-m-steinbrenner-field")
        #expect(try home("mlb-tb", "2026-03-26") == "tropicana-field")
        // NFL: the stadium before the current one.
        #expect(try home("nfl-lv", "2019-12-15") == "oakland-coliseum")
        #expect(try home("nfl-lv", "2020-09-21") == "allegiant-stadium")
        #expect(try home("nfl-lar", "2017-10-01") == "los-angeles-memorial-coliseum")
        #expect(try home("nfl-min", "2015-11-01") == "huntington-bank-stadium")
        // Teams without spells: always the teams.csv home.
        #expect(try home("mlb-bos", "1999-06-01") == "fenway-park")

        // Sorted by team and first day; every spell has a note saying where its dates come from.
        #expect(data.teamHomes == data.teamHomes.sorted(by: TeamHomeSpell.precedes))
        #expect(
            data.teamHomes.filter { $0.teamId == "mlb-tor" }.map(\.stadiumId)
                == ["sahlen-field", "td-ballpark", "sahlen-field"])
        #expect(data.teamHomes.allSatisfy { !$0.note.isEmpty && ($0.validFrom != nil || $0.validUntil != nil) })
    }

    @Test func datedHomesAreOptional() throws {
        // The tiny reference has no team-homes.csv at all.
        let data = try MiniReference().load()
        #expect(data.teamHomes.isEmpty)
        let team = try #require(data.teams.first { $0.id == "mlb-bos" })
        #expect(data.homeStadiumId(of: team, on: LocalDate(year: 1915, month: 10, day: 11)!) == "fenway-park")
        // A header alone is no spells either.
        let empty = try MiniReference().appending(Self.teamHomesHeader, to: "team-homes.csv").load()
        #expect(empty.teamHomes.isEmpty)
    }

    private static let teamHomesHeader = "team_id,stadium_id,role,valid_from,valid_until,last_modified,note"

    private func withTeamHomes(_ rows: String...) -> MiniReference {
        rows.reduce(MiniReference().appending(Self.teamHomesHeader, to: "team-homes.csv")) {
            $0.appending($1, to: "team-homes.csv")
        }
    }

    @Test func datedHomesLoadAndApplyOnlyInsideTheirDates() throws {
        let data = try withTeamHomes(
            "mlb-bos,ford-field,home,1915-10-11,1915-10-12,\(stamp),\"test, with a comma\"",
            "mlb-bos,ford-field,home,1916-10-07,,\(stamp),open end"
        ).load()
        #expect(
            data.teamHomes == [
                TeamHomeSpell(
                    teamId: "mlb-bos", stadiumId: "ford-field", validFrom: LocalDate(year: 1915, month: 10, day: 11),
                    validUntil: LocalDate(year: 1915, month: 10, day: 12), lastModified: try #require(Instant(iso8601: stamp)),
                    note: "test, with a comma"),
                TeamHomeSpell(
                    teamId: "mlb-bos", stadiumId: "ford-field", validFrom: LocalDate(year: 1916, month: 10, day: 7),
                    lastModified: try #require(Instant(iso8601: stamp)), note: "open end"),
            ])
        let team = try #require(data.teams.first { $0.id == "mlb-bos" })
        let homes = ["1915-10-10", "1915-10-11", "1915-10-12", "1915-10-13", "1916-10-06", "1916-10-07", "2024-01-01"]
            .map { data.homeStadiumId(of: team, on: LocalDate(iso8601: $0)!) }
        #expect(homes == ["fenway-park", "ford-field", "ford-field", "fenway-park", "fenway-park", "ford-field", "ford-field"])
    }

    @Test func datedHomesHaveAStrictHeader() {
        let reference = MiniReference()
            .appending("team_id,stadium_id,role,valid_from,valid_until,last_modified,note,city", to: "team-homes.csv")
            .appending("mlb-bos,ford-field,home,1915-10-11,1915-10-12,\(stamp),x,Detroit", to: "team-homes.csv")
        #expect(
            reference.errors() == [
                "fixtures/reference/team-homes.csv:1: error: unknown column 'city'. Use exactly the columns "
                    + "team_id,stadium_id,role,valid_from,valid_until,last_modified,note."
            ])
        let missing = MiniReference()
            .appending("team_id,stadium_id,role,valid_from,last_modified,note", to: "team-homes.csv")
        #expect(
            missing.errors() == [
                "fixtures/reference/team-homes.csv:1: error: missing column 'valid_until'. Use exactly the columns "
                    + "team_id,stadium_id,role,valid_from,valid_until,last_modified,note."
            ])
    }

    @Test func datedHomesMustNameAKnownTeamAndStadium() {
        let team = withTeamHomes("mlb-nyy,ford-field,home,1915-10-11,1915-10-12,\(stamp),x")
        #expect(
            team.errors() == [
                "fixtures/reference/team-homes.csv:2: error: team home 'mlb-nyy' at 'ford-field': team_id 'mlb-nyy' is not "
                    + "in teams.csv. Add the team or fix the id."
            ])
        let stadium = withTeamHomes("mlb-bos,braves-field,home,1915-10-11,1915-10-12,\(stamp),x")
        #expect(
            stadium.errors() == [
                "fixtures/reference/team-homes.csv:2: error: team home 'mlb-bos' at 'braves-field': stadium_id 'braves-field' "
                    + "is not in stadiums.csv. Add the stadium or fix the id."
            ])
        let blank = withTeamHomes(",ford-field,home,1915-10-11,1915-10-12,\(stamp),x")
        #expect(
            blank.errors() == [
                "fixtures/reference/team-homes.csv:2: error: team home '' at 'ford-field': team_id is empty. Give it a value."
            ])
    }

    @Test func datedHomeDatesAreChecked() {
        let reversed = withTeamHomes("mlb-bos,ford-field,home,1915-10-13,1915-10-11,\(stamp),x")
        #expect(
            reversed.errors() == [
                "fixtures/reference/team-homes.csv:2: error: team home 'mlb-bos' at 'ford-field': valid_from 1915-10-13 is "
                    + "after valid_until 1915-10-11. Swap or correct the dates (both days are inclusive)."
            ])
        let open = withTeamHomes("mlb-bos,ford-field,home,,,\(stamp),x")
        #expect(
            open.errors() == [
                "fixtures/reference/team-homes.csv:2: error: team home 'mlb-bos' at 'ford-field': valid_from and valid_until "
                    + "are both empty. A home on every date is home_stadium_id in teams.csv; give this row its dates."
            ])
        let badDate = withTeamHomes("mlb-bos,ford-field,home,1915-10-32,,\(stamp),x")
        #expect(
            badDate.errors() == [
                "fixtures/reference/team-homes.csv:2: error: team home 'mlb-bos' at 'ford-field': valid_from '1915-10-32' is "
                    + "not a date. Write it like 2024-12-31, or leave it empty."
            ])
        let modified = withTeamHomes("mlb-bos,ford-field,home,1915-10-11,,last week,x")
        #expect(
            modified.errors() == [
                "fixtures/reference/team-homes.csv:2: error: team home 'mlb-bos' at 'ford-field': last_modified 'last week' "
                    + "is not an ISO-8601 instant. Write it like 2026-06-12T00:00:00Z, and bump it whenever the row changes."
            ])
    }

    @Test func oneTeamsDatedHomesMustNotOverlap() {
        let overlapping = withTeamHomes(
            "mlb-bos,ford-field,home,1915-10-01,1915-10-13,\(stamp),x",
            "ufl-mich,fenway-park,home,1915-10-01,1915-10-13,\(stamp),another team may share the dates",
            "mlb-bos,fenway-park,home,1915-10-13,,\(stamp),shares 1915-10-13",
            "mlb-bos,ford-field,home,,1915-01-01,\(stamp),\"open start, before the first: fine\"")
        #expect(
            overlapping.errors() == [
                "fixtures/reference/team-homes.csv:4: error: team home 'mlb-bos' at 'fenway-park' (1915-10-13...…) overlaps "
                    + "line 2 ('ford-field', 1915-10-01...1915-10-13). A team has one home on a date: make the ranges of "
                    + "its home rows disjoint (both days are inclusive), or make one of them an alternate home."
            ])
        // Adjacent days do not overlap; an open start overlaps everything before the other's end.
        let adjacent = withTeamHomes(
            "mlb-bos,ford-field,home,1915-10-01,1915-10-13,\(stamp),x",
            "mlb-bos,fenway-park,home,1915-10-14,1915-10-20,\(stamp),x")
        #expect(adjacent.errors() == [])
        let openStart = withTeamHomes(
            "mlb-bos,ford-field,home,1915-10-01,1915-10-13,\(stamp),x",
            "mlb-bos,fenway-park,home,,1915-10-01,\(stamp),x")
        #expect(openStart.errors().count == 1)
    }

    @Test func alternateHomesMayOverlapTheHomeAndCountAsHomes() throws {
        let data = try withTeamHomes(
            "mlb-bos,ford-field,home,1915-10-01,1915-10-13,\(stamp),x",
            "mlb-bos,braves-field-x,alternate,1915-10-05,1915-10-06,\(stamp),a second home on two days"
        )
        .appending("braves-field-x,Braves Field,Boston,MA,USA,42.3534,-71.1174,America/New_York,,,\(stamp),x", to: "stadiums.csv")
        .load()
        let team = try #require(data.teams.first { $0.id == "mlb-bos" })
        let day = try #require(LocalDate(iso8601: "1915-10-05"))
        // The alternate home is a home on its dates, but never the one a game without a venue is placed at.
        #expect(data.homeStadiumId(of: team, on: day) == "ford-field")
        #expect(data.isHome("braves-field-x", of: team, on: day))
        #expect(data.isHome("ford-field", of: team, on: day))
        #expect(!data.isHome("braves-field-x", of: team, on: try #require(LocalDate(iso8601: "1915-10-07"))))
        #expect(!data.isHome("fenway-park", of: team, on: day))
        let badRole = withTeamHomes("mlb-bos,ford-field,second,1915-10-01,1915-10-13,\(stamp),x")
        #expect(
            badRole.errors() == [
                "fixtures/reference/team-homes.csv:2: error: team home 'mlb-bos' at 'ford-field': role 'second' is not home or "
                    + "alternate. Write home (the team's one home on those dates) or alternate (also a home on those dates)."
            ])
    }

    @Test func fastTextHelpersMatchTheGeneralOnes() throws {
        let data = try ReferenceLoader.load(from: committedReference, displayPath: "fixtures/reference")
        var samples = [
            "", "  padded\t", "\u{00A0}nbsp\u{00A0}", "Montréal", "A's", "St. Louis", "--x--", "Inter&Co",
            "O'Neil's 2.0", "São Paulo", "New York Jets (1p, ", "Crypto.com Arena", "Ʃ", "x\u{2019}y",
        ]
        samples += data.teamAliases.map(\.value) + data.stadiumAliases.map(\.name) + data.stadiums.map(\.name)
        for text in samples {
            #expect(ReferenceText.slug(text) == Slug.make(text), "\(text)")
            #expect(Slug.matchKey(text) == Slug.foldedSlug(text).replacingOccurrences(of: "-", with: ""), "\(text)")
            #expect(ReferenceText.trimmed(text) == text.trimmingCharacters(in: .whitespaces), "\(text)")
        }
    }
}
