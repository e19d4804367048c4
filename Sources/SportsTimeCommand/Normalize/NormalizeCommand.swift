import ArgumentParser
import Foundation
import SportsTimeCore
import SportsTimeNormalize

/// `sportstime-normalize --in out/ingest --reference fixtures/reference --out out/normalize`
public struct NormalizeCommand: PipelineCommand {
    public static let configuration = CommandConfiguration(
        commandName: "sportstime-normalize",
        abstract: "Resolve raw team and venue names by alias and date, and give every game its canonical id.",
        discussion: """
            Reads every <source>/games.json under --in, writes games/<source>.json, unresolved.json and \
            rejects.jsonl under --out. A batch whose venues mostly contradict its home teams is refused \
            (all its records go to rejects) and the others continue; the exit status stays 0 for that, \
            and the refusal is printed as a warning on stderr.
            Before writing, the games are compared with those published last (--published, default --out),             record by record: when a team or venue name that resolved there no longer resolves (a stadium or             team renamed in the reference without its old name as an alias), nothing is written and the             stage fails (exit 2) at the record in the reference, giving the alias row to add.
            Exit status: 0 ok, 1 failure, 2 invalid input (or names that resolved before no longer do),             64 usage.
            """,
        version: SportsTimeVersion.current)

    @Option(name: .customLong("in"), help: "Folder of ingest batches (<source>/games.json).")
    var input = "out/ingest"

    @Option(help: "Folder of the curated reference data.")
    var reference = "fixtures/reference"

    @Option(help: "Folder to write normalized games, unresolved names and rejects into.")
    var out = "out/normalize"

    @Option(
        help:
            "The games published last, whose resolved names must keep resolving (default: --out). The runner writes --out into a staging folder, so it passes the published out/normalize here."
    )
    var published: String?

    public init() {}

    public func execute(in context: CommandContext) throws {
        try NormalizeRun(input: input, reference: reference, out: out, published: published, context: context).execute()
    }
}

/// The command's work: read, call the library, write, report.
struct NormalizeRun {
    let context: CommandContext
    let inURL: URL
    let referenceURL: URL
    let outURL: URL
    let publishedURL: URL

    init(input: String, reference: String, out: String, published: String? = nil, context: CommandContext) {
        self.context = context
        inURL = context.paths.url(input)
        referenceURL = context.paths.url(reference)
        outURL = context.paths.url(out)
        publishedURL = context.paths.url(published ?? out)
    }

    private func display(_ url: URL) -> String { context.paths.display(url) }

    func execute() throws {
        // The reference data is read on another core while the batches are read.
        let (referenceURL, paths) = (self.referenceURL, context.paths)
        let reference = Background {
            (
                try ReferenceLoader.load(from: referenceURL, displayPath: paths.display(referenceURL)),
                try Self.referenceFiles(referenceURL, display: paths.display)
            )
        }
        let (batches, batchInputs) = try readBatches()
        let (referenceData, referenceInputs) = try reference.value()
        let result = try normalize(batches: batches, reference: referenceData)
        try guardAgainstLostNames(result, reference: referenceData)

        let inputsBySource = Dictionary(zip(batches.map(\.source), batchInputs), uniquingKeysWith: { first, _ in first })
        let (outURL, gamesFolder) = (self.outURL, self.outURL.appendingPathComponent("games", isDirectory: true))
        // The unresolved names and the rejects encoded and written beside the batches' files.
        let (unresolvedNames, rejects) = (result.unresolved, result.rejects)
        // Every file goes through the write queue: its flush to disk overlaps the encoding of the next.
        let writes = FileWriteQueue()
        let sideFiles = Background { () throws -> Void in
            let unresolved = Envelope(
                kind: .unresolved, producer: Producer(stage: "normalize"),
                inputs: batchInputs + referenceInputs, records: unresolvedNames)
            writes.write(try unresolved.canonicalData(), to: outURL.appendingPathComponent("unresolved.json"))
            writes.write(RejectsWriter.data(rejects), to: outURL.appendingPathComponent("rejects.jsonl"))
        }
        // The batches' files encoded on all cores; the first encoding failure in source order is reported.
        let written = result.batches.filter { !$0.isRefused }.parallelMap { batch in
            Result { () throws -> String in
                let envelope = Envelope(
                    kind: .games, producer: Producer(stage: "normalize"),
                    inputs: [inputsBySource[batch.source]].compactMap { $0 } + referenceInputs,
                    meta: batch.meta, records: batch.games)
                let name = "\(batch.source).json"
                writes.write(try envelope.canonicalData(), to: gamesFolder.appendingPathComponent(name))
                return name
            }
        }
        try write {
            // Every queued file is written (or has failed) before anything is reported or removed.
            let encoded = Result { try sideFiles.value() }
            let flushed = Result { try writes.finish() }
            var names: Set<String> = []
            for file in written { names.insert(try file.get()) }
            try encoded.get()
            _ = try flushed.get()
            try removeStale(in: gamesFolder, keeping: names)
        }

        for diagnostic in result.diagnostics { context.say(diagnostic.description) }
        context.say(result.summary(writtenTo: display(outURL)))
        context.keepUntilExit((batches, result))
    }

