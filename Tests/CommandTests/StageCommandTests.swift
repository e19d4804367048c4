import ArgumentParser
import Foundation
import SportsTimeCommand
import SportsTimeCore
import SportsTimeTestSupport
import Testing

/// The stage commands run inside the test process (`CommandContext.capturing`): the same parsing,
/// path rule, messages and exit statuses as the executables, on a temporary repository-shaped folder.
@Suite struct StageCommandTests {
    struct Run {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    static func run<Command: ParsableCommand>(
        _ command: Command.Type, _ arguments: [String], in folder: URL, environment: [String: String] = [:]
    ) -> Run {
        let (context, streams) = CommandContext.capturing(in: folder, environment: environment)
        let status = command.invoke(arguments, in: context)
        return Run(status: status, stdout: streams.output, stderr: streams.error)
    }

    /// A scratch folder holding copies of `paths` from the repository (and `pipeline/pipeline.yaml`, which
    /// makes it a repository root for the path rule).
    static func workspace(_ paths: [String]) throws -> URL {
        let manager = FileManager.default
        let folder = manager.temporaryDirectory.appendingPathComponent("command-\(UUID().uuidString)")
        try manager.createDirectory(at: folder.appendingPathComponent("pipeline"), withIntermediateDirectories: true)
        try Data("stages: {}\n".utf8).write(to: folder.appendingPathComponent("pipeline/pipeline.yaml"))
        for path in paths {
            let target = folder.appendingPathComponent(path)
            try manager.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            try manager.copyItem(at: PackagePaths.root.appendingPathComponent(path), to: target)
        }
        return folder
    }

    /// Every file under `folder`, by path relative to it.
    static func files(under folder: URL) -> [String: Data] {
        var files: [String: Data] = [:]
        for url in ArtifactFiles.files(under: folder, suffix: "") {
            files[ArtifactFiles.relativePath(of: url, to: folder)] = try? Data(contentsOf: url)
        }
        return files
    }

    @Test func ingestWritesTheCommittedBytesAndExitsZero() throws {
        let folder = try Self.workspace(["pipeline/sources.yaml", "fixtures/scraped"])
        defer { try? FileManager.default.removeItem(at: folder) }
        let arguments = ["--sources", "pipeline/sources.yaml", "--out", "out/ingest", "--source", "ufl-2025-sample"]
        let run = Self.run(IngestCommand.self, arguments, in: folder)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.isEmpty)
        #expect(run.stderr.contains("ingest: ufl-2025-sample: read "), "\(run.stderr)")
        let written = Self.files(under: folder.appendingPathComponent("out/ingest/ufl-2025-sample"))
        #expect(written.keys.sorted() == ["filtered.jsonl", "games.json", "rejects.jsonl"])
        #expect(written == Self.files(under: PackagePaths.root.appendingPathComponent("out/ingest/ufl-2025-sample")))
    }

    @Test func ingestProblemsAreDiagnosticsWithTheirExitStatus() throws {
        let folder = try Self.workspace(["pipeline/sources.yaml"])
        defer { try? FileManager.default.removeItem(at: folder) }
        let missing = Self.run(IngestCommand.self, ["--sources", "pipeline/nowhere.yaml"], in: folder)
        #expect(missing.status == 2)
        #expect(missing.stderr == "pipeline/nowhere.yaml: error: cannot read the sources spec. Check the --sources path.\n")
        let rows = Self.run(IngestCommand.self, ["--preview", "ufl-2025-sample", "--rows", "0"], in: folder)
        #expect(rows.status == 64)
        #expect(rows.stderr.contains("--rows must be 1 or more."), "\(rows.stderr)")
        let unknown = Self.run(IngestCommand.self, ["--source", "nope"], in: folder)
        #expect(unknown.status == 64)
        #expect(unknown.stderr.contains("unknown source 'nope'. Use one of: "), "\(unknown.stderr)")
        // A source whose files are not there: exit 2 at the source in the spec, nothing written.
        let scraped = Self.run(IngestCommand.self, ["--source", "ufl-2025-sample"], in: folder)
        #expect(scraped.status == 2, "\(scraped.stderr)")
        #expect(
            scraped.stderr.hasPrefix("pipeline/sources.yaml:241:5: error: source 'ufl-2025-sample': no file matches"), "\(scraped.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("out").path))
    }

