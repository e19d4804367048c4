import ArgumentParser
import Foundation
import SportsTimeCore
import SportsTimeMerge

/// `sportstime-merge`: folds the reference data and the normalized batches into `out/merge/`.
public struct MergeCommand: PipelineCommand {
    public static let configuration = CommandConfiguration(
        commandName: "sportstime-merge",
        abstract: "Merge reference data and normalized games into the canonical store.",
        discussion: """
            Folds sports, stadiums, teams, games, league structures, team aliases and stadium aliases (in that order) newest-wins, soft-deletes games that a newer batch of the same system and scope no longer lists, applies the field overrides in --overrides, and writes --out: one file per entity kind, games/<sport>-<season>.json, sync-state.json, merge-report.json and rejects.jsonl.

            Before writing, the merge compares each sport-season with the store published last (--published, default --out): when published games are in no batch any more and the season would have fewer active games, it fails (exit 1) naming the sources, unless each of them declares allowShrink in pipeline/sources.yaml (carried in its batch meta).

            SIGINT or SIGTERM stops the merge between entity kinds; nothing is written, and the next run completes.

            Exit status: 0 ok, 1 failure or interrupted, 2 invalid input, 64 usage.
            """,
        version: SportsTimeVersion.current)

    @Option(help: "Folder written by normalize (reads <folder>/games/*.json).")
    var normalized = "out/normalize"

    @Option(help: "Reference data folder.")
    var reference = "fixtures/reference"

    @Option(help: "Folder of override files (*.yaml); a missing folder means no overrides.")
    var overrides = "fixtures/overrides"

    @Option(help: "Output folder.")
    var out = "out/merge"

    @Option(
        help:
            "The store published last, which the merge must not shrink silently (default: --out). The runner writes --out into a staging folder, so it passes the published out/merge here."
    )
    var published: String?

    @Flag(
        help:
            "Continue the merge in --out: fold only records at or after its high-water marks (falls back to a full merge when there is none, or when overrides or source priorities changed)."
    )
    var incremental = false

    public init() {}

    public func execute(in context: CommandContext) throws {
        // Test hook (`TestHook.mergePause`): a pause before each entity kind, so a test can signal mid-merge.
        let pause = try TestHook.mergePause.seconds(in: context.environment)
        let cancellation = context.ownsProcess ? Cancellation.install() : Cancellation()
        do {
            try merge(cancellation, pause: pause, context: context)
        } catch let cancelled as MergeCancelled {
            context.say(
                "sportstime-merge: error: interrupted by \(cancelled.signalName) \(cancelled.stage); nothing was written. Run the merge again to complete it."
            )
            throw ExitCode(ExitStatus.failure)
        }
    }

