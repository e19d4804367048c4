import Foundation
import SportsTimeCore

/// Reads the merge's input artifacts from their bytes (the command reads the files).
public enum BatchReader {
    /// Decodes a normalized games envelope (`out/normalize/games/<source>.json`, kind `sportstime.games`)
    /// into a batch, and returns the envelope's meta too (for keys the batch does not model, `allowShrink`).
    /// Its meta must name `source` and `scrapedAt`; `priority` defaults to 0, `system` to the source,
    /// `scope` to `<sport>-<season>`. Records from a newer schema that do not decode are kept as
    /// `UnreadableRecord`s; any other bad record fails the file with its line.
    public static func gameBatchAndMeta(from data: Data, path: String) throws -> (batch: RecordBatch<Game>, meta: [MetaKey: String]) {
        // Every record a game (nearly every file): read as games, no wrapper per record. A record that
        // does not read as a game (one from a newer schema, or a bad one) sends the file the lenient way,
        // which keeps the first kind and refuses the second with its line.
        if let envelope = try? EnvelopeReader.read(Game.self, from: data, path: path, expecting: .games) {
            let origin = try origin(of: envelope.meta, path: path)
            let firstLine = canonicalFirstRecordLine(in: data, recordCount: envelope.records.count)
            return (RecordBatch(origin: origin, records: envelope.records, unreadable: [], firstRecordLine: firstLine), envelope.meta)
        }
        var envelope = try EnvelopeReader.read(LenientRecord<Game>.self, from: data, path: path, expecting: .games)
        let origin = try origin(of: envelope.meta, path: path)
        var records: [Game] = []
        var unreadable: [UnreadableRecord] = []
        records.reserveCapacity(envelope.records.count)
        // Each record moved out of the envelope (taken from the end, then the order turned back), not
        // copied: a copy of a game retains every string of it, and the envelope's copy is dropped anyway.
        var entries = envelope.records
        envelope.records = []
        while let entry = entries.popLast() {
            switch consume entry {
            case .record(let game): records.append(game)
            case .unreadable(let stub): unreadable.append(stub)
            }
        }
        // Turned back in place by moving bytes (the array's own `reverse()` copied every game).
        records.withUnsafeMutableBufferPointer { $0.reverse() }
        unreadable.reverse()
        let firstLine = unreadable.isEmpty ? canonicalFirstRecordLine(in: data, recordCount: records.count) : nil
        return (RecordBatch(origin: origin, records: records, unreadable: unreadable, firstRecordLine: firstLine), envelope.meta)
    }

    static func origin(of meta: [MetaKey: String], path: String) throws -> BatchOrigin {
        func problem(_ message: String, _ fix: String) -> PipelineError {
            .invalidInput(Diagnostic(.error, at: SourceLocation(path: path, line: 1), message, fix: fix))
        }
        guard let source = meta[.source], !source.isEmpty else {
            throw problem("the batch's meta has no 'source'", "Re-run normalize: every games file names its source")
        }
        guard let text = meta[.scrapedAt] else {
            throw problem("the batch's meta has no 'scrapedAt'", "Declare scrapedAt for the source in pipeline/sources.yaml and re-run")
        }
        guard let scrapedAt = Instant(iso8601: text) else {
            throw problem("meta scrapedAt '\(text)' is not an ISO-8601 instant", "Write it like 2026-03-01T12:00:00Z")
        }
        var priority = 0
        if let text = meta[.priority] {
            guard let value = Int(text) else {
                throw problem("meta priority '\(text)' is not an integer", "Write the priority as an integer")
            }
            priority = value
        }
        let system = meta[.system].flatMap { $0.isEmpty ? nil : $0 } ?? source
        let defaultScope = [meta[.sport], meta[.season]].compactMap { $0 }.joined(separator: "-")
        let scope = meta[.scope].flatMap { $0.isEmpty ? nil : $0 } ?? (defaultScope.isEmpty ? source : defaultScope)
        var trust: [FieldGroup: Int] = [:]
        for (key, text) in meta {
            guard let name = key.trustedGroup else { continue }
            guard let group = FieldGroup(rawValue: name) else {
                throw problem(
                    "meta \(key) names no field group (known: \(FieldGroup.allCases.map(\.rawValue).joined(separator: ", ")))",
                    "Fix trust: in pipeline/sources.yaml and re-run ingest")
            }
            guard let rank = Int(text) else {
                throw problem("meta \(key) '\(text)' is not an integer", "Write the trust rank as an integer")
            }
            trust[group] = rank
        }
        var expectedGames: ExpectedGames?
        if let text = meta[.expectedGamesPerTeam] {
            guard let perTeam = Int(text), perTeam > 0 else {
                throw problem(
                    "meta \(MetaKey.expectedGamesPerTeam) '\(text)' is not a positive integer",
                    "Fix expectedGames.perTeam in pipeline/sources.yaml and re-run ingest")
            }
            expectedGames = ExpectedGames(perTeam: perTeam, reason: meta[.expectedGamesReason] ?? "")
        }
        return BatchOrigin(
            source: source, system: system, scope: scope, scrapedAt: scrapedAt, priority: priority,
            path: path, trust: trust, expectedGames: expectedGames)
    }

