import Foundation
import SportsTimeCore

/// A file handed to the ingester: its repository-relative path and its bytes.
public struct LoadedFile: Sendable {
    /// Repository-relative path (`fixtures/scraped/<source>/<file>`), used in provenance and rejects.
    public var path: String
    /// Path relative to the source's folder (how `files` and lookups name it).
    public var name: String
    public var data: Data
    public init(path: String, name: String, data: Data) { self.path = path; self.name = name; self.data = data }
}

/// How a source's rows were accounted for: `read = written + rejected + filtered + folded`.
public struct IngestCounts: Sendable, Hashable, Codable {
    /// Rows (records, events) found in the files; blank lines and repeated headers are not rows.
    public var read = 0
    /// Rows a declared filter left out (for example seasons outside the source's range).
    public var filtered = 0
    /// Rows that repeat a record already read, identical in every field (an iCalendar event in both
    /// teams' calendars).
    public var folded = 0
    public var rejected = 0
    public var written = 0
    public init() {}
    public var balances: Bool { read == written + rejected + filtered + folded }
}

/// A row a source's `filters` left out, recorded in `out/ingest/<source>/filtered.jsonl` (one object
/// per line, sorted by file and line) so a reviewer sees which rows and why, like a reject.
public struct FilteredRow: Codable, Hashable, Sendable, Comparable {
    /// Repository-relative file the row came from.
    public var file: String
    /// 1-based line of the row (its first line).
    public var line: Int
    /// Position of the filter in the source's `filters` (0-based).
    public var filter: Int
    /// The column the filter reads.
    public var column: String
    /// The filter's test as written: `range 2022..2025`, `in ['MLS - Regular Season']`.
    public var condition: String
    /// The column's trimmed value in the row, which failed the test.
    public var value: String
    /// The row's text as the file had it (cut like a reject's).
    public var raw: String

    public init(file: String, line: Int, filter: Int, column: String, condition: String, value: String, raw: String) {
        self.file = file; self.line = line; self.filter = filter; self.column = column
        self.condition = condition; self.value = value; self.raw = raw
    }

    public static func < (a: Self, b: Self) -> Bool { (a.file, a.line, a.filter) < (b.file, b.line, b.filter) }
}

extension FilteredRow: JSONLineCodable {
    public init(json: JSONValue, codingPath: [any CodingKey]) throws {
        let f = try JSONFields(json, codingPath: codingPath)
        self.init(
            file: try f.string("file"), line: try f.int("line"), filter: try f.int("filter"),
            column: try f.string("column"), condition: try f.string("condition"), value: try f.string("value"),
            raw: try f.string("raw"))
    }

    public func write(to w: inout JSONWriter) {
        w.beginObject()
        w.field("column", column)
        w.field("condition", condition)
        w.field("file", file)
        w.field("filter", filter)
        w.field("line", line)
        w.field("raw", raw)
        w.field("value", value)
        w.endObject()
    }
}

/// One source ingested: records, rejects, warnings, counts, and whether rejects passed the threshold.
public struct IngestResult: Sendable {
    public var source: SourceConfig
    /// Sorted by id.
    public var records: [RawGame]
    /// Sorted by file, line.
    public var rejects: [Reject]
    /// Rows the source's filters left out, sorted by file, line.
    public var filtered: [FilteredRow] = []
    public var warnings: [Diagnostic]
    public var counts: IngestCounts
    public var inputs: [InputReference]

    /// Whether the rejects pass the source's threshold (the source then fails and nothing is written).
    public var exceedsThreshold: Bool {
        source.rejectThreshold.isExceeded(rejected: counts.rejected, candidates: counts.read - counts.filtered)
    }

    /// The error to print when the source fails.
    public var failure: Diagnostic? {
        guard exceedsThreshold else { return nil }
        return Diagnostic(
            .error, at: source.location,
            "source '\(source.id)': \(counts.rejected) of \(counts.read - counts.filtered) rows rejected, more than its rejectThreshold (\(source.rejectThreshold)); nothing written",
            fix: "Read the reasons above, fix the files or the mapping, or raise rejectThreshold")
    }

