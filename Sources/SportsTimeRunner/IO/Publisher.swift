import Foundation
import SportsTimeCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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

    /// Seconds to wait after each rename of a publish: a fault-injection point, so tests can kill a
    /// runner inside a publish (`SPORTSTIME_PUBLISH_PAUSE_MS`); 0 otherwise.
    public var pauseBetweenRenames: Double = 0

    public init(root: URL, pauseBetweenRenames: Double = 0) {
        self.root = root
        self.pauseBetweenRenames = pauseBetweenRenames
    }

    private func paused() { if pauseBetweenRenames > 0 { Thread.sleep(forTimeInterval: pauseBetweenRenames) } }

    private var files: RepositoryFiles { RepositoryFiles(root: root) }

    /// Replaces each target by its staged path (or removes it), then writes `lock`. `label` names the
    /// work in the journal (a stage name). When a move or the lock cannot be written (a read-only or
    /// full disk), the moves already done are undone and the journal removed, so the stage stays as
    /// it was; only if that undo fails too does the journal stay for the next runner to complete.
    public func publish(label: String, moves: [Move], lock: Data) throws {
        if hasPendingJournal {
            throw FileFault(path: Self.journalPath, action: "publish \(label)", code: EBUSY,
                            reason: "an earlier publish in this run could be neither finished nor undone",
                            fix: "Fix the file system problem above and re-run; the next run completes it")
        }
        let journal = Journal(stage: label, moves: moves, lock: String(decoding: lock, as: UTF8.self))
        let data = try CanonicalJSON.makeEncoder().encode(journal)
        try files.writeAtomically(data, to: Self.journalPath)
        do {
            try complete(journal)
        } catch let cause {
            do {
                try undo(journal)
                try files.removeTree(Self.journalPath)
            } catch let undoFailure {
                throw PublishFailure(cause: cause, journalKept: true, undoFailure: undoFailure)
            }
            throw PublishFailure(cause: cause, journalKept: false)
        }
    }

    /// A publish that failed: the file fault, and whether its journal had to be kept.
    public struct PublishFailure: Error, CustomStringConvertible {
        public var cause: Error
        public var journalKept: Bool
        /// Why the undo failed, when it did.
        public var undoFailure: Error? = nil
        public var description: String {
            "\(cause)" + (journalKept
                ? " The publish could not be undone either (\(undoFailure.map { "\($0)" } ?? "unknown")): "
                    + "\(Publisher.journalPath) stays, and the next run completes it."
                : " Nothing was published; the previous outputs and lock are unchanged.")
        }
    }

    /// Completes a publish a killed runner left half done. Returns its label, or nil when there was none.
    public func recover() throws -> String? {
        guard let data = FileManager.default.contents(atPath: files.absolute(Self.journalPath)) else { return nil }
        guard let journal = try? CanonicalJSON.makeDecoder().decode(Journal.self, from: data) else {
            // The journal is written atomically, so a torn one cannot be ours; nothing was moved yet.
            try files.removeTree(Self.journalPath)
            return nil
        }
        try complete(journal)
        return journal.stage
    }

    /// Whether a half-done publish is waiting to be completed.
    public var hasPendingJournal: Bool { files.exists(Self.journalPath) }

    /// Does what is left of `journal`'s moves (each is done when its staged path is gone, or for a
    /// removal when its target is gone), writes the lock, then drops the journal and the backups.
    private func complete(_ journal: Journal) throws {
        for move in journal.moves {
            let done = move.staged.map { !files.exists($0) } ?? !files.exists(move.target)
            if done { continue }
            if files.exists(move.target) {
                try files.removeTree(move.backup)
                try files.rename(move.target, to: move.backup, location: move.target)
                paused()
            }
            if let staged = move.staged {
                try files.rename(staged, to: move.target, location: move.target)
                paused()
            }
        }
        try files.writeAtomically(Data(journal.lock.utf8), to: Self.lockPath)
        try files.removeTree(Self.journalPath)
        for move in journal.moves { try? files.removeTree(move.backup) }
        try? files.removeTree(".pipeline/backup/\(journal.stage)")
    }

    /// Reverses the moves of `journal` that were done, last first: a published target goes back to its
    /// staged path, and the backup back to the target. The lock was not written (it is written last).
    private func undo(_ journal: Journal) throws {
        for move in journal.moves.reversed() {
            if let staged = move.staged, !files.exists(staged), files.exists(move.target) {
                try files.rename(move.target, to: staged, location: move.target)
            }
            if files.exists(move.backup), !files.exists(move.target) {
                try files.rename(move.backup, to: move.target, location: move.target)
            }
        }
    }

    /// Where an out's previous version waits while it is replaced.
    public static func backupPath(of target: String, label: String) -> String { ".pipeline/backup/\(label)/\(target)" }
}
