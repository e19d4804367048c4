import Foundation

/// One CSV file of `fixtures/reference/` read against its fixed header: every expected column present,
/// nothing else, names in any order. Rows come back with their physical line and trimmed fields.
struct ReferenceTable {
    struct Row {
        let line: Int
        private let fields: [String]
        private let index: [String: Int]

        init(line: Int, fields: [String], index: [String: Int]) {
            self.line = line; self.fields = fields; self.index = index
        }

        /// The trimmed value of an expected column ("" when empty).
        subscript(_ column: String) -> String {
            guard let position = index[column] else { return "" }
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
        var index: [String: Int] = [:]
        for name in columns { index[name] = header.column(name) }
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
            rows.append(
                Row(
                    line: row.line,
                    fields: row.fields.map(ReferenceText.trimmed), index: index))
        }
        return ReferenceTable(path: path, rows: rows)
    }
}
