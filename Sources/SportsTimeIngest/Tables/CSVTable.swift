import Foundation
import SportsTimeCore

/// CSV files as tables: header row (deduplicated names: `PTS`, `PTS.2`, unnamed `column6`), or no
/// header (`column1`...); blank rows skipped; header rows repeated inside the file skipped;
/// an unterminated quote rejects the row it starts; a field longer than `InputLimits.scrapedFieldBytes`
/// rejects its row (the field is not kept); under a header, a row with fewer cells than the header has
/// columns (a line cut off) or more (cells no column names) is rejected; invalid UTF-8 replaced with a
/// warning.
enum CSVTable {
    struct Options: Sendable {
        var delimiter: Character = ","
        var hasHeader = true
        var skipLines = 0
        /// Whether a row with fewer cells than the header is rejected (Basketball-Reference section rows
        /// are one cell, so that reader checks after taking them out).
        var requiresFullRows = true
    }

    static func read(_ data: Data, path: String, options: Options) -> Table {
        let reader = CSVReader(delimiter: options.delimiter, maxFieldBytes: InputLimits.scrapedFieldBytes)
        let result = reader.read(data)
        var rows = result.rows.filter { !isBlankRow($0.fields) }
        if options.skipLines > 0 { rows.removeFirst(min(options.skipLines, rows.count)) }
        var columns: [String] = []
        var headerFields: [String]?
        if options.hasHeader, let first = rows.first {
            columns = CSVHeader(first.fields).names
            headerFields = first.fields
            rows.removeFirst()
        } else {
            // A loop, not `map(\.fields.count)`: a key path of two parts is read through the runtime
            // (`swift_getAtKeyPath`), about 2,000 instructions a row.
            var width = 0
            for row in rows { width = max(width, row.fields.count) }
            columns = (0..<width).map { "column\($0 + 1)" }
        }
        var table = Table(path: path, columns: columns, csvDelimiter: options.delimiter)
        if result.hadInvalidUTF8 { table.warnings.append(invalidUTF8Warning(path)) }
        for row in rows {
            if let headerFields, row.fields == headerFields { continue }
            if let overlong = row.overlongField {
                let name = overlong.column < columns.count ? " ('\(columns[overlong.column])')" : ""
                table.rowRejects.append(
                    Reject(
                        file: path, line: row.line,
                        reason: overlongReason(column: overlong.column + 1, name: name, bytes: overlong.bytes),
                        raw: shortRaw(table, row.line, row.fields)))
                continue
            }
            if let open = result.unterminatedQuoteLine, row.line == open {
                table.rowRejects.append(
                    Reject(
                        file: path, line: row.line,
                        reason: "a quoted field opened on this line is never closed (the rest of the file was read into it)",
                        raw: shortRaw(table, row.line, row.fields)))
                table.warnings.append(
                    Diagnostic(
                        .warning, at: SourceLocation(path: path, line: row.line),
                        "unterminated quoted field", fix: "Close the quote in the source file"))
                continue
            }
            if options.hasHeader, options.requiresFullRows, row.fields.count < columns.count {
                table.rowRejects.append(
                    shortRowReject(
                        path: path, line: row.line, cells: row.fields.count,
                        columns: columns.count, raw: shortRaw(table, row.line, row.fields)))
                continue
            }
            if options.hasHeader, row.fields.count > columns.count {
                table.rowRejects.append(
                    Reject(
                        file: path, line: row.line,
                        reason:
                            "the row has \(row.fields.count) cells, more than the header's \(columns.count) columns (cells no column names)",
                        raw: shortRaw(table, row.line, Array(row.fields.prefix(columns.count + 1)))))
                continue
            }
            table.rows.append(TableRow(line: row.line, cells: row.fields))
        }
        return table
    }

    /// The reject of a row with fewer cells than the header names.
    static func shortRowReject(path: String, line: Int, cells: Int, columns: Int, raw: String) -> Reject {
        Reject(
            file: path, line: line,
            reason: "the row has \(cells) of the header's \(columns) columns (the line looks cut off)",
            raw: raw)
    }

    /// A row's text for a reject, cut to `InputLimits.rejectRawCharacters`.
    static func shortRaw(_ table: Table, _ line: Int, _ cells: [String]) -> String {
        String(table.rawText(of: TableRow(line: line, cells: cells)).prefix(InputLimits.rejectRawCharacters))
    }

    /// A lookup file: header row required.
    static func readLookup(_ data: Data, path: String) -> Table {
        read(data, path: path, options: Options())
    }
}

/// Basketball-Reference schedule exports: CSV with a header, plus section rows (`Playoffs`) that
/// switch the kind of the rows after them. Adds a `section` column holding the current section.
enum BBRefTable {
    static func read(_ data: Data, path: String) -> Table {
        var table = CSVTable.read(data, path: path, options: .init(requiresFullRows: false))
        let headerWidth = table.columns.count
        let sectionColumn = table.columns.count
        var columns = table.columns
        columns.append("section")
        var result = Table(path: path, columns: columns, csvDelimiter: ",")
        result.rowRejects = table.rowRejects
        result.warnings = table.warnings
        var section = ""
        for var row in table.rows {
            let nonEmpty = row.cells.filter { !$0.trimmed.isEmpty }
            if nonEmpty.count == 1, let only = nonEmpty.first, row.cells.first?.trimmed == only,
                only.rangeOfCharacter(from: .decimalDigits) == nil
            {
                section = only.trimmed
                continue
            }
            if row.cells.count < headerWidth {
                result.rowRejects.append(
                    CSVTable.shortRowReject(
                        path: path, line: row.line, cells: row.cells.count, columns: headerWidth,
                        raw: CSVTable.shortRaw(table, row.line, row.cells)))
                continue
            }
            while row.cells.count < sectionColumn { row.cells.append("") }
            row.cells.append(section)
            result.rows.append(row)
        }
        table = result
        return table
    }
}

/// Why a row with an over-long field is rejected (1-based column, with its header name when known).
func overlongReason(column: Int, name: String, bytes: Int) -> String {
    "field \(column)\(name) is \(bytes) bytes, more than the \(InputLimits.scrapedFieldBytes) allowed in one scraped field; the row is not read"
}
