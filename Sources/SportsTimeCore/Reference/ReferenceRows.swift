import Foundation

/// The row-reading helper of the reference CSV files: reads one file against its fixed columns
/// (`ReferenceTable`: by header name, in any order), hands each row to a closure that reads typed fields by
/// column name, and keeps the records of the rows that had no problem. Every problem is one diagnostic
/// `path:line: error: what. what to do.` on the row's physical line; a row with any problem yields no record,
/// and its id still counts as declared, so references to it are not reported a second time.
///
/// Messages are put together only for a row that has a problem (how they name the row is a `RowName`, texts
/// worked out from the row are autoclosures): building them for every row cost more than reading the rows.
struct ReferenceRows {
    let path: String
    /// One diagnostic per problem, in the order found.
    private(set) var problems: [Diagnostic] = []
    /// Every id read with `id(_:_:what:)` that was not empty, also on rows with problems.
    private(set) var declared: Set<String> = []
    private var problemLines: Set<Int> = []
    private var firstLineOfId: [String: Int] = [:]

    /// `rows`: how many rows the file has, so the indexes of ids are sized once.
    init(path: String, rows: Int = 0) {
        self.path = path
        declared.reserveCapacity(rows)
        firstLineOfId.reserveCapacity(rows)
    }

    /// Reads `data` (nil: the file is missing) as a file with exactly `columns`. `record` reads one row and
    /// returns its record, or nil when a field it needs is missing; file and header problems and every
    /// problem `record` reports are appended to `problems`. Blank lines are skipped and line numbers count them.
    static func read<Record>(
        _ data: Data?, path: String, columns: [String], problems: inout [Diagnostic],
        record: (ReferenceTable.Row, inout ReferenceRows) -> Record?
    ) -> ReferenceFile<Record> {
        let table = ReferenceTable.read(data, path: path, columns: columns, problems: &problems)
        var rows = ReferenceRows(path: table.path, rows: table.rows.count)
        var file = ReferenceFile<Record>(isUsable: table.isUsable)
        file.items.reserveCapacity(table.rows.count)
        for row in table.rows {
            guard let value = record(row, &rows), rows.isClean(row) else { continue }
            file.items.append(LinedRecord(line: row.line, record: value))
        }
        file.declared = rows.declared
        problems.append(contentsOf: rows.problems)
        return file
    }

    /// Reports a problem on `row`; the row then yields no record.
    mutating func fail(_ row: ReferenceTable.Row, _ message: String, fix: String) {
        problems.append(Diagnostic(.error, at: SourceLocation(path: path, line: row.line), message, fix: fix))
        problemLines.insert(row.line)
    }

    /// Whether no problem was reported on `row`.
    func isClean(_ row: ReferenceTable.Row) -> Bool { !problemLines.contains(row.line) }

    // MARK: text fields

    /// An optional text field: nil when empty.
    func optional(_ row: ReferenceTable.Row, _ column: String) -> String? {
        let value = row[column]
        return value.isEmpty ? nil : value
    }

    /// A text field that must not be empty.
    @discardableResult
    mutating func required(_ row: ReferenceTable.Row, _ column: String, owner: some CustomStringConvertible) -> String {
        let value = row[column]
        if value.isEmpty { fail(row, "\(owner): \(column) is empty", fix: "Give it a value") }
        return value
    }

    /// Text fields that must not be empty (read them with `row[column]`).
    mutating func required(_ row: ReferenceTable.Row, _ columns: [String], owner: some CustomStringConvertible) {
        for column in columns { required(row, column, owner: owner) }
    }

    /// The row's id in `column` and how messages name the row (`what 'id'`): a lowercase slug, unique in the
    /// file (`duplicate what id`), declared when not empty.
    mutating func id(_ row: ReferenceTable.Row, _ column: String, what: String) -> (id: String, owner: RowName) {
        let id = row[column]
        if id.isEmpty {
            fail(row, "\(what): \(column) is empty", fix: "Give every \(what) a lowercase slug id")
        } else {
            declared.insert(id)
            if ReferenceText.slug(id) != id {
                fail(
                    row, "\(what) id '\(id)' is not a lowercase slug",
                    fix: "Use lowercase letters, digits and single dashes, e.g. '\(Slug.make(id))'")
            }
        }
        unique(id, row, what: "\(what) id")
        return (id, RowName(what: what, name: id))
    }

    /// Reports `id` when an earlier row had it; `same` says what makes two rows the same (default: the id).
    mutating func unique(_ id: String, _ row: ReferenceTable.Row, what: String, same: String? = nil) {
        guard !id.isEmpty else { return }
        // Recorded in one hash of the id; a repeat (an error) puts the first row's line back.
        if let first = firstLineOfId.updateValue(row.line, forKey: id) {
            firstLineOfId[id] = first
            let detail = same.map { " (\($0))" } ?? ""
            fail(
                row, "duplicate \(what) '\(id)': line \(first) has \(same == nil ? "the same id" : "it too")\(detail)",
                fix: "Keep one row, or change one of them")
        }
    }

