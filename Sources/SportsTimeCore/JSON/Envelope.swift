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
    public var meta: [MetaKey: String]?
}

/// A versioned artifact: header plus records (sorted by id when written).
public struct Envelope<Record: Codable & Sendable>: Sendable {
    public var kind: ArtifactKind
    public var schemaVersion: Int
    public var producer: Producer
    public var inputs: [InputReference]
    /// Extra header fields for kinds that have them (e.g. a batch's `scope`); written compact.
    public var meta: [MetaKey: String]
    public var records: [Record]

    public init(
        kind: ArtifactKind, producer: Producer, inputs: [InputReference] = [],
        meta: [MetaKey: String] = [:], records: [Record]
    ) {
        self.kind = kind
        self.schemaVersion = kind.currentVersion
        self.producer = producer
        self.inputs = inputs
        self.meta = meta
        self.records = records
    }
}

extension Envelope where Record: Identifiable, Record.ID == String {
    /// Canonical bytes: records sorted by `id`, inputs sorted by path. (Specialized for games and their
    /// lineage, as `DocumentWriter`'s line writer is: the generic body copies each record to read its id.)
    @_specialize(where Record == RawGame)
    @_specialize(where Record == Game)
    @_specialize(where Record == GameLineage)
    // The reference kinds too: in a specialized body the question whether the record type has a
    // hand-written line is answered when compiling, not by a scan of the conformance records at run time.
    @_specialize(where Record == Sport)
    @_specialize(where Record == Team)
    @_specialize(where Record == LeagueStructure)
    @_specialize(where Record == TeamAlias)
    @_specialize(where Record == StadiumAlias)
    public func canonicalData() throws -> Data {
        // The records are written through an order of indices: no record is copied or moved. Ids are
        // read through a buffer pointer, which lends each record in place (in this generic code an
        // array's subscript hands out a copy: a retain and release of every string of the record).
        let ids = records.withUnsafeBufferPointer { records in
            var ids: [String] = []
            ids.reserveCapacity(records.count)
            for index in records.indices { ids.append(records[index].id) }
            return ids
        }
        return try canonicalData(order: TextOrder.reordering(of: ids))
    }
}

extension Envelope {
    /// Canonical bytes with `records[order[0]]`, `records[order[1]]`, … (`records` as they are when nil).
    func canonicalData(order: [Int]?) throws -> Data {
        var document = DocumentWriter(capacity: 512 + (order?.count ?? records.count) * 320)
        try document.array("inputs", inputs.sorted())
        document.field("kind", kind.rawValue)
        if !meta.isEmpty { try document.field("meta", Dictionary(uniqueKeysWithValues: meta.map { ($0.key.name, $0.value) })) }
        try document.field("producer", producer)
        try document.array("records", records, order: order)
        document.field("schemaVersion", schemaVersion)
        return document.finish()
    }
}

/// Reads envelopes: header first, then the records, refusing kinds and versions it does not know.
public enum EnvelopeReader {
    /// Decodes the header and checks kind and version; the error names the file, both versions, and what to do.
    public static func header(of data: Data, path: String, expecting kind: ArtifactKind) throws -> EnvelopeHeader {
        try header(of: try document(data, path: path), path: path, expecting: kind)
    }

    /// The header of an envelope without reading its records: in the canonical layout only the header
    /// lines are parsed (the records are skipped line by line); any other layout is parsed whole.
    public static func headerSkippingRecords(of data: Data, path: String, expecting kind: ArtifactKind) throws -> EnvelopeHeader {
        if let layout = CanonicalLayout(data) { return try header(of: layout.header, path: path, expecting: kind) }
        return try header(of: data, path: path, expecting: kind)
    }

