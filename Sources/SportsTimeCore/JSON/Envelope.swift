import Foundation

/// The artifact kinds that stages exchange, each with the newest schema version this build reads and writes.
public enum ArtifactKind: String, CaseIterable, Sendable, Codable {
    case rawGames = "sportstime.raw-games"
    case sports = "sportstime.sports"
    case stadiums = "sportstime.stadiums"
    case teams = "sportstime.teams"
    case games = "sportstime.games"
    case leagueStructures = "sportstime.league-structures"
    case teamAliases = "sportstime.team-aliases"
    case stadiumAliases = "sportstime.stadium-aliases"
    case unresolved = "sportstime.unresolved"
    case syncState = "sportstime.sync-state"
    case mergeReport = "sportstime.merge-report"
    case tripPlan = "sportstime.trip-plan"
    case lineage = "sportstime.lineage"

    /// The newest `schemaVersion` of this kind that this build understands. Games are at 2: start-time
    /// knowledge (`startKnowledge`) replaced the yes/no `timeTBD` of version 1, which is still read.
    public var currentVersion: Int {
        switch self {
        case .games: 2
        default: 1
        }
    }
}

/// Which stage and build wrote an artifact.
public struct Producer: Codable, Hashable, Sendable {
    public var stage: String
    public var version: String
    public init(stage: String, version: String = SportsTimeVersion.current) {
        self.stage = stage; self.version = version
    }
}

/// The build's version, stamped into every artifact's `producer`.
public enum SportsTimeVersion {
    public static let current = "0.1.0"
}

/// One input an artifact was made from: a repository-relative path and the SHA-256 of its bytes.
public struct InputReference: Codable, Hashable, Sendable, Comparable {
    public var path: String
    public var sha256: String
    public init(path: String, sha256: String) { self.path = path; self.sha256 = sha256 }
    public static func < (a: Self, b: Self) -> Bool { (a.path, a.sha256) < (b.path, b.sha256) }
}

/// The thin header every envelope starts with; decoded before the records.
public struct EnvelopeHeader: Codable, Sendable, Hashable {
    public var kind: String
    public var schemaVersion: Int
    public var producer: Producer?
    public var inputs: [InputReference]?
}

/// A versioned artifact: header plus records (sorted by id when written).
public struct Envelope<Record: Codable & Sendable>: Sendable {
    public var kind: ArtifactKind
    public var schemaVersion: Int
    public var producer: Producer
    public var inputs: [InputReference]
    /// Extra header fields for kinds that have them (e.g. a batch's `scope`); written compact.
    public var meta: [String: String]
    public var records: [Record]

    public init(kind: ArtifactKind, producer: Producer, inputs: [InputReference] = [],
                meta: [String: String] = [:], records: [Record]) {
        self.kind = kind
        self.schemaVersion = kind.currentVersion
        self.producer = producer
        self.inputs = inputs
        self.meta = meta
        self.records = records
    }
}

extension Envelope where Record: Identifiable, Record.ID == String {
    /// Canonical bytes: records sorted by `id`, inputs sorted by path.
    public func canonicalData() throws -> Data {
        // Sorting indices by id moves two words per swap instead of whole records.
        let ids = records.map(\.id)
        let order = ids.indices.sorted { ids[$0] < ids[$1] }
        return try canonicalData(recordsInOrder: order.map { records[$0] })
    }
}

extension Envelope {
    /// Canonical bytes with the records in the order given (the caller guarantees the order is declared).
    public func canonicalData(recordsInOrder ordered: [Record]) throws -> Data {
        var document = DocumentWriter(capacity: 512 + ordered.count * 320)
        try document.array("inputs", inputs.sorted())
        try document.field("kind", kind.rawValue)
        if !meta.isEmpty { try document.field("meta", meta) }
        try document.field("producer", producer)
        try document.array("records", ordered)
        try document.field("schemaVersion", schemaVersion)
        return document.finish()
    }
}

/// Reads envelopes: header first, then the records, refusing kinds and versions it does not know.
public enum EnvelopeReader {
    /// Decodes the header and checks kind and version; the error names the file, both versions, and what to do.
    public static func header(of data: Data, path: String, expecting kind: ArtifactKind) throws -> EnvelopeHeader {
        try header(of: try document(data, path: path), path: path, expecting: kind)
    }

