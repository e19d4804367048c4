import Foundation
import SportsTimeCore
@testable import SportsTimeIngest
import Testing

/// The current seasons (NBA and NHL 2026-27, NFL 2026, WNBA and NWSL 2026, NWSL 2025), each read by its
/// entry in the repository's `pipeline/sources.yaml` alone: the counts are the files' own (see
/// `fixtures/scraped/SOURCES.md`), and the placeholders they carry are not told as facts.
@Suite struct CurrentSeasonTests {
    static func result(_ id: String) throws -> IngestResult { try RealFixtureTests.result(id) }

    @Test func nbaAssignsEightyGamesPerTeamAndDeclaresTheCupGamesPending() throws {
        let result = try Self.result("nba-2026-27")
        #expect(result.counts.read == 1200 && result.records.count == 1200 && result.rejects.isEmpty)
        var perTeam: [String: Int] = [:]
        for game in result.records {
            perTeam[game.homeTeam, default: 0] += 1
            perTeam[game.awayTeam, default: 0] += 1
        }
        #expect(perTeam.count == 30 && perTeam.values.allSatisfy { $0 == 80 })
        let source = try #require(try SourceCatalog.load(text: RealFixtureTests.specText, path: "p").first { $0.id == "nba-2026-27" })
        #expect(source.meta[.expectedGamesPerTeam] == "82")
        // Eastern times read in their zone: the Paris game G0075 at 8:00 PM local is 2:00 PM Eastern, 19:00 UTC.
        let paris = try #require(result.records.first { $0.sourceGameId == "G0075" })
        #expect(paris.startUTC?.iso8601 == "2027-01-14T19:00:00Z" && paris.venue == "Accor Arena, Paris" && paris.neutralSite == true)
        #expect(result.records.filter { $0.venue != nil }.count == 6)
    }

    @Test func nhlHasEightyFourGamesPerTeamWithoutTimesOrVenues() throws {
        let result = try Self.result("nhl-2026-27")
        #expect(result.records.count == 1344 && result.rejects.isEmpty)
        #expect(result.records.allSatisfy { $0.timeTBD && $0.startUTC == nil && $0.venue == nil && $0.dateZone == "venue" })
        var perTeam: [String: Int] = [:]
        for game in result.records { perTeam[game.homeTeam, default: 0] += 1; perTeam[game.awayTeam, default: 0] += 1 }
        #expect(perTeam.count == 32 && perTeam.values.allSatisfy { $0 == 84 })
    }

    @Test func nflWeekEighteensSharedKickoffIsAPlaceholderNotAStart() throws {
        let result = try Self.result("nfl-2026")
        #expect(result.records.count == 272 && result.rejects.isEmpty)
        let week18 = result.records.filter { $0.sourceGameId?.hasPrefix("2026_18_") == true }
        #expect(week18.count == 16)
        // The date stays (Sunday 2027-01-10 in New York); no start is claimed.
        #expect(week18.allSatisfy { $0.timeTBD && $0.startUTC == nil && $0.date.iso8601 == "2027-01-10" })
        let others = result.records.filter { $0.sourceGameId?.hasPrefix("2026_18_") == false }
        #expect(others.count == 256 && others.allSatisfy { !$0.timeTBD && $0.startUTC != nil })
        #expect(result.records.filter { $0.neutralSite == true }.count == 8)
    }

    @Test func nwslTwentyTwentySixReadsEasternKickoffsAndTheTBAVenueAsNone() throws {
        let result = try Self.result("nwsl-2026")
        #expect(result.records.count == 240 && result.rejects.isEmpty)
        // 13/03/2026 20:00 Eastern (daylight time from March 8) is 2026-03-14T00:00Z.
        let opener = try #require(result.records.first { $0.provenance.hasSuffix(":2") })
        #expect(opener.startUTC?.iso8601 == "2026-03-14T00:00:00Z" && opener.homeTeam == "Washington Spirit")
        let tba = result.records.filter { $0.venue == nil }
        #expect(tba.count == 1 && tba.first?.homeTeam == "Angel City FC")
        #expect(!result.records.contains { $0.venue?.lowercased() == "tba" })
    }