    /// The parsed document, or a located error for bytes that are not a JSON document within the limits.
    static func document(_ data: Data, path: String) throws -> JSONValue {
        guard data.count <= InputLimits.jsonFileBytes else {
            throw PipelineError.invalidInput(
                Diagnostic(
                    .error, at: SourceLocation(path: path, line: 1),
                    "the artifact is \(data.count) bytes, more than the limit of \(InputLimits.jsonFileBytes)",
                    fix: "Re-run the stage that writes it; check that its inputs are the intended files"))
        }
        do {
            return try JSONParser.parse(data)
        } catch let error as JSONSyntaxError {
            if error.message.hasPrefix(JSONParser.nestingMessagePrefix) {
                throw PipelineError.invalidInput(
                    Diagnostic(
                        .error, at: SourceLocation(path: path, line: 1),
                        "the artifact nests arrays and objects deeper than \(InputLimits.jsonDepth) levels",
                        fix: "Re-run the stage that writes it"))
            }
            throw PipelineError.invalidInput(
                Diagnostic(
                    .error, at: SourceLocation(path: path, line: error.line, column: error.column),
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
                Diagnostic(
                    .error, at: SourceLocation(path: path, line: 1),
                    "not a SportsTime artifact (no envelope header: \(describe(error)))",
                    fix: "Re-run the stage that writes it"))
        }
        guard header.kind == kind.rawValue else {
            throw PipelineError.invalidInput(
                Diagnostic(
                    .error, at: SourceLocation(path: path, line: 1),
                    "kind '\(header.kind)' where '\(kind.rawValue)' was expected",
                    fix: "Point the stage at the right file"))
        }
        guard header.schemaVersion <= kind.currentVersion else {
            let stage = header.producer?.stage ?? "the producing stage"
            throw PipelineError.invalidInput(
                Diagnostic(
                    .error, at: SourceLocation(path: path, line: 1),
                    "schemaVersion \(header.schemaVersion) is newer than this build reads (up to \(kind.currentVersion))",
                    fix: "Rebuild, or re-run \(stage) with this build"))
        }
        guard header.schemaVersion >= 1 else {
            throw PipelineError.invalidInput(
                Diagnostic(
                    .error, at: SourceLocation(path: path, line: 1),
                    "schemaVersion \(header.schemaVersion) is not a valid version",
                    fix: "Re-run the stage that writes it"))
        }
        return header
    }

    /// Decodes a whole envelope of `Record`s after checking its header. Records with a hand-written line
    /// (`JSONLineCodable`) are read without Codable. A canonical file (one record per line) is read line
    /// by line on all cores, so no tree of the whole file is ever built; any other layout of the same JSON
    /// is parsed whole and read the same way.
    public static func read<Record: Codable & Sendable>(
        _ type: Record.Type, from data: Data, path: String, expecting kind: ArtifactKind
    ) throws -> Envelope<Record> {
        // A canonical file: the header without its record lines is parsed as a tree, then each record line
        // on its own. Anything that does not read that way (another layout, a bad header or record) is
        // parsed whole, so its error is the same as for any other file, at its line in the whole file.
        var layout = CanonicalLayout(data)
        var document: JSONValue
        if let found = layout, data.count <= InputLimits.jsonFileBytes, let parsed = try? JSONParser.parse(found.header) {
            document = parsed
        } else {
            layout = nil
            document = try Self.document(data, path: path)
        }
        let header = try header(of: document, path: path, expecting: kind)
        var records: [Record]
        let meta: [MetaKey: String]?
        do {
            meta = try document["meta"].map {
                try JSONValueDecoder.decode([MetaKey: String].self, from: $0, codingPath: [AnyCodingKey("meta")])
            }
            if let layout, let lines = try? decodeLines(Record.self, data, layout) {
                records = lines
            } else {
                if layout != nil { document = try Self.document(data, path: path) }
                guard case .array(let items)? = document["records"] else {
                    throw DecodingError.keyNotFound(AnyCodingKey("records"), .init(codingPath: [], debugDescription: "No records array."))
                }
                records = try decodeRecords(Record.self, count: items.count) { index, _ in items[index] }
            }
        } catch let error as PipelineError {
            throw error
        } catch {
            throw PipelineError.invalidInput(
                Diagnostic(
                    .error, at: SourceLocation(path: path, line: lineOf(error, in: data)),
                    "records do not match \(kind.rawValue) v\(header.schemaVersion): \(describe(error))",
                    fix: "Re-run the stage that writes it"))
        }
        var envelope = Envelope(
            kind: kind, producer: header.producer ?? Producer(stage: "unknown"),
            inputs: header.inputs ?? [], meta: meta ?? [:], records: records)
        envelope.schemaVersion = header.schemaVersion
        return envelope
    }

    /// The records of a canonical file, each parsed from its own line (at the depth the records array
    /// puts it, so nesting limits are the same as for the whole file). Any failure is thrown as is; the
    /// caller then reads the file whole.
    static func decodeLines<Record: Decodable & Sendable>(_ type: Record.Type, _ data: Data, _ layout: CanonicalLayout) throws -> [Record] {
        if let direct = Record.self as? any JSONDirectDecodable.Type {
            return try decodeDirectLines(direct, data, layout)
        }
        return try data.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            nonisolated(unsafe) let base = bytes
            return try decodeRecords(Record.self, count: layout.lines.count) { index, parser in
                try parser.parse(
                    UnsafeBufferPointer(rebasing: base[layout.lines[index]]), firstLine: layout.firstRecordLine + index,
                    depth: 2)
            }
        }
    }

