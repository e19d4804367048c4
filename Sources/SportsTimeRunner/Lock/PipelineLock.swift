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
}

/// `pipeline/pipeline.lock.json`: one entry per stage, sorted, no timestamps, so it diffs and merges cleanly.
public struct PipelineLock: Hashable, Sendable {
    public static let currentVersion = 1
    public var stages: [String: LockEntry] = [:]

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
    /// Written into one buffer, strings escaped by the canonical writer (the lock is rewritten after every
    /// stage a run publishes).
    public func encoded() -> Data {
        var w = JSONWriter(capacity: 64 * 1024)
        w.raw("{\n  \"schemaVersion\": ")
        w.int(Self.currentVersion)
        w.raw(",\n  \"stages\": {")
        let names = stages.keys.sorted()
        for (index, name) in names.enumerated() {
            let entry = stages[name]!
            w.raw("\n    ")
            w.string(name)
            w.raw(": {\n      \"cmd\": [")
            for (position, argument) in entry.cmd.enumerated() {
                if position > 0 { w.raw(", ") }
                w.string(argument)
            }
            w.raw("],\n      \"code\": ")
            map(entry.code, to: &w)
            w.raw(",\n      \"deps\": ")
            map(entry.deps, to: &w)
            w.raw(",\n      \"key\": ")
            w.string(entry.key)
            w.raw(",\n      \"outs\": ")
            map(entry.outs, to: &w)
            w.raw(",\n      \"params\": ")
            map(entry.params, to: &w)
            if let reads = entry.reads {
                w.raw(",\n      \"reads\": ")
                if reads.isEmpty {
                    w.raw("[]")
                } else {
                    w.raw("[")
                    for (position, read) in reads.enumerated() {
                        w.raw(position > 0 ? ",\n        " : "\n        ")
                        w.string(read)
                    }
                    w.raw("\n      ]")
                }
            }
            w.raw(index == names.count - 1 ? "\n    }\n  " : "\n    },")
        }
        w.raw("}\n}\n")
        return w.data
    }

    private func map(_ values: [String: String], to w: inout JSONWriter) {
        if values.isEmpty {
            w.raw("{}")
            return
        }
        for (position, key) in values.keys.sorted().enumerated() {
            w.raw(position > 0 ? ",\n        " : "{\n        ")
            w.string(key)
            w.raw(": ")
            w.string(values[key]!)
        }
        w.raw("\n      }")
    }
}
