import Foundation
import SportsTimeCore
@testable import SportsTimeIngest
import Testing

/// One test per input quirk real scrapes have, each through the whole library (spec → rows → records).
@Suite struct RobustInputTests {
    static let mapping = """
        fields:
          date: {from: date, layout: ["yyyy-MM-dd", "M/d/yyyy", "EEE MMM d yyyy"]}
          homeTeam: home
          awayTeam: away
          venue: venue
        """

    func run(_ csv: [UInt8], mapping: String = mapping) throws -> IngestResult {
        try TestSupport.ingest(spec: TestSupport.csvSpec(mapping), files: ["games.csv": Data(csv)])
    }

    func run(_ csv: String, mapping: String = mapping) throws -> IngestResult {
        try run(Array(csv.utf8), mapping: mapping)
    }

    @Test func byteOrderMarkIsNotPartOfTheFirstColumnName() throws {
        let result = try run([0xEF, 0xBB, 0xBF] + Array("date,home,away,venue\n2025-03-01,A,B,V\n".utf8))
        #expect(result.records.count == 1)
        #expect(result.records.first?.date == LocalDate(year: 2025, month: 3, day: 1))
    }

    @Test(arguments: ["\n", "\r\n", "\r"])
    func lineEndingsAllCountAsOneLine(_ end: String) throws {
        let csv = ["date,home,away,venue", "2025-03-01,A,B,V", "2025-03-02,C,D,W", ""].joined(separator: end)
        let result = try run(csv)
        #expect(result.records.map(\.provenance) == ["fixtures/scraped/test/games.csv:2", "fixtures/scraped/test/games.csv:3"])
        #expect(result.counts.read == 2)
    }

    @Test func quotedFieldsKeepCommasAndNewlinesAndLaterLinesStayRight() throws {
        let csv = "date,home,away,venue\n2025-03-01,\"Team, A\",B,\"Big\nArena\"\n2025-03-02,C,D,W\n"
        let result = try run(csv)
        let first = try #require(result.records.first { $0.homeTeam == "Team, A" })
        #expect(first.venue == "Big\nArena")
        let second = try #require(result.records.first { $0.homeTeam == "C" })
        #expect(second.provenance.hasSuffix("games.csv:4"))
    }

    @Test func duplicateAndUnnamedHeadersGetDistinctNames() throws {
        let csv = "Date,Visitor,PTS,Home,PTS,,Notes\n2023-05-19,A,70,B,61,Box Score,\n2023-05-20,C,,D,,,\n"
        let mapping = """
            fields:
              date: Date
              homeTeam: Home
              awayTeam: Visitor
              status: {from: PTS.2, ifPresent: final, ifEmpty: scheduled}
              venue: column6
            """
        let result = try run(csv, mapping: mapping)
        #expect(result.records.map(\.status) == [.final, .scheduled])
        #expect(result.records.first?.venue == "Box Score")
    }

    @Test func blankLinesAndDelimiterOnlyRowsAreNotRows() throws {
        let result = try run("date,home,away,venue\n\n2025-03-01,A,B,V\n,,,\n   \n2025-03-02,C,D,W\n\n")
        #expect(result.counts.read == 2)
        #expect(result.records.count == 2)
        #expect(result.rejects.isEmpty)
    }