    /// The records of a canonical file of a type read straight from its bytes (`JSONDirectDecodable`):
    /// each line is read directly, and a line the direct reader gives up on is parsed and read the general
    /// way (which reads it the same or throws its exact error). Large files on all cores, like
    /// `decodeRecords`; the first failure by index is thrown.
    private static func decodeDirectLines<Record, Line: JSONDirectDecodable>(
        _ lineType: Line.Type, _ data: Data, _ layout: CanonicalLayout
    ) throws -> [Record] {
        try data.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            nonisolated(unsafe) let base = bytes
            // Each record is decoded into its place in the result and never copied: appended to a chunk's
            // array and the chunks joined, each record was copied twice in this generic code (a retain
            // and release of every string of it each time).
            @Sendable func decode(_ range: Range<Int>, into target: UnsafeMutablePointer<Line>) throws {
                var parser = JSONParser.LineParser()
                var done = 0
                do {
                    for index in range {
                        let line = UnsafeBufferPointer(rebasing: base[layout.lines[index]])
                        if let record = Line.directlyDecoded(line) {
                            (target + done).initialize(to: consume record)
                        } else {
                            let value = try parser.parse(line, firstLine: layout.firstRecordLine + index, depth: 2)
                            let record: Line
                            do {
                                record = try Line(json: value, codingPath: [])
                            } catch {
                                record = try Line(json: value, codingPath: [AnyCodingKey("records"), AnyCodingKey(intValue: index)])
                            }
                            (target + done).initialize(to: consume record)
                        }
                        done += 1
                    }
                } catch {
                    target.deinitialize(count: done)
                    throw error
                }
            }
            let count = layout.lines.count
            let chunks = ProcessInfo.processInfo.activeProcessorCount
            let records = try [Line](unsafeUninitializedCapacity: count) { buffer, initialized in
                guard count > 0, let start = buffer.baseAddress else { return }
                nonisolated(unsafe) let target = start
                if count >= 4096, chunks > 1 {
                    let size = (count + chunks - 1) / chunks
                    let ranges = (0..<chunks).map { min($0 * size, count)..<min(($0 + 1) * size, count) }
                    let results = ranges.parallelMap { range in Result { try decode(range, into: target + range.lowerBound) } }
                    // A chunk that failed left nothing behind; the others are undone and the first failure thrown.
                    if let failed = results.firstIndex(where: { (try? $0.get()) == nil }) {
                        for (range, result) in zip(ranges, results) where (try? result.get()) != nil {
                            (target + range.lowerBound).deinitialize(count: range.count)
                        }
                        try results[failed].get()
                    }
                } else {
                    try decode(0..<count, into: target)
                }
                initialized = count
            }
            precondition(Line.self == Record.self)
            return unsafeBitCast(records, to: [Record].self)
        }
    }

    /// Records `0..<count`, each from the JSON value `item(index, parser)` gives (with a line parser per
    /// task, reused from record to record), in order; large files on all cores. The first failure by index
    /// is thrown.
    static func decodeRecords<Record: Decodable & Sendable>(
        _ type: Record.Type, count: Int, item: @Sendable (Int, inout JSONParser.LineParser) throws -> JSONValue
    ) throws -> [Record] {
        @Sendable func decode(_ range: Range<Int>) throws -> [Record] {
            if let lineType = Record.self as? any JSONLineDecodable.Type {
                return try decodeLineRecords(lineType, range, item: item)
            }
            let recordsKey = AnyCodingKey("records")
            var parser = JSONParser.LineParser()
            var out: [Record] = []
            out.reserveCapacity(range.count)
            for index in range {
                let value = try item(index, &parser)
                out.append(try JSONValueDecoder.decode(Record.self, from: value, codingPath: [recordsKey, AnyCodingKey(intValue: index)]))
            }
            return out
        }
        let chunks = ProcessInfo.processInfo.activeProcessorCount
        guard count >= 4096, chunks > 1 else { return try decode(0..<count) }
        let size = (count + chunks - 1) / chunks
        let results = Array(0..<chunks).parallelMap { chunk in
            Result { try decode(min(chunk * size, count)..<min((chunk + 1) * size, count)) }
        }
        var records: [Record] = []
        records.reserveCapacity(count)
        for result in results { records.append(contentsOf: try result.get()) }
        return records
    }

    /// The records of `range` read by their hand-written line (`Line` is `Record` itself, opened from the
    /// existential once per task). A record is read without a coding path; one that fails is read again
    /// with its path (`records[i]`), so the error names it exactly as before.
    private static func decodeLineRecords<Record, Line: JSONLineDecodable>(
        _ lineType: Line.Type, _ range: Range<Int>, item: (Int, inout JSONParser.LineParser) throws -> JSONValue
    ) throws -> [Record] {
        precondition(Line.self == Record.self)
        var parser = JSONParser.LineParser()
        var out: [Line] = []
        out.reserveCapacity(range.count)
        for index in range {
            let value = try item(index, &parser)
            do {
                out.append(try Line(json: value, codingPath: []))
            } catch {
                out.append(try Line(json: value, codingPath: [AnyCodingKey("records"), AnyCodingKey(intValue: index)]))
            }
        }
        return unsafeBitCast(out, to: [Record].self)
    }

    /// Reads and decodes an envelope file; `path` is shown in messages (repository-relative).
    public static func read<Record: Codable & Sendable>(
        _ type: Record.Type, at url: URL, displayPath: String, expecting kind: ArtifactKind
    ) throws -> Envelope<Record> {
        try read(type, from: try contents(of: url, displayPath: displayPath), path: displayPath, expecting: kind)
    }

    /// The bytes of an envelope file (at most `InputLimits.jsonFileBytes`), or a located error saying to
    /// run the upstream stage.
    private static func contents(of url: URL, displayPath: String) throws -> Data {
        try InputFiles.read(
            url, path: displayPath, kind: .artifact, problem: "cannot read file", fix: "Run the upstream stage first",
            givingReason: true)
    }

    /// The records of an envelope file whose ids are in `ids`, in file order; `path` is shown in messages.
    /// In the canonical layout each record line is first passed over for its id (each value's kind
    /// checked, no value made) and only the lines of wanted ids are decoded: a reader that wants a few
    /// games of a season pays for those (the others' values are not checked beyond their kind). A line
    /// that cannot be passed over is decoded whole; any other layout, or any failure, reads the file
    /// whole as `read` does, with the same errors, and keeps the wanted records.
    public static func records<Record: JSONDirectIdentifiable & Codable>(
        _ type: Record.Type, at url: URL, displayPath: String, expecting kind: ArtifactKind, ids: Set<String>
    ) throws -> [Record] {
        try records(type, from: try contents(of: url, displayPath: displayPath), path: displayPath, expecting: kind, ids: ids)
    }

    /// `records(_:at:displayPath:expecting:ids:)` of bytes already read.
    public static func records<Record: JSONDirectIdentifiable & Codable>(
        _ type: Record.Type, from data: Data, path: String, expecting kind: ArtifactKind, ids: Set<String>
    ) throws -> [Record] {
        if data.count <= InputLimits.jsonFileBytes, let layout = CanonicalLayout(data),
            let found = try? selectedLines(type, data, layout, path: path, expecting: kind, ids: ids)
        {
            return found
        }
        return try read(type, from: data, path: path, expecting: kind).records.filter { ids.contains($0.id) }
    }

    /// The header checked as `read` checks it, then the records of `layout`'s lines whose ids are in
    /// `ids`: a line whose id reads directly and is not wanted is skipped; any other line is decoded
    /// (directly, else through the parser) and kept when wanted. Throws on any failure.
    private static func selectedLines<Record: JSONDirectIdentifiable>(
        _ type: Record.Type, _ data: Data, _ layout: CanonicalLayout, path: String, expecting kind: ArtifactKind,
        ids: Set<String>
    ) throws -> [Record] {
        let document = try JSONParser.parse(layout.header)
        _ = try header(of: document, path: path, expecting: kind)
        if let meta = document["meta"] { _ = try JSONValueDecoder.decode([String: String].self, from: meta) }
        return try data.withUnsafeBytes { raw in
            let base = raw.bindMemory(to: UInt8.self)
            var parser = JSONParser.LineParser()
            var found: [Record] = []
            for (index, range) in layout.lines.enumerated() {
                let line = UnsafeBufferPointer(rebasing: base[range])
                if let id = Record.directId(line), !ids.contains(id) { continue }
                let record =
                    try Record.directlyDecoded(line)
                    ?? Record(json: try parser.parse(line, firstLine: layout.firstRecordLine + index, depth: 2), codingPath: [])
                if ids.contains(record.id) { found.append(record) }
            }
            return found
        }
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
            let index = context.codingPath.dropFirst().first?.intValue
        else { return nil }
        var line = 1
        for text in TextLines.split(String(decoding: data, as: UTF8.self)) {
            if text.hasPrefix("  \"records\": [") { return line + 1 + index }
            line += 1
        }
        return nil
    }
}

