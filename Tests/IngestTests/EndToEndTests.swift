import Foundation
import SportsTimeTestSupport
import SportsTimeCore
import Testing

/// Runs the built `sportstime-ingest` on a temporary copy of the repository's spec and fixtures.
@Suite(.serialized) struct EndToEndTests {
    struct Run {
        var status: Int32
        var stderr: String
    }

    static func executable() throws -> URL { try Executables.url("sportstime-ingest") }

    /// A fresh folder holding `pipeline/sources.yaml` and `fixtures/scraped/` copied from the repository.
    static func workspace() throws -> URL {
        let manager = FileManager.default
        let dir = manager.temporaryDirectory.appendingPathComponent("ingest-e2e-\(UUID().uuidString)")
        try manager.createDirectory(at: dir.appendingPathComponent("pipeline"), withIntermediateDirectories: true)
        try manager.createDirectory(at: dir.appendingPathComponent("fixtures"), withIntermediateDirectories: true)
        try manager.copyItem(
            at: TestSupport.packageRoot.appendingPathComponent("pipeline/sources.yaml"),
            to: dir.appendingPathComponent("pipeline/sources.yaml"))
        try manager.copyItem(
            at: TestSupport.packageRoot.appendingPathComponent("fixtures/scraped"),
            to: dir.appendingPathComponent("fixtures/scraped"))
        return dir
    }

    static func run(_ arguments: [String], in dir: URL) throws -> Run {
        let result = try TestProcess.run(try executable(), arguments, in: dir)
        return Run(status: result.status, stderr: result.stderr)
    }

    /// Every file under `dir/out/ingest`, by relative path.
    static func outputs(_ dir: URL) -> [String: Data] {
        let out = dir.appendingPathComponent("out/ingest")
        var files: [String: Data] = [:]
        for url in ArtifactFiles.files(under: out, suffix: "") {
            files[ArtifactFiles.relativePath(of: url, to: out)] = try? Data(contentsOf: url)
        }
        return files
    }

    static let arguments = ["--sources", "pipeline/sources.yaml", "--out", "out/ingest"]

    @Test func ingestsEverySourceDeterministicallyAndMatchesTheCommittedOutput() throws {
        let dir = try Self.workspace()
        defer { try? FileManager.default.removeItem(at: dir) }
        let first = try Self.run(Self.arguments, in: dir)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stderr.contains("ingest: mlb-2023-retrosheet: read 2430, written 2430, rejected 0"))
        #expect(first.stderr.contains("warning: source 'nhl-2023-24-corrupt': venue 'Honda Center'"))
        let outputs = Self.outputs(dir)
        #expect(outputs.count == 57)
        for (path, data) in outputs where path.hasSuffix("games.json") {
            let envelope = try EnvelopeReader.read(RawGame.self, from: data, path: path, expecting: .rawGames)
            #expect(envelope.meta[.source] == String(path.split(separator: "/")[0]))
            #expect(!envelope.records.isEmpty && !envelope.inputs.isEmpty)
        }
        let second = try Self.run(Self.arguments, in: dir)
        #expect(second.status == 0)
        #expect(Self.outputs(dir) == outputs, "a second run must write the same bytes")

