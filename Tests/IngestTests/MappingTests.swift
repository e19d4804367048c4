import Foundation
import SportsTimeCore
@testable import SportsTimeIngest
import Testing

/// The generic mapping: a new source is configuration, not code.
@Suite struct MappingTests {
    /// A layout no reader knows (semicolons, day-first dates, 12-hour times with a zone column,
    /// German words, a preamble line, codes mapped to kinds, a neutral-site marker, a cancelled game,
    /// a row filter), added by YAML alone.
    @Test func aNeverSeenCSVLayoutIsIngestedFromYAMLAlone() throws {
        let csv = """
            Spielplan Frühjahr 2025 (Stand 01.03.)
            Nr;Datum;Anstoß;Gast;Gastgeber;Ort;Art;Status;Neutral
            A-1;28.03.2025;8:00 PM;Birmingham Stallions;Michigan Panthers;Ford Field;RS;;
            A-2;29.03.2025;TBA;Houston Roughnecks;DC Defenders;Audi Field;RS;abgesagt;
            A-3;05.04.2025;1:00 PM;San Antonio Brahmas;St. Louis Battlehawks;The Dome at America's Center;VB;;
            A-4;14.06.2025;3:00 PM;DC Defenders;Michigan Panthers;Neutral Park;PO;;x

            """
        let spec = """
            sources:
              - id: spring
                sport: ufl
                season: "2025"
                system: spring-sheet
                files: ["*.csv"]
                format: csv-mapping
                scrapedAt: "2025-03-01T00:00:00Z"
                naiveTimeZone: America/Chicago
                rejectThreshold: "0"
                priority: 1
                filters:
                  - {column: Art, notEquals: VB}
                mapping:
                  delimiter: ";"
                  skipLines: 1
                  fields:
                    id: Nr
                    date: {from: Datum, layout: dd.MM.yyyy}
                    time: {from: Anstoß, layout: "h:mm a", zone: America/Detroit}
                    awayTeam: Gast
                    homeTeam: Gastgeber
                    venue: Ort
                    kind: {from: Art, values: {RS: regular, PO: postseason}}
                    status: {from: Status, values: {abgesagt: cancelled}, default: scheduled}
                    neutralSite: {from: Neutral, ifPresent: "true", ifEmpty: "false"}
            """
        let result = try TestSupport.ingest(spec: spec, files: ["plan.csv": Data(utf8: csv)])
        #expect(result.rejects == [])
        #expect(
            result.counts
                == {
                    var c = IngestCounts(); c.read = 4; c.filtered = 1; c.written = 3; return c
                }())
        let games = Dictionary(uniqueKeysWithValues: result.records.map { ($0.sourceGameId ?? "", $0) })
        let first = try #require(games["A-1"])
        #expect(first.id == "spring:A-1")
        #expect(first.startUTC == Instant(iso8601: "2025-03-29T00:00:00Z"))
        #expect(first.homeTeam == "Michigan Panthers" && first.awayTeam == "Birmingham Stallions")
        #expect(first.neutralSite == false && first.kind == .regular && first.status == .scheduled)
        #expect(first.provenance == "fixtures/scraped/spring/plan.csv:3")
        let second = try #require(games["A-2"])
        #expect(second.timeTBD && second.startUTC == nil && second.status == .cancelled)
        #expect(second.date == LocalDate(year: 2025, month: 3, day: 29) && second.dateZone == "America/Chicago")
        let final = try #require(games["A-4"])
        #expect(final.kind == .postseason && final.neutralSite == true)
    }

    @Test func jsonMappingWithNestedRecordsAndSelections() throws {
        let json = """
            {"leagues": [{"events": [
              {"id": "9", "date": "2025-04-05T18:00Z", "status": {"type": "STATUS_FINAL"},
               "competitors": [{"homeAway": "away", "team": {"name": "Memphis Showboats"}},
                               {"homeAway": "home", "team": {"name": "Birmingham Stallions"}}],
               "venue": {"fullName": "Protective Stadium", "address": {"city": "Birmingham"}}},
              {"id": "10", "date": "2025-04-06T19:00Z", "status": {"type": "STATUS_SCHEDULED"},
               "competitors": [{"homeAway": "home", "team": {"name": "Houston Roughnecks"}},
                               {"homeAway": "away", "team": {"name": "TBD"}}]}
            ]}]}
            """
        let spec = TestSupport.csvSpec(
            """
            records: leagues[*].events
            fields:
              id: id
              start: date
              homeTeam: competitors[homeAway=home].team.name
              awayTeam: competitors[homeAway=away].team.name
              venue: venue.fullName
              city: venue.address.city
              status: {from: status.type, values: {STATUS_FINAL: final, STATUS_SCHEDULED: scheduled}}
            """, format: "json-mapping")
        let result = try TestSupport.ingest(spec: spec, files: ["scoreboard.json": Data(utf8: json)])
        #expect(result.records.count == 1)
        let game = try #require(result.records.first)
        #expect(game.homeTeam == "Birmingham Stallions" && game.venue == "Protective Stadium" && game.city == "Birmingham")
        #expect(game.startUTC == Instant(iso8601: "2025-04-05T18:00:00Z") && game.status == .final)
        #expect(game.provenance == "fixtures/scraped/test/scoreboard.json:2")
        #expect(result.rejects.map(\.reason) == ["placeholder away team 'TBD'"])
        #expect(result.rejects.first?.line == 6)
    }

    @Test func filtersOfEveryKind() throws {
        let csv =
            "date,home,away,season,tag\n2025-03-01,A,B,2021,x\n2025-03-02,C,D,2022,\n2025-03-03,E,F,2023,keep-me\n2025-03-04,G,H,2026,y\n"
        let mapping = "fields:\n  date: date\n  homeTeam: home\n  awayTeam: away"
        func kept(_ filter: String) throws -> [String] {
            let spec = TestSupport.csvSpec(mapping, extra: "filters:\n  - \(filter)")
            return try TestSupport.ingest(spec: spec, files: ["a.csv": Data(utf8: csv)]).records.map(\.homeTeam)
        }
        #expect(try kept("{column: season, range: {from: \"2022\", to: \"2023\"}}") == ["C", "E"])
        #expect(try kept("{column: season, range: {from: \"2023\"}}") == ["E", "G"])
        #expect(try kept("{column: season, equals: \"2021\"}") == ["A"])
        #expect(try kept("{column: season, notEquals: \"2021\"}") == ["C", "E", "G"])
        #expect(try kept("{column: season, in: [\"2021\", \"2026\"]}") == ["A", "G"])
        #expect(try kept("{column: season, notIn: [\"2021\", \"2026\"]}") == ["C", "E"])
        #expect(try kept("{column: tag, matches: \"^keep\"}") == ["E"])
        #expect(try kept("{column: tag, empty: true}") == ["C"])
        #expect(try kept("{column: tag, empty: false}") == ["A", "E", "G"])
    }

    @Test func aFilterOnAColumnTheFileLacksIsAnInputError() {
        let spec = TestSupport.csvSpec(
            "fields:\n  date: date\n  homeTeam: home\n  awayTeam: away",
            extra: "filters:\n  - {column: seazon, equals: \"1\"}")
        #expect {
            _ = try TestSupport.ingest(spec: spec, files: ["a.csv": Data(utf8: "date,home,away\n2025-03-01,A,B\n")])
        } throws: { error in
            (error as? PipelineError)?.diagnostics.first?.message.contains("'seazon'") == true
        }
    }

    @Test func lookupsJoinAnotherFileByKey() throws {
        let spec = TestSupport.csvSpec(
            """
            lookups:
              - {name: weeks, file: weeks.csv, key: day, match: date}
            fields:
              date: date
              homeTeam: home
              awayTeam: away
              season: weeks.season
              kind: {from: weeks.type, values: {Post: postseason}, default: regular}
            """, season: "2022..2023")
        let result = try TestSupport.ingest(
            spec: spec,
            files: ["games.csv": Data(utf8: "date,home,away\n2023-01-08,A,B\n2023-01-15,C,D\n2023-09-10,E,F\n2024-05-05,G,H\n")],
            lookups: ["weeks.csv": Data(utf8: "day,season,type\n2023-01-08,2022,Regular\n2023-01-15,2022,Post\n2023-09-10,2023,Regular\n")])
        #expect(result.records.map(\.season) == ["2022", "2022", "2023"])
        #expect(result.records.map(\.kind) == [.regular, .postseason, .regular])
        #expect(result.rejects.map(\.reason) == ["no season"])
    }

    @Test func constantsRegexMatchAndIfPresent() throws {
        let spec = TestSupport.csvSpec(
            """
            fields:
              date: date
              homeTeam: {from: matchup, match: '@ (.+)$'}
              awayTeam: {from: matchup, match: '^(.+?) @'}
              kind: {constant: exhibition}
              status: {from: score, ifPresent: final, ifEmpty: scheduled}
              gameNumber: {from: matchup, match: 'Game ([0-9])', default: "0"}
            """)
        let csv = "date,matchup,score\n2025-03-01,Alpha @ Beta,3-2\n2025-03-01,Alpha @ Beta (Game 2),\n"
        let result = try TestSupport.ingest(spec: spec, files: ["a.csv": Data(utf8: csv)])
        #expect(result.records.map(\.id) == ["test:2025-03-01-alpha-at-beta", "test:2025-03-01-alpha-at-beta-game-2-g2"])
        #expect(result.records.map(\.kind) == [.exhibition, .exhibition])
        #expect(result.records.map(\.status) == [.final, .scheduled])
    }

    @Test func unmappedKindOrStatusIsARejectThatSaysHowToMapIt() throws {
        let spec = TestSupport.csvSpec("fields:\n  date: date\n  homeTeam: home\n  awayTeam: away\n  kind: type")
        let result = try TestSupport.ingest(spec: spec, files: ["a.csv": Data(utf8: "date,home,away,type\n2025-03-01,A,B,Friendly\n")])
        #expect(
            result.rejects.first?.reason
                == "kind 'Friendly' is not one of preseason, regular, postseason, exhibition (map it in fields.kind.values)")
    }

    @Test func rowSeasonsOutsideTheDeclaredRangeAreRejected() throws {
        let spec = TestSupport.csvSpec("fields:\n  date: date\n  homeTeam: home\n  awayTeam: away\n  season: s", season: "2024-25")
        let csv = "date,home,away,s\n2025-03-01,A,B,20242025\n2026-03-01,C,D,2025-26\n2026-03-02,E,F,2026\n"
        let result = try TestSupport.ingest(spec: spec, files: ["a.csv": Data(utf8: csv)])
        #expect(result.records.map(\.season) == ["2024-25"])
        #expect(
            result.rejects.map(\.reason) == [
                "season 2025-26 is outside this source's seasons 2024-25",
                "season '2026' is not a season like 2024-25",
            ])
    }

    @Test func naiveTimesInADeclaredZoneBecomeInstantsAndInTheVenueZoneStayLocal() throws {
        let csv = "date,time,home,away\n2025-07-04,19:05,A,B\n2025-11-02,01:30,C,D\n"
        let mapping = "fields:\n  date: date\n  time: time\n  homeTeam: home\n  awayTeam: away"
        let eastern = try TestSupport.ingest(
            spec: TestSupport.csvSpec(mapping, zone: "America/New_York"), files: ["a.csv": Data(utf8: csv)])
        #expect(eastern.records.map(\.startUTC) == [Instant(iso8601: "2025-07-04T23:05:00Z"), Instant(iso8601: "2025-11-02T05:30:00Z")])
        #expect(eastern.records.allSatisfy { $0.localTime == nil && $0.dateZone == "America/New_York" && !$0.timeTBD })
        let venue = try TestSupport.ingest(spec: TestSupport.csvSpec(mapping, zone: "venue"), files: ["a.csv": Data(utf8: csv)])
        #expect(venue.records.map(\.localTime) == ["19:05", "01:30"])
        #expect(venue.records.allSatisfy { $0.startUTC == nil && $0.dateZone == "venue" && !$0.timeTBD })
    }

    @Test func rejectThresholdFailsTheSource() throws {
        let mapping = "fields:\n  date: date\n  homeTeam: home\n  awayTeam: away"
        let csv = Data(utf8: "date,home,away\n2025-03-01,A,B\n2025-03-02,TBD,D\n2025-03-03,E,F\n")
        let strict = try TestSupport.ingest(spec: TestSupport.csvSpec(mapping, threshold: "0"), files: ["a.csv": csv])
        #expect(strict.exceedsThreshold)
        #expect(strict.failure?.message.contains("1 of 3 rows rejected") == true)
        let lenient = try TestSupport.ingest(spec: TestSupport.csvSpec(mapping, threshold: "1"), files: ["a.csv": csv])
        #expect(!lenient.exceedsThreshold && lenient.failure == nil)
    }
}
