import Foundation

/// One CSV file of `fixtures/reference/` read against its fixed header: every expected column present,
/// nothing else, names in any order. Rows come back with their physical line and trimmed fields.
struct ReferenceTable {
    struct Row {
        let line: Int
        /// The trimmed fields in the order of `columns`.
        private let fields: [String]
        /// The expected columns, shared by every row of the file.
        private let columns: [String]

        init(line: Int, fields: [String], columns: [String]) {
            self.line = line; self.fields = fields; self.columns = columns
        }

        /// The trimmed value of an expected column ("" when empty).
        ///
        /// Found by a scan of the dozen column names rather than a dictionary: the names are short literals,
        /// compared in a few instructions, where hashing one cost more than the rest of reading the field.
        subscript(_ column: String) -> String {
            guard let position = columns.firstIndex(of: column) else { return "" }
            return fields[position]
        }
    }

    let path: String
    let rows: [Row]
    /// False when the file is missing or its bytes or header are wrong (then `rows` is empty).
    var isUsable = true

    /// Reads `data` (nil when the file is missing). Problems with the file or its header are appended to
    /// `problems`; a file whose header is wrong yields no rows, so later checks do not pile up on it.
    static func read(_ data: Data?, path: String, columns: [String], problems: inout [Diagnostic]) -> ReferenceTable {
        let expected = columns.joined(separator: ",")
        guard let data else {
            problems.append(
                Diagnostic(
                    .error, at: SourceLocation(path: path), "the file is missing",
                    fix: "Restore it, or create it with the header \(expected)"))
            return ReferenceTable(path: path, rows: [], isUsable: false)
        }
        let result = CSVReader().read(data)
        if let wide = result.wideEncoding {
            problems.append(TextEncoding.wideEncodingDiagnostic(wide, path: path))
            return ReferenceTable(path: path, rows: [], isUsable: false)
        }
        if result.hadInvalidUTF8 {
            problems.append(
                Diagnostic(
                    .error, at: SourceLocation(path: path, line: 1), "the file is not valid UTF-8",
                    fix: "Save it as UTF-8"))
            return ReferenceTable(path: path, rows: [], isUsable: false)
        }
        if let line = result.unterminatedQuoteLine {
            problems.append(
                Diagnostic(
                    .error, at: SourceLocation(path: path, line: line),
                    "a quoted field is not closed before the end of the file",
                    fix: "Add the closing double quote"))
            return ReferenceTable(path: path, rows: [], isUsable: false)
        }
        guard let headerRow = result.rows.first else {
            problems.append(
                Diagnostic(
                    .error, at: SourceLocation(path: path, line: 1), "the file is empty",
                    fix: "Start it with the header \(expected)"))
            return ReferenceTable(path: path, rows: [], isUsable: false)
        }
        let header = CSVHeader(headerRow.fields)
        let known = Set(columns)
        var headerProblems: [Diagnostic] = []
        let at = SourceLocation(path: path, line: headerRow.line)
        for (position, name) in header.names.enumerated() {
            if known.contains(name) { continue }
            let raw = headerRow.fields[position].trimmingCharacters(in: .whitespaces)
            if raw.isEmpty {
                headerProblems.append(
                    Diagnostic(
                        .error, at: at, "column \(position + 1) has no name",
                        fix: "Use exactly the columns \(expected)"))
            } else if known.contains(raw) {
                headerProblems.append(
                    Diagnostic(
                        .error, at: at, "column '\(raw)' appears more than once",
                        fix: "Keep one of them"))
            } else {
                headerProblems.append(
                    Diagnostic(
                        .error, at: at, "unknown column '\(raw)'",
                        fix: "Use exactly the columns \(expected)"))
            }
        }
        for name in columns where header.column(name) == nil {
            headerProblems.append(
                Diagnostic(
                    .error, at: at, "missing column '\(name)'",
                    fix: "Use exactly the columns \(expected)"))
        }
        if !headerProblems.isEmpty {
            problems.append(contentsOf: headerProblems)
            return ReferenceTable(path: path, rows: [], isUsable: false)
        }
        // Where each expected column is in the file; nil when the header lists them in the expected order
        // (then every row's fields are kept as the CSV reader made them).
        let positions = columns.compactMap { header.column($0) }
        let order = positions == Array(positions.indices) ? nil : positions
        var rows: [Row] = []
        rows.reserveCapacity(result.rows.count - 1)
        for row in result.rows.dropFirst() {
            guard row.fields.count == header.names.count else {
                problems.append(
                    Diagnostic(
                        .error, at: SourceLocation(path: path, line: row.line),
                        "the row has \(row.fields.count) fields but the header has \(header.names.count)",
                        fix: "Quote fields that contain commas and give every column a value (empty is allowed)"))
                continue
            }
            var fields = order.map { order in order.map { row.fields[$0] } } ?? row.fields
            // Nearly every field is already trimmed; only the others are replaced (copying the row's array once).
            for position in fields.indices where ReferenceText.isPadded(fields[position]) {
                fields[position] = ReferenceText.trimmed(fields[position])
            }
            rows.append(Row(line: row.line, fields: fields, columns: columns))
        }
        return ReferenceTable(path: path, rows: rows)
    }
}