/// Where the records of a canonical envelope are: the header lines, then `  "records": [`, then exactly
/// one record per line (each but the last ending in `,`), then `  ]` (or `  ],` when header fields
/// follow, as `schemaVersion` always does) and the remaining header lines. Nil for any other layout (a
/// hand-edited or truncated file), which is then parsed whole.
struct CanonicalLayout {
    /// The document with its record lines left out (`"records": [` directly followed by `]`).
    var header: Data
    /// The byte range of each record (without the trailing comma and newline).
    var lines: [Range<Int>]
    /// The 1-based line of the first record.
    var firstRecordLine: Int

    init?(_ data: Data) {
        let marker = Array("  \"records\": [\n".utf8)
        let result: (Data, [Range<Int>], Int)? = data.withUnsafeBytes { raw in
            guard let base = raw.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return nil }
            let count = raw.count
            /// The offset of the next newline at or after `offset`, or nil.
            func newline(from offset: Int) -> Int? {
                guard offset < count, let found = memchr(base + offset, 0x0A, count - offset) else { return nil }
                return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
            }
            func matches(_ pattern: [UInt8], at offset: Int) -> Bool {
                offset + pattern.count <= count
                    && pattern.withUnsafeBufferPointer { memcmp(base + offset, $0.baseAddress!, pattern.count) == 0 }
            }
            // The marker starts a line of the header (a string value cannot hold a raw newline).
            var line = 1
            var start = 0
            var found: Int?
            while start < count {
                if matches(marker, at: start) { found = start; break }
                guard let end = newline(from: start) else { return nil }
                start = end + 1
                line += 1
            }
            guard let markerStart = found else { return nil }
            var lines: [Range<Int>] = []
            var cursor = markerStart + marker.count
            while cursor < count {
                guard let end = newline(from: cursor) else { return nil }
                let length = end - cursor
                if (length == 3 || (length == 4 && base[cursor + 3] == UInt8(ascii: ","))),
                    base[cursor] == 0x20, base[cursor + 1] == 0x20, base[cursor + 2] == UInt8(ascii: "]")
                {
                    // `  ]` closes the records; the last record has no comma, every other one has.
                    guard lines.isEmpty || base[lines[lines.count - 1].upperBound] == 0x0A else { return nil }
                    var header = Data(UnsafeBufferPointer(start: base, count: markerStart + marker.count - 1))
                    header.append(UnsafeBufferPointer(start: base + cursor + 2, count: count - cursor - 2))
                    return (header, lines, line + 1)
                }
                guard length > 4, base[cursor] == 0x20, base[cursor + 1] == 0x20, base[cursor + 2] == 0x20,
                    base[cursor + 3] == 0x20, base[cursor + 4] == UInt8(ascii: "{")
                else { return nil }
                if let last = lines.last, base[last.upperBound] != UInt8(ascii: ",") { return nil }
                let recordEnd = base[end - 1] == UInt8(ascii: ",") ? end - 1 : end
                lines.append((cursor + 4)..<recordEnd)
                cursor = end + 1
            }
            return nil
        }
        guard let (header, lines, first) = result else { return nil }
        self.header = header
        self.lines = lines
        self.firstRecordLine = first
    }
}

/// A coding path as text: `records[3].homeTeam` (keys after dots, indices in brackets, no leading dot).
func codingPathText(_ path: [any CodingKey]) -> String {
    let text = path.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
    return text.hasPrefix(".") ? String(text.dropFirst()) : text
}

/// A short, human message for a decoding error: the field path and what was wrong.
public func describe(_ error: Error) -> String {
    guard let decodingError = error as? DecodingError else {
        if let pipelineError = error as? PipelineError { return pipelineError.description }
        return "\(error)"
    }
    switch decodingError {
    case .keyNotFound(let key, let context):
        let at = codingPathText(context.codingPath)
        return "missing key '\(key.stringValue)'" + (at.isEmpty ? "" : " in \(at)")
    case .typeMismatch(let type, let context):
        return "\(codingPathText(context.codingPath)): expected \(type)"
    case .valueNotFound(let type, let context):
        return "\(codingPathText(context.codingPath)): expected \(type), found null"
    case .dataCorrupted(let context):
        let at = codingPathText(context.codingPath)
        return (at.isEmpty ? "" : "\(at): ") + context.debugDescription
    @unknown default:
        return "\(error)"
    }
}