    @Test func placeholderRowsAreRejectedWithTheirLine() throws {
        let csv =
            "date,home,away,venue\n2025-03-01,TBD,B,V\n2025-03-02, (),D,W\n2025-03-03,E,,X\n2025-03-04,G,To Be Determined,Y\n2025-03-05,H,I,Z\n"
        let result = try run(csv)
        #expect(result.records.map(\.homeTeam) == ["H"])
        #expect(result.rejects.map(\.line) == [2, 3, 4, 5])
        #expect(
            result.rejects.map(\.reason) == [
                "placeholder home team 'TBD'", "blank home team", "blank away team",
                "placeholder away team 'To Be Determined'",
            ])
        #expect(result.counts.balances)
    }

    @Test func invalidUTF8IsReplacedWithAWarningNotACrash() throws {
        let bytes = Array("date,home,away,venue\n2025-03-01,Montr".utf8) + [0xE9] + Array("al,B,Stade \u{00E9}\n".utf8) + [0xFF, 0xFE]
        let result = try run(bytes)
        #expect(result.records.first?.homeTeam == "Montr\u{FFFD}al")
        #expect(result.records.first?.venue == "Stade \u{00E9}")
        #expect(result.warnings.contains { $0.severity == .warning && $0.message.contains("not valid UTF-8") })
    }

    @Test func mixedDateLayoutsInOneColumn() throws {
        let csv = "date,home,away,venue\n2025-03-01,A,B,V\n3/2/2025,C,D,W\nMon Mar 3 2025,E,F,X\n03.04.2025,G,H,Y\n"
        let result = try run(csv)
        #expect(result.records.map(\.date.iso8601) == ["2025-03-01", "2025-03-02", "2025-03-03"])
        #expect(result.rejects.first?.reason == "date '03.04.2025' does not fit the layouts yyyy-MM-dd, M/d/yyyy, EEE MMM d yyyy")
        #expect(result.rejects.first?.line == 5)
    }

    @Test func headerRepeatedInsideTheFileIsSkipped() throws {
        let result = try run("date,home,away,venue\n2025-03-01,A,B,V\ndate,home,away,venue\n2025-03-02,C,D,W\n")
        #expect(result.records.count == 2)
        #expect(result.counts.read == 2)
    }

    @Test func unterminatedQuoteRejectsTheRowItOpens() throws {
        let result = try run("date,home,away,venue\n2025-03-01,A,B,V\n2025-03-02,\"C,D,W\n2025-03-03,E,F,X\n")
        #expect(result.records.count == 1)
        #expect(result.rejects.first?.line == 3)
        #expect(result.counts.balances)
    }

    @Test func duplicateRowsAreRejectedAsDuplicatesOfTheFirstLine() throws {
        let result = try run("date,home,away,venue\n2025-03-01,A,B,V\n2025-03-01,A,B,V\n")
        #expect(result.records.count == 1)
        #expect(result.rejects.map(\.reason) == ["duplicate of line 2"])
        #expect(result.rejects.first?.recordId == "test:2025-03-01-b-at-a")
    }

    /// A row cut off mid-line must not become a game with empty fields (issue 15: 32 of 46 columns
    /// became a game without a venue).
    @Test func rowsShorterThanTheHeaderAreRejectedAsCutOff() throws {
        let result = try run("date,home,away,venue\n2025-03-01,A,B\n2025-03-02,C\n2025-03-03,D,E,V\n")
        #expect(result.records.map(\.homeTeam) == ["D"])
        #expect(
            result.rejects.map(\.reason) == [
                "the row has 3 of the header's 4 columns (the line looks cut off)",
                "the row has 2 of the header's 4 columns (the line looks cut off)",
            ])
        #expect(result.rejects.map(\.line) == [2, 3])
        #expect(result.counts.balances)
    }

    /// A row with cells no column names (1,000,000 of them was read as a game) is rejected with its reason.
    @Test func rowsWiderThanTheHeaderAreRejected() throws {
        let wide = "2025-03-01,A,B,V" + String(repeating: ",x", count: 100_000)
        let result = try run("date,home,away,venue\n\(wide)\n2025-03-03,D,E,V\n")
        #expect(result.records.map(\.homeTeam) == ["D"])
        #expect(result.rejects.map(\.reason) == ["the row has 100004 cells, more than the header's 4 columns (cells no column names)"])
        #expect((result.rejects.first?.raw?.count ?? 0) <= InputLimits.rejectRawCharacters)
        #expect(result.counts.balances)
    }

    @Test func aFieldOverTheLimitRejectsItsRowWithoutCopyingIt() throws {
        let long = String(repeating: "x", count: InputLimits.scrapedFieldBytes + 1)
        let result = try run("date,home,away,venue\n2025-03-01,A,B,\(long)\n2025-03-02,C,D,V\n")
        #expect(result.records.map(\.homeTeam) == ["C"])
        #expect(
            result.rejects.map(\.reason) == [
                "field 4 ('venue') is \(InputLimits.scrapedFieldBytes + 1) bytes, more than the \(InputLimits.scrapedFieldBytes) allowed in one scraped field; the row is not read"
            ])
        #expect((result.rejects.first?.raw?.count ?? .max) <= InputLimits.rejectRawCharacters)
        #expect(result.counts.balances)
    }

    @Test func aFieldAtTheLimitIsRead() throws {
        let venue = String(repeating: "v", count: InputLimits.scrapedFieldBytes)
        let result = try run("date,home,away,venue\n2025-03-01,A,B,\(venue)\n")
        #expect(result.records.map(\.venue) == [venue])
        #expect(result.rejects.isEmpty)
    }

    @Test func aHeaderOnlyFileIsRefused() throws {
        #expect(throws: PipelineError.self) { try run("date,home,away,venue\n") }
        #expect(throws: PipelineError.self) { try run("") }
    }

    @Test func jsonWithBOMAndCarriageReturnsKeepsLineNumbers() throws {
        let json =
            "\u{FEFF}{\"games\": [\r{\"d\": \"2025-03-01\", \"h\": \"A\", \"a\": \"B\"},\r{\"d\": \"2025-03-02\",\r \"h\": \"C\", \"a\": \"D\"}]}"
        let spec = TestSupport.csvSpec(
            """
            records: games
            fields:
              date: d
              homeTeam: h
              awayTeam: a
            """, format: "json-mapping")
        let result = try TestSupport.ingest(spec: spec, files: ["g.json": Data(utf8: json)])
        #expect(result.records.map(\.provenance) == ["fixtures/scraped/test/g.json:2", "fixtures/scraped/test/g.json:3"])
    }

    @Test func brokenJSONIsAnInputErrorWithItsPosition() throws {
        let spec = TestSupport.csvSpec("fields:\n  date: d\n  homeTeam: h\n  awayTeam: a", format: "json-mapping")
        #expect {
            _ = try TestSupport.ingest(spec: spec, files: ["g.json": Data(utf8: "[\n{\"d\": \"2025-03-01\",\n \"h\": }]")])
        } throws: { error in
            guard let error = error as? PipelineError, case .invalidInput(let d) = error else { return false }
            return d.location?.line == 3 && d.message.hasPrefix("JSON syntax") && error.exitCode == 2
        }
    }

    @Test func iCalendarFoldedLinesWithAnyLineEnd() throws {
        for end in ["\r\n", "\n"] {
            let ics = [
                "BEGIN:VCALENDAR", "BEGIN:VEVENT", "UID:1", "SUMMARY:Long Name", "  FC vs. Other\\, Club",
                "DTSTART:20250301T190000Z", "LOCATION:Some Park\\, City\\, ST", "END:VEVENT", "END:VCALENDAR", "",
            ]
            .joined(separator: end)
            let spec = """
                sources:
                  - {id: t, sport: mls, season: "2025", system: t, files: ["*.ics"], format: ical,
                     scrapedAt: "2025-01-01T00:00:00Z", naiveTimeZone: venue, rejectThreshold: "0", priority: 1}
                """
            let result = try TestSupport.ingest(spec: spec, files: ["a.ics": Data(utf8: ics)])
            let game = try #require(result.records.first)
            #expect(game.homeTeam == "Long Name FC")
            #expect(game.awayTeam == "Other, Club")
            #expect(game.venue == "Some Park")
            #expect(game.city == "City, ST")
            #expect(game.provenance == "fixtures/scraped/t/a.ics:2")
        }
    }

    /// A file saved as UTF-16 (or UTF-32) reads as garbage in every format; each reader refuses it whole
    /// with the same located message instead of rejecting every row or reporting JSON syntax at column 1.
    @Test(arguments: ["csv", "json", "ical", "retrosheet"])
    func utf16FilesAreRefusedWithOneMessageInEveryFormat(_ kind: String) throws {
        let csvSpec = TestSupport.csvSpec(Self.mapping)
        let jsonSpec = TestSupport.csvSpec("records: games\nfields:\n  date: d\n  homeTeam: h\n  awayTeam: a", format: "json-mapping")
        let icalSpec = """
            sources:
              - {id: test, sport: mls, season: "2025", system: t, files: ["*"], format: ical,
                 scrapedAt: "2025-01-01T00:00:00Z", naiveTimeZone: venue, rejectThreshold: "0", priority: 1}
            """
        let retrosheetSpec = """
            sources:
              - {id: test, sport: mlb, season: "2023", system: retrosheet, files: ["*"], format: retrosheet,
                 scrapedAt: "2025-01-01T00:00:00Z", naiveTimeZone: venue, rejectThreshold: "0", priority: 1}
            """
        let (spec, name, text): (String, String, String) =
            switch kind {
            case "csv": (csvSpec, "games.csv", "date,home,away,venue\n2025-03-01,A,B,V\n")
            case "json": (jsonSpec, "g.json", "{\"games\": [{\"d\": \"2025-03-01\", \"h\": \"A\", \"a\": \"B\"}]}")
            case "ical":
                (
                    icalSpec, "a.ics",
                    "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:1\r\nSUMMARY:A vs. B\r\nDTSTART:20250301T190000Z\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
                )
            default: (retrosheetSpec, "2023SKED.TXT", "\"20230330\",\"0\",\"Thu\",\"SFN\",\"NL\",1,\"NYA\",\"AL\",1,\"d\",\"\",\"\"\n")
            }
        for (data, encoding) in [
            (text.data(using: .utf16)!, "UTF-16"), (text.data(using: .utf16BigEndian)!, "UTF-16"),
            (text.data(using: .utf32)!, "UTF-32"),
        ] {
            #expect {
                _ = try TestSupport.ingest(spec: spec, files: [name: data])
            } throws: { error in
                guard let error = error as? PipelineError, case .invalidInput(let d) = error else { return false }
                return d.description
                    == "fixtures/scraped/test/\(name):1: error: the file is \(encoding) encoded. Save it as UTF-8 and re-run."
            }
        }
        // The same text as UTF-8 is read.
        #expect(try TestSupport.ingest(spec: spec, files: [name: Data(text.utf8)]).counts.read == 1)
    }
}

