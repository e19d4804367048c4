import Foundation
import Testing
@testable import SportsTimeRunner
import SportsTimeCore

@Suite struct SchemaTests {
    static let schemaFolder = TestRepository.packageRoot.appendingPathComponent("pipeline/schemas")

    static func validator(_ kind: ArtifactKind) throws -> SchemaValidator {
        let url = schemaFolder.appendingPathComponent("\(kind.rawValue).schema.json")
        return try SchemaValidator(schema: try Data(contentsOf: url))
    }

    static func check<R: Codable & Sendable & Identifiable>(_ records: [R], kind: ArtifactKind) throws -> [SchemaViolation]
    where R.ID == String {
        let envelope = Envelope(
            kind: kind, producer: Producer(stage: "test"),
            inputs: [InputReference(path: "fixtures/x.csv", sha256: String(repeating: "a", count: 64))],
            meta: [.source: "test"], records: records)
        return try validator(kind).violations(of: try JSONParser.parse(try envelope.canonicalData()))
    }

    @Test(arguments: ArtifactKind.allCases)
    func everyKindHasASchemaThatLoads(_ kind: ArtifactKind) throws {
        let validator = try Self.validator(kind)
        let empty = Envelope<SyncState>(kind: kind, producer: Producer(stage: "test"), records: [])
        #expect(validator.violations(of: try JSONParser.parse(try empty.canonicalData())).isEmpty)
        var newer = try JSONParser.parse(try empty.canonicalData()).objectValue!
        newer["schemaVersion"] = .number(String(kind.currentVersion + 1))
        #expect(!validator.violations(of: .object(newer)).isEmpty, "the schema must not accept a version newer than the build")
    }

    static let instant = Instant(iso8601: "2023-04-01T17:05:00Z")!
    static let date = LocalDate(iso8601: "2023-04-01")!