    /// What to print when the source fails: the first rejected rows, then the reasons grouped with their
    /// counts and first locations (most frequent first, with a fix where one is known), then the failure.
    public var failureDiagnostics: [Diagnostic] {
        guard let failure else { return [] }
        var lines = rejects.prefix(10).map { Diagnostic(.error, at: SourceLocation(path: $0.file, line: $0.line), $0.reason) }
        var groups: [String: (count: Int, first: Reject)] = [:]
        for reject in rejects {
            if let held = groups[reject.reason] {
                groups[reject.reason] = (held.count + 1, held.first)
            } else {
                groups[reject.reason] = (1, reject)
            }
        }
        let ranked = groups.sorted { ($1.value.count, $0.key) < ($0.value.count, $1.key) }
        for (reason, group) in ranked.prefix(5) {
            let at = group.first.line.map { "\(group.first.file):\($0)" } ?? group.first.file
            var message = "\(group.count) × \(reason) (first at \(at))"
            var fix: String?
            if let team = Self.placeholderTeam(in: reason) {
                message += "; '\(team)' is in the source's placeholderTeams"
                fix =
                    "If '\(team)' is a real team in this source, set placeholderTeams: [] (or the list without it) on source '\(source.id)' in pipeline/sources.yaml"
            }
            lines.append(Diagnostic(.note, at: source.location, message, fix: fix))
        }
        if ranked.count > 5 {
            let rest = ranked.dropFirst(5).reduce(0) { $0 + $1.value.count }
            lines.append(
                Diagnostic(
                    .note, at: source.location,
                    "\(rest) more rejected rows with \(ranked.count - 5) other reasons; all are listed by reason above in file order"))
        }
        return lines + [failure]
    }

    /// The team a `placeholder home/away team 'X'` reason names.
    static func placeholderTeam(in reason: String) -> String? {
        guard reason.hasPrefix("placeholder "), let open = reason.firstIndex(of: "'"), let close = reason.lastIndex(of: "'"),
            open < close
        else { return nil }
        return String(reason[reason.index(after: open)..<close])
    }

    /// `out/ingest/<source>/games.json`.
    public func gamesData() throws -> Data {
        var meta = source.meta
        meta[.rowsRead] = String(counts.read)
        meta[.rowsFiltered] = String(counts.filtered)
        meta[.rowsFolded] = String(counts.folded)
        meta[.rowsRejected] = String(counts.rejected)
        meta[.recordsWritten] = String(counts.written)
        return try Envelope(
            kind: .rawGames, producer: Producer(stage: "ingest"), inputs: inputs, meta: meta,
            records: records
        ).canonicalData()
    }

    /// `out/ingest/<source>/rejects.jsonl`.
    public func rejectsData() -> Data { RejectsWriter.data(rejects) }

    /// `out/ingest/<source>/filtered.jsonl`: canonical JSON, one filtered row per line, by file and line.
    public func filteredData() -> Data { CanonicalJSON.lines(filtered.sorted()) }
}

/// Reads one source's files into raw games. Pure: files come in as bytes, results go out as values.
public enum Ingester {
    /// - Parameters:
    ///   - files: the data files (see `SourceConfig.dataFiles(in:)`), in any order.
    ///   - lookups: the lookup files the mapping names that exist (see `SourceConfig.lookupFiles`).
    /// - Throws: `PipelineError.invalidInput` (exit 2) for a file that cannot be read as its format
    ///   at all (UTF-16 or UTF-32 text, JSON syntax, a column the mapping needs is missing, a required
    ///   lookup file is missing).
    public static func ingest(_ source: SourceConfig, files: [LoadedFile], lookups: [LoadedFile] = []) throws -> IngestResult {
        var (lookupTables, warnings) = try readLookups(source, files: files, lookups: lookups)

        var counts = IngestCounts()
        var rejects: [Reject] = []
        var filtered: [FilteredRow] = []
        var records: [RawGame] = []
        var seen: [String: Int] = [:]
        let foldsRepeats = source.format == .ical
        for file in files.sorted(by: { $0.path < $1.path }) {
            let table = try readTable(file, source: source)
            if table.rows.isEmpty && table.rowRejects.isEmpty {
                // A file with no rows at all would remove every game of the source downstream.
                throw PipelineError.invalidInput(
                    Diagnostic(
                        .error, at: SourceLocation(path: file.path, line: 1),
                        "source '\(source.id)': the file has no \(source.format.tableKind == .json ? "records" : "rows")\(file.data.isEmpty ? " (it is empty)" : "")",
                        fix: "Re-download the file; its previous outputs are kept until it has games"))
            }
            warnings.append(contentsOf: table.warnings)
            counts.read += table.rows.count + table.rowRejects.count
            rejects.append(contentsOf: table.rowRejects)
            let mapper = try RowMapper(source: source, table: table, lookupTables: lookupTables)
            // Sized for the file's rows at once: grown step by step, the index of ids hashed each id again.
            seen.reserveCapacity(seen.count + table.rows.count)
            records.reserveCapacity(records.count + table.rows.count)
            for row in table.rows {
                if let (column, bytes) = overlongCell(row) {
                    let name = column < table.columns.count ? " ('\(table.columns[column])')" : ""
                    rejects.append(
                        Reject(
                            file: table.path, line: row.line,
                            reason: overlongReason(column: column + 1, name: name, bytes: bytes),
                            raw: shortRawText(table, row)))
                    continue
                }
                switch mapper.map(row) {
                case .filtered(let hit):
                    counts.filtered += 1
                    filtered.append(
                        FilteredRow(
                            file: table.path, line: row.line, filter: hit.index, column: hit.column,
                            condition: hit.condition, value: hit.value, raw: boundedRawText(table, row)))
                case .rejected(let reason, let recordId):
                    rejects.append(
                        Reject(
                            file: table.path, line: row.line, reason: reason,
                            raw: boundedRawText(table, row), recordId: recordId))
                case .game(let game):
                    // One hash per record: the id is entered at once, and a repeat (rare) puts the first
                    // record's index back.
                    if let index = seen.updateValue(records.count, forKey: game.id) {
                        seen[game.id] = index
                        let first = records[index]
                        if foldsRepeats, sameExceptProvenance(first, game) {
                            counts.folded += 1
                            continue
                        }
                        let (firstFile, firstLine) = split(first.provenance)
                        let whereFirst = firstFile == table.path ? "line \(firstLine)" : "\(firstFile):\(firstLine)"
                        let differing = differences(first, game)
                        rejects.append(
                            Reject(
                                file: table.path, line: row.line,
                                reason: "duplicate of \(whereFirst)"
                                    + (differing.isEmpty ? "" : " (same id, different \(differing.joined(separator: ", ")))"),
                                raw: boundedRawText(table, row), recordId: game.id))
                    } else {
                        records.append(game)
                    }
                }
            }
        }
        counts.rejected = rejects.count
        counts.written = records.count
        warnings.append(contentsOf: consistencyWarnings(records, source: source))
        let inputs = (files + lookups).map { InputReference(path: $0.path, sha256: ArtifactFiles.sha256($0.data)) }.sorted()
        // By id (stably): the positions sorted by their ids, then the records moved into that order once
        // each — neither a copy of every record (a retain of each of its strings) nor a sort's many moves of each.
        records.permute(to: TextOrder.positions(of: records.map(\.id)))
        rejects.sort()
        filtered.sort()
        return IngestResult(
            source: source, records: records, rejects: rejects, filtered: filtered, warnings: warnings, counts: counts,
            inputs: inputs)
    }