/// A source that fails its reject threshold says why in a few lines that fix themselves.
@Suite struct ThresholdMessageTests {
    @Test func theReasonsAreSummarisedByKindWithCountsFirstLocationsAndTheKeyThatFixesThem() throws {
        var rows = ["date,home,away"]
        for day in 1...9 { rows.append("2025-04-0\(day),TBA,Dallas") }
        rows.append("2025-04-10,Houston,")
        rows.append("2025-04-11,Houston,Dallas")
        let spec = TestSupport.csvSpec("fields:\n  date: date\n  homeTeam: home\n  awayTeam: away", threshold: "0")
        let result = try TestSupport.ingest(spec: spec, files: ["games.csv": Data(rows.joined(separator: "\n").utf8)])
        let lines = result.failureDiagnostics.map(\.description)
        #expect(result.failure != nil)
        #expect(lines.filter { $0.contains(": error: placeholder home team 'TBA'") }.count == 9) // the first rows themselves
        let summary = try #require(lines.first { $0.contains("9 × placeholder home team 'TBA'") })
        #expect(
            summary == "sources.yaml:2:5: note: 9 × placeholder home team 'TBA' (first at fixtures/scraped/test/games.csv:2); "
                + "'TBA' is in the source's placeholderTeams. If 'TBA' is a real team in this source, set placeholderTeams: [] "
                + "(or the list without it) on source 'test' in pipeline/sources.yaml.")
        #expect(lines.contains { $0.contains("1 × ") && $0.contains("(first at fixtures/scraped/test/games.csv:11)") })
        #expect(lines.last?.contains("10 of 11 rows rejected, more than its rejectThreshold") == true)
        // And the key the message names exists: a source with placeholderTeams: [] keeps the TBA rows.
        let fixed = TestSupport.csvSpec(
            "fields:\n  date: date\n  homeTeam: home\n  awayTeam: away",
            extra: "placeholderTeams: []", threshold: "1")
        let kept = try TestSupport.ingest(spec: fixed, files: ["games.csv": Data(rows.joined(separator: "\n").utf8)])
        #expect(kept.failure == nil && kept.records.count == 10)
    }
}

