import Foundation
import SportsTimeCore

/// Moves validated outputs from staging into place and writes the lock, so that a crash at any moment
/// leaves either the state before the stage or — once the next runner has started — the state after it.
///
/// Before the first rename a journal (`.pipeline/journal.json`) records every move and the new lock.
/// Each move is two renames (old → `.pipeline/backup/`, staged → target), and whether each was done can
/// be seen on disk, so a runner that finds a journal completes it. The lock is written last, atomically.
public struct Publisher: Sendable {
    public let root: URL

    public static let journalPath = ".pipeline/journal.json"
    public static let lockPath = "pipeline/pipeline.lock.json"

    /// One path to replace (`staged` set) or remove (`staged` nil).
    public struct Move: Codable, Sendable, Hashable {
        public var staged: String?
        public var target: String
        public var backup: String
    }

    struct Journal: Codable {
        var stage: String
        var moves: [Move]
        var lock: String
    }

    public init(root: URL) { self.root = root }

    private func url(_ path: String) -> URL { root.appendingPathComponent(path) }

    private func exists(_ path: String) -> Bool {
        var isFolder: ObjCBool = false
        // A dangling symbolic link still occupies the name.
        return FileManager.default.fileExists(atPath: url(path).path, isDirectory: &isFolder)
            || (try? FileManager.default.destinationOfSymbolicLink(atPath: url(path).path)) != nil
    }

    /// Replaces each target by its staged path (or removes it), then writes `lock`. `label` names the
    /// work in the journal (a stage name).
    public func publish(label: String, moves: [Move], lock: Data) throws {
        let journal = Journal(stage: label, moves: moves, lock: String(decoding: lock, as: UTF8.self))
        let data = try CanonicalJSON.makeEncoder().encode(journal)
        try FileManager.default.createDirectory(at: url(".pipeline"), withIntermediateDirectories: true)
        try data.write(to: url(Self.journalPath), options: .atomic)
        try complete(journal)
    }

    /// Completes a publish a killed runner left half done. Returns its label, or nil when there was none.
    public func recover() throws -> String? {
        guard let data = FileManager.default.contents(atPath: url(Self.journalPath).path) else { return nil }
        guard let journal = try? CanonicalJSON.makeDecoder().decode(Journal.self, from: data) else {
            // The journal is written atomically, so a torn one cannot be ours; nothing was moved yet.
            try FileManager.default.removeItem(at: url(Self.journalPath))
            return nil
        }
        try complete(journal)
        return journal.stage
    }

    /// Whether a half-done publish is waiting to be completed.
    public var hasPendingJournal: Bool { FileManager.default.fileExists(atPath: url(Self.journalPath).path) }

    private func complete(_ journal: Journal) throws {
        let manager = FileManager.default
        for move in journal.moves {
            let stagedExists = move.staged.map(exists) ?? false
            let done = move.staged == nil ? !exists(move.target) : !stagedExists
            if done { continue }
            if exists(move.target) {
                if exists(move.backup) { try manager.removeItem(at: url(move.backup)) }
                try manager.createDirectory(at: url(move.backup).deletingLastPathComponent(), withIntermediateDirectories: true)
                try manager.moveItem(at: url(move.target), to: url(move.backup))
            }
            if let staged = move.staged {
                try manager.createDirectory(at: url(move.target).deletingLastPathComponent(), withIntermediateDirectories: true)
                try manager.moveItem(at: url(staged), to: url(move.target))
            }
        }
        try ArtifactFiles.write(Data(journal.lock.utf8), to: url(Self.lockPath))
        try manager.removeItem(at: url(Self.journalPath))
        for move in journal.moves where exists(move.backup) { try? manager.removeItem(at: url(move.backup)) }
    }

    /// Where an out's previous version waits while it is replaced.
    public static func backupPath(of target: String, label: String) -> String { ".pipeline/backup/\(label)/\(target)" }
}
