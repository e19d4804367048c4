import Foundation
import SportsTimeCore

/// What the last successful run of one stage saw and wrote: its content key and the hashes behind it.
public struct LockEntry: Codable, Hashable, Sendable {
    /// argv as in the spec (placeholders replaced; never the executable's absolute location).
    public var cmd: [String]
    /// Source path → content hash.
    public var code: [String: String]
    /// Dep path → content hash (`missing` when absent).
    public var deps: [String: String]
    /// SHA-256 over cmd, params, deps, code and the out paths.
    public var key: String
    /// Out path → content hash of what was published.
    public var outs: [String: String]
    public var params: [String: String]
    /// What a stage that writes a depfile reported reading (`Depfile`), sorted; `deps` then holds the
    /// hashes of these in place of the dep folders that hold them. Nil for other stages.
    public var reads: [String]?

    public init(
        cmd: [String], code: [String: String], deps: [String: String], key: String,
        outs: [String: String], params: [String: String], reads: [String]? = nil
    ) {
        self.cmd = cmd; self.code = code; self.deps = deps; self.key = key; self.outs = outs; self.params = params
        self.reads = reads
    }
}

/// `pipeline/pipeline.lock.json`: one entry per stage, sorted, no timestamps, so it diffs and merges cleanly.
public struct PipelineLock: Hashable, Sendable {
    public static let currentVersion = 1
    public var stages: [String: LockEntry]

    public init(stages: [String: LockEntry] = [:]) { self.stages = stages }

    private struct File: Codable {
        var schemaVersion: Int
        var stages: [String: LockEntry]
    }

    /// Reads a lock; `path` is shown in errors. Unknown versions and malformed files are input errors (exit 2).
    public static func decode(_ data: Data, path: String) throws -> PipelineLock {
        let file: File
        do {
            file = try CanonicalJSON.decode(File.self, from: data)
        } catch {
            throw PipelineError.invalidInput(
                Diagnostic(
                    .error, at: SourceLocation(path: path, line: 1),
                    "not a valid pipeline lock (\(describe(error)))",
                    fix: "Restore it with 'git checkout \(path)', or delete it to run every stage again"))
        }
        guard file.schemaVersion == currentVersion else {
            throw PipelineError.invalidInput(
                Diagnostic(
                    .error, at: SourceLocation(path: path, line: 1),
                    "lock schemaVersion \(file.schemaVersion) is not the version this build reads (\(currentVersion))",
                    fix: "Rebuild sportstime, or delete the lock to run every stage again"))
        }
        return PipelineLock(stages: file.stages)
    }

    /// Canonical bytes: sorted keys, two-space indent, lists and hashes one per line, trailing newline.
    public func encoded() -> Data {
        var out = "{\n  \"schemaVersion\": \(Self.currentVersion),\n  \"stages\": {"
        let names = stages.keys.sorted()
        for (index, name) in names.enumerated() {
            let entry = stages[name]!
            out += "\n    \(quote(name)): {\n"
            out += "      \"cmd\": [" + entry.cmd.map(quote).joined(separator: ", ") + "],\n"
            out += "      \"code\": " + map(entry.code) + ",\n"
            out += "      \"deps\": " + map(entry.deps) + ",\n"
            out += "      \"key\": " + quote(entry.key) + ",\n"
            out += "      \"outs\": " + map(entry.outs) + ",\n"
            out += "      \"params\": " + map(entry.params) + (entry.reads == nil ? "\n" : ",\n")
            if let reads = entry.reads {
                out +=
                    "      \"reads\": "
                    + (reads.isEmpty ? "[]" : "[\n" + reads.map { "        " + quote($0) }.joined(separator: ",\n") + "\n      ]") + "\n"
            }
            out += "    }" + (index == names.count - 1 ? "\n  " : ",")
        }
        out += "}\n}\n"
        return Data(out.utf8)
    }

    private func map(_ values: [String: String]) -> String {
        if values.isEmpty { return "{}" }
        let lines = values.keys.sorted().map { "        \(quote($0)): \(quote(values[$0]!))" }
        return "{\n" + lines.joined(separator: ",\n") + "\n      }"
    }

    /// `text` as a JSON string, escaped by the canonical writer (the lock is written after every stage).
    private func quote(_ text: String) -> String {
        var writer = JSONWriter(capacity: text.utf8.count + 8)
        writer.string(text)
        return writer.text
    }
}
