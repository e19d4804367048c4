import ArgumentParser
import Foundation
import SportsTimeCore
import SportsTimeIngest

/// `sportstime-ingest --sources pipeline/sources.yaml --out out/ingest [--source ID ...]`
/// `sportstime-ingest --preview ID [--rows N]` (prints, writes nothing)
///
/// Reads each source's files under the scraped folder, writes `<out>/<source>/games.json`,
/// `rejects.jsonl` and `filtered.jsonl`. A source whose rejects pass its threshold fails (exit 1) and its previous outputs
/// stay as they were; an unreadable spec or file exits 2.
@main
struct IngestCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sportstime-ingest",
        abstract: "Parse scraped schedule files into raw games, one folder per source.",
        discussion: """
            Exit status: 0 ok, 1 a source failed (rejects past its threshold) or the output could not be \
            written, 2 invalid spec or input file, 64 usage.
            """,
        version: SportsTimeVersion.current)

    @Option(help: "The sources spec (repository-relative).")
    var sources: String = "pipeline/sources.yaml"

    @Option(help: "Where each source's folder of outputs goes.")
    var out: String = "out/ingest"

    @Option(help: "The folder holding one folder of scraped files per source.")
    var scraped: String = "fixtures/scraped"

    @Option(name: .customLong("source"), help: "Ingest only this source (repeatable); default: all.")
    var only: [String] = []

    @Option(
        help: ArgumentHelp(
            "Show the first rows of this source as they would be written, each field with its value and where it came from, and the rejects and filtered rows among them with the reason; writes nothing.",
            valueName: "source"))
    var preview: String?

    @Option(help: "With --preview: how many rows to show.")
    var rows: Int = 5

    func validate() throws {
        if rows < 1 { throw ValidationError("--rows must be 1 or more.") }
        if preview != nil, !only.isEmpty { throw ValidationError("--preview shows one source; drop --source.") }
    }

    func run() throws {
        let root = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        let specURL = URL(fileURLWithPath: sources, relativeTo: root)
        let specPath = ArtifactFiles.relativePath(of: specURL, to: root)
        var status = ExitStatus.ok
        func report(_ diagnostics: [Diagnostic]) {
            for d in diagnostics { FileHandle.standardError.write(Data((d.description + "\n").utf8)) }
        }
        let configs: [SourceConfig]
        do {
            guard let data = FileManager.default.contents(atPath: specURL.path) else {
                throw PipelineError.invalidInput(
                    Diagnostic(
                        .error, at: SourceLocation(path: specPath),
                        "cannot read the sources spec", fix: "Check the --sources path"))
            }
            try TextEncoding.refuseWide(data, path: specPath)
            configs = try SourceCatalog.load(text: String(decoding: data, as: UTF8.self), path: specPath)
        } catch let error as PipelineError {
            report(error.diagnostics)
            throw ExitCode(error.exitCode)
        }
        let known = Set(configs.map(\.id))
        if let preview {
            guard let config = configs.first(where: { $0.id == preview }) else {
                throw ValidationError("unknown source '\(preview)'. Use one of: \(configs.map(\.id).joined(separator: ", ")).")
            }
            do {
                let folder = URL(fileURLWithPath: scraped, relativeTo: root).appendingPathComponent(config.folder)
                let listing = try Self.listing(of: folder, root: root)
                let files = try config.dataFiles(in: listing).map { try Self.load(folder, $0, root: root) }
                let lookups = try config.lookupFiles.filter { listing.contains($0.file) }.map { try Self.load(folder, $0.file, root: root) }
                let text = try Preview.text(config, files: files, lookups: lookups, rows: rows)
                FileHandle.standardOutput.write(Data(text.utf8))
            } catch let error as PipelineError {
                report(error.diagnostics)
                throw ExitCode(error.exitCode)
            }
            return
        }
        let unknown = only.filter { !known.contains($0) }
        if !unknown.isEmpty {
            throw ValidationError(
                "unknown source \(unknown.map { "'\($0)'" }.joined(separator: ", ")). Use one of: \(configs.map(\.id).joined(separator: ", "))."
            )
        }
        let selected = only.isEmpty ? configs : configs.filter { only.contains($0.id) }
        let outURL = URL(fileURLWithPath: out, relativeTo: root)
        let scrapedURL = URL(fileURLWithPath: scraped, relativeTo: root)

        // 1. Read each source's files (disk, in spec order).
        var inputs: [Result<SourceInput, PipelineError>] = []
        for config in selected {
            do {
                let folder = scrapedURL.appendingPathComponent(config.folder)
                let listing = try Self.listing(of: folder, root: root)
                let names = try config.dataFiles(in: listing)
                let files = try names.map { try Self.load(folder, $0, root: root) }
                let lookups = try config.lookupFiles.filter { listing.contains($0.file) }.map { try Self.load(folder, $0.file, root: root) }
                inputs.append(.success(SourceInput(config: config, files: files, lookups: lookups)))
            } catch let error as PipelineError {
                inputs.append(.failure(error))
            }
        }
        // 2. Parse and encode the sources in parallel (pure work on values).
        let read = inputs
        let outcomes = Outcomes(count: read.count)
        DispatchQueue.concurrentPerform(iterations: read.count) { index in
            outcomes.set(index, Self.process(read[index]))
        }
        // 3. Report and write in spec order.
        for outcome in outcomes.all {
            do {
                let processed = try outcome.get()
                let result = processed.result
                report(result.warnings)
                if result.failure != nil {
                    report(result.failureDiagnostics)
                    status = max(status, ExitStatus.failure)
                    continue
                }
                let target = outURL.appendingPathComponent(result.source.id)
                try ArtifactFiles.write(processed.games, to: target.appendingPathComponent("games.json"))
                try ArtifactFiles.write(processed.rejects, to: target.appendingPathComponent("rejects.jsonl"))
                try ArtifactFiles.write(processed.filtered, to: target.appendingPathComponent("filtered.jsonl"))
                let c = result.counts
                FileHandle.standardError.write(
                    Data(
                        "ingest: \(result.source.id): read \(c.read), written \(c.written), rejected \(c.rejected), filtered \(c.filtered), folded \(c.folded)\n"
                            .utf8))
            } catch let error as PipelineError {
                report(error.diagnostics)
                status = max(status, error.exitCode == ExitStatus.failure ? ExitStatus.failure : ExitStatus.invalidInput)
            }
        }
        if only.isEmpty { Self.removeStale(in: outURL, keeping: known) }
        if status != ExitStatus.ok { throw ExitCode(status) }
    }

    /// Files under `folder`, relative to it, sorted; hidden files skipped. Links to files inside the
    /// repository are followed; a link that leads outside it is an error (`RepositoryConfinement`).
    static func listing(of folder: URL, root: URL) throws -> [String] {
        try RepositoryConfinement(root: ArtifactFiles.repositoryRoot(from: root)).inputFiles(under: folder, suffix: "")
    }

    static func load(_ folder: URL, _ name: String, root: URL) throws -> LoadedFile {
        let url = folder.appendingPathComponent(name)
        let path = ArtifactFiles.relativePath(of: url, to: root)
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw PipelineError.invalidInput(
                Diagnostic(
                    .error, at: SourceLocation(path: path), "cannot read the file",
                    fix: "Check its permissions"))
        }
        return LoadedFile(path: path, name: name, data: data)
    }

    /// Output folders of sources no longer in the spec (only folders holding nothing but ingest outputs).
    static func removeStale(in out: URL, keeping ids: Set<String>) {
        let manager = FileManager.default
        guard let entries = try? manager.contentsOfDirectory(atPath: out.path) else { return }
        for entry in entries.sorted() where !ids.contains(entry) && !entry.hasPrefix(".") {
            let folder = out.appendingPathComponent(entry)
            guard let inside = try? manager.contentsOfDirectory(atPath: folder.path),
                !inside.isEmpty, Set(inside).isSubset(of: ["games.json", "rejects.jsonl", "filtered.jsonl"])
            else { continue }
            try? manager.removeItem(at: folder)
            FileHandle.standardError.write(
                Data("ingest: removed \(ArtifactFiles.relativePath(of: folder, to: out)) (source no longer in the spec)\n".utf8))
        }
    }

    static func process(_ input: Result<SourceInput, PipelineError>) -> Result<Processed, PipelineError> {
        do {
            let source = try input.get()
            let result = try Ingester.ingest(source.config, files: source.files, lookups: source.lookups)
            if result.exceedsThreshold { return .success(Processed(result: result, games: Data(), rejects: Data(), filtered: Data())) }
            return .success(
                Processed(
                    result: result, games: try result.gamesData(), rejects: try result.rejectsData(),
                    filtered: try result.filteredData()))
        } catch let error as PipelineError {
            return .failure(error)
        } catch {
            return .failure(.failure(Diagnostic(.error, "cannot encode the outputs: \(error)", fix: "Report this as a bug")))
        }
    }
}

/// One source's files, read.
struct SourceInput: Sendable {
    var config: SourceConfig
    var files: [LoadedFile]
    var lookups: [LoadedFile]
}

/// One source ingested, with its output bytes.
struct Processed: Sendable {
    var result: IngestResult
    var games: Data
    var rejects: Data
    var filtered: Data
}

/// Results filled in by parallel workers, one slot each.
final class Outcomes: Sendable {
    private let slots: Locked<[Result<Processed, PipelineError>?]>
    init(count: Int) { slots = Locked(Array(repeating: nil, count: count)) }
    func set(_ index: Int, _ value: Result<Processed, PipelineError>) { slots.withLock { $0[index] = value } }
    var all: [Result<Processed, PipelineError>] {
        slots.current.map { $0 ?? .failure(.failure(Diagnostic(.error, "a source was not processed", fix: "Report this as a bug"))) }
    }
}