        let committed = Self.outputs(TestSupport.packageRoot)
        #expect(
            committed == outputs,
            """
            out/ingest is stale: run `swift run sportstime-ingest --sources pipeline/sources.yaml --out out/ingest` \
            from the repository root and commit out/ingest
            """)
    }

    @Test func aSourcePastItsThresholdFailsAndKeepsItsPreviousOutputs() throws {
        let dir = try Self.workspace()
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(try Self.run(Self.arguments + ["--source", "ufl-2025-sample"], in: dir).status == 0)
        let before = Self.outputs(dir)
        let csv = dir.appendingPathComponent("fixtures/scraped/ufl-2025-sample/ufl_2025_sample.csv")
        var text = try String(contentsOf: csv, encoding: .utf8)
        text += "5,\"Fri, Apr 25, 2025\",7:00 PM,TBD,Michigan Panthers,Ford Field,\"Detroit, MI\"\n"
        try text.write(to: csv, atomically: true, encoding: .utf8)
        let failed = try Self.run(Self.arguments + ["--source", "ufl-2025-sample", "--source", "wnba-2023-bbref"], in: dir)
        #expect(failed.status == 1)
        #expect(failed.stderr.contains("fixtures/scraped/ufl-2025-sample/ufl_2025_sample.csv:18: error: placeholder away team 'TBD'."))
        #expect(failed.stderr.contains("pipeline/sources.yaml:"))
        #expect(failed.stderr.contains("1 of 17 rows rejected, more than its rejectThreshold"))
        let after = Self.outputs(dir)
        #expect(after["ufl-2025-sample/games.json"] == before["ufl-2025-sample/games.json"])
        #expect(after["ufl-2025-sample/rejects.jsonl"] == before["ufl-2025-sample/rejects.jsonl"])
        #expect(after["wnba-2023-bbref/games.json"] != nil, "the other sources are still written")
    }

    @Test func invalidSpecExitsTwoWithTheYAMLLine() throws {
        let dir = try Self.workspace()
        defer { try? FileManager.default.removeItem(at: dir) }
        let spec = dir.appendingPathComponent("pipeline/sources.yaml")
        let text = try String(contentsOf: spec, encoding: .utf8)
            .replacingOccurrences(
                of: "    naiveTimeZone: venue\n    rejectThreshold: \"0.5%\"\n    priority: 50\n\n  # The 2020",
                with: "    naiveTimeZone: venue\n    rejectThreshold: \"0.5%\"\n    priorty: 50\n\n  # The 2020")
        try text.write(to: spec, atomically: true, encoding: .utf8)
        let run = try Self.run(Self.arguments, in: dir)
        #expect(run.status == 2)
        #expect(run.stderr.range(of: #"pipeline/sources\.yaml:\d+:\d+: error: "#, options: .regularExpression) != nil, "\(run.stderr)")
        #expect(Self.outputs(dir).isEmpty)
    }

    @Test func missingFileExitsTwoAndOtherSourcesStillRun() throws {
        let dir = try Self.workspace()
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.removeItem(at: dir.appendingPathComponent("fixtures/scraped/wnba-2023-bbref/2023schedule.csv"))
        let run = try Self.run(Self.arguments + ["--source", "wnba-2023-bbref", "--source", "ufl-2025-sample"], in: dir)
        #expect(run.status == 2)
        #expect(run.stderr.contains("no file matches '2023schedule.csv'"))
        #expect(
            Set(Self.outputs(dir).keys) == [
                "ufl-2025-sample/games.json", "ufl-2025-sample/rejects.jsonl", "ufl-2025-sample/filtered.jsonl",
            ])
    }

    @Test func unknownSourceIsAUsageError() throws {
        let dir = try Self.workspace()
        defer { try? FileManager.default.removeItem(at: dir) }
        let run = try Self.run(Self.arguments + ["--source", "cfl-2025"], in: dir)
        #expect(run.status == 64)
        #expect(run.stderr.contains("unknown source 'cfl-2025'"))
    }

    @Test func outputsOfSourcesNoLongerInTheSpecAreRemoved() throws {
        let dir = try Self.workspace()
        defer { try? FileManager.default.removeItem(at: dir) }
        let stale = dir.appendingPathComponent("out/ingest/old-source")
        try FileManager.default.createDirectory(at: stale, withIntermediateDirectories: true)
        try Data("{}".utf8).write(to: stale.appendingPathComponent("games.json"))
        let keep = dir.appendingPathComponent("out/ingest/notes")
        try FileManager.default.createDirectory(at: keep, withIntermediateDirectories: true)
        try Data("mine".utf8).write(to: keep.appendingPathComponent("README.md"))
        #expect(try Self.run(Self.arguments, in: dir).status == 0)
        #expect(!FileManager.default.fileExists(atPath: stale.path))
        #expect(FileManager.default.fileExists(atPath: keep.appendingPathComponent("README.md").path))
    }
}