    /// Every `<source>/games.json` directly under `--in`, in path order, with its input reference.
    private func readBatches() throws -> ([RawBatch], [InputReference]) {
        let inPath = display(inURL)
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: inURL.path, isDirectory: &isFolder), isFolder.boolValue else {
            throw PipelineError.invalidInput(
                Diagnostic(
                    .error, at: SourceLocation(path: inPath), "no such folder",
                    fix: "Run sportstime-ingest first, or point --in at its output folder"))
        }
        let folders: [String]
        do {
            folders = try FileManager.default.contentsOfDirectory(atPath: inURL.path).filter { !$0.hasPrefix(".") }.sorted()
        } catch {
            throw PipelineError.failure(
                Diagnostic(
                    .error, at: SourceLocation(path: inPath),
                    "cannot list the folder (\(error.localizedDescription))"))
        }
        // Each batch read, hashed and decoded on its own core; the first failure in path order is reported.
        let files = folders.map { inURL.appendingPathComponent($0).appendingPathComponent("games.json") }
            .filter { FileManager.default.fileExists(atPath: $0.path) }
            .map { (url: $0, path: display($0)) }
        let loaded = files.parallelMap { file in
            Result { () throws -> (RawBatch, InputReference) in
                let (envelope, input) = try InputFiles.envelope(
                    RawGame.self, at: file.url, path: file.path, expecting: .rawGames,
                    problem: "cannot read file", fix: "Re-run sportstime-ingest", givingReason: true)
                return (try RawBatch(path: file.path, meta: envelope.meta, games: envelope.records), input)
            }
        }
        var batches: [RawBatch] = []
        var inputs: [InputReference] = []
        for result in loaded {
            let (batch, input) = try result.get()
            batches.append(batch)
            inputs.append(input)
        }
        return (batches, inputs)
    }

    /// Fails (exit 2, nothing written) when names that resolved in the published games no longer resolve,
    /// each located at its record in the reference with the alias row that keeps it resolving.
    /// A published file that cannot be read is not compared (the check guards history; it is not input).
    private func guardAgainstLostNames(_ result: NormalizeResult, reference: ReferenceData) throws {
        // Only sources with a name that did not resolve can have lost one: their published games alone are read.
        let needed = result.sourcesWithUnresolvedNames
        guard !needed.isEmpty else { return }
        let folder = publishedURL.appendingPathComponent("games", isDirectory: true)
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return }
        var previous: [String: [Game]] = [:]
        // The files read and decoded on all cores; a file that cannot be read is left out, as before.
        let wanted = names.sorted().filter { $0.hasSuffix(".json") && needed.contains(String($0.dropLast(".json".count))) }
        let paths = context.paths
        let loaded = wanted.parallelMap { name -> [Game]? in
            let url = folder.appendingPathComponent(name)
            guard let data = (try? InputFiles.readIfPresent(url, path: paths.display(url), kind: .artifact)) ?? nil,
                let envelope = try? EnvelopeReader.read(Game.self, from: data, path: paths.display(url), expecting: .games)
            else { return nil }
            return envelope.records
        }
        for (name, games) in zip(wanted, loaded) {
            guard let games else { continue }
            previous[String(name.dropLast(".json".count)), default: []] += games
        }
        let lost = result.lostNames(comparedWith: previous, reference: reference)
        guard !lost.isEmpty else { return }
        let referencePath = display(referenceURL)
        throw PipelineError.invalidInputs(
            lost.map { name in
                name.diagnostic(
                    referencePath: referencePath,
                    line: recordLine(id: name.previousId, in: referenceURL.appendingPathComponent(name.recordFile)))
            })
    }

    /// The 1-based line of the row whose first field is `id` in a reference CSV file, if any.
    private func recordLine(id: String, in url: URL) -> Int? {
        guard let data = (try? InputFiles.readIfPresent(url, path: display(url), kind: .reference)) ?? nil else { return nil }
        let text = String(decoding: data, as: UTF8.self)
        for (index, line) in TextLines.split(text).enumerated()
        where line.hasPrefix("\(id),") || line.hasPrefix("\"\(id)\",") {
            return index + 1
        }
        return nil
    }

    /// The reference files (`*.csv`, `*.yaml`) the games depend on, by path.
    private static func referenceFiles(_ referenceURL: URL, display: (URL) -> String) throws -> [InputReference] {
        let files =
            ArtifactFiles.files(under: referenceURL, suffix: ".csv")
            + ArtifactFiles.files(under: referenceURL, suffix: ".yaml")
        return try files.map { InputReference(path: display($0), sha256: try ArtifactFiles.sha256(of: $0)) }.sorted()
    }

    /// Removes `games/*.json` files a previous run wrote for sources that are gone or now refused,
    /// so the folder holds exactly this run's batches.
    private func removeStale(in folder: URL, keeping names: Set<String>) throws {
        for stale in OutputPruning.staleFiles(in: folder, suffix: ".json", keeping: names, directly: true) {
            try FileManager.default.removeItem(at: stale)
        }
    }

    /// Runs file writes, turning an I/O error into a failure that names the output folder.
    private func write(_ body: () throws -> Void) throws {
        do { try body() } catch let error as PipelineError { throw error } catch {
            throw PipelineError.failure(
                Diagnostic(
                    .error, at: SourceLocation(path: display(outURL)),
                    "cannot write the output (\(error.localizedDescription))",
                    fix: "Check that the folder is writable"))
        }
    }
}