    /// The line of the first record when the file is canonical (header lines, then `  "records": [`,
    /// then exactly one record per line, then `  ]`); nil otherwise.
    static func canonicalFirstRecordLine(in data: Data, recordCount: Int) -> Int? {
        guard recordCount > 0 else { return nil }
        let marker = Array("  \"records\": [".utf8)
        let closing = Array("  ]".utf8)
        return data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) -> Int? in
            guard let base = buffer.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return nil }
            let count = buffer.count
            func starts(with prefix: [UInt8], at offset: Int) -> Bool {
                offset + prefix.count <= count
                    && prefix.withUnsafeBufferPointer { memcmp(base + offset, $0.baseAddress!, prefix.count) == 0 }
            }
            var line = 1
            var start = 0
            var recordsLine: Int?
            while start < count, let found = memchr(base + start, 0x0A, count - start) {
                let index = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
                if let first = recordsLine {
                    if line == first + recordCount + 1 { return starts(with: closing, at: start) ? first + 1 : nil }
                } else if index - start == marker.count, starts(with: marker, at: start) {
                    recordsLine = line
                }
                line += 1
                start = index + 1
            }
            return nil
        }
    }
}

/// A record that decodes, or the id and version of one from a newer schema that does not.
enum LenientRecord<Record: CanonicalRecord>: Codable, Sendable {
    case record(Record)
    case unreadable(UnreadableRecord)

    private struct Stub: Codable {
        var id: String
        var schemaVersion: Int
    }

    init(from decoder: Decoder) throws {
        do {
            self = .record(try Record(from: decoder))
        } catch {
            if let stub = try? Stub(from: decoder), stub.schemaVersion > Record.artifactKind.currentVersion {
                self = .unreadable(UnreadableRecord(id: stub.id, schemaVersion: stub.schemaVersion))
            } else {
                throw error
            }
        }
    }

    func encode(to encoder: Encoder) throws {
        switch self {
        case .record(let record): try record.encode(to: encoder)
        case .unreadable(let stub): try Stub(id: stub.id, schemaVersion: stub.schemaVersion).encode(to: encoder)
        }
    }
}

extension LenientRecord: JSONDirectDecodable where Record: JSONDirectDecodable {
    /// A record read straight from its bytes; anything else (a record too new to read, a bad one) is
    /// read the general way below.
    static func directlyDecoded(_ bytes: UnsafeBufferPointer<UInt8>) -> LenientRecord? {
        guard let record = Record.directlyDecoded(bytes) else { return nil }
        return .record(consume record)
    }
}

extension LenientRecord: JSONLineDecodable where Record: JSONLineDecodable {
    init(json: JSONValue, codingPath: [any CodingKey]) throws {
        do {
            self = .record(try Record(json: json, codingPath: codingPath))
        } catch {
            if let fields = try? JSONFields(json, codingPath: codingPath), let id = try? fields.string("id"),
                let version = try? fields.int("schemaVersion"), version > Record.artifactKind.currentVersion
            {
                self = .unreadable(UnreadableRecord(id: id, schemaVersion: version))
            } else {
                throw error
            }
        }
    }
}

extension LenientRecord: JSONLineCodable where Record: JSONLineCodable {
    func write(to writer: inout JSONWriter) {
        switch self {
        case .record(let record): record.write(to: &writer)
        case .unreadable(let stub):
            writer.beginObject()
            writer.field("id", stub.id)
            writer.field("schemaVersion", stub.schemaVersion)
            writer.endObject()
        }
    }
}

/// The earlier merge read back from `out/merge/` for an incremental merge.
public enum PreviousMergeReader {
    /// One file's repository-relative path and bytes.
    public struct File: Sendable {
        public var path: String
        public var data: Data
        public init(path: String, data: Data) { self.path = path; self.data = data }
    }

