import Foundation
import SportsTimeTestSupport

/// External programs the PDF and command-line tests use, found without installing anything.
enum Tools {
    /// WeasyPrint: `SPORTSTIME_PDF_ENGINE`, else the project's `.venv/bin/weasyprint` (installed by
    /// `pipeline/tools/install-pdf-engine.sh`, which `make pdf` and `make test` run).
    static let weasyprint: URL? = {
        if let path = ProcessInfo.processInfo.environment["SPORTSTIME_PDF_ENGINE"], FileManager.default.isExecutableFile(atPath: path) {
            return URL(fileURLWithPath: path)
        }
        let local = Fixtures.repositoryRoot.appendingPathComponent(".venv/bin/weasyprint")
        return FileManager.default.isExecutableFile(atPath: local.path) ? local : nil
    }()

    /// `pdftotext` and `pdfinfo` from poppler-utils (`pipeline/tools/install-test-tools.sh`).
    static let pdftotext = onPath("pdftotext")
    static let pdfinfo = onPath("pdfinfo")

    static var canCheckPDFs: Bool { weasyprint != nil && pdftotext != nil && pdfinfo != nil }

    /// The built `sportstime-render` (a test that needs it fails when it is not built).
    /// The built `sportstime-render`; a missing one fails the test (`Executables`), as in every target.
    static func renderExecutable() throws -> URL { try Executables.url("sportstime-render") }

    static func onPath(_ name: String) -> URL? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for folder in path.split(separator: ":") {
            let candidate = URL(fileURLWithPath: String(folder)).appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return nil
    }

    struct Result { var status: Int32; var output: String; var error: String }

    /// Runs a program to completion.
    static func run(_ executable: URL, _ arguments: [String], in folder: URL? = nil) throws -> Result {
        let result = try TestProcess.run(executable, arguments, in: folder)
        return Result(status: result.status, output: result.stdout, error: result.stderr)
    }

    /// A fresh temporary folder.
    static func scratchFolder(_ name: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("render-tests-\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
