import Foundation
import SportsTimeCore

/// JSON files as tables: the records are the elements reached by a key path (the root array when
/// none); each requested key path becomes a column. A record's line is the line its `{` is on.
enum JSONTable {
    static func read(
        _ data: Data, path: String, records recordsPath: String?, javascriptExport: String? = nil, columns: [String]
    ) throws -> Table {
        guard data.count <= InputLimits.jsonFileBytes else {
            throw PipelineError.invalidInput(
                Diagnostic(
                    .error, at: SourceLocation(path: path, line: 1),
                    "the JSON file is \(data.count) bytes, more than the limit of \(InputLimits.jsonFileBytes)",
                    fix: "Split the file, or check that it is the intended download"))
        }
        let (fileText, invalid) = CSVReader.decodeText(data)
        let text = try javascriptExport.map { try JavaScriptModule.exportedValue(named: $0, in: fileText, path: path) } ?? fileText
        let root: JSONNode
        do {
            root = try JSONParser.parseNodes(text)
        } catch let error as JSONSyntaxError {
            let exports = javascriptExport == nil ? JavaScriptModule.exportNames(in: fileText) : []
            throw PipelineError.invalidInput(
                Diagnostic(
                    .error, at: SourceLocation(path: path, line: error.line, column: error.column),
                    "JSON syntax: \(error.message)"
                        + (exports.isEmpty ? "" : " (the file is a JavaScript module exporting \(exports.joined(separator: ", ")))"),
                    fix: exports.isEmpty
                        ? (javascriptExport == nil
                            ? "Re-download the file or repair it"
                            : "The export must be JSON (quoted keys and strings; trailing commas and // comments are allowed)")
                        : "Set mapping.javascriptExport to the export that holds the records (e.g. javascriptExport: \(exports[0]))"))
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

/// The JSON value of one export of a JavaScript module (`export const GAMES = [ ... ]`), for sources published
/// as modules. The value must be JSON but for what JavaScript adds that is common in data modules (a trailing
/// comma, `//` comments); the rest of the module is blanked, not parsed.
enum JavaScriptModule {
    /// `text` with everything but the value of `export const|let|var <name> =` replaced by spaces (line ends
    /// kept), so the JSON parser's lines and columns are the file's own.
    static func exportedValue(named name: String, in text: String, path: String) throws -> String {
        let bytes = Array(text.utf8)
        guard let start = valueStart(of: name, in: bytes), let end = valueEnd(from: start, in: bytes) else {
            let exports = exportNames(in: text)
            throw PipelineError.invalidInput(
                Diagnostic(
                    .error, at: SourceLocation(path: path, line: 1),
                    "the file has no export '\(name)' with a JSON array or object value"
                        + (exports.isEmpty ? " (it exports nothing)" : " (it exports \(exports.joined(separator: ", ")))"),
                    fix: "Set mapping.javascriptExport to the export that holds the records"))
        }
        var blanked = bytes
        for i in blanked.indices where (i < start || i >= end) && blanked[i] != 0x0A && blanked[i] != 0x0D {
            blanked[i] = 0x20
        }
        blankJavaScriptOnly(&blanked, in: start..<end)
        return String(decoding: blanked, as: UTF8.self)
    }

    /// What JavaScript allows in a literal and JSON does not, blanked: a comma before a closing bracket and
    /// `//` line comments (outside strings). Anything else that is not JSON is left for the parser to refuse.
    private static func blankJavaScriptOnly(_ bytes: inout [UInt8], in range: Range<Int>) {
        var i = range.lowerBound
        var inString = false
        while i < range.upperBound {
            let byte = bytes[i]
            if inString {
                if byte == UInt8(ascii: "\\") { i += 1 } else if byte == UInt8(ascii: "\"") { inString = false }
            } else if byte == UInt8(ascii: "\"") {
                inString = true
            } else if byte == UInt8(ascii: ","),
                case let next = skipSpace(bytes, i + 1), next < range.upperBound,
                bytes[next] == UInt8(ascii: "]") || bytes[next] == UInt8(ascii: "}")
            {
                bytes[i] = 0x20
            } else if byte == UInt8(ascii: "/"), i + 1 < range.upperBound, bytes[i + 1] == UInt8(ascii: "/") {
                while i < range.upperBound, bytes[i] != 0x0A, bytes[i] != 0x0D {
                    bytes[i] = 0x20
                    i += 1
                }
                continue
            }
            i += 1
        }
    }

    /// The names a module exports as `export const|let|var NAME =`, in file order.
    static func exportNames(in text: String) -> [String] {
        let bytes = Array(text.utf8)
        var names: [String] = []
        var at = 0
        while let found = declaration(in: bytes, from: at) {
            names.append(String(decoding: bytes[found.name], as: UTF8.self))
            at = found.name.upperBound
        }
        return names
    }

    /// The next `export const|let|var NAME =` from `from`: the range of NAME and the index after `=`.
    private static func declaration(in bytes: [UInt8], from: Int) -> (name: Range<Int>, after: Int)? {
        let export = Array("export".utf8)
        var i = from
        while i + export.count < bytes.count {
            defer { i += 1 }
            guard bytes[i..<i + export.count].elementsEqual(export), i == 0 || !isWordByte(bytes[i - 1]) else { continue }
            var j = skipSpace(bytes, i + export.count)
            let keywordStart = j
            while j < bytes.count, isWordByte(bytes[j]) { j += 1 }
            guard ["const", "let", "var"].contains(String(decoding: bytes[keywordStart..<j], as: UTF8.self)) else { continue }
            j = skipSpace(bytes, j)
            let nameStart = j
            while j < bytes.count, isWordByte(bytes[j]) { j += 1 }
            let name = nameStart..<j
            j = skipSpace(bytes, j)
            guard !name.isEmpty, j < bytes.count, bytes[j] == UInt8(ascii: "=") else { continue }
            return (name, j + 1)
        }
        return nil
    }

    /// Where the value of export `name` begins: its `[` or `{`.
    private static func valueStart(of name: String, in bytes: [UInt8]) -> Int? {
        var at = 0
        while let found = declaration(in: bytes, from: at) {
            if String(decoding: bytes[found.name], as: UTF8.self) == name {
                let start = skipSpace(bytes, found.after)
                guard start < bytes.count, bytes[start] == UInt8(ascii: "[") || bytes[start] == UInt8(ascii: "{") else { return nil }
                return start
            }
            at = found.name.upperBound
        }
        return nil
    }

    /// The index after the bracket that closes the one at `start` (strings and their escapes skipped).
    private static func valueEnd(from start: Int, in bytes: [UInt8]) -> Int? {
        var depth = 0
        var i = start
        var inString = false
        while i < bytes.count {
            let byte = bytes[i]
            if inString {
                if byte == UInt8(ascii: "\\") { i += 1 } else if byte == UInt8(ascii: "\"") { inString = false }
            } else if byte == UInt8(ascii: "\"") {
                inString = true
            } else if byte == UInt8(ascii: "[") || byte == UInt8(ascii: "{") {
                depth += 1
            } else if byte == UInt8(ascii: "]") || byte == UInt8(ascii: "}") {
                depth -= 1
                if depth == 0 { return i + 1 }
            }
            i += 1
        }
        return nil
    }

    private static func skipSpace(_ bytes: [UInt8], _ from: Int) -> Int {
        var i = from
        while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x09 || bytes[i] == 0x0A || bytes[i] == 0x0D { i += 1 }
        return i
    }

    private static func isWordByte(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "$")
    }
}