    /// Decodes the earlier store and its sync state. Returns the settings the earlier run recorded
    /// (`MergeInput.settingsMeta`) so the command can fall back to a full merge when they changed.
    public static func read(entityFiles: [EntityKind: File], gameFiles: [File], syncState: File) throws
        -> (previous: PreviousMerge, settings: [MetaKey: String])
    {
        var store = MergeStore()
        func records<Record: MergeableRecord>(_ type: Record.Type) throws -> [String: Record] {
            guard let file = entityFiles[Record.entityKind] else { return [:] }
            let envelope = try EnvelopeReader.read(Record.self, from: file.data, path: file.path, expecting: Record.artifactKind)
            return MergeStore.index(envelope.records)
        }
        store.sports = try records(Sport.self)
        store.stadiums = try records(Stadium.self)
        store.teams = try records(Team.self)
        store.leagueStructures = try records(LeagueStructure.self)
        store.teamAliases = try records(TeamAlias.self)
        store.stadiumAliases = try records(StadiumAlias.self)
        for file in gameFiles.sorted(by: { $0.path < $1.path }) {
            let envelope = try EnvelopeReader.read(Game.self, from: file.data, path: file.path, expecting: .games)
            for game in envelope.records { store.games[game.id] = game }
        }
        let sync = try EnvelopeReader.read(SyncState.self, from: syncState.data, path: syncState.path, expecting: .syncState)
        var highWater: [EntityKind: Instant] = [:]
        for state in sync.records {
            guard let kind = EntityKind(rawValue: state.id) else {
                throw PipelineError.invalidInput(
                    Diagnostic(
                        .error, at: SourceLocation(path: syncState.path), "unknown entity kind '\(state.id)' in the sync state",
                        fix: "Run a full merge (without --incremental)"))
            }
            if let mark = state.highWater { highWater[kind] = mark }
        }
        return (PreviousMerge(store: store, highWater: highWater), sync.meta)
    }
}

/// One file the merge writes, relative to its output folder.
public struct OutputFile: Sendable, Hashable {
    public var path: String
    public var data: Data
}

/// Turns a merge result into the bytes of `out/merge/`.
public enum MergeOutput {
    /// `games/<sport>-<season>.json`.
    public static func gamesFileName(sport: String, season: String) -> String { "games/\(sport)-\(season).json" }

    /// The input references of `paths` that `hashes` knows, sorted.
    static func references(_ paths: some Sequence<String>, _ hashes: [String: String]) -> [InputReference] {
        Set(paths).compactMap { path in hashes[path].map { InputReference(path: path, sha256: $0) } }.sorted()
    }

    /// `lineage/<sport>-<season>.json`: where every game of `games/<sport>-<season>.json` came from.
    public static func lineageFileName(sport: String, season: String) -> String { "lineage/\(sport)-\(season).json" }

    /// The folders whose files a merge owns one per sport and season (stale ones are removed).
    public static let perSeasonFolders = ["games", "lineage"]

