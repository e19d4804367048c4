import Foundation
import SportsTimeTestSupport
import SportsTimeCore
import Testing

/// The whole committed pipeline, forced to run every stage by the built runner: it succeeds, prints no
/// line that looks like an error (warnings are warnings), and leaves out/ and the lock as committed.
@Suite(.serialized) struct CleanRunTests {
    @Test func aForcedRunOfTheCommittedPipelinePrintsNoErrorAndChangesNothing() throws {
        let bin = try #require(BadInputTests.binFolder, "build the executables first (swift build --build-tests)")
        let manager = FileManager.default
        let root = manager.temporaryDirectory.appendingPathComponent("clean-run-\(UUID().uuidString)")
        defer { try? manager.removeItem(at: root) }
        for part in ["Package.swift", "Sources", "pipeline", "fixtures", "out"] {
            try manager.createDirectory(
                at: root.appendingPathComponent(part).deletingLastPathComponent(), withIntermediateDirectories: true)
            try manager.copyItem(at: BadInputTests.packageRoot.appendingPathComponent(part), to: root.appendingPathComponent(part))
        }
        let lock = try Data(contentsOf: root.appendingPathComponent("pipeline/pipeline.lock.json"))
        let result = try TestProcess.run(bin.appendingPathComponent("sportstime"), ["run", "--force"], in: root)
        let output = result.stdout + result.stderr
        #expect(result.code == 0, "\(output)")
        #expect(output.contains(" stages: 25 ran, 0 skipped, 0 failed, 0 not run in "), "\(output)")
        let errors = output.split(separator: "\n").filter { $0.contains("error:") || $0.lowercased().contains(" error ") }
        #expect(errors.isEmpty, "lines that look like errors on a successful run:\n\(errors.joined(separator: "\n"))")
        #expect(output.contains("warning:"), "the committed inputs have warnings (the corrupt NHL file); were they lost?")
        #expect(try Data(contentsOf: root.appendingPathComponent("pipeline/pipeline.lock.json")) == lock)
    }
}