    private func merge(_ cancellation: Cancellation, pause: Double, context: CommandContext) throws {
        let root = context.paths.root
        let url = context.paths.url
        let display = context.paths.display
        func printError(_ text: String) { context.say("sportstime-merge: \(text)") }
        var hashes: [String: String] = [:]

        // Normalized batches.
        let normalizedURL = url(normalized)
        guard FileManager.default.fileExists(atPath: normalizedURL.path) else {
            throw PipelineError.invalidInput(
                Diagnostic(
                    .error, at: SourceLocation(path: display(normalizedURL)),
                    "the normalized folder does not exist", fix: "Run normalize first"))
        }
        // The reference data (and its files' digests) read on another core while the batches are read.
        let referenceURL = url(reference)
        let paths = context.paths
        let referenceLoad = Background { () throws -> (ReferenceData, [String: String]) in
            let data = try ReferenceLoader.load(from: referenceURL, displayPath: paths.display(referenceURL))
            var hashes: [String: String] = [:]
            for kind in EntityKind.foldOrder {
                guard let name = kind.referenceFileName else { continue }
                let file = referenceURL.appendingPathComponent(name)
                if let data = FileManager.default.contents(atPath: file.path) { hashes[paths.display(file)] = ArtifactFiles.sha256(data) }
            }
            return (data, hashes)
        }
        // The override files, read and parsed on another core while the batches are read.
        let overridesURL = url(overrides)
        let overridesLoad = Background {
            () throws -> (hashes: [String: String], patches: [OverridePatch], retired: [RetiredSource]) in
            var hashes: [String: String] = [:]
            var overrideFiles: [(path: String, text: String)] = []
            // The folder's own *.yaml / *.yml files (not subfolders), in path order; a missing folder means none.
            let overrideURLs = ((try? FileManager.default.contentsOfDirectory(atPath: overridesURL.path)) ?? [])
                .filter { $0.hasSuffix(".yaml") || $0.hasSuffix(".yml") }
                .sorted()
                .map { overridesURL.appendingPathComponent($0) }
            // A link to a file inside the repository is followed; one that leads outside it is refused.
            let confinement = RepositoryConfinement(root: root)
            let outsideLinks = ([overridesURL] + overrideURLs).compactMap { confinement.checkRead($0) }
            if !outsideLinks.isEmpty { throw PipelineError.invalidInputs(outsideLinks) }
            for file in overrideURLs {
                let path = paths.display(file)
                let data = try Self.read(file, display: path, kind: .yaml)
                hashes[path] = ArtifactFiles.sha256(data)
                try TextEncoding.refuseWide(data, path: path)
                guard let text = String(data: data, encoding: .utf8) else {
                    throw PipelineError.invalidInput(
                        Diagnostic(.error, at: SourceLocation(path: path, line: 1), "the file is not UTF-8", fix: "Save it as UTF-8"))
                }
                overrideFiles.append((path, text))
            }
            let (patches, retired) = try OverrideParser.patchesAndRetiredSources(files: overrideFiles)
            return (hashes, patches, retired)
        }
        var batches: [RecordBatch<Game>] = []
        var allowances: [String: String] = [:]
        // Each file read, hashed and decoded on its own core; the first failure in path order is reported.
        let loaded = ArtifactFiles.files(under: normalizedURL.appendingPathComponent("games"), suffix: ".json")
            .parallelMap { file in
                Result { () throws -> (path: String, sha256: String, batch: RecordBatch<Game>, meta: [MetaKey: String]) in
                    let path = paths.display(file)
                    let data = try Self.read(file, display: path)
                    let (batch, meta) = try BatchReader.gameBatchAndMeta(from: data, path: path)
                    return (path, ArtifactFiles.sha256(data), batch, meta)
                }
            }
        for result in loaded {
            let file = try result.get()
            hashes[file.path] = file.sha256
            batches.append(file.batch)
            if let reason = file.meta[.allowShrink] {
                allowances[file.batch.origin.source] = reason
            }
        }

        // Overrides: read and parsed on another core while the batches were read; their problems are
        // reported here, after the batches', as before.
        let parsedOverrides = try overridesLoad.value()
        hashes.merge(parsedOverrides.hashes) { _, new in new }
        let (patches, retired) = (parsedOverrides.patches, parsedOverrides.retired)

        // Reference data.
        let (referenceData, referenceHashes) = try referenceLoad.value()
        hashes.merge(referenceHashes) { _, new in new }

        var input = MergeInput(
            reference: referenceData, referencePath: display(referenceURL), gameBatches: batches,
            overrides: patches)
        let settings = input.settingsMeta { ArtifactFiles.sha256(Data($0.utf8)) }

        // The earlier merge, when continuing it.
        let outURL = url(out)
        var previousHashes: [String: String] = [:]
        var reportMeta: [MetaKey: String] = [:]
        if incremental {
            switch try readPrevious(outURL, display: display, settings: settings) {
            case .continuing(let previous, let files):
                input.previous = previous
                previousHashes = files
            case .fullMerge(let reason):
                printError("note: \(reason); running a full merge")
                reportMeta[.incrementalFallback] = reason
            }
        }

        try cancellation.check(before: "before merging")
        let result = try Merger.merge(input) { kind in
            if pause > 0 {
                // The test hook says where it pauses, so a test signals the merge at a known point.
                printError("note: test pause before merging \(kind.rawValue)")
                Thread.sleep(forTimeInterval: pause)
            }
            try cancellation.check(before: "before merging \(kind.rawValue)")
        }
        // Each season's digests, once: the guard compares them with the published files', the files keep them.
        let seasonDigests = MergeOutput.seasonDigests(of: result) { ArtifactFiles.sha256(Data($0.utf8)) }
        let verdict = ShrinkGuard.check(
            published: try readPublished(published.map(url) ?? outURL, seasonDigests: seasonDigests, display: display, context: context),
            candidate: ShrinkGuard.Candidate(
                games: result.store.games, lineage: result.lineage, allowances: allowances, retired: retired,
                batchSources: Set(batches.map(\.origin.source))))
        for note in verdict.notes { printError(note) }
        guard verdict.passes else {
            for refusal in verdict.refusals { context.say(refusal.description) }
            throw ExitCode(ExitStatus.failure)
        }
        if pause > 0 { Thread.sleep(forTimeInterval: pause) }
        try cancellation.check(before: "before publishing")

        // Publish: each output is handed to the write queue as soon as it is encoded (so no more than a
        // few games or lineage files are held at a time; their flushes to disk overlap the encoding of the
        // next), then games files no longer produced are dropped. --out is the runner's staging folder;
        // the published store is replaced only after the whole merge succeeded.
        var produced: Set<String> = []
        // Four files in flight: the flushes overlap, and ten seasons' merge stays within its memory budget.
        let writes = FileWriteQueue(maxPending: 4)
        do {
            try MergeOutput.produce(
                for: result, input: input, hashes: hashes, previousHashes: previousHashes,
                settings: settings, reportMeta: reportMeta, idsDigest: { ArtifactFiles.sha256(Data($0.utf8)) },
                seasonDigests: seasonDigests
            ) { file in
                produced.insert(file.path)
                writes.write(file.data, to: outURL.appendingPathComponent(file.path))
            }
        } catch {
            // The files already queued are written (or fail) before the error is reported.
            _ = try? writes.finish()
            throw error
        }
        var changed = try writes.finish().count
        let stale = MergeOutput.perSeasonFolders.flatMap { folder in
            OutputPruning.staleFiles(in: outURL.appendingPathComponent(folder), suffix: ".json", keeping: produced, relativeTo: outURL)
        }
        for file in stale {
            try FileManager.default.removeItem(at: file)
            changed += 1
        }

        for warning in result.warnings { context.say(warning.description) }
        for kind in EntityKind.foldOrder {
            guard let counts = result.counts(kind) else { continue }
            var line = "\(kind.rawValue): read \(counts.read), applied \(counts.applied), skippedOlder \(counts.skippedOlder)"
            line += ", skippedIncompatible \(counts.skippedIncompatible), rejected \(counts.rejected)"
            if result.mode == .incremental { line += ", skippedBelowMark \(counts.skippedBelowMark)" }
            line += ", stored \(counts.stored)"
            if kind == .games { line += ", deprecated \(counts.deprecated)" }
            printError(line)
        }
        if let summary = result.conflictSummary {
            printError(
                "cross-source: \(summary.matchedAcrossDates) games matched across dates, \(summary.ambiguousMatches) ambiguous pairings kept apart; conflicts: dateMoved \(summary.dateMoved), timeMoved \(summary.timeMoved), venueDiffers \(summary.venueDiffers), statusContradicts \(summary.statusContradicts)"
            )
        }
        for pending in result.pendingGames {
            let teams = pending.teams.keys.sorted()
            printError(
                "pending: \(pending.sport)-\(pending.season): \(pending.pending) regular-season games not listed yet "
                    + "(\(pending.listed) of \(pending.expected); \(teams.count) teams short: "
                    + "\(teams.prefix(5).map { "\($0) \(pending.teams[$0]!)" }.joined(separator: ", "))\(teams.count > 5 ? ", ..." : "")), "
                    + "declared by \(pending.source): \(pending.reason)")
        }
        printError(
            "\(result.mode.rawValue) merge: \(produced.count) files, \(changed) changed, \(result.rejects.count) rejects, \(result.conflicts.count) cross-source conflicts, in \(display(outURL))"
        )
        context.keepUntilExit((result, input, batches, loaded))
    }

