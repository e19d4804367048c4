import Foundation

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

    /// The built `sportstime-render`, next to the test bundle or in `.build/debug`.
    static let renderExecutable: URL? = {
        var candidates: [URL] = []
        if let first = CommandLine.arguments.first {
            var folder = URL(fileURLWithPath: first).deletingLastPathComponent()
            for _ in 0..<4 {
                candidates.append(folder.appendingPathComponent("sportstime-render"))
                folder = folder.deletingLastPathComponent()
            }
        }
        candidates.append(Fixtures.repositoryRoot.appendingPathComponent(".build/debug/sportstime-render"))
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }()

    static func onPath(_ name: String) -> URL? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for folder in path.split(separator: ":") {
            let candidate = URL(fileURLWithPath: String(folder)).appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return nil
    }

    struct Result { var status: Int32; var output: String; var error: String }

    /// Runs a program to completion, reading both pipes while it runs.
    static func run(_ executable: URL, _ arguments: [String], in folder: URL? = nil) throws -> Result {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let folder { process.currentDirectoryURL = folder }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        let box = Box()
        let group = DispatchGroup()
        for (index, pipe) in [out, err].enumerated() {
            group.enter()
            DispatchQueue.global().async {
                box.set(index, pipe.fileHandleForReading.readDataToEndOfFile())
                group.leave()
            }
        }
        try process.run()
        try? out.fileHandleForWriting.close()
        try? err.fileHandleForWriting.close()
        process.waitUntilExit()
        group.wait()
        return Result(status: process.terminationStatus, output: String(decoding: box.get(0), as: UTF8.self),
                      error: String(decoding: box.get(1), as: UTF8.self))
    }

    private final class Box: @unchecked Sendable {
        private let lock = NSLock()
        private var values: [Int: Data] = [:]
        func set(_ key: Int, _ value: Data) { lock.lock(); values[key] = value; lock.unlock() }
        func get(_ key: Int) -> Data { lock.lock(); defer { lock.unlock() }; return values[key] ?? Data() }
    }

    /// A fresh temporary folder.
    static func scratchFolder(_ name: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("render-tests-\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