@Suite struct HeaderlessFileTests {
    @Test func aFirstRowThatLooksLikeDataSuggestsHeaderFalseAndHeaderFalseReadsIt() throws {
        // A Retrosheet-style game log without a header row.
        let rows = "20220407,0,Thu,MIL,NL,1,CHN,NL,1\n20220408,0,Fri,MIL,NL,2,CHN,NL,2\n"
        let mapping = "fields:\n  date: {from: date, layout: yyyyMMdd}\n  awayTeam: visitor\n  homeTeam: home"
        do {
            _ = try TestSupport.ingest(spec: TestSupport.csvSpec(mapping), files: ["games.csv": Data(rows.utf8)])
            Issue.record("expected an error")
        } catch let error as PipelineError {
            let text = error.description
            #expect(text.contains("the first row looks like data, not a header"))
            #expect(text.contains("set header: false under mapping"))
        }
        let headerless = "header: false\nfields:\n  date: {from: column1, layout: yyyyMMdd}\n  awayTeam: column4\n  homeTeam: column7"
        let result = try TestSupport.ingest(spec: TestSupport.csvSpec(headerless), files: ["games.csv": Data(rows.utf8)])
        #expect(result.records.map(\.homeTeam) == ["CHN", "CHN"] && result.rejects.isEmpty)
        #expect(!RowMapper.headerLooksLikeData(["date", "home", "away", "venue"]))
    }
}

