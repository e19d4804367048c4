import Foundation

/// Writes the YAML reference (`docs/yaml-reference.md`) and one JSON Schema per YAML input
/// (`pipeline/schemas/<name>.schema.json`, draft 2020-12, for editors through yaml-language-server)
/// from the readers' key tables. Byte-deterministic: keys sorted, two-space indentation, trailing newline.
public enum YAMLReferenceRenderer {
    /// Why the tables cannot be rendered (two different mappings under one name).
    public struct Problem: Error, CustomStringConvertible {
        public var description: String
    }

    // MARK: Markdown

    /// The whole reference; `schemaFolder` is where the schemas are, relative to the document.
    public static func markdown(_ files: [YAMLFileReference], schemaFolder: String) throws -> String {
        var out = """
            # YAML reference

            Every key of every YAML input, generated from the key tables the readers declare next to their
            `CodingKeys` (tests fail when a reader decodes a key its table does not document). Do not edit
            this file: change the table and run `make schemas`, which also rewrites the editor schemas in
            `pipeline/schemas/*.schema.json` named below. Each committed YAML input starts with
            `# yaml-language-server: $schema=<schema>`, so an editor with the YAML language server completes
            keys, shows these descriptions on hover and flags unknown keys.

            Unknown keys are errors in every file. Strings that look like numbers, dates or times (`"2023"`,
            `"19:00"`) are best quoted.


            """
        for file in files {
            out += "- [`\(file.title)`](#\(anchor(file.title)))\n"
        }
        for file in files {
            try checkNames(file)
            out += "\n## <a id=\"\(anchor(file.title))\"></a>`\(file.title)`\n\n"
            out += "\(file.summary)\n\n"
            out += "Read by \(file.readBy). Schema: [`\(file.schemaFile)`](\(schemaFolder)/\(file.schemaFile)). "
            out += "Committed files: \(file.files.map { "`\($0)`" }.joined(separator: ", ")).\n\n"
            out += "Top level: \(typeText(file.root, in: file)).\n"
            for record in file.records {
                out += "\n### <a id=\"\(anchor(file.title, record.name))\"></a>`\(record.name)`\n\n"
                out += "\(record.summary)\n\n"
                out += "| key | type | required | description |\n|---|---|---|---|\n"
                for key in record.keys {
                    let need = key.isRequired ? "required" : key.defaultValue.map { "optional, default \($0)" } ?? "optional"
                    out += "| `\(key.name)` | \(cell(typeText(key.type, in: file))) | \(cell(need)) | \(cell(key.description)) |\n"
                }
            }
        }
        return out
    }

    static func anchor(_ parts: String...) -> String {
        let text = parts.joined(separator: "-").lowercased()
        var out = ""
        for character in text {
            if character.isLetter || character.isNumber { out.append(character) } else if !out.hasSuffix("-") { out.append("-") }
        }
        return out.trimmingCharacters(in: CharacterSet(charactersIn: "-"))
    }

