import Foundation
import SportsTimeCore
@testable import SportsTimeIngest
import Testing

/// Rows a filter drops are recorded (`filtered.jsonl`), and `--preview` shows rows with their origins.
@Suite struct FilteredAndPreviewTests {
    static let csv = """
        season,date,home,away,notes
        2021,2021-09-12,ATL,NO,
        2022,2022-09-11,ATL,NO,
        2022,2022-09-18,TBD,NO,
        2022,2022-09-25,KC,LV,exhibition
        2023,2023-09-10,ATL,CAR,
        """

    static let spec = TestSupport.csvSpec(
        """
        fields:
          date: {from: date, layout: yyyy-MM-dd}
          homeTeam: home
          awayTeam: away
          kind: {cases: [{when: "month(date, 'yyyy-MM-dd') <= 2", value: postseason}], default: regular}
          neutralSite: {expr: "lower(notes) == 'exhibition'"}
        """,
        extra: """
            filters:
              - {column: season, range: {from: "2022", to: "2022"}}
              - {column: notes, notEquals: exhibition}
            """, season: "2022")

    @Test func everyFilteredRowIsRecordedWithItsFilterLineAndRawText() throws {
        let result = try TestSupport.ingest(spec: Self.spec, files: ["g.csv": Data(Self.csv.utf8)])
        #expect(result.counts.filtered == 3 && result.counts.rejected == 1 && result.counts.written == 1)
        #expect(result.counts.balances)
        let text = String(decoding: result.filteredData(), as: UTF8.self)
        #expect(
            text == """
                {"column":"season","condition":"range 2022..2022","file":"fixtures/scraped/test/g.csv","filter":0,"line":2,"raw":"2021,2021-09-12,ATL,NO,","value":"2021"}
                {"column":"notes","condition":"notEquals 'exhibition'","file":"fixtures/scraped/test/g.csv","filter":1,"line":5,"raw":"2022,2022-09-25,KC,LV,exhibition","value":"exhibition"}
                {"column":"season","condition":"range 2022..2022","file":"fixtures/scraped/test/g.csv","filter":0,"line":6,"raw":"2023,2023-09-10,ATL,CAR,","value":"2023"}

                """)
        // Deterministic whatever order the files come in.
        let again = try TestSupport.ingest(spec: Self.spec, files: ["g.csv": Data(Self.csv.utf8)])
        #expect(again.filteredData() == result.filteredData())
    }

    /// The hand-written filtered line is Foundation's line (the previous writer) and reads back, on the
    /// committed rows and on a row with characters JSON escapes.
    @Test func filteredLinesAreWrittenLikeFoundation() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let committed = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("out/ingest/mls-2025/filtered.jsonl")
        var rows: [FilteredRow] = []
        for line in String(decoding: try Data(contentsOf: committed), as: UTF8.self).split(separator: "\n") {
            rows.append(try FilteredRow(json: try JSONParser.parse(Data(line.utf8)), codingPath: []))
            #expect(String(decoding: try encoder.encode(rows.last!), as: UTF8.self) == String(line))
        }
        #expect(rows.count > 10)
        #expect(CanonicalJSON.lines(rows) == (try Data(contentsOf: committed)))
        let odd = FilteredRow(file: "a/b.csv", line: 3, filter: 2, column: "n\"o", condition: "in ['x\\y']", value: "é\t", raw: "1,\u{7}")
        var writer = JSONWriter()
        odd.write(to: &writer)
        #expect(writer.text == String(decoding: try encoder.encode(odd), as: UTF8.self))
        #expect(try FilteredRow(json: try JSONParser.parse(Data(writer.text.utf8)), codingPath: []) == odd)
    }

    @Test func filteredRawTextIsCappedLikeARejects() throws {
        let long = String(repeating: "x", count: 3000)
        let csv = "season,date,home,away,notes,a,b\n2021,2021-09-12,ATL,NO,,\(long),\(long)\n2022,2022-09-11,ATL,NO,,,\n"
        let spec = TestSupport.csvSpec(
            """
            fields:
              date: {from: date, layout: yyyy-MM-dd}
              homeTeam: home
              awayTeam: away
            """,
            extra: """
                filters:
                  - {column: season, equals: "2022"}
                """, season: "2022")
        let result = try TestSupport.ingest(spec: spec, files: ["g.csv": Data(csv.utf8)])
        #expect(result.filtered.count == 1)
        #expect(result.filtered[0].raw.utf8.count == InputLimits.scrapedFieldBytes)
    }

    @Test func previewShowsValuesWithTheirOriginsAndTheRowsLeftOut() throws {
        let config = try #require(try SourceCatalog.load(text: Self.spec, path: "sources.yaml").first)
        let file = LoadedFile(path: "fixtures/scraped/test/g.csv", name: "g.csv", data: Data(Self.csv.utf8))
        let text = try Preview.text(config, files: [file], rows: 4)
        #expect(
            text == """
                source 'test' (csv-mapping): the first 4 rows as they would be written

                fixtures/scraped/test/g.csv:2: filtered by filters[0] (season range 2022..2022): the value is '2021'

                fixtures/scraped/test/g.csv:3: game test:2022-09-11-no-at-atl
                  record: {"awayTeam":"NO","date":"2022-09-11","dateZone":"America/Chicago","homeTeam":"ATL","id":"test:2022-09-11-no-at-atl","inferred":["status"],"kind":"regular","neutralSite":false,"provenance":"fixtures/scraped/test/g.csv:3","season":"2022","source":"test","sport":"xfl","status":"scheduled","timeTBD":true}
                  id           (derived)   ← not mapped, <date>-<away>-at-<home>[-g<n>]
                  homeTeam     ATL         ← column 'home'
                  awayTeam     NO          ← column 'away'
                  date         2022-09-11  ← column 'date'
                  season       2022        ← not mapped, the source's season
                  kind         regular     ← no case held → default
                  status       scheduled   ← not mapped, default, inferred
                  neutralSite  false       ← expr 'lower(notes) == 'exhibition''

                fixtures/scraped/test/g.csv:4: rejected: placeholder home team 'TBD'
                  id           (derived)   ← not mapped, <date>-<away>-at-<home>[-g<n>]
                  homeTeam     TBD         ← column 'home'
                  awayTeam     NO          ← column 'away'
                  date         2022-09-18  ← column 'date'
                  season       2022        ← not mapped, the source's season
                  kind         regular     ← no case held → default
                  status       scheduled   ← not mapped, default, inferred
                  neutralSite  false       ← expr 'lower(notes) == 'exhibition''

                fixtures/scraped/test/g.csv:5: filtered by filters[1] (notes notEquals 'exhibition'): the value is 'exhibition'

                4 rows shown: 1 written, 1 rejected, 2 filtered

                """)
    }
}
