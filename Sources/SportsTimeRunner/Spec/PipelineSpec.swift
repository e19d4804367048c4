import Foundation
import SportsTimeCore

/// `pipeline/pipeline.yaml` as written: stage templates before fan-out, with where each is written.
public struct PipelineSpec: Sendable {
    /// The spec's path as shown in messages.
    public var path: String
    /// Stage templates in document order.
    public var templates: [StageTemplate]
    /// The spec's text, to point errors found later at their YAML line.
    public var locations: SpecText
    /// `pipeline/params.yaml` (empty when there is none).
    public var shared: SharedParams = .none
}

/// One entry under `stages:`: a stage, or a family of stages when it has a `foreach`.
public struct StageTemplate: Sendable {
    public var name: String
    /// argv; may use `${out}`, `${outs.N}`, `${outs.N.dir}`, `${params.NAME}`, `${item}`.
    public var cmd: [String]
    /// Normalized repository paths (may contain `${item}`).
    public var deps: [String]
    public var outs: [String]
    /// The stage's own params as written (values may use `${item}` and shared `${params.NAME}`).
    public var params: [String: String]
    /// Source paths that fingerprint the stage (top-level `code` included), sorted.
    public var code: [String]
    /// Where each code path is written (the stage's own `code`, or the top-level one).
    public var codeKeyPaths: [String: [String]]
    public var foreach: Fanout?
    public var description: String?
    /// How each out (same order as `outs`) is checked before it is published.
    public var outChecks: [OutCheck] = []
}

/// How an out's files are checked before they are published.
public enum OutCheck: Sendable, Hashable {
    /// The default: every `.json` file is a SportsTime envelope of a known kind, valid against
    /// `pipeline/schemas/<kind>.schema.json`; every `.jsonl` line is a JSON object.
    case envelope
    /// `validate: false`: published as written, unchecked.
    case unchecked
    /// `schema: PATH`: every `.json` file, and every line of a `.jsonl` file, is valid against the
    /// stage's own JSON Schema at PATH (repository-relative; its content is part of the stage's key).
    case schema(String)
}

/// Where a fan-out stage's items come from.
public enum Fanout: Sendable, Equatable {
    /// A list written in the spec.
    case items([String])
    /// One item per entry of `folder` whose name is `prefix` + item + `suffix`; only folders when
    /// `folders` is true (a glob ending in `/`).
    case glob(folder: String, prefix: String, suffix: String, folders: Bool)
}

/// One runnable stage after fan-out: everything about it resolved except the executable's location.
public struct Stage: Sendable, Hashable {
    /// `normalize`, or `plan@mlb-week` for an instance of a fan-out.
    public var name: String
    /// The template's name (`plan`).
    public var template: String
    public var item: String?
    /// argv with placeholders replaced (outputs point into the stage's staging folder).
    public var argv: [String]
    public var deps: [String]
    public var outs: [String]
    /// The params its content key covers: its own, expanded, and the shared ones its cmd or own params use.
    public var params: [String: String]
    public var code: [String]
    public var description: String?
    /// Outs not checked as envelopes (`validate: false` or `schema:`), by path; the rest are `.envelope`.
    public var outChecks: [String: OutCheck] = [:]
    /// Where the stage writes the list of what it read, when its cmd uses `${depfile}` (see `Depfile`).
    public var depfile: String?

    /// How out `path` is checked before it is published.
    public func check(of path: String) -> OutCheck { outChecks[path] ?? .envelope }

    /// The folder a stage writes into; the runner moves its contents into place after validation.
    public static func stagingFolder(for name: String) -> String { ".pipeline/staging/\(name)" }

    /// Where out `path` is written while the stage runs.
    public static func stagingPath(of path: String, stage name: String) -> String {
        stagingFolder(for: name) + "/" + path
    }

    public var stagingFolder: String { Self.stagingFolder(for: name) }

    /// Where a stage whose cmd uses `${depfile}` writes what it read: beside its staging folder, so it is
    /// never taken for a file written beside the outs.
    public static func depfilePath(for name: String) -> String { stagingFolder(for: name) + ".deps" }
}

/// The spec's raw shape, decoded strictly (unknown keys are errors with their line).
struct SpecFile: Decodable {
    var code: [String]?
    var stages: [String: StageFile]
}

struct StageFile: Decodable {
    var cmd: [String]
    var deps: [String]?
    var outs: [OutFile]
    var params: [String: String]?
    var code: [String]?
    var foreach: FanoutFile?
    var description: String?
}

/// An entry of `outs`: a path, or `{path: P, validate: false}` / `{path: P, schema: S}` for an output
/// that is not a SportsTime envelope.
struct OutFile: Decodable {
    var path: String
    var validate: Bool?
    var schema: String?
    /// Whether it was written as a plain path.
    var isPath = false

    enum CodingKeys: String, CodingKey, CaseIterable { case path, validate, schema }
    /// `isPath` records how the value was written; it is not a key (`{isPath: true}` is an unknown key).

    init(from decoder: Decoder) throws {
        if let text = try? decoder.singleValueContainer().decode(String.self) {
            path = text
            isPath = true
            return
        }
        let container = try decoder.container(keyedBy: CodingKeys.self)
        path = try container.decode(String.self, forKey: .path)
        validate = try container.decodeIfPresent(Bool.self, forKey: .validate)
        schema = try container.decodeIfPresent(String.self, forKey: .schema)
    }
}

/// `foreach: [a, b]`, `foreach: {items: [a, b]}` or `foreach: {glob: fixtures/requests/*.yaml}`.
struct FanoutFile: Decodable {
    var items: [String]?
    var glob: String?
    /// Whether it was written as a plain list (`foreach: [a, b]`).
    var isList = false

    enum CodingKeys: String, CodingKey, CaseIterable { case items, glob }
    /// `isList` records how the value was written; it is not a key (`foreach: {isList: true}` is unknown).

    init(from decoder: Decoder) throws {
        if let list = try? decoder.singleValueContainer().decode([String].self) {
            items = list
            glob = nil
            isList = true
            return
        }
        let container = try decoder.container(keyedBy: CodingKeys.self)
        items = try container.decodeIfPresent([String].self, forKey: .items)
        glob = try container.decodeIfPresent(String.self, forKey: .glob)
    }
}

/// The spec's text and path, locating key paths for messages through the core's YAML locator.
/// Key paths are written as strings: mapping keys as they are, list positions as `[0]`.
public struct SpecText: Sendable {
    public let text: String
    public let path: String
    /// The text composed once: a spec with many problems locates each without composing it again.
    private let locator: YAMLLocator

    public init(text: String, path: String) {
        self.text = text; self.path = path
        locator = YAMLLocator(text: text, path: path)
    }

    /// Where `keyPath` is written: a mapping entry's key, or a list element (the nearest parent that exists).
    public func location(_ keyPath: [String]) -> SourceLocation {
        locator.keyLocation(keyPath.map(Self.element))
    }

    /// `keys` ordered as they are written in the mapping at `keyPath`.
    func documentOrder(of keys: [String], under keyPath: [String]) -> [String] {
        let places = keys.map { locator.keyLocation((keyPath + [$0]).map(Self.element)) }
        return zip(keys, places).sorted { ($0.1.line ?? 0, $0.1.column ?? 0, $0.0) < ($1.1.line ?? 0, $1.1.column ?? 0, $1.0) }
            .map(\.0)
    }

    private static func element(_ component: String) -> YAMLPathElement {
        if component.hasPrefix("["), component.hasSuffix("]"), let index = Int(component.dropFirst().dropLast()) {
            return .index(index)
        }
        return .key(component)
    }
}