    /// Every output file: one per entity kind, games split per sport and season, `sync-state.json`,
    /// `merge-report.json`, `rejects.jsonl`; handed to `emit` one at a time as each is encoded, so a caller
    /// that writes them as they come never holds more than one games or lineage file. The files that are not
    /// per season (entity kinds, sync state, report, rejects) come first, then each season's games and
    /// lineage in path order.
    ///
    /// - Parameters:
    ///   - hashes: SHA-256 per repository-relative input path (reference files, batches, override files,
    ///     and in incremental mode the earlier merge's files); each output lists the inputs it came from.
    ///   - settings: `MergeInput.settingsMeta`, recorded in `sync-state.json`.
    ///   - previousHashes: in incremental mode, the earlier merge's files; listed as inputs of the report
    ///     only, so the store and sync state are the same bytes as a full merge's.
    ///   - reportMeta: extra header fields for the report (the command's notes, e.g. why it fell back
    ///     to a full merge).
    public static func produce(
        for result: MergeResult, input: MergeInput, hashes: [String: String],
        previousHashes: [String: String] = [:],
        settings: [MetaKey: String], reportMeta: [MetaKey: String] = [:],
        producer: Producer = Producer(stage: "merge"), idsDigest: (@Sendable (String) -> String)? = nil,
        seasonDigests: [String: SeasonDigests] = [:],
        emit: (OutputFile) throws -> Void
    ) throws {
        var overrideFiles: [EntityKind: Set<String>] = [:]
        var overrideFilesByGame: [String: Set<String>] = [:]
        for patch in input.overrides {
            overrideFiles[patch.entity, default: []].insert(patch.location.path)
            if patch.entity == .games { overrideFilesByGame[patch.recordId, default: []].insert(patch.location.path) }
        }

        // The files that are not per season, encoded beside the seasons' (jobs of the same in-order map).
        let kindInputs = overrideFiles
        @Sendable func entityFile<Record: MergeableRecord>(_ records: [String: Record]) throws -> OutputFile {
            let kind = Record.entityKind
            let envelope = Envelope(
                kind: kind.artifactKind, producer: producer,
                inputs: MergeOutput.references([input.referenceFile(of: kind)] + (kindInputs[kind] ?? []), hashes),
                records: Array(records.values))
            return OutputFile(path: kind.outputFileName, data: try envelope.canonicalData())
        }
        let allInputs = MergeOutput.references(hashes.keys, hashes)
        var meta = reportMeta
        meta[.mode] = result.mode.rawValue
        let (reportMetaAll, reportInputs) = (
            meta, (allInputs + previousHashes.map { InputReference(path: $0.key, sha256: $0.value) }).sorted()
        )
        let commonFiles: [@Sendable () throws -> OutputFile] = [
            { try entityFile(result.store.sports) },
            { try entityFile(result.store.stadiums) },
            { try entityFile(result.store.teams) },
            { try entityFile(result.store.leagueStructures) },
            { try entityFile(result.store.teamAliases) },
            { try entityFile(result.store.stadiumAliases) },
            {
                let sync = Envelope(
                    kind: .syncState, producer: producer, inputs: allInputs, meta: settings, records: result.syncStates)
                return OutputFile(path: "sync-state.json", data: try sync.canonicalData())
            },
            {
                let report = Envelope(
                    kind: .mergeReport, producer: producer, inputs: reportInputs, meta: reportMetaAll, records: result.report)
                return OutputFile(path: "merge-report.json", data: try report.canonicalData())
            },
            { OutputFile(path: "rejects.jsonl", data: RejectsWriter.data(result.rejects)) },
        ]

        // Games: one file per sport and season; inputs are the batches that list a game of it. Games are
        // found by their place in the store and copied one file at a time (a copy of the whole store
        // would add ~300 bytes per game to the merge's peak memory).
        let store = result.store.games
        let allGames = Array(store.indices)
        var gamesByFile: [String: [Int]] = [:]
        var keyOfFile: [String: (sport: String, season: String)] = [:]
        var nameOfKey: [SeasonKey: String] = [:]
        for (index, position) in allGames.enumerated() {
            // Fields read in place: a copy of the game would retain every string of it.
            let key = SeasonKey(sport: store.values[position].sport, season: store.values[position].season)
            let name: String
            if let known = nameOfKey[key] {
                name = known
            } else {
                name = gamesFileName(sport: key.sport, season: key.season)
                nameOfKey[key] = name
                keyOfFile[name] = (key.sport, key.season)
            }
            gamesByFile[name, default: []].append(index)
        }
        var batchesByFile: [String: Set<String>] = [:]
        for batch in input.gameBatches {
            var keys: Set<SeasonKey> = []
            // Fields read in place: iterating the records would copy each game (a retain of every string).
            for index in batch.records.indices {
                keys.insert(SeasonKey(sport: batch.records[index].sport, season: batch.records[index].season))
            }
            for key in keys { batchesByFile[gamesFileName(sport: key.sport, season: key.season), default: []].insert(batch.origin.path) }
        }
        // Each season's games and lineage are encoded on every core and handed to `emit` in path order.
        let overridesByGame = overrideFilesByGame, batchPaths = batchesByFile, seasonOf = keyOfFile, groups = gamesByFile
        let given = seasonDigests
        @Sendable func encode(_ name: String) throws -> [OutputFile] {
            let gamesByFile = groups, keyOfFile = seasonOf, batchesByFile = batchPaths, overrideFilesByGame = overridesByGame
            let key = keyOfFile[name]!
            let digests = given["\(key.sport)-\(key.season)"]
            let needsRowPairs = digests == nil && idsDigest != nil
            let members = gamesByFile[name]!
            let games: [Game]
            if let order = digests?.positions, order.count == members.count {
                // The season's games as the digests sorted them: taken from their places, not sorted again.
                games = order.map { store.values[$0] }
            } else {
                let ids = members.map { store[allGames[$0]].key }
                games = TextOrder.positions(of: ids).map { store[allGames[members[$0]]].value }
            }
            var lineage: [GameLineage] = []
            lineage.reserveCapacity(games.count)
            var rowPaths: Set<String> = []
            var previousBatch = ""
            var rowsBySource: [String: Int] = [:]
            var (runSource, runCount) = ("", 0)
            var rowPairs: [(source: String, gameId: String)] = []
            for index in games.indices {
                let gameId = games[index].id
                // A batch that labels the season differently still fed this file's games. (Most rows in
                // a row come from one batch: the set is asked only when the batch changes.)
                let entry = result.lineage.lineage(of: gameId) { path in
                    if path != previousBatch {
                        rowPaths.insert(path)
                        previousBatch = path
                    }
                }
                guard let entry else { continue }
                lineage.append(entry)
                // Rows counted per run of one source (the games of a file come mostly from one source in a
                // row), into the dictionary when the source changes: a comparison a row, not a lookup.
                entry.rows.withUnsafeBufferPointer { rows in
                    guard let base = rows.baseAddress else { return }
                    for index in rows.indices {
                        let row = base + index
                        if row.pointee.source == runSource {
                            runCount += 1
                        } else {
                            if runCount > 0 { rowsBySource[runSource, default: 0] += runCount }
                            (runSource, runCount) = (row.pointee.source, 1)
                        }
                        if needsRowPairs { rowPairs.append((row.pointee.source, gameId)) }
                    }
                }
            }
            if runCount > 0 { rowsBySource[runSource, default: 0] += runCount }
            var paths = batchesByFile[name] ?? []
            paths.formUnion(rowPaths)
            if !overrideFilesByGame.isEmpty {
                for index in games.indices { paths.formUnion(overrideFilesByGame[games[index].id] ?? []) }
            }
            // The dates the file spans, so a reader (plan) can skip files outside its window unread.
            var first = games[0].localDate
            var last = first
            for index in games.indices {
                let date = games[index].localDate
                if date < first { first = date }
                if date > last { last = date }
            }
            // The dates the file spans; how many active games and how many rows of each source it holds (a
            // reviewer reads a source's drop in the diff of this header); and the digests of its active ids
            // and of its rows' sources and games, which let the shrink guard skip a season that lost nothing.
            var meta: [MetaKey: String] = [.sport: key.sport, .season: key.season, .firstDate: first.iso8601, .lastDate: last.iso8601]
            for (source, count) in rowsBySource { meta[.rows(of: source)] = String(count) }
            let active = games.indices.filter { games[$0].deprecatedAt == nil }.map { games[$0].id }
            meta[.activeGames] = String(active.count)
            if let digests {
                meta[.activeIdsSha256] = digests.activeIds
                meta[.rowsSha256] = digests.rows
            } else if let idsDigest {
                meta[.activeIdsSha256] = idsDigest(ShrinkGuard.idsText(active))
                meta[.rowsSha256] = idsDigest(ShrinkGuard.rowsText(rowPairs))
            }
            let envelope = Envelope(
                kind: .games, producer: producer, inputs: MergeOutput.references(paths, hashes), meta: meta, records: games)
            var files = [OutputFile(path: name, data: try envelope.canonicalData())]
            if !lineage.isEmpty {
                // Lineage ids are the games' ids, so the games' order is theirs too.
                let lineageEnvelope = Envelope(
                    kind: .lineage, producer: producer, inputs: MergeOutput.references(rowPaths, hashes),
                    meta: [.sport: key.sport, .season: key.season], records: lineage)
                files.append(
                    OutputFile(
                        path: lineageFileName(sport: key.sport, season: key.season),
                        data: try lineageEnvelope.canonicalData()))
            }
            return files
        }
        // Handed to `emit` in order as each is ready (the common files, then the seasons' in path order),
        // while later ones are encoded; no more than two per core wait to be handed over.
        let names = gamesByFile.keys.sorted()
        let jobs = commonFiles.indices.map { -1 - $0 } + names.indices
        try jobs.forEachMappedInOrder(window: 2 * max(1, ProcessInfo.processInfo.activeProcessorCount)) { job in
            job < 0 ? [try commonFiles[-1 - job]()] : try encode(names[job])
        } consume: { files in
            for file in files { try emit(file) }
        }
    }

