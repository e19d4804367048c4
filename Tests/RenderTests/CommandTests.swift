import Foundation
import SportsTimeCore
@testable import SportsTimeRender
import Testing

/// Runs the built `sportstime-render` on the fixtures, as the pipeline does.
@Suite("sportstime-render command")
struct CommandTests {
    /// A workspace laid out like the repository: plans, merged store, map outlines.
    private func workspace() throws -> URL {
        let root = try Tools.scratchFolder("cli")
        let manager = FileManager.default
        try manager.createDirectory(at: root.appendingPathComponent("out/plan"), withIntermediateDirectories: true)
        for name in Fixtures.cases {
            try manager.copyItem(at: Fixtures.planURL(name), to: root.appendingPathComponent("out/plan/\(name).json"))
        }
        try manager.copyItem(at: Fixtures.mergeFolder, to: root.appendingPathComponent("out/merge"))
        try manager.createDirectory(at: root.appendingPathComponent("fixtures"), withIntermediateDirectories: true)
        try manager.copyItem(at: Fixtures.geoFolder, to: root.appendingPathComponent("fixtures/geo"))
        return root
    }

    private static let standard = ["--plans", "out/plan", "--merged", "out/merge", "--out", "out/render"]

    @Test(
        "Writes every itinerary and the index, byte-identical across runs, and says no PDF was made")
    func writesEverything() throws {
        let root = try workspace()
        defer { try? FileManager.default.removeItem(at: root) }
        let executable = try Tools.renderExecutable()
        // An artifact of another kind in the plans folder is skipped with a note.
        try FileManager.default.copyItem(
            at: Fixtures.mergeFolder.appendingPathComponent("sports.json"),
            to: root.appendingPathComponent("out/plan/zz-sports.json"))
        let first = try Tools.run(executable, CommandTests.standard, in: root)
        #expect(first.status == 0, "\(first.error)")
        #expect(first.error.contains("no PDF made: WeasyPrint was not found at .venv/bin/weasyprint"))
        #expect(first.error.contains("make pdf"))
        #expect(first.error.contains("zz-sports.json: note: skipped"))
        for name in Fixtures.cases {
            for file in ["itinerary.md", "itinerary.html", "trip.ics", "route.geojson"] {
                let written = try Data(contentsOf: root.appendingPathComponent("out/render/\(name)/\(file)"))
                let golden = try Data(contentsOf: Fixtures.folder.appendingPathComponent("\(name)/expected/\(file)"))
                #expect(written == golden, "\(name)/\(file) differs from its golden file")
            }
            #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("out/render/\(name)/itinerary.pdf").path))
        }
        let index = try Data(contentsOf: root.appendingPathComponent("out/render/README.md"))
        #expect(index == (try Data(contentsOf: Fixtures.folder.appendingPathComponent("index/expected/README.md"))))

        // Same input, same bytes, nothing rewritten; a folder whose plan is gone is removed.
        let stale = root.appendingPathComponent("out/render/old-request")
        try FileManager.default.createDirectory(at: stale, withIntermediateDirectories: true)
        try Data("old".utf8).write(to: stale.appendingPathComponent("itinerary.md"))
        let second = try Tools.run(executable, CommandTests.standard + ["--no-pdf"], in: root)
        #expect(second.status == 0)
        #expect(second.error.contains("(9 files, 0 changed)"))
        #expect(second.error.contains("no PDF made (--no-pdf)"))
        #expect(!FileManager.default.fileExists(atPath: stale.path))
    }

    @Test(
        "Bad input exits 2 naming the file; a bad engine path is a usage error (64)")
    func failures() throws {
        let root = try workspace()
        defer { try? FileManager.default.removeItem(at: root) }
        let executable = try Tools.renderExecutable()
        let usage = try Tools.run(executable, CommandTests.standard + ["--pdf-engine", "/nonexistent/weasyprint"], in: root)
        #expect(usage.status == 64)
        #expect(usage.error.contains("--pdf-engine"))

        try Data("{\"kind\":\"sportstime.trip-plan\",\"schemaVersion\":1,\"records\":[{\"id\":3}]}".utf8)
            .write(to: root.appendingPathComponent("out/plan/broken.json"))
        let broken = try Tools.run(executable, CommandTests.standard, in: root)
        #expect(broken.status == 2)
        #expect(broken.error.contains("out/plan/broken.json"))
        #expect(broken.error.contains("error:"))

        try FileManager.default.removeItem(at: root.appendingPathComponent("out/plan/broken.json"))
        try FileManager.default.removeItem(at: root.appendingPathComponent("out/merge/sports.json"))
        let missing = try Tools.run(executable, CommandTests.standard, in: root)
        #expect(missing.status == 2)
        #expect(missing.error.contains("out/merge/sports.json: error: missing"))
    }

    @Test(
        "The engine is run per itinerary with a fixed PDF identifier; its failure exits 1 with its message")
    func engineContract() throws {
        let root = try workspace()
        defer { try? FileManager.default.removeItem(at: root) }
        let executable = try Tools.renderExecutable()
        // A stand-in engine: writes its arguments as the "PDF", so the test sees how it was called.
        let fake = root.appendingPathComponent("fake-engine")
        try Data("#!/bin/sh\nfor last; do :; done\nprintf '%%PDF-stand-in %s\\n' \"$*\" > \"$last\"\n".utf8).write(to: fake)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: fake.path)
        let run = try Tools.run(executable, CommandTests.standard + ["--pdf-engine", fake.path], in: root)
        #expect(run.status == 0, "\(run.error)")
        #expect(run.error.contains("2 PDFs made"))
        let pdf = String(
            decoding: try Data(contentsOf: root.appendingPathComponent("out/render/\(Fixtures.feasibleCase)/itinerary.pdf")), as: UTF8.self)
        #expect(pdf.hasPrefix("%PDF-stand-in --quiet --pdf-identifier sportstime-\(Fixtures.feasibleCase) "))
        #expect(pdf.contains("out/render/\(Fixtures.feasibleCase)/itinerary.html"))

        let broken = root.appendingPathComponent("broken-engine")
        try Data("#!/bin/sh\necho 'boom: no pango' >&2\nexit 3\n".utf8).write(to: broken)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: broken.path)
        let failed = try Tools.run(executable, CommandTests.standard + ["--pdf-engine", broken.path], in: root)
        #expect(failed.status == 1)
        #expect(failed.error.contains("exited 3: boom: no pango"))
        #expect(failed.error.contains("2 of 2 PDFs were not made"))
        // Everything else is still written.
        #expect(FileManager.default.fileExists(atPath: root.appendingPathComponent("out/render/README.md").path))
    }

    @Test(
        "With an engine, itinerary.pdf is made next to the HTML",
        .enabled(if: Tools.weasyprint != nil, "needs WeasyPrint (make test installs it)"))
    func makesPDFs() throws {
        let root = try workspace()
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.removeItem(at: root.appendingPathComponent("out/plan/\(Fixtures.infeasibleCase).json"))
        let engine = try #require(Tools.weasyprint)
        let run = try Tools.run(try Tools.renderExecutable(), CommandTests.standard + ["--pdf-engine", engine.path], in: root)
        #expect(run.status == 0, "\(run.error)")
        #expect(run.error.contains("1 PDF made"))
        let pdf = try Data(contentsOf: root.appendingPathComponent("out/render/\(Fixtures.feasibleCase)/itinerary.pdf"))
        #expect(pdf.starts(with: Data("%PDF-".utf8)))
    }
}