    /// The published seasons as the shrink guard reads them. A season's records are read only when its
    /// header's digests differ from this merge's (`ShrinkGuard.PublishedSeason`); a published file that
    /// cannot be read is noted and left out.
    private func readPublished(
        _ publishedURL: URL, seasonDigests: [String: SeasonDigests], display: (URL) -> String, context: CommandContext
    ) throws -> [ShrinkGuard.PublishedSeason] {
        let files = ArtifactFiles.files(under: publishedURL.appendingPathComponent("games"), suffix: ".json")
        // A season this merge has no game of: no ids and no rows (the digest of empty text).
        let (digests, none) = (seasonDigests, ArtifactFiles.sha256(Data()))
        let headers = files.map { (url: $0, path: display($0)) }.parallelMap { file in
            Result { () throws -> (data: Data, key: String, sameIds: Bool, sameRows: Bool) in
                let data = try Self.read(file.url, display: file.path)
                let header = try EnvelopeReader.headerSkippingRecords(of: data, path: file.path, expecting: .games)
                let stem = String(file.url.lastPathComponent.dropLast(".json".count))
                let meta = header.meta ?? [:]
                let key = meta[.sport].flatMap { sport in meta[.season].map { "\(sport)-\($0)" } } ?? stem
                let sameIds = meta[.activeIdsSha256] == (digests[key]?.activeIds ?? none)
                let sameRows = meta[.rowsSha256] == (digests[key]?.rows ?? none)
                return (data, key, sameIds, sameRows)
            }
        }
        let anyRowsDiffer = headers.contains { (try? $0.get())?.sameRows == false }
        var seasons: [ShrinkGuard.PublishedSeason] = []
        for (file, header) in zip(files, headers) {
            let path = display(file)
            do {
                let (data, key, sameIds, sameRows) = try header.get()
                var season = ShrinkGuard.PublishedSeason(
                    key: key, path: path, games: [], hasSameActiveIds: sameIds, hasSameRows: sameRows)
                if !sameIds || anyRowsDiffer { season.games = try Self.publishedGames(in: data, path: path) }
                if !sameIds || !sameRows { season.rows = publishedLineageRows(gamesFile: file, display: display) }
                seasons.append(season)
            } catch let error as PipelineError {
                let reason = error.diagnostics.first?.message ?? "\(error)"
                context.say(
                    "sportstime-merge: note: cannot compare with the published \(path) (\(reason)); it is not checked for lost games")
            }
        }
        return seasons
    }