    /// The parsed document, or a located error for bytes that are not a JSON document within the limits.
    static func document(_ data: Data, path: String) throws -> JSONValue {
        guard data.count <= InputLimits.jsonFileBytes else {
            throw PipelineError.invalidInput(
                Diagnostic(.error, at: SourceLocation(path: path, line: 1),
                           "the artifact is \(data.count) bytes, more than the limit of \(InputLimits.jsonFileBytes)",
                           fix: "Re-run the stage that writes it; check that its inputs are the intended files"))
        }
        do {
            return try JSONParser.parse(data)
        } catch let error as JSONSyntaxError {
            if error.message.hasPrefix(JSONParser.nestingMessagePrefix) {
                throw PipelineError.invalidInput(
                    Diagnostic(.error, at: SourceLocation(path: path, line: 1),
                               "the artifact nests arrays and objects deeper than \(InputLimits.jsonDepth) levels",
                               fix: "Re-run the stage that writes it"))
            }
            throw PipelineError.invalidInput(
                Diagnostic(.error, at: SourceLocation(path: path, line: error.line, column: error.column),
                           "not a SportsTime artifact (not valid JSON: \(error.message))",
                           fix: "Re-run the stage that writes it"))
        }
    }

    static func header(of document: JSONValue, path: String, expecting kind: ArtifactKind) throws -> EnvelopeHeader {
        let header: EnvelopeHeader
        do {
            header = try JSONValueDecoder.decode(EnvelopeHeader.self, from: document)
        } catch {
            throw PipelineError.invalidInput(
                Diagnostic(.error, at: SourceLocation(path: path, line: 1),
                           "not a SportsTime artifact (no envelope header: \(describe(error)))",
                           fix: "Re-run the stage that writes it"))
        }
        guard header.kind == kind.rawValue else {
            throw PipelineError.invalidInput(
                Diagnostic(.error, at: SourceLocation(path: path, line: 1),
                           "kind '\(header.kind)' where '\(kind.rawValue)' was expected",
                           fix: "Point the stage at the right file"))
        }
        guard header.schemaVersion <= kind.currentVersion else {
            let stage = header.producer?.stage ?? "the producing stage"
            throw PipelineError.invalidInput(
                Diagnostic(.error, at: SourceLocation(path: path, line: 1),
                           "schemaVersion \(header.schemaVersion) is newer than this build reads (up to \(kind.currentVersion))",
                           fix: "Rebuild, or re-run \(stage) with this build"))
        }
        guard header.schemaVersion >= 1 else {
            throw PipelineError.invalidInput(
                Diagnostic(.error, at: SourceLocation(path: path, line: 1),
                           "schemaVersion \(header.schemaVersion) is not a valid version",
                           fix: "Re-run the stage that writes it"))
        }
        return header
    }

    /// Decodes a whole envelope of `Record`s after checking its header. Records with a hand-written line
    /// (`JSONLineCodable`) are read without Codable; a large file's records are read on all cores.
    public static func read<Record: Codable & Sendable>(
        _ type: Record.Type, from data: Data, path: String, expecting kind: ArtifactKind
    ) throws -> Envelope<Record> {
        let document = try document(data, path: path)
        let header = try header(of: document, path: path, expecting: kind)
        func mismatch(_ error: Error) -> PipelineError {
            PipelineError.invalidInput(
                Diagnostic(.error, at: SourceLocation(path: path, line: lineOf(error, in: data)),
                           "records do not match \(kind.rawValue) v\(header.schemaVersion): \(describe(error))",
                           fix: "Re-run the stage that writes it"))
        }
        let records: [Record]
        let meta: [String: String]?
        do {
            guard case .array(let items)? = document["records"] else {
                throw DecodingError.keyNotFound(AnyCodingKey("records"), .init(codingPath: [], debugDescription: "No records array."))
            }
            meta = try document["meta"].map { try JSONValueDecoder.decode([String: String].self, from: $0, codingPath: [AnyCodingKey("meta")]) }
            records = try decodeRecords(Record.self, items)
        } catch {
            throw mismatch(error)
        }
        var envelope = Envelope(kind: kind, producer: header.producer ?? Producer(stage: "unknown"),
                                inputs: header.inputs ?? [], meta: meta ?? [:], records: records)
        envelope.schemaVersion = header.schemaVersion
        return envelope
    }