    @Test func nwslTwentyTwentyFiveIsRegularSeasonAndPlayoffs() throws {
        let result = try Self.result("nwsl-2025")
        #expect(result.records.count == 189 && result.rejects.isEmpty)
        #expect(result.records.filter { $0.kind == .regular }.count == 182)
        #expect(result.records.filter { $0.kind == .postseason }.count == 7)
        #expect(result.records.allSatisfy { $0.status == .final && $0.timeTBD })
    }

    @Test func wnbaIsReadFromItsJavaScriptModule() throws {
        let result = try Self.result("wnba-2026")
        // 330 games and the postponed original; the Commissioner's Cup final and the All-Star game filtered.
        #expect(result.counts.read == 333 && result.counts.filtered == 2 && result.rejects.isEmpty)
        #expect(result.records.count == 331)
        #expect(result.records.filter { $0.status == .postponed }.count == 1)
        // Scores up to the scrape (2026-08-22): those games are final, the 56 after it scheduled.
        #expect(result.records.filter { $0.status == .final }.count == 274)
        #expect(result.records.filter { $0.status == .scheduled }.count == 56)
        #expect(result.records.allSatisfy { $0.startUTC != nil && $0.venue != nil })
        var teams = Set<String>()
        for game in result.records { teams.insert(game.homeTeam); teams.insert(game.awayTeam) }
        #expect(teams.count == 15)
    }
}

/// The keys that say what a source's values mean when they are not facts yet, and the JavaScript module reader.
@Suite struct PlaceholderAndModuleTests {
    private func ingest(_ source: String, files: [String: String]) throws -> IngestResult {
        try TestSupport.ingest(spec: "sources:\n" + source, files: files.mapValues { Data($0.utf8) })
    }

    private let header = """
          - id: s
            sport: nfl
            season: "2026"
            system: t
            files: [g.csv]
            format: csv-mapping
            scrapedAt: "2026-01-01T00:00:00Z"
            naiveTimeZone: America/New_York
            rejectThreshold: "0"
            priority: 1

        """

    @Test func aDeclaredPlaceholderStartKeepsTheDateAndClaimsNoStart() throws {
        let spec =
            header + """
                    placeholderStarts: ["2027-01-10T18:00:00.000Z", "3:33 AM"]
                    mapping:
                      fields:
                        start: {from: kick, layout: iso8601}
                        homeTeam: home
                        awayTeam: away
                """
        let csv = "kick,home,away\n2027-01-10T18:00:00.000Z,BUF,NYJ\n2027-01-10T21:25:00.000Z,KC,LV\n"
        let result = try ingest(spec, files: ["g.csv": csv])
        let placeholder = try #require(result.records.first { $0.homeTeam == "BUF" })
        let set = try #require(result.records.first { $0.homeTeam == "KC" })
        #expect(placeholder.timeTBD && placeholder.startUTC == nil && placeholder.date.iso8601 == "2027-01-10")
        #expect(!set.timeTBD && set.startUTC?.iso8601 == "2027-01-10T21:25:00Z")

        let timeSpec =
            header + """
                    placeholderStarts: ["3:33 AM"]
                    mapping:
                      fields:
                        date: {from: day, layout: yyyy-MM-dd}
                        time: {from: time, layout: "h:mm a"}
                        homeTeam: home
                        awayTeam: away
                """
        let times = try ingest(timeSpec, files: ["g.csv": "day,time,home,away\n2026-06-01,3:33 AM,BOS,NYY\n2026-06-02,7:10 PM,BOS,NYY\n"])
        #expect(times.records[0].timeTBD && times.records[0].startUTC == nil && times.records[0].date.iso8601 == "2026-06-01")
        #expect(times.records[1].startUTC?.iso8601 == "2026-06-02T23:10:00Z")
    }

