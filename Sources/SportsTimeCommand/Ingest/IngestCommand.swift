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
public struct IngestCommand: PipelineCommand {
    public static let configuration = CommandConfiguration(
        commandName: "sportstime-ingest",
        abstract: "Parse scraped schedule files into raw games, one folder per source.",
        discussion: """
            Exit status: 0 ok, 1 a source failed (rejects past its threshold) or the output could not be \
            written, 2 invalid spec or input file, 64 usage.
            """,
        version: SportsTimeVersion.current)

    @Option(help: "The sources spec (like every path given here, relative to the current folder).")
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

    public func validate() throws {
        if rows < 1 { throw ValidationError("--rows must be 1 or more.") }
        if preview != nil, !only.isEmpty { throw ValidationError("--preview shows one source; drop --source.") }
    }

    public init() {}

    public func execute(in context: CommandContext) throws {
        let paths = context.paths
        let specURL = paths.url(sources)
        let specPath = paths.display(specURL)
        guard let data = try InputFiles.readIfPresent(specURL, path: specPath, kind: .yaml) else {
            throw PipelineError.invalidInput(
                Diagnostic(
                    .error, at: SourceLocation(path: specPath),
                    "cannot read the sources spec", fix: "Check the --sources path"))
        }
        try TextEncoding.refuseWide(data, path: specPath)
        // Only the sources asked for are decoded and checked (`--source`, `--preview`); all without either.
        let chosen: Set<String>? = preview.map { [$0] } ?? (only.isEmpty ? nil : Set(only))
        let catalog = try SourceCatalog.load(text: String(decoding: data, as: UTF8.self), path: specPath, only: chosen)
        let configs = catalog.configs
        let scrapedURL = paths.url(scraped)
        if let preview {
            guard let config = configs.first(where: { $0.id == preview }) else {
                throw ValidationError("unknown source '\(preview)'. Use one of: \(catalog.declared.joined(separator: ", ")).")
            }
            let input = try Self.read(config, from: scrapedURL, paths: paths)
            context.writeOutput(try Preview.text(config, files: input.files, lookups: input.lookups, rows: rows))
            return
        }
        let known = Set(configs.map(\.id))
        let unknown = only.filter { !known.contains($0) }
        if !unknown.isEmpty {
            throw ValidationError(
                "unknown source \(unknown.map { "'\($0)'" }.joined(separator: ", ")). Use one of: \(catalog.declared.joined(separator: ", "))."
            )
        }
        let selected = only.isEmpty ? configs : configs.filter { only.contains($0.id) }
        let outURL = paths.url(out)

        // 1. Read each source's files (disk, in spec order).
        let inputs = selected.map { config in Result { try Self.read(config, from: scrapedURL, paths: paths) }.mapError(Self.pipelineError)
        }
        // 2. Parse and encode the sources in parallel (pure work on values).
        let outcomes = inputs.parallelMap(Self.process)
        // 3. Report in spec order; the files are written on the write queue (their flushes to disk overlap).
        var status = ExitStatus.ok
        let writes = FileWriteQueue()
        for outcome in outcomes {
            do {
                let processed = try outcome.get()
                let result = processed.result
                for warning in result.warnings { context.say(warning.description) }
                if result.failure != nil {
                    for diagnostic in result.failureDiagnostics { context.say(diagnostic.description) }
                    status = max(status, ExitStatus.failure)
                    continue
                }
                let target = outURL.appendingPathComponent(result.source.id)
                writes.write(processed.games, to: target.appendingPathComponent("games.json"))
                writes.write(processed.rejects, to: target.appendingPathComponent("rejects.jsonl"))
                writes.write(processed.filtered, to: target.appendingPathComponent("filtered.jsonl"))
                let c = result.counts
                context.say(
                    "ingest: \(result.source.id): read \(c.read), written \(c.written), rejected \(c.rejected), filtered \(c.filtered), folded \(c.folded)"
                )
            } catch {
                let error = Self.pipelineError(error)
                _ = context.report(error)
                status = max(status, error.exitCode == ExitStatus.failure ? ExitStatus.failure : ExitStatus.invalidInput)
            }
        }
        if let failure = Self.finish(writes) {
            _ = context.report(failure)
            status = max(status, ExitStatus.failure)
        }
        if only.isEmpty { Self.removeStale(in: outURL, keeping: known, context: context) }
        // The sources' files, records and encoded outputs are the process's to give back when it exits.
        context.keepUntilExit((inputs, outcomes))
        if status != ExitStatus.ok { throw ExitCode(status) }
    }

    /// Waits for the queued writes; a failure (the one whose path sorts first) as a located error.
    private static func finish(_ writes: FileWriteQueue) -> PipelineError? {
        do {
            _ = try writes.finish()
            return nil
        } catch {
            return pipelineError(error)
        }
    }

    /// A source's data and lookup files under its folder of `scraped`.
    static func read(_ config: SourceConfig, from scraped: URL, paths: CommandPaths) throws -> SourceInput {
        let folder = scraped.appendingPathComponent(config.folder)
        let listing = try listing(of: folder, paths: paths)
        let files = try config.dataFiles(in: listing).map { try load(folder, $0, paths: paths) }
        let lookups = try config.lookupFiles.filter { listing.contains($0.file) }.map { try load(folder, $0.file, paths: paths) }
        return SourceInput(config: config, files: files, lookups: lookups)
    }

    /// Files under `folder`, relative to it, sorted; hidden files skipped. Links to files inside the
    /// repository are followed; a link that leads outside it is an error (`RepositoryConfinement`).
    static func listing(of folder: URL, paths: CommandPaths) throws -> [String] {
        try RepositoryConfinement(root: paths.root).inputFiles(under: folder, suffix: "")
    }

    static func load(_ folder: URL, _ name: String, paths: CommandPaths) throws -> LoadedFile {
        let url = folder.appendingPathComponent(name)
        let path = paths.display(url)
        let data = try InputFiles.read(
            url, path: path, kind: .scraped, problem: "cannot read the file", fix: "Check its permissions", givingReason: true)
        return LoadedFile(path: path, name: name, data: data)
    }

    /// Output folders of sources no longer in the spec (only folders holding nothing but ingest outputs).
    static func removeStale(in out: URL, keeping ids: Set<String>, context: CommandContext) {
        let ownFiles: Set<String> = ["games.json", "rejects.jsonl", "filtered.jsonl"]
        for folder in OutputPruning.staleFolders(in: out, keeping: ids, ownFiles: ownFiles)
        where folder.holdsOnlyOwnFiles && !folder.contents.isEmpty {
            try? FileManager.default.removeItem(at: folder.url)
            context.say("ingest: removed \(ArtifactFiles.relativePath(of: folder.url, to: out)) (source no longer in the spec)")
        }
    }

    static func pipelineError(_ error: Error) -> PipelineError {
        error as? PipelineError ?? .failure(Diagnostic(.error, "\(error)", fix: "Report this as a bug"))
    }

    @Sendable static func process(_ input: Result<SourceInput, PipelineError>) -> Result<Processed, PipelineError> {
        do {
            let source = try input.get()
            let result = try Ingester.ingest(source.config, files: source.files, lookups: source.lookups)
            if result.exceedsThreshold { return .success(Processed(result: result, games: Data(), rejects: Data(), filtered: Data())) }
            return .success(
                Processed(
                    result: result, games: try result.gamesData(), rejects: result.rejectsData(),
                    filtered: result.filteredData()))
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
