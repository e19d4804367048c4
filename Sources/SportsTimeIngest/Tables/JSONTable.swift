import Foundation
import SportsTimeCore

/// JSON files as tables: the records are the elements reached by a key path (the root array when
/// none); each requested key path becomes a column. A record's line is the line its `{` is on.
enum JSONTable {
    static func read(_ data: Data, path: String, records recordsPath: String?, columns: [String]) throws -> Table {
        guard data.count <= InputLimits.jsonFileBytes else {
            throw PipelineError.invalidInput(
                Diagnostic(
                    .error, at: SourceLocation(path: path, line: 1),
                    "the JSON file is \(data.count) bytes, more than the limit of \(InputLimits.jsonFileBytes)",
                    fix: "Split the file, or check that it is the intended download"))
        }
        let (text, invalid) = CSVReader.decodeText(data)
        let root: JSONNode
        do {
            root = try JSONParser.parseNodes(text)
        } catch let error as JSONSyntaxError {
            throw PipelineError.invalidInput(
                Diagnostic(
                    .error, at: SourceLocation(path: path, line: error.line, column: error.column),
                    "JSON syntax: \(error.message)", fix: "Re-download the file or repair it"))
        }
        let recordPath = try jsonPath(recordsPath ?? "", file: path)
        let found = recordPath.nodes(from: root)
        var nodes: [JSONNode] = []
        for node in found {
            if case .array(let items) = node.value { nodes.append(contentsOf: items) } else { nodes.append(node) }
        }
        if found.isEmpty {
            throw PipelineError.invalidInput(
                Diagnostic(
                    .error, at: SourceLocation(path: path, line: 1),
                    "the records key path '\(recordsPath ?? "")' reaches nothing in this file",
                    fix: "Fix mapping.records (for example games, or data[*].events)"))
        }
        let paths = try columns.map { try jsonPath($0, file: path) }
        var table = Table(path: path, columns: columns)
        if invalid { table.warnings.append(invalidUTF8Warning(path)) }
        for node in nodes {
            guard case .object = node.value else {
                table.rowRejects.append(
                    Reject(
                        file: path, line: node.line, reason: "a record is not a JSON object",
                        raw: String(node.compact.prefix(InputLimits.rejectRawCharacters))))
                continue
            }
            let cells = paths.map { $0.text(in: node) ?? "" }
            table.rows.append(TableRow(line: node.line, cells: cells, node: node))
        }
        return table
    }

    private static func jsonPath(_ text: String, file: String) throws -> JSONPath {
        do { return try JSONPath(text) } catch {
            throw PipelineError.invalidInput(
                Diagnostic(
                    .error, at: SourceLocation(path: file), "'\(text)' is not a JSON key path",
                    fix: "Write keys joined by '.', with [n], [*] or [key=value] for lists"))
        }
    }
}