    @Test func placeholderVenuesAreNoVenueByDefaultAndCanBeReplaced() throws {
        let spec =
            header + """
                    mapping:
                      fields:
                        date: {from: day, layout: yyyy-MM-dd}
                        homeTeam: home
                        awayTeam: away
                        venue: venue
                """
        let csv = "day,home,away,venue\n2026-06-01,BOS,NYY,TBA\n2026-06-02,BOS,NYY,to be confirmed\n2026-06-03,BOS,NYY,Fenway Park\n"
        let result = try ingest(spec, files: ["g.csv": csv])
        #expect(result.records.map(\.venue) == [nil, nil, "Fenway Park"])
        let none = try ingest(
            spec.replacingOccurrences(of: "    mapping:", with: "    placeholderVenues: []\n    mapping:"), files: ["g.csv": csv])
        #expect(none.records.map(\.venue) == ["TBA", "to be confirmed", "Fenway Park"])
    }

    private let moduleSource = """
          - id: s
            sport: wnba
            season: "2026"
            system: t
            files: [g.js]
            format: json-mapping
            scrapedAt: "2026-01-01T00:00:00Z"
            naiveTimeZone: UTC
            rejectThreshold: "0"
            priority: 1
            mapping:
              javascriptExport: GAMES
              fields:
                start: {from: tip, layout: iso8601}
                homeTeam: home
                awayTeam: away

        """

    @Test func aJavaScriptModulesExportIsReadWithItsOwnLineNumbers() throws {
        let module = """
            // generated
            export const SEASON = 2026
            export const GAMES = [
              {"tip":"2026-05-08T23:30:00.000Z","home":"NY","away":"CON"}, // opener
              {"tip":"2026-05-09T19:00:00.000Z","home":"","away":"CON"},
            ]
            export const ROUNDS = { R1: 3 }

            """
        let result = try ingest(moduleSource, files: ["g.js": module])
        #expect(result.records.count == 1 && result.records[0].provenance == "fixtures/scraped/s/g.js:4")
        #expect(result.rejects.map(\.line) == [5])
    }

    @Test func aModuleWithoutTheExportOrReadAsJSONSaysWhatToSet() throws {
        let module = "export const GAMES = [\n  {\"home\":\"NY\"}\n]\nexport const TEAMS = []\n"
        #expect {
            try ingest(
                moduleSource.replacingOccurrences(of: "javascriptExport: GAMES", with: "javascriptExport: MATCHES"), files: ["g.js": module]
            )
        } throws: { error in
            "\(error)".contains(
                "fixtures/scraped/s/g.js:1: error: the file has no export 'MATCHES' with a JSON array or object value (it exports GAMES, TEAMS)"
            )
        }
        #expect {
            try ingest(moduleSource.replacingOccurrences(of: "      javascriptExport: GAMES\n", with: ""), files: ["g.js": module])
        } throws: { error in
            "\(error)".contains("(the file is a JavaScript module exporting GAMES, TEAMS)")
                && "\(error)".contains("Set mapping.javascriptExport to the export that holds the records (e.g. javascriptExport: GAMES)")
        }
    }
}

/// A Basketball-Reference export has its scores in two `PTS` columns: the status it derives from them is
/// checked against them, as for any source whose mapping names score columns.
@Suite struct BasketballReferenceScoreTests {
    @Test func aZeroZeroFinalIsRefusedLikeAnyScoredSource() throws {
        let spec = """
            sources:
              - id: w
                sport: wnba
                season: "2023"
                system: bbref
                files: [s.csv]
                format: bbref-csv
                scrapedAt: "2023-09-10T00:00:00Z"
                naiveTimeZone: venue
                rejectThreshold: "100%"
                priority: 1
            """
        let csv = """
            Date,Visitor/Neutral,PTS,Home/Neutral,PTS,,Notes
            Fri May 19 2023,Connecticut Sun,70,Indiana Fever,61,Box Score,
            Sat May 20 2023,Phoenix Mercury,0,Los Angeles Sparks,0,Box Score,
            Sun May 21 2023,Seattle Storm,,Las Vegas Aces,,,

            """
        let result = try TestSupport.ingest(spec: spec, files: ["s.csv": Data(csv.utf8)])
        #expect(result.records.map(\.status) == [.final, .scheduled])
        #expect(result.rejects.map(\.line) == [3])
        #expect(result.rejects.first?.reason.hasPrefix("status final with a 0–0 score, which no wnba game ends with") == true)
    }
}