    @Test func ingestPreviewPrintsOnStandardOutputAndWritesNothing() throws {
        let folder = try Self.workspace(["pipeline/sources.yaml", "fixtures/scraped"])
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = Self.run(IngestCommand.self, ["--preview", "ufl-2025-sample", "--rows", "2"], in: folder)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("ufl-2025-sample"), "\(run.stdout)")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("out").path))
    }

    /// Normalize on the committed ingest outputs writes exactly the committed `out/normalize`, from the
    /// repository root and, by the path rule, from a folder inside it with paths relative to that folder.
    @Test func normalizeWritesTheCommittedBytesFromAnyFolderOfTheRepository() throws {
        let folder = try Self.workspace(["out/ingest", "fixtures/reference"])
        defer { try? FileManager.default.removeItem(at: folder) }
        let committed = Self.files(under: PackagePaths.root.appendingPathComponent("out/normalize"))
        let arguments = ["--in", "out/ingest", "--reference", "fixtures/reference", "--out", "out/normalize"]
        let run = Self.run(NormalizeCommand.self, arguments, in: folder)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("-> out/normalize"), "\(run.stderr)")
        #expect(Self.files(under: folder.appendingPathComponent("out/normalize")) == committed)

        let inside = folder.appendingPathComponent("fixtures")
        let relative = ["--in", "../out/ingest", "--reference", "reference", "--out", "../out/again"]
        let again = Self.run(NormalizeCommand.self, relative, in: inside)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stderr.contains("-> out/again"), "shown paths are relative to the repository root: \(again.stderr)")
        #expect(Self.files(under: folder.appendingPathComponent("out/again")) == committed)
    }

    @Test func normalizeWithoutItsInputFolderExitsTwo() throws {
        let folder = try Self.workspace([])
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = Self.run(NormalizeCommand.self, ["--in", "out/nothing"], in: folder)
        #expect(run.status == 2)
        #expect(
            run.stderr == "out/nothing: error: no such folder. Run sportstime-ingest first, or point --in at its output folder.\n")
    }

    /// The test hooks are environment variables, checked the same way everywhere: a bad value is a usage error.
    @Test func aBadTestHookValueIsAUsageError() throws {
        let folder = try Self.workspace([])
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = Self.run(MergeCommand.self, [], in: folder, environment: [TestHook.mergePause.rawValue: "-5"])
        #expect(run.status == 64)
        #expect(run.stderr == "error: SPORTSTIME_MERGE_PAUSE_MS must be a whole number of milliseconds, 0 or more (it is '-5').\n")
        #expect(throws: Never.self) { try TestHook.publishPause.seconds(in: [:]) }
        #expect(try TestHook.publishPause.seconds(in: ["SPORTSTIME_PUBLISH_PAUSE_MS": "40"]) == 0.04)
    }

    @Test func theRunnerCommandsRunInProcessToo() throws {
        let folder = try Self.workspace([])
        defer { try? FileManager.default.removeItem(at: folder) }
        let usage = Self.run(RunnerCommand.self, ["--frobnicate"], in: folder)
        #expect(usage.status == 64)
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("out"), withIntermediateDirectories: true)
        let validate = Self.run(RunnerCommand.self, ["validate", "out"], in: folder)
        #expect(validate.status == 0, "\(validate.stderr)")
        #expect(validate.stdout == "0 files checked, 0 problems.\n")
        let diff = Self.run(RunnerCommand.self, ["diff-files", "old.json", "new.json"], in: folder)
        #expect(diff.status == 2)
        #expect(diff.stderr == "old.json: error: cannot read the file. Check the path and its permissions.\n")
    }
}