    /// Every record of the array, in order; the first failure (by index) is thrown.
    static func decodeRecords<Record: Decodable & Sendable>(_ type: Record.Type, _ items: [JSONValue]) throws -> [Record] {
        let recordsKey = AnyCodingKey("records")
        @Sendable func decode(_ range: Range<Int>) throws -> [Record] {
            var out: [Record] = []
            out.reserveCapacity(range.count)
            if let lineType = Record.self as? any JSONLineCodable.Type {
                for index in range {
                    let path: [any CodingKey] = [recordsKey, AnyCodingKey(intValue: index)]
                    guard let record = try lineType.init(json: items[index], codingPath: path) as? Record else {
                        throw DecodingError.typeMismatch(Record.self, .init(codingPath: path, debugDescription: "Unexpected record type."))
                    }
                    out.append(record)
                }
            } else {
                for index in range {
                    out.append(try JSONValueDecoder.decode(Record.self, from: items[index],
                                                           codingPath: [recordsKey, AnyCodingKey(intValue: index)]))
                }
            }
            return out
        }
        let chunks = ProcessInfo.processInfo.activeProcessorCount
        guard items.count >= 4096, chunks > 1 else { return try decode(0..<items.count) }
        let size = (items.count + chunks - 1) / chunks
        let results = ParallelSlots<Result<[Record], Error>>(count: chunks)
        DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
            let range = min(chunk * size, items.count)..<min((chunk + 1) * size, items.count)
            results.set(chunk, Result { try decode(range) })
        }
        var records: [Record] = []
        records.reserveCapacity(items.count)
        for result in results.values { records.append(contentsOf: try result?.get() ?? []) }
        return records
    }

    /// Reads and decodes an envelope file; `path` is shown in messages (repository-relative).
    public static func read<Record: Codable & Sendable>(
        _ type: Record.Type, at url: URL, displayPath: String, expecting kind: ArtifactKind
    ) throws -> Envelope<Record> {
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            throw PipelineError.invalidInput(
                Diagnostic(.error, at: SourceLocation(path: displayPath),
                           "cannot read file (\(error.localizedDescription))",
                           fix: "Run the upstream stage first"))
        }
        return try read(type, from: data, path: displayPath, expecting: kind)
    }

    /// The 1-based line of a record whose decoding failed, from the coding path's array index.
    /// Records are one per line, starting after the `"records": [` line.
    static func lineOf(_ error: Error, in data: Data) -> Int? {
        guard let decodingError = error as? DecodingError else { return nil }
        let context: DecodingError.Context
        switch decodingError {
        case .typeMismatch(_, let c), .valueNotFound(_, let c), .keyNotFound(_, let c), .dataCorrupted(let c): context = c
        @unknown default: return nil
        }
        guard context.codingPath.first?.stringValue == "records",
              let index = context.codingPath.dropFirst().first?.intValue else { return nil }
        var line = 1
        for text in String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false) {
            if text.hasPrefix("  \"records\": [") { return line + 1 + index }
            line += 1
        }
        return nil
    }
}

/// One result slot per parallel task, written once each from `DispatchQueue.concurrentPerform`.
final class ParallelSlots<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var slots: [Value?]
    init(count: Int) { slots = Array(repeating: nil, count: count) }
    func set(_ index: Int, _ value: Value) { lock.lock(); slots[index] = value; lock.unlock() }
    var values: [Value?] { lock.lock(); defer { lock.unlock() }; return slots }
}

/// A short, human message for a decoding error: the field path and what was wrong.
public func describe(_ error: Error) -> String {
    guard let decodingError = error as? DecodingError else {
        if let pipelineError = error as? PipelineError { return pipelineError.description }
        return "\(error)"
    }
    func path(_ context: DecodingError.Context) -> String {
        let text = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
        return text.hasPrefix(".") ? String(text.dropFirst()) : text
    }
    switch decodingError {
    case .keyNotFound(let key, let context):
        let at = path(context)
        return "missing key '\(key.stringValue)'" + (at.isEmpty ? "" : " in \(at)")
    case .typeMismatch(let type, let context):
        return "\(path(context)): expected \(type)"
    case .valueNotFound(let type, let context):
        return "\(path(context)): expected \(type), found null"
    case .dataCorrupted(let context):
        let at = path(context)
        return (at.isEmpty ? "" : "\(at): ") + context.debugDescription
    @unknown default:
        return "\(error)"
    }
}
