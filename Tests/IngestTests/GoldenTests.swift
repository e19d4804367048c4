import Foundation
import SportsTimeCore
@testable import SportsTimeIngest
import Testing

/// One golden case per reader: `Fixtures/<case>/sources.yaml` + `scraped/` in, every byte of
/// `expected/<source>/games.json` and `rejects.jsonl` out. `RECORD_GOLDENS=1` re-records and fails.
@Suite struct GoldenTests {
    static let cases: [String] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: TestSupport.fixtures.path)) ?? []
        return names.filter { FileManager.default.fileExists(atPath: TestSupport.fixtures.appendingPathComponent("\($0)/sources.yaml").path) }.sorted()
    }()

    @Test func everyReaderHasAGoldenCase() {
        #expect(Self.cases == ["bbref-csv", "csv-mapping", "espn-csv", "ical", "json-mapping", "nba-schedule-csv",
                               "nba-schedule-json", "nflverse-csv", "nhl-schedule-csv", "retrosheet", "spreadspoke-csv"])
    }

    @Test(arguments: cases)
    func golden(_ name: String) throws {
        let root = TestSupport.fixtures.appendingPathComponent(name)
        let text = try String(contentsOf: root.appendingPathComponent("sources.yaml"), encoding: .utf8)
        let configs = try SourceCatalog.load(text: text, path: "sources.yaml")
        let recording = ProcessInfo.processInfo.environment["RECORD_GOLDENS"] == "1"
        for config in configs {
            let result = try TestSupport.ingest(config, root: root, scraped: "scraped")
            #expect(result.counts.balances)
            let outputs = [("games.json", try result.gamesData()), ("rejects.jsonl", try result.rejectsData())]
            for (file, actual) in outputs {
                let url = root.appendingPathComponent("expected/\(config.id)/\(file)")
                if recording {
                    try ArtifactFiles.write(actual, to: url)
                    Issue.record("recorded \(name)/expected/\(config.id)/\(file); unset RECORD_GOLDENS and run again")
                    continue
                }
                guard let expected = FileManager.default.contents(atPath: url.path) else {
                    Issue.record("missing golden \(name)/expected/\(config.id)/\(file): run with RECORD_GOLDENS=1")
                    continue
                }
                if expected != actual {
                    Issue.record("""
                        \(name)/expected/\(config.id)/\(file) differs (re-record with RECORD_GOLDENS=1 if the change is right):
                        \(TestSupport.diff(expected: String(decoding: expected, as: UTF8.self), actual: String(decoding: actual, as: UTF8.self)))
                        """)
                }
            }
        }
    }
}