    private static func cell(_ text: String) -> String {
        text.replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "\n", with: " ")
    }

    /// The type as a phrase: `list of string`, `one of `a`, `b``, a link to a mapping.
    public static func typeText(_ type: YAMLValueType, in file: YAMLFileReference) -> String {
        switch type {
        case .string: return "string"
        case .matching(let pattern, let example): return "string like `\(example)` (`\(pattern)`)"
        case .instant: return "ISO-8601 instant (`2023-03-01T00:00:00Z`)"
        case .date: return "date `YYYY-MM-DD`"
        case .integer(let minimum, let maximum): return "integer" + bounds(minimum.map(Double.init), maximum.map(Double.init))
        case .number(let minimum, let maximum): return "number" + bounds(minimum, maximum)
        case .boolean: return "`true` or `false`"
        case .scalar: return "scalar (string, number, `true`/`false` or `null`)"
        case .choice(let values): return "one of " + values.map { "`\($0)`" }.joined(separator: ", ")
        case .list(let element): return "list of " + typeText(element, in: file)
        case .map(let element): return "mapping of names to " + typeText(element, in: file)
        case .closedMap(let names, let element):
            return "mapping of " + names.map { "`\($0)`" }.joined(separator: ", ") + " (each optional) to " + typeText(element, in: file)
        case .record(let record): return "[`\(record.name)`](#\(anchor(file.title, record.name))) mapping"
        case .either(let alternatives): return alternatives.map { typeText($0, in: file) }.joined(separator: ", or ")
        }
    }

    private static func bounds(_ minimum: Double?, _ maximum: Double?) -> String {
        switch (minimum, maximum) {
        case let (low?, high?): return " \(plain(low))–\(plain(high))"
        case let (low?, nil): return " ≥ \(plain(low))"
        case let (nil, high?): return " ≤ \(plain(high))"
        case (nil, nil): return ""
        }
    }

    private static func plain(_ number: Double) -> String {
        number.rounded() == number && abs(number) < 1e15 ? String(Int64(number)) : String(number)
    }

    private static func checkNames(_ file: YAMLFileReference) throws {
        var seen: [String: [String]] = [:]
        func visit(_ type: YAMLValueType) throws {
            switch type {
            case .list(let element), .map(let element), .closedMap(_, let element): try visit(element)
            case .either(let alternatives): try alternatives.forEach(visit)
            case .record(let record):
                let keys = record.keys.map(\.name)
                if let known = seen[record.name] {
                    if known != keys {
                        throw Problem(description: "\(file.title): two different mappings are named '\(record.name)'")
                    }
                    return
                }
                seen[record.name] = keys
                try record.keys.forEach { try visit($0.type) }
            default: break
            }
        }
        try visit(file.root)
    }

    // MARK: JSON Schema

    /// The editor schema of one file, as canonical JSON text.
    public static func jsonSchema(_ file: YAMLFileReference) throws -> String {
        try checkNames(file)
        var root: [String: SchemaJSON] = [
            "$schema": .string("https://json-schema.org/draft/2020-12/schema"),
            "$id": .string(file.schemaFile),
            "title": .string(file.title),
        ]
        var definitions: [String: SchemaJSON] = [:]
        for record in file.records { definitions[record.name] = recordSchema(record) }
        if case .record(let record) = file.root {
            // The top-level mapping inline, so an editor shows its keys without a reference.
            guard case .object(let members) = recordSchema(record) else { return "" }
            root.merge(members) { first, _ in first }
            definitions[record.name] = nil
        } else {
            root.merge(schema(file.root)) { first, _ in first }
        }
        root["description"] = .string(file.summary + " Read by \(file.readBy). Generated by make schemas; see docs/yaml-reference.md.")
        if !definitions.isEmpty { root["$defs"] = .object(definitions) }
        var out = ""
        SchemaJSON.object(root).write(to: &out, indent: "")
        return out + "\n"
    }

    private static func recordSchema(_ record: YAMLRecord) -> SchemaJSON {
        var properties: [String: SchemaJSON] = [:]
        for key in record.keys {
            var member = schema(key.type)
            var text = key.description
            if let defaultValue = key.defaultValue { text += " Default: \(defaultValue)." }
            member["description"] = .string(text)
            properties[key.name] = .object(member)
        }
        var object: [String: SchemaJSON] = [
            "type": .string("object"),
            "description": .string(record.summary),
            "additionalProperties": .bool(false),
            "properties": .object(properties),
        ]
        let required = record.keys.filter(\.isRequired).map(\.name)
        if !required.isEmpty { object["required"] = .array(required.map(SchemaJSON.string)) }
        return .object(object)
    }

    private static func schema(_ type: YAMLValueType) -> [String: SchemaJSON] {
        switch type {
        case .string: return ["type": .string("string")]
        case .matching(let pattern, _): return ["type": .string("string"), "pattern": .string(pattern)]
        case .instant:
            return [
                "type": .string("string"),
                "pattern": .string("^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}(:[0-9]{2}(\\.[0-9]+)?)?(Z|[+-][0-9]{2}:?[0-9]{2})$"),
            ]
        case .date: return ["type": .string("string"), "pattern": .string("^[0-9]{4}-[0-9]{2}-[0-9]{2}$")]
        case .integer(let minimum, let maximum):
            var out: [String: SchemaJSON] = ["type": .string("integer")]
            if let minimum { out["minimum"] = .number(String(minimum)) }
            if let maximum { out["maximum"] = .number(String(maximum)) }
            return out
        case .number(let minimum, let maximum):
            var out: [String: SchemaJSON] = ["type": .string("number")]
            if let minimum { out["minimum"] = .number(plain(minimum)) }
            if let maximum { out["maximum"] = .number(plain(maximum)) }
            return out
        case .boolean: return ["type": .string("boolean")]
        case .scalar: return ["type": .array(["string", "number", "boolean", "null"].map(SchemaJSON.string))]
        case .choice(let values): return ["type": .string("string"), "enum": .array(values.map(SchemaJSON.string))]
        case .list(let element): return ["type": .string("array"), "items": .object(schema(element))]
        case .map(let element): return ["type": .string("object"), "additionalProperties": .object(schema(element))]
        case .closedMap(let names, let element):
            return [
                "type": .string("object"), "additionalProperties": .bool(false),
                "properties": .object(Dictionary(uniqueKeysWithValues: names.map { ($0, SchemaJSON.object(schema(element))) })),
            ]
        case .record(let record): return ["$ref": .string("#/$defs/\(record.name)")]
        case .either(let alternatives): return ["anyOf": .array(alternatives.map { .object(schema($0)) })]
        }
    }
}

/// The little JSON the schemas need, written with sorted keys and two-space indentation.
private indirect enum SchemaJSON {
    case string(String)
    case number(String)
    case bool(Bool)
    case array([SchemaJSON])
    case object([String: SchemaJSON])

    func write(to out: inout String, indent: String) {
        switch self {
        case .string(let text): Self.quote(text, to: &out)
        case .number(let text): out += text
        case .bool(let value): out += value ? "true" : "false"
        case .array(let elements):
            guard !elements.isEmpty else { out += "[]"; return }
            out += "[\n"
            for (index, element) in elements.enumerated() {
                out += indent + "  "
                element.write(to: &out, indent: indent + "  ")
                out += index == elements.count - 1 ? "\n" : ",\n"
            }
            out += indent + "]"
        case .object(let members):
            guard !members.isEmpty else { out += "{}"; return }
            out += "{\n"
            let keys = members.keys.sorted()
            for (index, key) in keys.enumerated() {
                out += indent + "  "
                Self.quote(key, to: &out)
                out += ": "
                members[key]!.write(to: &out, indent: indent + "  ")
                out += index == keys.count - 1 ? "\n" : ",\n"
            }
            out += indent + "}"
        }
    }

    static func quote(_ text: String, to out: inout String) {
        out += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            default:
                if scalar.value < 0x20 { out += String(format: "\\u%04x", scalar.value) } else { out.unicodeScalars.append(scalar) }
            }
        }
        out += "\""
    }
}