    /// The games of a published games file, each with its line.
    private static func publishedGames(in data: Data, path: String) throws -> [ShrinkGuard.PublishedGame] {
        let envelope = try EnvelopeReader.read(PublishedGame.self, from: data, path: path, expecting: .games)
        let firstLine = firstRecordLine(in: data)
        return envelope.records.enumerated().map { index, game in
            let sources = Set((game.sourceIds ?? [:]).keys).union(game.source.map { [$0] } ?? [])
            return ShrinkGuard.PublishedGame(
                id: game.id, sources: sources.sorted(), line: firstLine.map { $0 + index }, isActive: game.deprecatedAt == nil,
                sourceKeys: (game.sourceIds ?? [:]).map { ShrinkGuard.sourceKey(source: $0.key, id: $0.value) })
        }
    }

    /// Every row of the published lineage beside a games file; empty when it cannot be read.
    private func publishedLineageRows(gamesFile: URL, display: (URL) -> String) -> [ShrinkGuard.SourceRow] {
        let lineageFile = gamesFile.deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("lineage").appendingPathComponent(gamesFile.lastPathComponent)
        guard let data = (try? InputFiles.readIfPresent(lineageFile, path: display(lineageFile), kind: .artifact)) ?? nil,
            let envelope = try? EnvelopeReader.read(GameLineage.self, from: data, path: display(lineageFile), expecting: .lineage)
        else { return [] }
        return envelope.records.flatMap { entry in
            entry.rows.map { ShrinkGuard.SourceRow(gameId: entry.id, source: $0.source, sourceGameId: $0.sourceGameId, row: $0.row) }
        }
    }