    /// The lookup tables the mapping joins, by file name, with their warnings. Refuses wide text
    /// (UTF-16/UTF-32) in any file, and a missing lookup that is not optional.
    static func readLookups(_ source: SourceConfig, files: [LoadedFile], lookups: [LoadedFile]) throws -> ([String: Table], [Diagnostic]) {
        var warnings: [Diagnostic] = []
        var lookupTables: [String: Table] = [:]
        // A UTF-16/UTF-32 file would read as garbage in every format: refuse it whole.
        for file in (files + lookups).sorted(by: { $0.path < $1.path }) { try TextEncoding.refuseWide(file.data, path: file.path) }
        for spec in source.mapping.lookups ?? [] {
            if let file = lookups.first(where: { $0.name == spec.file }) {
                let table = CSVTable.readLookup(file.data, path: file.path)
                warnings.append(contentsOf: table.warnings)
                lookupTables[spec.file] = table
            } else if spec.optional != true {
                throw PipelineError.invalidInput(
                    Diagnostic(
                        .error, at: source.location, "source '\(source.id)': lookup file '\(spec.file)' is missing",
                        fix: "Copy it into the source's folder, or mark the lookup optional"))
            }
        }
        return (lookupTables, warnings)
    }

    static func readTable(_ file: LoadedFile, source: SourceConfig) throws -> Table {
        let mapping = source.mapping
        switch source.format.tableKind {
        case .csv:
            let options = CSVTable.Options(
                delimiter: mapping.delimiter.flatMap(RowMapper.delimiter) ?? ",",
                hasHeader: mapping.header ?? true, skipLines: mapping.skipLines ?? 0)
            return CSVTable.read(file.data, path: file.path, options: options)
        case .bbref:
            return BBRefTable.read(file.data, path: file.path)
        case .retrosheet:
            return RetrosheetTable.read(file.data, path: file.path)
        case .ical:
            return ICalendarTable.read(file.data, path: file.path)
        case .json:
            let lookupNames = Set((mapping.lookups ?? []).map(\.name))
            var columns: [String] = []
            func add(_ name: String) {
                if let dot = name.firstIndex(of: "."), lookupNames.contains(String(name[..<dot])) { return }
                if !columns.contains(name) { columns.append(name) }
            }
            for (_, spec) in (mapping.fields ?? FieldsSpec()).all {
                spec?.from?.names.forEach(add)
                spec?.expressionColumns.forEach(add)
            }
            source.filters.forEach { add($0.column) }
            (mapping.lookups ?? []).forEach { add($0.match) }
            return try JSONTable.read(
                file.data, path: file.path, records: mapping.records, javascriptExport: mapping.javascriptExport, columns: columns)
        }
    }