    private struct SeasonKey: Hashable {
        var sport: String
        var season: String
    }

    /// The digests a season's games file keeps in its meta (`MetaKey.activeIdsSha256`, `MetaKey.rowsSha256`), per
    /// `<sport>-<season>` (the file's name): worked out once per merge, on all cores, for both the shrink
    /// guard (which compares them with the published files') and `produce` (which writes them).
    /// `hash` turns text into a digest (the command passes SHA-256).
    public static func seasonDigests(of result: MergeResult, hash: @Sendable (String) -> String) -> [String: SeasonDigests] {
        let store = result.store.games
        let positions = Array(store.indices)
        // Grouped by (sport, season) without building a string per game; fields read in place (a copy of
        // the game would retain every string of it). Two pairs that spell the same name share its file.
        var groupOfKey: [SeasonKey: Int] = [:]
        var names: [String] = []
        var members: [[Int]] = []
        var groupOfName: [String: Int] = [:]
        for offset in positions.indices {
            let key = SeasonKey(sport: store.values[positions[offset]].sport, season: store.values[positions[offset]].season)
            let group: Int
            if let known = groupOfKey[key] {
                group = known
            } else {
                let name = "\(key.sport)-\(key.season)"
                if let shared = groupOfName[name] {
                    group = shared
                } else {
                    group = names.count
                    groupOfName[name] = group
                    names.append(name)
                    members.append([])
                }
                groupOfKey[key] = group
            }
            members[group].append(offset)
        }
        let lineage = result.lineage
        let digests = members.parallelMap { offsets in
            let games = offsets.map { offset in
                (id: store.keys[positions[offset]], isActive: store.values[positions[offset]].deprecatedAt == nil)
            }
            let texts = ShrinkGuard.seasonTexts(games: games) { id, body in lineage.forEachRowSource(of: id, body) }
            return SeasonDigests(
                activeIds: hash(texts.ids), rows: hash(texts.rows), positions: texts.order.map { positions[offsets[$0]] })
        }
        return Dictionary(uniqueKeysWithValues: zip(names, digests))
    }
}