@Suite struct StatusAgainstScoreTests {
    func ingest(_ rows: [String], sport: String = "nfl") throws -> IngestResult {
        let mapping = """
            fields:
              date: date
              homeTeam: home
              awayTeam: away
              status: {from: home_score, ifPresent: final, ifEmpty: scheduled}
              homeScore: home_score
              awayScore: away_score
            """
        let spec = TestSupport.csvSpec(mapping).replacingOccurrences(of: "sport: xfl", with: "sport: \(sport)")
        return try TestSupport.ingest(
            spec: spec, files: ["games.csv": Data((["date,home,away,home_score,away_score"] + rows).joined(separator: "\n").utf8)])
    }

    @Test func aScorelessFinalOrAFinalWithoutScoresIsARejectWithWhatToDo() throws {
        let result = try ingest([
            "2023-01-02,Bengals,Bills,0,0", "2023-01-08,Bills,Patriots,35,23", "2023-01-09,Bills,Jets,,",
            "2023-01-10,Bills,Dolphins,7,",
        ])
        #expect(result.records.map(\.awayTeam) == ["Patriots", "Jets"])
        #expect(result.records.map(\.status) == [.final, .scheduled])
        #expect(
            result.rejects.map(\.reason) == [
                "status final with a 0–0 score, which no nfl game ends with (a cancelled or unplayed game?): map the source's status column, or fix the row",
                "status final but no score (homeScore and awayScore are empty): map the source's status column, or fix the row",
            ])
        #expect(result.rejects.map(\.line) == [2, 5])
        // Soccer games do end 0–0.
        #expect(try ingest(["2025-03-01,Union,Galaxy,0,0"], sport: "mls").rejects.isEmpty)
    }
}
