import Foundation
import SportsTimeCore

/// The content a stage's result depends on, and the key hashed from it.
public struct StageFingerprint: Sendable, Hashable {
    public var argv: [String]
    public var params: [String: String]
    /// Dep path → content hash.
    public var deps: [String: String]
    /// Code path → content hash.
    public var code: [String: String]
    public var outs: [String]
    /// What the stage reported reading (`Depfile`), when `deps` was narrowed to it.
    public var reads: [String]?
    /// SHA-256 of all of the above in a fixed text form.
    public var key: String

    public init(stage: Stage, deps: [String: String], code: [String: String], reads: [String]? = nil) {
        self.argv = stage.argv
        self.reads = reads
        self.params = stage.params
        self.deps = deps
        self.code = code
        self.outs = stage.outs
        func quote(_ text: String) -> String { (try? CanonicalJSON.compact(text)) ?? text }
        var text = "sportstime stage key 1\n"
        text += "cmd " + stage.argv.map(quote).joined(separator: " ") + "\n"
        for out in stage.outs.sorted() { text += "out \(quote(out))\n" }
        // Only outs that are not envelopes add a line, so the keys of every other stage are as before.
        for out in stage.outChecks.keys.sorted() {
            switch stage.outChecks[out]! {
            case .envelope: break
            case .unchecked: text += "out-check \(quote(out)) unchecked\n"
            case .schema(let path): text += "out-check \(quote(out)) schema \(quote(path))\n"
            }
        }
        for name in stage.params.keys.sorted() { text += "param \(quote(name)) \(quote(stage.params[name]!))\n" }
        for path in deps.keys.sorted() { text += "dep \(quote(path)) \(deps[path]!)\n" }
        for path in code.keys.sorted() { text += "code \(quote(path)) \(code[path]!)\n" }
        self.key = ArtifactFiles.sha256(Data(text.utf8))
    }

    /// The lock entry recording this fingerprint and the published outputs.
    public func lockEntry(outs published: [String: String]) -> LockEntry {
        LockEntry(cmd: argv, code: code, deps: deps, key: key, outs: published, params: params, reads: reads)
    }
}

/// A file inside a folder dep that differs from the last run.
public struct FileChange: Sendable, Hashable {
    public enum Kind: String, Sendable { case added, removed, changed }
    public var path: String
    public var kind: Kind
}

/// Why a stage has to run.
public enum StageReason: Sendable, Hashable, CustomStringConvertible {
    case neverRun
    case forced
    case commandChanged
    case outsChanged
    case paramChanged(name: String, old: String?, new: String?)
    case codeChanged(path: String)
    /// A dep changed; `file` names the file inside a folder dep when the old listing is known.
    case depChanged(path: String, file: FileChange?)
    case outputMissing(path: String)
    case outputModified(path: String)

    public var description: String {
        switch self {
        case .neverRun: return "never run"
        case .forced: return "forced"
        case .commandChanged: return "cmd changed"
        case .outsChanged: return "outs changed"
        case .paramChanged(let name, let old?, let new?): return "param \(name) changed (\(old) → \(new))"
        case .paramChanged(let name, nil, let new?): return "param \(name) added (\(new))"
        case .paramChanged(let name, _, _): return "param \(name) removed"
        case .codeChanged(let path): return "code changed (\(path))"
        case .depChanged(let path, nil): return "dep \(path) changed"
        case .depChanged(_, let file?): return "dep \(file.path) \(file.kind.rawValue)"
        case .outputMissing(let path): return "output \(path) missing"
        case .outputModified(let path): return "output \(path) modified since the last run"
        }
    }
}

/// Decides whether a stage is up to date: pure, from the fingerprint, the outputs on disk and the lock.
public enum StagePlanner {
    /// The reasons to run, most telling first; empty when the stage is up to date.
    ///
    /// - Parameters:
    ///   - outputs: out path → current content hash (`missing` when absent).
    ///   - listing: the file listing (relative path → hash) behind a folder hash, when known.
    public static func reasons(
        _ fingerprint: StageFingerprint, outputs: [String: String], lock entry: LockEntry?,
        listing: (String) -> [String: String]?
    ) -> [StageReason] {
        guard let entry else { return [.neverRun] }
        var reasons: [StageReason] = []
        if entry.cmd != fingerprint.argv { reasons.append(.commandChanged) }
        if Set(entry.outs.keys) != Set(fingerprint.outs) { reasons.append(.outsChanged) }
        for name in Set(entry.params.keys).union(fingerprint.params.keys).sorted()
        where entry.params[name] != fingerprint.params[name] {
            reasons.append(.paramChanged(name: name, old: entry.params[name], new: fingerprint.params[name]))
        }
        for path in Set(entry.code.keys).union(fingerprint.code.keys).sorted() where entry.code[path] != fingerprint.code[path] {
            reasons.append(.codeChanged(path: path))
        }
        for path in Set(entry.deps.keys).union(fingerprint.deps.keys).sorted() where entry.deps[path] != fingerprint.deps[path] {
            let files = fileChanges(from: entry.deps[path], to: fingerprint.deps[path], under: path, listing: listing)
            if files.isEmpty {
                reasons.append(.depChanged(path: path, file: nil))
            } else {
                reasons.append(contentsOf: files.map { .depChanged(path: path, file: $0) })
            }
        }
        if reasons.isEmpty && entry.key != fingerprint.key { reasons.append(.commandChanged) }
        for path in fingerprint.outs.sorted() {
            let current = outputs[path] ?? ContentHash.missing
            if current == ContentHash.missing {
                reasons.append(.outputMissing(path: path))
            } else if let recorded = entry.outs[path], recorded != current {
                reasons.append(.outputModified(path: path))
            }
        }
        return reasons
    }

    /// The files that differ between two listings of a folder, or empty when either is unknown.
    static func fileChanges(
        from old: String?, to new: String?, under folder: String,
        listing: (String) -> [String: String]?
    ) -> [FileChange] {
        guard let old, let new, let before = listing(old), let after = listing(new) else { return [] }
        // A glob's listing is relative to its folder.
        let folder = Depfile.isGlob(folder) ? RepositoryPath.parent(of: folder) : folder
        var changes: [FileChange] = []
        for path in Set(before.keys).union(after.keys).sorted() {
            switch (before[path], after[path]) {
            case (nil, _?): changes.append(FileChange(path: folder + "/" + path, kind: .added))
            case (_?, nil): changes.append(FileChange(path: folder + "/" + path, kind: .removed))
            case (let a?, let b?) where a != b: changes.append(FileChange(path: folder + "/" + path, kind: .changed))
            default: break
            }
        }
        return changes
    }

    /// `a, b, c and 4 more` for a status line.
    public static func summary(_ reasons: [StageReason], limit: Int = 3) -> String {
        let shown = reasons.prefix(limit).map(\.description)
        let rest = reasons.count - shown.count
        return shown.joined(separator: ", ") + (rest > 0 ? " and \(rest) more" : "")
    }
}

/// Hash values the runner records for things that are not plain files.
public enum ContentHash {
    /// A path that does not exist.
    public static let missing = "missing"
}