    /// The 1-based line of the first record of a canonical envelope (the line after `"records": [`).
    static func firstRecordLine(in data: Data) -> Int? {
        var line = 1
        var lineStart = data.startIndex
        let marker = Array("\"records\": [".utf8)
        for index in data.indices where data[index] == UInt8(ascii: "\n") {
            let text = data[lineStart..<index].drop(while: { $0 == UInt8(ascii: " ") })
            if text.elementsEqual(marker) { return line + 1 }
            line += 1
            lineStart = data.index(after: index)
        }
        return nil
    }

    private static func read(_ file: URL, display: String, kind: InputLimits.Kind = .artifact) throws -> Data {
        try InputFiles.read(
            file, path: display, kind: kind, problem: "cannot read the file", fix: "Check that it exists and is readable",
            givingReason: true)
    }

    private enum Previous {
        case continuing(PreviousMerge, files: [String: String])
        case fullMerge(String)
    }

    private func readPrevious(_ outURL: URL, display: (URL) -> String, settings: [MetaKey: String]) throws -> Previous {
        let syncURL = outURL.appendingPathComponent("sync-state.json")
        guard let syncData = try InputFiles.readIfPresent(syncURL, path: display(syncURL), kind: .artifact) else {
            return .fullMerge("no earlier merge in \(display(outURL)) (no sync-state.json)")
        }
        var hashes: [String: String] = [display(syncURL): ArtifactFiles.sha256(syncData)]
        var entityFiles: [EntityKind: PreviousMergeReader.File] = [:]
        for kind in EntityKind.foldOrder where kind != .games {
            let file = outURL.appendingPathComponent(kind.outputFileName)
            guard let data = try InputFiles.readIfPresent(file, path: display(file), kind: .artifact) else { continue }
            entityFiles[kind] = PreviousMergeReader.File(path: display(file), data: data)
            hashes[display(file)] = ArtifactFiles.sha256(data)
        }
        var gameFiles: [PreviousMergeReader.File] = []
        for file in ArtifactFiles.files(under: outURL.appendingPathComponent("games"), suffix: ".json") {
            let data = try Self.read(file, display: display(file))
            gameFiles.append(PreviousMergeReader.File(path: display(file), data: data))
            hashes[display(file)] = ArtifactFiles.sha256(data)
        }
        let (previous, recorded) = try PreviousMergeReader.read(
            entityFiles: entityFiles, gameFiles: gameFiles,
            syncState: PreviousMergeReader.File(path: display(syncURL), data: syncData))
        if let blocker = MergeInput.incrementalBlocker(previous: recorded, current: settings) { return .fullMerge(blocker) }
        return .continuing(previous, files: hashes)
    }
}

/// The fields of a published game the shrink guard reads (other fields are ignored).
private struct PublishedGame: Codable, Sendable {
    var id: String
    var source: String?
    var sourceIds: [String: String]?
    var deprecatedAt: String?
}

extension PublishedGame: JSONLineDecodable {
    init(json: JSONValue, codingPath: [any CodingKey]) throws {
        let fields = try JSONFields(json, codingPath: codingPath)
        id = try fields.string("id")
        source = try fields.optionalString("source")
        sourceIds = try fields.value("sourceIds") == nil ? nil : fields.stringMap("sourceIds")
        deprecatedAt = try fields.optionalString("deprecatedAt")
    }
}