/// A season's digests: of its active games' ids (`ShrinkGuard.idsText`) and of its rows' sources and games
/// (`ShrinkGuard.rowsText`).
public struct SeasonDigests: Sendable, Equatable {
    public var activeIds: String
    public var rows: String
    /// The season's games in id order, as their places in the merged store (sorted once for the digests;
    /// `produce` writes the games in it, taken from their places without looking their ids up).
    public var positions: [Dictionary<String, Game>.Index]

    public init(activeIds: String, rows: String, positions: [Dictionary<String, Game>.Index] = []) {
        self.activeIds = activeIds; self.rows = rows; self.positions = positions
    }
}

extension MergeInput {
    /// The settings an incremental merge must share with the merge it continues, as sync-state meta:
    /// the merge version, a hash of the override patches, and each source's priority (each changes
    /// which value wins without changing any `lastModified`). `hash` turns text into a digest (the
    /// command passes SHA-256).
    public func settingsMeta(hash: (String) -> String) -> [MetaKey: String] {
        var meta: [MetaKey: String] = [.mergeVersion: SportsTimeVersion.current]
        let overrideLines = overrides.map { "\($0.entity.rawValue)\t\($0.recordId)\t\($0.field)\t\($0.value)" }.sorted()
        meta[.overrides] = hash(overrideLines.joined(separator: "\n"))
        for (source, priority) in SourcePriorities(gameBatches.map(\.origin)).bySource { meta[.priority(of: source)] = String(priority) }
        return meta
    }

    /// Why an incremental merge cannot continue the earlier one (whose sync-state meta is `previous`),
    /// or nil when it can. New sources are fine; a source whose priority changed is not.
    public static func incrementalBlocker(previous: [MetaKey: String], current: [MetaKey: String]) -> String? {
        if previous[.mergeVersion] != current[.mergeVersion] {
            return
                "the earlier merge was made by merge version \(previous[.mergeVersion] ?? "unknown"), this is \(current[.mergeVersion] ?? "unknown")"
        }
        if previous[.overrides] != current[.overrides] { return "the overrides changed since the earlier merge" }
        for key in current.keys.sorted() {
            guard let source = key.prioritySource else { continue }
            if let before = previous[key], before != current[key] {
                return "source '\(source)' changed priority from \(before) to \(current[key]!)"
            }
        }
        return nil
    }
}