    @Test func coreRecordsValidateWithAndWithoutOptionalFields() throws {
        #expect(try Self.check(BuiltInSport.allCases.map(\.sport), kind: .sports).isEmpty)
        #expect(
            try Self.check(
                [
                    Stadium(
                        id: "fenway-park", name: "Fenway Park", city: "Boston", region: "MA", country: "US", latitude: 42.3467,
                        longitude: -71.0972, timeZone: "America/New_York", capacity: 37_755, openedYear: 1912,
                        lastModified: Self.instant, source: "reference"),
                    Stadium(
                        id: "field-of-dreams", name: "Field of Dreams", city: "Dyersville", region: "IA", country: "US",
                        latitude: 42.4973, longitude: -91.0551, timeZone: "America/Chicago", lastModified: Self.instant, source: "reference"
                    ),
                ], kind: .stadiums
            ).isEmpty)
        #expect(
            try Self.check(
                [
                    Team(
                        id: "mlb-bos", sport: "mlb", market: "Boston", name: "Red Sox", abbreviation: "BOS", homeStadiumId: "fenway-park",
                        conferenceId: "mlb-al", divisionId: "mlb-al-east", lastModified: Self.instant, source: "reference"),
                    Team(
                        id: "xfl-dc", sport: "xfl", market: "DC", name: "Defenders", abbreviation: "DC", homeStadiumId: "audi-field",
                        lastModified: Self.instant, source: "reference"),
                ], kind: .teams
            ).isEmpty)
        #expect(
            try Self.check(
                [
                    Game(
                        id: "mlb-2023-2023-04-01-bal-at-bos", sport: "mlb", season: "2023", kind: .regular, startUTC: Self.instant,
                        localDate: Self.date, timeTBD: false, homeTeamId: "mlb-bos", awayTeamId: "mlb-bal", stadiumId: "fenway-park",
                        neutralSite: false, gameNumber: 2, status: .postponed, makeupDate: Self.date.adding(days: 1),
                        sourceIds: ["retrosheet": "BOS202304011"], deprecatedAt: Self.instant, lastModified: Self.instant,
                        source: "retrosheet"),
                    Game(
                        id: "nba-2025-26-2025-10-21-hou-at-okc", sport: "nba", season: "2025-26", kind: .regular, startUTC: nil,
                        localDate: Self.date, timeTBD: true, homeTeamId: "nba-okc", awayTeamId: "nba-hou", stadiumId: "paycom-center",
                        neutralSite: false, gameNumber: nil, status: .scheduled, sourceIds: [:], lastModified: Self.instant, source: "nba"),
                ], kind: .games
            ).isEmpty)
        #expect(
            try Self.check(
                [
                    LeagueStructure(
                        id: "mlb-al-east", sport: "mlb", level: .division, name: "AL East", abbreviation: "ALE",
                        parentId: "mlb-al", displayOrder: 1, lastModified: Self.instant, source: "reference"),
                    LeagueStructure(
                        id: "mlb", sport: "mlb", level: .league, name: "MLB", displayOrder: 0, lastModified: Self.instant,
                        source: "reference"),
                ], kind: .leagueStructures
            ).isEmpty)
        #expect(
            try Self.check(
                [
                    TeamAlias(
                        id: "mlb-oak-name-retrosheet-oak", teamId: "mlb-oak", kind: .sourceCode, value: "OAK", validFrom: Self.date,
                        validUntil: Self.date, sourceSystem: "retrosheet", lastModified: Self.instant, source: "reference"),
                    TeamAlias(
                        id: "nba-phx-name", teamId: "nba-phx", kind: .name, value: "Suns", lastModified: Self.instant, source: "reference"),
                ], kind: .teamAliases
            ).isEmpty)
        #expect(
            try Self.check(
                [
                    StadiumAlias(
                        id: "progressive-field-jacobs-field", stadiumId: "progressive-field", name: "Jacobs Field",
                        validUntil: Self.date, lastModified: Self.instant, source: "reference")
                ], kind: .stadiumAliases
            ).isEmpty)
        #expect(
            try Self.check(
                [
                    RawGame(
                        id: "espn:401471001", source: "espn", sport: "mlb", season: "2023", kind: .regular, sourceGameId: "401471001",
                        homeTeam: "Red Sox", awayTeam: "Orioles", venue: "Fenway Park", city: "Boston", startUTC: Self.instant,
                        date: Self.date, dateZone: "UTC", localTime: "13:05", timeTBD: false, gameNumber: 1, status: .scheduled,
                        makeupDate: nil, neutralSite: false, provenance: "fixtures/scraped/espn/games.csv:2"),
                    RawGame(
                        id: "retro:x", source: "retro", sport: "mlb", season: "2023", kind: .regular, sourceGameId: nil,
                        homeTeam: "BOS", awayTeam: "BAL", venue: nil, city: nil, startUTC: nil, date: Self.date, dateZone: "venue",
                        localTime: nil, timeTBD: true, gameNumber: nil, status: .scheduled, makeupDate: nil, neutralSite: nil,
                        provenance: "fixtures/scraped/retro/2023SKED.TXT:1"),
                ], kind: .rawGames
            ).isEmpty)
        #expect(
            try Self.check(
                [
                    UnresolvedName(
                        id: "espn:team:Texans", source: "espn", sport: "nfl", field: "team", value: "Texans",
                        seenAt: ["fixtures/scraped/espn/games.csv:2"], occurrences: 3, suggestions: ["nfl-hou"])
                ], kind: .unresolved
            ).isEmpty)
        #expect(
            try Self.check(
                [
                    SyncState(id: "games", highWater: Self.instant, recordCount: 3),
                    SyncState(id: "sports", highWater: nil, recordCount: 0),
                ], kind: .syncState
            ).isEmpty)
    }

    static let lineageRow = LineageRow(
        source: "espn", row: "fixtures/scraped/espn/games.csv:2", batch: "out/normalize/games/espn.json:9",
        recordId: "nfl-2023-2024-01-06-hou-at-ind", sourceGameId: "401", lastModified: instant, priority: 40,
        localDate: date, gameNumber: nil, startUTC: instant, startKnowledge: .exact, stadiumId: "lucas-oil-stadium",
        status: .final, kind: .regular, inferred: [.status])

    @Test func lineageRecordsValidate() throws {
        #expect(
            try Self.check(
                [
                    GameLineage(
                        id: "nfl-2023-2024-01-06-hou-at-ind", formerIds: ["nfl-2023-2024-01-07-hou-at-ind"],
                        rows: [Self.lineageRow],
                        fields: ["date": FieldOrigin(row: 0, rule: "only source")])
                ], kind: .lineage
            ).isEmpty)
    }

    @Test func mergeReportRecordsValidate() throws {
        let records: [MergeReportRecord] = [
            .counts(MergeEntityCounts(entity: "games", read: 3, applied: 2, inserted: 1, replaced: 1, skippedOlder: 1)),
            .conflict(
                MergeConflict(
                    gameId: "mlb-2023-2023-04-01-bal-at-bos", classes: [.dateMoved, .timeMoved],
                    sources: [
                        MergeConflictSource(
                            source: "espn", lastModified: Self.instant, priority: 60,
                            recordId: "mlb-2023-2023-04-01-bal-at-bos", localDate: Self.date, startUTC: Self.instant,
                            startKnowledge: .exact, stadiumId: "fenway-park", status: .scheduled),
                        MergeConflictSource(
                            source: "retro", lastModified: Self.instant, priority: 50,
                            recordId: "mlb-2023-2023-04-02-bal-at-bos", localDate: Self.date, startUTC: nil,
                            startKnowledge: .night, stadiumId: "fenway-park", status: .postponed),
                    ], winner: "espn")),
            .ambiguous(MergeAmbiguousMatch(gameId: "g1", candidates: ["g2", "g3"], reason: "equally near")),
            .summary(MergeConflictSummary(dateMoved: 1, timeMoved: 1, matchedAcrossDates: 1, ambiguousMatches: 1)),
            .incompatible(
                MergeIncompatibleRecord(
                    entity: "games", recordId: "x", source: "espn", file: "out/normalize/games/espn.json",
                    schemaVersion: 3, supportedVersion: 1)),
            .override(
                MergeOverrideOutcome(
                    entity: "stadiums", recordId: "fenway-park", field: "capacity", value: .int(37_755),
                    foldedValue: nil, status: .applied, reason: "capacity after renovation",
                    location: "fixtures/overrides/stadiums.yaml:3")),
            .override(
                MergeOverrideOutcome(
                    entity: "games", recordId: "y", field: "status", value: .string("cancelled"),
                    foldedValue: .null, status: .unmatched, reason: "washed out",
                    location: "fixtures/overrides/games.yaml:9")),
        ]
        #expect(try Self.check(records, kind: .mergeReport).isEmpty)
    }

    /// Every stored property of each core record type is a field its schema knows, even when it is nil
    /// in the samples above: a field added to a record type fails here until the schema has it.
    @Test func schemasKnowEveryFieldOfTheCoreRecordTypes() throws {
        let place = PlacePoint(name: "B", stadiumId: nil, latitude: 0, longitude: 0, timeZone: "UTC")
        let samples: [(ArtifactKind, String?, Any)] = [
            (.sports, "sport", BuiltInSport.mlb.sport),
            (
                .stadiums, "stadium",
                Stadium(
                    id: "a", name: "A", city: "", region: "", country: "", latitude: 0, longitude: 0,
                    timeZone: "UTC", lastModified: Self.instant, source: "s")
            ),
            (
                .teams, "team",
                Team(
                    id: "a", sport: "mlb", market: "", name: "A", abbreviation: "A", homeStadiumId: "a",
                    lastModified: Self.instant, source: "s")
            ),
            (
                .games, "game",
                Game(
                    id: "a", sport: "mlb", season: "2023", kind: .regular, startUTC: nil, localDate: Self.date,
                    timeTBD: true, homeTeamId: "h", awayTeamId: "a", stadiumId: "s", neutralSite: false,
                    gameNumber: nil, status: .scheduled, sourceIds: [:], lastModified: Self.instant, source: "s")
            ),
            (
                .leagueStructures, "leagueStructure",
                LeagueStructure(
                    id: "a", sport: "mlb", level: .league, name: "A", displayOrder: 0,
                    lastModified: Self.instant, source: "s")
            ),
            (.teamAliases, "teamAlias", TeamAlias(id: "a", teamId: "t", kind: .name, value: "v", lastModified: Self.instant, source: "s")),
            (.stadiumAliases, "stadiumAlias", StadiumAlias(id: "a", stadiumId: "s", name: "n", lastModified: Self.instant, source: "s")),
            (
                .rawGames, "rawGame",
                RawGame(
                    id: "a", source: "s", sport: "mlb", season: "2023", kind: .regular, sourceGameId: nil,
                    homeTeam: "h", awayTeam: "a", venue: nil, city: nil, startUTC: nil, date: Self.date,
                    dateZone: "UTC", localTime: nil, timeTBD: true, gameNumber: nil, status: .scheduled,
                    makeupDate: nil, neutralSite: nil, provenance: "p")
            ),
            (
                .unresolved, "unresolvedName",
                UnresolvedName(
                    id: "a", source: "s", sport: "mlb", field: "team", value: "v",
                    seenAt: [], occurrences: 1, suggestions: [])
            ),
            (.syncState, "syncState", SyncState(id: "games", highWater: nil, recordCount: 0)),
            (.mergeReport, "mergeReportEntry", MergeEntityCounts(entity: "games")),
            (.mergeReport, "mergeReportEntry", MergeConflict(gameId: "g", classes: [], sources: [], winner: "w")),
            (.mergeReport, "mergeReportEntry", MergeAmbiguousMatch(gameId: "g", candidates: [], reason: "r")),
            (.mergeReport, "mergeReportEntry", MergeConflictSummary()),
            (
                .mergeReport, "mergeConflictSource",
                MergeConflictSource(
                    source: "s", lastModified: Self.instant, priority: 1,
                    recordId: "g", localDate: Self.date, startUTC: nil,
                    startKnowledge: .unknown, stadiumId: "s", status: .scheduled)
            ),
            (.lineage, "gameLineage", GameLineage(id: "g", formerIds: ["h"], rows: [], fields: [:])),
            (.lineage, "lineageRow", Self.lineageRow),
            (
                .mergeReport, "mergeReportEntry",
                MergeIncompatibleRecord(
                    entity: "e", recordId: "r", source: "s", file: "f",
                    schemaVersion: 2, supportedVersion: 1)
            ),
            (
                .mergeReport, "mergeReportEntry",
                MergeOverrideOutcome(
                    entity: "e", recordId: "r", field: "f", value: .null,
                    foldedValue: nil, status: .applied, reason: "", location: "")
            ),
            (.tripPlan, "placePoint", place),
            (
                .tripPlan, "searchReport",
                SearchReport(
                    method: SearchMethods([.beam]), isExact: true, upperBound: nil, candidateGames: 0, arcs: 0,
                    labelsExpanded: 0)
            ),
            (.tripPlan, "tripDay", TripDay(date: Self.date, visitIndices: [], legIndices: [], drivingHours: 0, isRestDay: true)),
            (.tripPlan, "planConflict", PlanConflict(gameIds: [], reason: "r")),
            (
                .tripPlan, "scoreBreakdown",
                ScoreBreakdown(
                    total: 0, games: 0, distinctStadiums: 0, mustSeeCovered: 0,
                    mustSeeTotal: 0, drivingHours: 0, drivingKilometres: 0, restDays: 0,
                    minSlackHours: 0)
            ),
        ]
        for (kind, definition, sample) in samples {
            let url = Self.schemaFolder.appendingPathComponent("\(kind.rawValue).schema.json")
            let schema = try JSONParser.parse(try Data(contentsOf: url))
            let known = Set(schema["$defs"]?[definition ?? ""]?["properties"]?.objectValue?.keys ?? [:].keys)
            for child in Mirror(reflecting: sample).children {
                guard let label = child.label else { continue }
                #expect(known.contains(label), "\(kind.rawValue) #/$defs/\(definition ?? "") lacks '\(label)' of \(type(of: sample))")
            }
        }
    }

    @Test func aTripPlanValidates() throws {
        let place = PlacePoint(name: "Boston", stadiumId: nil, latitude: 42.36, longitude: -71.06, timeZone: "America/New_York")
        let request = ResolvedRequest(
            title: "Week", sports: ["mlb"], firstDate: Self.date, lastDate: Self.date.adding(days: 6),
            start: place, end: nil, objective: .mostGames, mustSeeGameIds: [], requiredStadiumIds: [],
            homeTeamIds: [], maxGamesPerDay: 1, restDays: 0, optionCount: 3,
            constants: ["averageSpeedMph": 67])
        let visit = GameVisit(
            gameId: "mlb-2023-2023-04-01-bal-at-bos", sport: "mlb", startUTC: Self.instant, localDate: Self.date,
            localTime: "13:05", timeZone: "America/New_York", timeZoneAbbreviation: "EDT", homeTeamId: "mlb-bos",
            homeTeamName: "Boston Red Sox", awayTeamId: "mlb-bal", awayTeamName: "Baltimore Orioles",
            stadiumId: "fenway-park", stadiumName: "Fenway Park", city: "Boston", latitude: 42.3467,
            longitude: -71.0972, isMustSee: true)
        let leg = DriveLeg(
            fromName: "Boston", toName: "Fenway Park", fromStadiumId: nil, toStadiumId: "fenway-park", kilometres: 2.1,
            hours: 0.3, departLocal: "2023-04-01 10:00 EDT", arriveLocal: "2023-04-01 10:18 EDT",
            departUTC: Self.instant, arriveUTC: Self.instant)
        let option = TripOption(
            rank: 1, isProvenOptimal: true,
            score: ScoreBreakdown(
                total: 1, games: 1, distinctStadiums: 1, mustSeeCovered: 1, mustSeeTotal: 1,
                drivingHours: 0.3, drivingKilometres: 2.1, restDays: 0, minSlackHours: 2),
            visits: [visit], legs: [leg],
            days: [TripDay(date: Self.date, visitIndices: [0], legIndices: [0], drivingHours: 0.3, isRestDay: false)],
            warnings: [])
        let plan = TripPlan(
            id: "boston-week", request: request, options: [option],
            conflicts: [PlanConflict(gameIds: ["a", "b"], reason: "same day")], infeasibility: nil, warnings: [],
            search: SearchReport(
                method: SearchMethods([.exactLongestPath]), isExact: true, upperBound: nil, candidateGames: 1,
                arcs: 0, labelsExpanded: 1))
        #expect(try Self.check([plan], kind: .tripPlan).isEmpty)
    }

    @Test func violationsNameThePathAndWhatIsWrong() throws {
        let validator = try Self.validator(.games)
        let text = envelopeText(
            kind: "sportstime.games", stage: "merge",
            records: [
                #"{"id":"MLB Game","sport":"mlb","season":"23","kind":"regular","localDate":"2023-02-30","startKnowledge":"exact","homeTeamId":"mlb-bos","awayTeamId":"mlb-bal","stadiumId":"fenway-park","neutralSite":false,"status":"delayed","sourceIds":{"espn":7},"lastModified":"2023-04-01 17:05","schemaVersion":1,"source":"espn","weather":"sunny"}"#
            ])
        let messages = validator.violations(of: try JSONParser.parse(text)).map(\.description)
        #expect(
            messages == [
                "records[0].id: \"MLB Game\" does not match pattern ^[a-z0-9][a-z0-9._-]*$",
                "records[0].lastModified: \"2023-04-01 17:05\" is not a UTC instant like 2026-06-12T23:05:00Z",
                "records[0].localDate: \"2023-02-30\" is not a date like 2026-06-12",
                "records[0].season: \"23\" does not match pattern ^[0-9]{4}(-[0-9]{2})?$",
                "records[0].sourceIds.espn: expected string, found number 7",
                "records[0].status: \"delayed\" is not one of \"scheduled\", \"postponed\", \"cancelled\", \"final\"",
                "records[0]: unknown field 'weather'",
            ])
    }

    @Test func anyOfPassesWhenOneAlternativeMatchesAndSaysWhyEachFailed() throws {
        let validator = try SchemaValidator(
            schema: Data(
                #"""
                {"type": "object", "properties": {"field": {"anyOf": [
                  {"type": "string"},
                  {"type": "object", "additionalProperties": false, "properties": {"from": {"type": "string"}}}
                ]}}}
                """#.utf8))
        #expect(validator.violations(of: try JSONParser.parse(Data(#"{"field": "home"}"#.utf8))).isEmpty)
        #expect(validator.violations(of: try JSONParser.parse(Data(#"{"field": {"from": "home"}}"#.utf8))).isEmpty)
        #expect(
            validator.violations(of: try JSONParser.parse(Data(#"{"field": {"form": "home"}}"#.utf8))).map(\.description) == [
                #"field: matches none of the allowed forms: expected string, found object {"form":"home"}; or unknown field 'form'"#
            ])
        #expect(
            validator.violations(of: try JSONParser.parse(Data(#"{"field": 3}"#.utf8))).map(\.description) == [
                "field: matches none of the allowed forms: expected string, found number 3; or expected object, found number 3"
            ])
        #expect(throws: JSONSchema.Problem.self) { try SchemaValidator(schema: Data(#"{"anyOf": []}"#.utf8)) }
        #expect(throws: JSONSchema.Problem.self) { try SchemaValidator(schema: Data(##"{"anyOf": [{"$ref": "#/$defs/missing"}]}"##.utf8)) }
    }

    /// Required keys are checked from the walk over the members (a bit per property, up to 64, then a
    /// lookup), in the order `required` lists them; `minLength` counts characters, not bytes.
    @Test func requiredKeysAndMinimumLengths() throws {
        var properties = (0..<70).map { #""p\#($0)": {"type": "string"}"# }
        properties.append(#""name": {"type": "string", "minLength": 2}"#)
        let schema =
            #"{"type": "object", "required": ["p69", "p1", "extra", "name"], "properties": {"#
            + properties.joined(separator: ", ") + "}}"
        let validator = try SchemaValidator(schema: Data(schema.utf8))
        func problems(_ json: String) throws -> [String] {
            validator.violations(of: try JSONParser.parse(Data(json.utf8))).map(\.description)
        }
        #expect(
            try problems("{}") == [
                "missing required field 'p69'", "missing required field 'p1'", "missing required field 'extra'",
                "missing required field 'name'",
            ])
        #expect(try problems(#"{"p69": "a", "p1": "b", "extra": null, "name": "é!"}"#).isEmpty)
        #expect(try problems(#"{"p69": "a", "p1": "b", "extra": 1, "name": "é"}"#) == ["name: shorter than 2 characters"])
        #expect(try problems(#"{"p1": "b", "extra": 1, "name": "éx"}"#) == ["missing required field 'p69'"])
        #expect(
            try problems(#"{"p69": "a", "extra": 1, "name": "é"}"#) == [
                "name: shorter than 2 characters", "missing required field 'p1'",
            ])
        #expect(
            SchemaValidator.isShorter("", than: 1) && !SchemaValidator.isShorter("a", than: 1) && !SchemaValidator.isShorter("", than: 0))
    }

    @Test func unsupportedKeywordsAreRefused() {
        #expect(throws: JSONSchema.Problem.self) { try SchemaValidator(schema: Data(#"{"type":"object","oneOf":[]}"#.utf8)) }
        #expect(throws: JSONSchema.Problem.self) { try SchemaValidator(schema: Data(##"{"$ref":"#/$defs/missing"}"##.utf8)) }
        #expect(throws: JSONSchema.Problem.self) { try SchemaValidator(schema: Data(#"{"format":"email"}"#.utf8)) }
    }

    @Test func patternsMatchLikeECMAScript() throws {
        let cases: [(String, String, Bool)] = [
            ("^[a-z0-9][a-z0-9._-]*$", "mlb-2023-2023-04-01-bal-at-bos", true),
            ("^[a-z0-9][a-z0-9._-]*$", "Mlb", false),
            ("^[a-z0-9][a-z0-9._-]*$", "", false),
            ("^[0-9]{4}(-[0-9]{2})?$", "2025-26", true),
            ("^[0-9]{4}(-[0-9]{2})?$", "2025-2026", false),
            ("^#[0-9A-Fa-f]{6}$", "#C9082A", true),
            ("^#[0-9A-Fa-f]{6}$", "#C9082", false),
            ("b+c", "aabbbcd", true),
            ("^(ab|cd)+$", "abcdab", true),
            ("^(ab|cd)+$", "abc", false),
            ("^a{2,3}$", "aaaa", false),
            ("^\\d\\d:\\d\\d$", "13:05", true),
            ("^[^ ]+$", "no spaces", false),
            ("^a.c$", "abc", true),
            ("^(x?)+y$", "xxxy", true),
        ]
        for (source, text, expected) in cases {
            #expect(try SchemaPattern(source).matches(text) == expected, "\(source) on '\(text)'")
        }
        #expect(throws: SchemaPattern.Problem.self) { try SchemaPattern("^(a$") }
        #expect(throws: SchemaPattern.Problem.self) { try SchemaPattern("\\p{L}") }
    }

    @Test func sixThousandGamesValidate() throws {
        let validator = try Self.validator(.games)
        let record =
            #"{"id":"mlb-2023-2023-04-01-bal-at-bos-N","sport":"mlb","season":"2023","kind":"regular","startUTC":"2023-04-01T17:05:00Z","localDate":"2023-04-01","startKnowledge":"exact","homeTeamId":"mlb-bos","awayTeamId":"mlb-bal","stadiumId":"fenway-park","neutralSite":false,"status":"scheduled","sourceIds":{"espn":"401"},"lastModified":"2023-04-01T17:05:00Z","schemaVersion":1,"source":"espn"}"#
        let text = envelopeText(
            kind: "sportstime.games", stage: "merge",
            records: (0..<6_000).map { record.replacingOccurrences(of: "-N", with: "-\($0)") })
        let document = try JSONParser.parse(Data(text.utf8))
        #expect(validator.violations(of: document).isEmpty)
    }
}

@Suite struct JSONParserTests {
    @Test func parsesAndKeepsNumbersAsWritten() throws {
        let value = try JSONParser.parse(#"{"a":[1,-0.5,2e+20,true,null],"b":"x\u00e9\n\"q\"\ud83d\ude00","c":{}}"#)
        #expect(value["a"] == .array([.number("1"), .number("-0.5"), .number("2e+20"), .bool(true), .null]))
        #expect(value["b"] == .string("xé\n\"q\"😀"))
        #expect(value["c"] == .object([:]))
        #expect(value.compactText == #"{"a":[1,-0.5,2e+20,true,null],"b":"xé\n\"q\"😀","c":{}}"#)
    }

    @Test(arguments: [
        (#"{"a":1,"a":2}"#, 1, 8, "duplicate key 'a'"),
        ("[1,2,]", 1, 6, "unexpected character ']'"),
        ("{\n  \"a\": 01\n}", 2, 9, "invalid number: a leading zero"),
        ("[1] x", 1, 5, "unexpected text after the JSON value"),
        (#"{"a": "b"#, 1, 9, "unterminated string"),
        ("// c\n{}", 1, 1, "unexpected character '/'"),
    ])
    func refusesInvalidJSONWithLineAndColumn(_ text: String, _ line: Int, _ column: Int, _ message: String) {
        do {
            _ = try JSONParser.parse(text)
            Issue.record("accepted \(text)")
        } catch let error as JSONSyntaxError {
            #expect(error.line == line, "\(error)")
            #expect(error.column == column, "\(error)")
            #expect(error.message == message, "\(error)")
        } catch {
            Issue.record("\(error)")
        }
    }
}
