import Foundation
import SportsTimeCore

/// How a format's files become rows.
enum TableKind: Sendable {
    case csv, json, retrosheet, ical, bbref
}

/// One file as rows of named cells: what every reader produces and what mappings and filters read.
struct Table: Sendable {
    /// Repository-relative path of the file.
    var path: String
    var columns: [String]
    var rows: [TableRow]
    /// Rows that could not become cells at all (wrong column count, unterminated quote, ...). Each
    /// counts as read and rejected.
    var rowRejects: [Reject] = []
    /// File-level warnings (invalid UTF-8 replaced, ...).
    var warnings: [Diagnostic] = []
    /// Delimiter to rebuild a row's raw text for a reject; nil when rows carry their own raw text.
    var csvDelimiter: Character?
    /// Rows without their own raw text are their first `quotedColumns` cells, each in quotes, joined by
    /// commas (a Retrosheet line): built only for the rows that are rejected.
    var quotedColumns: Int?

    private var index: [String: Int] = [:]

    init(path: String, columns: [String], rows: [TableRow] = [], csvDelimiter: Character? = nil) {
        self.path = path
        self.columns = columns
        self.rows = rows
        self.csvDelimiter = csvDelimiter
        self.index = Dictionary(columns.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
    }

    func column(_ name: String) -> Int? { index[name] }

    /// `"a","b","c"`: each cell in quotes, joined by commas.
    static func quoted(_ cells: some Sequence<String>) -> String {
        cells.map { "\"\($0)\"" }.joined(separator: ",")
    }

    /// The row's text as the file had it (CSV rebuilt with quoting), for rejects.
    func rawText(of row: TableRow) -> String {
        if let raw = row.raw { return raw }
        if let node = row.node { return node.compact }
        if let quotedColumns { return Self.quoted(row.cells.prefix(quotedColumns)) }
        let d = csvDelimiter ?? ","
        return row.cells.map { cell in
            cell.contains(d) || cell.contains("\"") || cell.contains("\n") || cell.contains("\r")
                ? "\"" + cell.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : cell
        }.joined(separator: String(d))
    }
}

/// One row: the 1-based line it starts on and its cells (by column position).
struct TableRow: Sendable {
    var line: Int
    var cells: [String]
    /// Raw text when the format keeps it (JSON, iCalendar, Retrosheet); CSV rebuilds it on demand.
    var raw: String?
    /// The JSON record the row came from (its compact text is the raw text, made only for rejects).
    var node: JSONNode?

    @inline(__always) func cell(_ i: Int) -> String? { i < cells.count ? cells[i] : nil }
}

/// A warning for a file whose bytes were not all UTF-8.
func invalidUTF8Warning(_ path: String) -> Diagnostic {
    Diagnostic(
        .warning, at: SourceLocation(path: path),
        "the file is not valid UTF-8; undecodable bytes were replaced with U+FFFD",
        fix: "Check the names in its records, or re-save the file as UTF-8")
}

/// Whether every cell is empty or spaces (a row of delimiters only).
func isBlankRow(_ cells: [String]) -> Bool {
    cells.allSatisfy { $0.allSatisfy { $0 == " " || $0 == "\t" } }
}