    /// A value of an enumeration named in `column`; `known` says what to use instead of an unknown one.
    mutating func choice<Value: RawRepresentable>(
        _ row: ReferenceTable.Row, _ column: String, owner: some CustomStringConvertible, as type: Value.Type,
        known: @autoclosure () -> String
    ) -> Value? where Value.RawValue == String {
        typed(row, column, owner: owner, { Value(rawValue: $0) }, isNot: "known", fix: known())
    }

    // MARK: numbers, instants and dates

    /// A finite decimal number of degrees.
    mutating func double(_ row: ReferenceTable.Row, _ column: String, owner: some CustomStringConvertible) -> Double? {
        let text = row[column]
        if text.isEmpty {
            fail(row, "\(owner): \(column) is empty", fix: "Write decimal degrees, e.g. 42.346389")
            return nil
        }
        return typed(
            row, column, text, owner: owner, { Double($0).flatMap { $0.isFinite ? $0 : nil } }, isNot: "a number",
            fix: "Write decimal degrees, e.g. 42.346389")
    }

    /// A whole number.
    mutating func int(_ row: ReferenceTable.Row, _ column: String, owner: some CustomStringConvertible) -> Int? {
        typed(row, column, owner: owner, { Int($0) }, isNot: "a whole number", fix: "Write a whole number, e.g. 1")
    }

    /// Empty → `.some(nil)`; a whole number in `range` → its value; anything else → nil after a diagnostic.
    mutating func optionalInt(
        _ row: ReferenceTable.Row, _ column: String, owner: some CustomStringConvertible,
        range: ClosedRange<Int>
    ) -> Int?? {
        let text = row[column]
        if text.isEmpty { return .some(nil) }
        let value: Int? = typed(
            row, column, text, owner: owner, { Int($0).flatMap { range.contains($0) ? $0 : nil } },
            isNot: "a whole number in \(range.lowerBound)...\(range.upperBound)", fix: "Correct it, or leave it empty when unknown")
        return value.map { .some($0) }
    }

    /// An ISO-8601 instant (`last_modified`).
    mutating func instant(_ row: ReferenceTable.Row, _ column: String, owner: some CustomStringConvertible) -> Instant? {
        typed(
            row, column, owner: owner, { Instant(iso8601: $0) }, isNot: "an ISO-8601 instant",
            fix: "Write it like 2026-06-12T00:00:00Z, and bump it whenever the row changes")
    }

    /// An optional ISO-8601 date: nil when empty or not a date (the latter after a diagnostic).
    mutating func date(_ row: ReferenceTable.Row, _ column: String, owner: some CustomStringConvertible) -> LocalDate? {
        let text = row[column]
        if text.isEmpty { return nil }
        return typed(
            row, column, text, owner: owner, { LocalDate(iso8601: $0) }, isNot: "a date",
            fix: "Write it like 2024-12-31, or leave it empty")
    }

    /// `column` (its `text` when already read) read by `parse`; when that fails, nil after the diagnostic
    /// `owner: column 'text' is not <isNot>`.
    private mutating func typed<Value>(
        _ row: ReferenceTable.Row, _ column: String, _ text: String? = nil, owner: some CustomStringConvertible,
        _ parse: (String) -> Value?, isNot: @autoclosure () -> String, fix: @autoclosure () -> String
    ) -> Value? {
        let text = text ?? row[column]
        guard let value = parse(text) else {
            fail(row, "\(owner): \(column) '\(text)' is not \(isNot())", fix: fix())
            return nil
        }
        return value
    }

    /// `valid_from` and `valid_until`, both optional and inclusive, in order.
    mutating func validity(_ row: ReferenceTable.Row, owner: some CustomStringConvertible) -> (LocalDate?, LocalDate?) {
        let from = date(row, "valid_from", owner: owner)
        let until = date(row, "valid_until", owner: owner)
        if let from, let until, until < from {
            fail(
                row, "\(owner): valid_from \(from) is after valid_until \(until)",
                fix: "Swap or correct the dates (both days are inclusive)")
        }
        return (from, until)
    }
}

/// How messages name a row, `what 'name'` (e.g. `stadium 'fenway-park'`), or `what 'name' at 'place'`; the text
/// is put together only for a message.
struct RowName: CustomStringConvertible {
    let what: String
    let name: String
    var place: String? = nil

    var description: String { place.map { "\(what) '\(name)' at '\($0)'" } ?? "\(what) '\(name)'" }
}

/// The records of one reference file, every id it declares (also on rejected rows), and whether it could be
/// read at all.
struct ReferenceFile<Record> {
    var items: [LinedRecord<Record>] = []
    var declared: Set<String> = []
    var isUsable = false
}

/// A record with the line it was read from.
struct LinedRecord<Record> {
    let line: Int
    let record: Record
}
