import Foundation
import SportsTimeTestSupport
import SportsTimeCore
import Testing
@testable import SportsTimeMerge

/// The `sportstime-merge` executable: exit codes, messages, and cancellation by signal.
@Suite(.serialized) struct CommandTests {
    struct Run {
        var status: Int32
        var stderr: String
    }

    /// The merge started in `folder`, with this process's environment and `hooks` (test hooks, `TestHook`).
    static func start(_ arguments: [String], in folder: URL, hooks: [TestHook: Int] = [:]) throws -> RunningProcess {
        var environment = ProcessInfo.processInfo.environment
        for (hook, milliseconds) in hooks { environment[hook.rawValue] = "\(milliseconds)" }
        return try TestProcess.start(try Executables.url("sportstime-merge"), arguments, in: folder, environment: environment)
    }

    static func run(_ arguments: [String], in folder: URL, hooks: [TestHook: Int] = [:]) throws -> Run {
        let result = try start(arguments, in: folder, hooks: hooks).wait()
        return Run(status: result.status, stderr: result.stderr)
    }

    /// A scratch repository: normalized batches and overrides from the golden case, and the
    /// repository's reference data (`fixtures/reference/`) when this checkout has it.
    static func workspace() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("merge-command-\(UUID().uuidString)")
        let manager = FileManager.default
        try manager.createDirectory(at: folder.appendingPathComponent("out"), withIntermediateDirectories: true)
        try manager.createDirectory(at: folder.appendingPathComponent("fixtures"), withIntermediateDirectories: true)
        let golden = GoldenTests.caseFolder.appendingPathComponent("input")
        try manager.copyItem(at: golden.appendingPathComponent("normalize"), to: folder.appendingPathComponent("out/normalize"))
        try manager.copyItem(at: golden.appendingPathComponent("overrides"), to: folder.appendingPathComponent("fixtures/overrides"))
        let reference = TestPaths.packageRoot.appendingPathComponent("fixtures/reference")
        if manager.fileExists(atPath: reference.path) {
            try manager.copyItem(at: reference, to: folder.appendingPathComponent("fixtures/reference"))
        } else {
            try manager.createDirectory(at: folder.appendingPathComponent("fixtures/reference"), withIntermediateDirectories: true)
        }
        return folder
    }

    static let arguments = [
        "--normalized", "out/normalize", "--reference", "fixtures/reference",
        "--overrides", "fixtures/overrides", "--out", "out/merge",
    ]

    @Test func usageErrorsExit64() throws {
        let folder = try Self.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(try Self.run(Self.arguments, in: folder, hooks: [.mergePause: -5]).status == 64)
        #expect(try Self.run(Self.arguments + ["--frobnicate"], in: folder).status == 64)
    }

    @Test func missingNormalizedFolderExits2() throws {
        let folder = try Self.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try Self.run(["--normalized", "out/nothing-here", "--out", "out/merge"], in: folder)
        #expect(run.status == 2)
        #expect(run.stderr.contains("out/nothing-here: error: the normalized folder does not exist. Run normalize first."))
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("out/merge").path))
    }

    @Test func badOverrideExits2WithFileAndLine() throws {
        let folder = try Self.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let bad =
            "overrides:\n  - entity: game\n    id: nfl-2023-2023-09-07-det-at-kc\n    set:\n      kickoff: 2023-09-08T00:20:00Z\n    reason: r\n"
        try bad.write(to: folder.appendingPathComponent("fixtures/overrides/bad.yaml"), atomically: true, encoding: .utf8)
        let run = try Self.run(Self.arguments, in: folder)
        #expect(run.status == 2)
        #expect(run.stderr.contains("fixtures/overrides/bad.yaml:5:7: error: unknown field 'kickoff' for entity game."))
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("out/merge").path))
    }

    @Test(arguments: [SIGTERM, SIGINT])
    func signalBetweenEntityKindsPublishesNothingAndTheNextRunCompletes(signal: Int32) throws {
        let folder = try Self.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("out/merge")
        // Test hook: 300 ms before each of the 7 entity kinds, so the signal lands mid-merge.
        let merge = try Self.start(Self.arguments, in: folder, hooks: [.mergePause: 300])
        // Signalled while it pauses before its third entity kind: after the first two are merged.
        #expect(
            merge.waitForStandardError(containing: "test pause before merging \(EntityKind.foldOrder[2].rawValue)"),
            "\(merge.standardErrorSoFar)")
        merge.signal(signal)
        let result = try merge.wait()
        let stderr = result.stderr
        #expect(!result.signalled, "the command ends itself, not the signal")
        #expect(result.status == 1)
        #expect(stderr.contains("interrupted by \(signal == SIGINT ? "SIGINT" : "SIGTERM")"), "\(stderr)")
        #expect(stderr.contains("nothing was written"))
        #expect(!FileManager.default.fileExists(atPath: out.path), "an interrupted merge must publish nothing")

        let again = try Self.run(Self.arguments, in: folder)
        #expect(again.status == 0, "\(again.stderr)")
        for name in [
            "sports.json", "stadiums.json", "teams.json", "league-structures.json", "team-aliases.json",
            "stadium-aliases.json", "sync-state.json", "merge-report.json", "rejects.jsonl",
        ] {
            #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent(name).path), "\(name)")
        }
    }

    @Test func incrementalRunContinuesTheEarlierMergeAndMatchesAFullOne() throws {
        let folder = try Self.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("out/merge")
        let first = try Self.run(Self.arguments + ["--incremental"], in: folder)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stderr.contains("note: no earlier merge in out/merge (no sync-state.json); running a full merge"))
        let full = try Data(contentsOf: out.appendingPathComponent("sync-state.json"))
        let second = try Self.run(Self.arguments + ["--incremental"], in: folder)
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stderr.contains("incremental merge:"))
        #expect(try Data(contentsOf: out.appendingPathComponent("sync-state.json")) == full)
        let report = try String(contentsOf: out.appendingPathComponent("merge-report.json"), encoding: .utf8)
        #expect(report.contains("\"mode\":\"incremental\""))
    }
}
