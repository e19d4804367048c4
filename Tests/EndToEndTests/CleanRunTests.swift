import Foundation
import SportsTimeTestSupport
import SportsTimeCore
import Testing

/// The whole committed pipeline, forced to run every stage by the built runner: it succeeds, prints no
/// line that looks like an error (warnings are warnings), and leaves out/ and the lock as committed.
@Suite(.serialized) struct CleanRunTests {
    /// A copy of the committed workspace (what a run reads and writes) in a new temporary folder.
    static func workspaceCopy(_ name: String) throws -> URL {
        let manager = FileManager.default
        let root = manager.temporaryDirectory.appendingPathComponent("\(name)-\(UUID().uuidString)")
        for part in ["Package.swift", "Sources", "pipeline", "fixtures", "out"] {
            try manager.createDirectory(
                at: root.appendingPathComponent(part).deletingLastPathComponent(), withIntermediateDirectories: true)
            try manager.copyItem(at: BadInputTests.packageRoot.appendingPathComponent(part), to: root.appendingPathComponent(part))
        }
        return root
    }

    @Test func aForcedRunOfTheCommittedPipelinePrintsNoErrorAndChangesNothing() throws {
        let bin = try #require(BadInputTests.binFolder, "build the executables first (swift build --build-tests)")
        let manager = FileManager.default
        let root = try Self.workspaceCopy("clean-run")
        defer { try? manager.removeItem(at: root) }
        let lock = try Data(contentsOf: root.appendingPathComponent("pipeline/pipeline.lock.json"))
        let result = try TestProcess.run(bin.appendingPathComponent("sportstime"), ["run", "--force"], in: root)
        let output = result.stdout + result.stderr
        #expect(result.code == 0, "\(output)")
        #expect(output.contains(" stages: 36 ran, 0 skipped, 0 failed, 0 not run in "), "\(output)")
        let errors = output.split(separator: "\n").filter { $0.contains("error:") || $0.lowercased().contains(" error ") }
        #expect(errors.isEmpty, "lines that look like errors on a successful run:\n\(errors.joined(separator: "\n"))")
        #expect(output.contains("warning:"), "the committed inputs have warnings (the corrupt NHL file); were they lost?")
        #expect(try Data(contentsOf: root.appendingPathComponent("pipeline/pipeline.lock.json")) == lock)
    }

    /// Every hand-edited text input — the spec, shared params, sources.yaml, the reference CSVs, the
    /// requests and the overrides — saved as a Windows tool saves it (a UTF-8 BOM, CRLF line ends) gives
    /// the committed records, plans and itineraries: every file under out/ is as committed but for the
    /// input digests (`"sha256":"…"`), which are of the files' new bytes.
    @Test func textInputsSavedWithABOMAndCRLFLineEndsGiveTheCommittedOutputs() throws {
        let bin = try #require(BadInputTests.binFolder, "build the executables first (swift build --build-tests)")
        let manager = FileManager.default
        let root = try Self.workspaceCopy("crlf-run")
        defer { try? manager.removeItem(at: root) }
        var converted = 0
        for (folder, suffixes) in [
            ("pipeline", [".yaml"]), ("fixtures/reference", [".csv"]), ("fixtures/requests", [".yaml"]),
            ("fixtures/overrides", [".yaml"]),
        ] {
            for name in try manager.contentsOfDirectory(atPath: root.appendingPathComponent(folder).path).sorted()
            where suffixes.contains(where: name.hasSuffix) {
                let url = root.appendingPathComponent(folder).appendingPathComponent(name)
                let text = String(decoding: try Data(contentsOf: url), as: UTF8.self)
                let lines = TextLines.split(text)
                try Data(("\u{FEFF}" + lines.joined(separator: "\r\n")).utf8).write(to: url)
                converted += 1
            }
        }
        #expect(converted >= 10, "the workspace's text inputs were not found (\(converted) converted)")
        let result = try TestProcess.run(bin.appendingPathComponent("sportstime"), ["run", "--force"], in: root)
        #expect(result.code == 0, "\(result.stdout)\(result.stderr)")
        let digest = try NSRegularExpression(pattern: #""sha256":"[0-9a-f]{64}""#)
        func masked(_ data: Data) -> String {
            let text = String(decoding: data, as: UTF8.self)
            return digest.stringByReplacingMatches(
                in: text, range: NSRange(text.startIndex..., in: text), withTemplate: #""sha256":"…""#)
        }
        let committed = BadInputTests.packageRoot.appendingPathComponent("out")
        let produced = ArtifactFiles.files(under: root.appendingPathComponent("out"), suffix: "")
        let expected = ArtifactFiles.files(under: committed, suffix: "")
        #expect(produced.map(\.lastPathComponent) == expected.map(\.lastPathComponent))
        #expect(produced.count > 100)
        for (new, old) in zip(produced, expected) {
            #expect(masked(try Data(contentsOf: new)) == masked(try Data(contentsOf: old)), "\(new.lastPathComponent) differs")
        }
    }
}
