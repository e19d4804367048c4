import Foundation
import SportsTimeCore

/// `pipeline/params.yaml`, optional: params every stage can use as `${params.NAME}`.
///
/// A flat mapping of names to scalars (text, numbers, `true`/`false`), each taken as written. A stage's
/// own `params:` entry of the same name wins over the shared one. A stage's content key includes only the
/// shared params its cmd or its own params use, so changing one re-runs exactly the stages that read it.
public struct SharedParams: Sendable, Equatable {
    /// Where the file lives, beside the spec.
    public static let path = "pipeline/params.yaml"

    /// Name → value as written.
    public var values: [String: String]

    public init(values: [String: String] = [:]) { self.values = values }

    /// No shared params (no `pipeline/params.yaml`).
    public static let none = SharedParams()

    /// Parses the file strictly: a mapping of names (letters, digits, `-`, `_`) to scalars.
    /// A file holding only comments (or nothing) has no params.
    public static func parse(_ text: String, path: String = SharedParams.path) throws -> SharedParams {
        let hasContent = text.split(whereSeparator: \.isNewline).contains { line in
            let trimmed = line.drop { $0 == " " || $0 == "\t" }
            return !trimmed.isEmpty && !trimmed.hasPrefix("#") && trimmed != "---" && trimmed != "..."
        }
        guard hasContent else { return .none }
        let file = try StrictYAML.decode([String: SharedParamValue].self, from: text, path: path)
        var problems: [Diagnostic] = []
        let locator = YAMLLocator(text: text, path: path)
        for name in file.keys.sorted() where !isName(name) {
            problems.append(
                Diagnostic(
                    .error, at: locator.keyLocation([.key(name)]),
                    "param name '\(name)' has characters other than letters, digits, '-' and '_'",
                    fix: "Rename the param (and the ${params.\(name)} that use it)"))
        }
        if !problems.isEmpty {
            throw problems.count == 1 ? PipelineError.invalidInput(problems[0]) : PipelineError.invalidInputs(problems)
        }
        return SharedParams(values: file.mapValues(\.text))
    }

    /// Param names, shared or a stage's own: letters, digits, `-` and `_`.
    static func isName(_ name: String) -> Bool {
        !name.isEmpty
            && name.unicodeScalars.allSatisfy {
                $0.isLowercaseASCIIAlphanumeric || $0.isUppercaseASCIILetter || $0 == "-" || $0 == "_"
            }
    }
}

/// One param's value: a scalar, taken as written. A list, a mapping or an empty value is an error at its line.
struct SharedParamValue: Decodable {
    var text: String

    init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "a param needs a value (text, a number, true or false)")
        }
        guard let text = try? container.decode(String.self) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "a param's value is a scalar (text, a number, true or false), not a list or a mapping")
        }
        self.text = text
    }
}