    /// The first cell longer than `InputLimits.scrapedFieldBytes`: its 0-based column and length in bytes.
    static func overlongCell(_ row: TableRow) -> (Int, Int)? {
        for (column, cell) in row.cells.enumerated() where cell.utf8.count > InputLimits.scrapedFieldBytes {
            return (column, cell.utf8.count)
        }
        return nil
    }

    /// A rejected row's text, at most `InputLimits.scrapedFieldBytes` characters (a JSON record's
    /// unmapped keys are not limited by the field check, and must not reach `rejects.jsonl` whole).
    static func boundedRawText(_ table: Table, _ row: TableRow) -> String {
        let text = table.rawText(of: row)
        return text.utf8.count <= InputLimits.scrapedFieldBytes ? text : String(text.prefix(InputLimits.scrapedFieldBytes))
    }

    /// The text of a row with an over-long cell: each cell cut short, the whole cut to the reject limit.
    static func shortRawText(_ table: Table, _ row: TableRow) -> String {
        let cells = row.cells.map { $0.utf8.count > 80 ? String($0.prefix(80)) + "…" : $0 }
        let copy = Table(path: table.path, columns: table.columns, csvDelimiter: table.csvDelimiter)
        return String(copy.rawText(of: TableRow(line: row.line, cells: cells)).prefix(InputLimits.rejectRawCharacters))
    }

    private static func split(_ provenance: String) -> (String, String) {
        guard let colon = provenance.lastIndex(of: ":") else { return (provenance, "?") }
        return (String(provenance[..<colon]), String(provenance[provenance.index(after: colon)...]))
    }

    private static func sameExceptProvenance(_ a: RawGame, _ b: RawGame) -> Bool {
        var b = b
        b.provenance = a.provenance
        return a == b
    }

    /// Names of the fields two records with one id disagree on.
    private static func differences(_ a: RawGame, _ b: RawGame) -> [String] {
        var d: [String] = []
        if a.homeTeam != b.homeTeam { d.append("homeTeam") }
        if a.awayTeam != b.awayTeam { d.append("awayTeam") }
        if a.venue != b.venue { d.append("venue") }
        if a.startUTC != b.startUTC || a.date != b.date || a.localTime != b.localTime { d.append("start") }
        if a.status != b.status { d.append("status") }
        if a.kind != b.kind { d.append("kind") }
        if a.season != b.season { d.append("season") }
        return d
    }

    /// A venue given for the games of many different home teams usually means a broken file (every
    /// row of the NHL 2023-24 file says "Honda Center"). Ingest keeps the rows as written and warns;
    /// normalize decides.
    static func consistencyWarnings(_ records: [RawGame], source: SourceConfig) -> [Diagnostic] {
        // Per venue (numbered as met): its home teams, where it was first seen and the home team added
        // last. A file lists a home stand's games one after another, so a record whose venue and home
        // team are the last ones' hashes neither; records are read through their pointers (a record
        // bound in a loop is a copy, with a retain of each of its strings).
        var numberOf: [String: Int] = [:]
        var venues: [(name: String, homes: Set<String>, firstSeen: String, lastHome: String)] = []
        var last = -1
        records.withUnsafeBufferPointer { buffer in
            for record in buffer.indices.lazy.map({ buffer.baseAddress! + $0 }) where record.pointee.neutralSite != true {
                guard let venue = record.pointee.venue else { continue }
                if last < 0 || venues[last].name != venue {
                    if let known = numberOf[venue] {
                        last = known
                    } else {
                        // Records are in file and line order: the first seen is the first met.
                        last = venues.count
                        numberOf[venue] = last
                        venues.append((venue, [], record.pointee.provenance, ""))
                    }
                }
                let home = record.pointee.homeTeam
                if venues[last].homes.isEmpty || venues[last].lastHome != home {
                    venues[last].homes.insert(home)
                    venues[last].lastHome = home
                }
            }
        }
        var warnings: [Diagnostic] = []
        for (venue, homes, firstSeen, _) in venues.sorted(by: { $0.name < $1.name }) where homes.count > 4 {
            let (file, line) = split(firstSeen)
            let examples = homes.sorted().prefix(5).joined(separator: ", ")
            warnings.append(
                Diagnostic(
                    .warning, at: SourceLocation(path: file, line: Int(line)),
                    "source '\(source.id)': venue '\(venue)' is given for games of \(homes.count) different home teams (\(examples), ...)",
                    fix: "Check the file: its venue or home columns may be corrupt (normalize checks venues against home teams)"))
        }
        return warnings
    }
}
