import Foundation
import SportsTimeTestSupport
import Testing
@testable import SportsTimeRunner
import SportsTimeCore

/// A throwaway repository in a temporary folder, with tiny shell-command stages, so the runner can
/// be tested without the real stage executables.
final class TestRepository: @unchecked Sendable {
    let root: URL

    init(git: Bool = false) throws {
        root = FileManager.default.temporaryDirectory
            .appendingPathComponent("sportstime-runner-tests")
            .appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        if git {
            try shell("git init -q && git config user.email t@example.com && git config user.name Test && git config commit.gpgsign false")
        }
    }

    deinit { try? FileManager.default.removeItem(at: root) }

    func url(_ path: String) -> URL { root.appendingPathComponent(path) }

    func write(_ path: String, _ text: String) throws {
        try FileManager.default.createDirectory(at: url(path).deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url(path))
    }

    func read(_ path: String) -> String? {
        FileManager.default.contents(atPath: url(path).path).map { String(decoding: $0, as: UTF8.self) }
    }

    func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: url(path).path) }

    func remove(_ path: String) throws { try FileManager.default.removeItem(at: url(path)) }

    /// Writes `pipeline/pipeline.yaml` and copies the real schemas in.
    func spec(_ yaml: String) throws {
        try write("pipeline/pipeline.yaml", yaml)
        let schemas = TestRepository.packageRoot.appendingPathComponent("pipeline/schemas")
        let target = url("pipeline/schemas")
        if !FileManager.default.fileExists(atPath: target.path) {
            try FileManager.default.copyItem(at: schemas, to: target)
        }
    }

    /// Runs the runner in this process.
    func run(
        _ targets: [String] = [], force: Bool = false, keepGoing: Bool = false, jobs: Int = 1,
        environment: [String: String] = [:]
    ) -> RunResult {
        let (console, captured) = Console.capturing()
        let runner = PipelineRunner(
            root: root, console: console, runnerFolder: nil,
            environment: ProcessInfo.processInfo.environment.merging(environment) { $1 })
        let code = runner.run(RunOptions(targets: targets, force: force, keepGoing: keepGoing, jobs: jobs))
        return RunResult(code: code, stdout: captured.stdout, stderr: captured.stderr)
    }

    /// `sportstime status` in this process.
    func status() -> RunResult {
        let (console, captured) = Console.capturing()
        let code = PipelineRunner(root: root, console: console, runnerFolder: nil).printStatus()
        return RunResult(code: code, stdout: captured.stdout, stderr: captured.stderr)
    }

    /// Every regular file under `path` (relative path → bytes).
    func snapshot(_ path: String) -> [String: Data] {
        var files: [String: Data] = [:]
        for (file, shown) in PipelineRunner.files(at: url(path).path, publishedAs: path) {
            files[shown] = FileManager.default.contents(atPath: file)
        }
        return files
    }

    /// Waits until the file system's clock (a freshly stamped file's mtime) is past the mtime and ctime
    /// of every file and folder in the repository, so that their stats are settled (`StatClock`): what
    /// a status taken now records may be trusted by stat. No time is measured or compared with a limit
    /// of the test; it only waits for a clock tick.
    func settle() throws {
        var latest: Int64 = 0
        func visit(_ path: String) {
            guard let status = FileStatus(path: path) else { return }
            latest = max(latest, status.modified, status.changed)
            guard status.isFolder, let names = try? FileManager.default.contentsOfDirectory(atPath: path) else { return }
            for name in names where name != ".pipeline" { visit(path + "/" + name) }
        }
        visit(root.path)
        let probe = root.deletingLastPathComponent().appendingPathComponent(UUID().uuidString)
        defer { try? FileManager.default.removeItem(at: probe) }
        for _ in 0..<500 {
            try Data().write(to: probe)
            if let stamp = FileStatus(path: probe.path), StatClock.isSettled(modified: latest, changed: latest, before: stamp.modified) {
                return
            }
            Thread.sleep(forTimeInterval: 0.01)
        }
        throw TestFailure("the file system clock did not move past the repository's files")
    }

    /// Runs a shell command in the repository; fails the test when it fails.
    @discardableResult
    func shell(_ command: String) throws -> String {
        let result = try TestProcess.run(URL(fileURLWithPath: "/bin/sh"), ["-c", command], in: root)
        let text = result.stdout + result.stderr
        guard result.code == 0 else {
            throw TestFailure("`\(command)` failed: \(text)")
        }
        return text
    }

    /// The package checkout this test file belongs to.
    static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The built `sportstime` executable.
    static func runnerExecutable() throws -> URL { try Executables.url("sportstime") }
}

struct RunResult {
    var code: Int32
    var stdout: String
    var stderr: String
}

struct TestFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// A minimal envelope of records with the given ids, as a stage would write it.
func envelopeText(kind: String, stage: String, records: [String]) -> String {
    let body = records.isEmpty ? "[]" : "[\n" + records.map { "    " + $0 }.joined(separator: ",\n") + "\n  ]"
    return """
        {
          "inputs": [],
          "kind": "\(kind)",
          "producer": {"stage":"\(stage)","version":"0.1.0"},
          "records": \(body),
          "schemaVersion": 1
        }

        """
}

/// A sync-state record (the simplest kind) for test envelopes.
func syncRecord(_ id: String, count: Int) -> String {
    "{\"id\":\"\(id)\",\"recordCount\":\(count)}"
}
