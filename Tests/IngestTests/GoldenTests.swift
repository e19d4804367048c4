import Foundation
import SportsTimeTestSupport
import SportsTimeCore
@testable import SportsTimeIngest
import Testing

/// One golden case per reader: `Fixtures/<case>/sources.yaml` + `scraped/` in, every byte of
/// `expected/<source>/games.json` and `rejects.jsonl` out. `RECORD_GOLDENS=1` re-records and fails.
@Suite struct GoldenTests {
    static let cases: [String] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: TestSupport.fixtures.path)) ?? []
        return names.filter {
            FileManager.default.fileExists(atPath: TestSupport.fixtures.appendingPathComponent("\($0)/sources.yaml").path)
        }.sorted()
    }()

    @Test func everyReaderHasAGoldenCase() {
        #expect(
            Self.cases == [
                "bbref-csv", "csv-mapping", "espn-csv", "ical", "json-mapping", "nba-schedule-csv",
                "nba-schedule-json", "nflverse-csv", "nhl-schedule-csv", "retrosheet", "spreadspoke-csv",
            ])
    }

    @Test(arguments: cases)
    func golden(_ name: String) throws {
        let root = TestSupport.fixtures.appendingPathComponent(name)
        let text = try String(contentsOf: root.appendingPathComponent("sources.yaml"), encoding: .utf8)
        let configs = try SourceCatalog.load(text: text, path: "sources.yaml")
        for config in configs {
            let result = try TestSupport.ingest(config, root: root, scraped: "scraped")
            #expect(result.counts.balances)
            let outputs = [("games.json", try result.gamesData()), ("rejects.jsonl", result.rejectsData())]
            for (file, actual) in outputs {
                try Golden.assertMatches(
                    actual, expected: root.appendingPathComponent("expected/\(config.id)/\(file)"),
                    name: "\(name)/expected/\(config.id)/\(file)")
            }
        }
    }
}
