import Foundation
import SportsTimeCore
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Moves validated outputs from staging into place and writes the lock.
///
/// Before the first move a journal (`.pipeline/journal.json`) records every move and the new lock.
/// An out that already exists is swapped with its staged version in one step (`renameat2` with
/// `RENAME_EXCHANGE`), so at every instant it is wholly old or wholly new; the old version then goes
/// to `.pipeline/backup/`. Where the file system cannot exchange, the old version is renamed away and
/// the new one renamed in (two renames, between which the out is missing). The journal keeps the inode
/// of each staged version, so whether a move was done can be seen on disk, and a runner that finds a
/// journal completes it. The lock is written last, atomically.
public struct Publisher: Sendable {
    public let root: URL

    public static let journalPath = ".pipeline/journal.json"
    public static let lockPath = "pipeline/pipeline.lock.json"
    static let stagingFolder = ".pipeline/staging/"
    static let backupFolder = ".pipeline/backup/"

    /// One path to replace (`staged` set) or remove (`staged` nil).
    public struct Move: Codable, Sendable, Hashable {
        public var staged: String?
        public var target: String
        public var backup: String
        /// The staged version's inode when the journal was written: the target has it once the move is done.
        public var inode: UInt64?
    }

    struct Journal: Codable {
        var stage: String
        var moves: [Move]
        var lock: String
    }

    /// Seconds to wait after each rename of a publish: a fault-injection point, so tests can kill a
    /// runner inside a publish (`SPORTSTIME_PUBLISH_PAUSE_MS`); 0 otherwise.
    public var pauseBetweenRenames: Double = 0

    /// Disposes of a backup once its publish is complete (the journal gone): removed at once unless a
    /// runner hands it to its trash, which deletes it in the background.
    var discard: @Sendable (String) -> Void

    public init(root: URL, pauseBetweenRenames: Double = 0) {
        self.root = root
        self.pauseBetweenRenames = pauseBetweenRenames
        let files = RepositoryFiles(root: root)
        self.files = files
        self.discard = { path in try? files.removeTree(path) }
    }

    private func paused() { if pauseBetweenRenames > 0 { Thread.sleep(forTimeInterval: pauseBetweenRenames) } }

    private let files: RepositoryFiles

    /// Replaces each target by its staged path (or removes it), then writes `lock`. `label` names the
    /// work in the journal (a stage name). When a move or the lock cannot be written (a read-only or
    /// full disk), the moves already done are undone and the journal removed, so the stage stays as
    /// it was; only if that undo fails too does the journal stay for the next runner to complete. With no
    /// moves (outputs that came out as published) the lock alone is written, atomically, without a journal.
    public func publish(label: String, moves: [Move], lock: Data) throws {
        if hasPendingJournal {
            throw FileFault(
                path: Self.journalPath, action: "publish \(label)", code: EBUSY,
                reason: "an earlier publish in this run could be neither finished nor undone",
                fix: "Fix the file system problem above and re-run; the next run completes it")
        }
        // Nothing to move (every output came out as published): the lock is the only write, and an atomic
        // write needs no journal to be all or nothing.
        if moves.isEmpty {
            do {
                try files.writeAtomically(lock, to: Self.lockPath)
            } catch let cause {
                throw PublishFailure(cause: cause, journalKept: false)
            }
            return
        }
        let recorded = moves.map { move -> Move in
            var move = move
            move.inode = move.staged.flatMap { files.inode($0) }
            return move
        }
        let journal = Journal(stage: label, moves: recorded, lock: String(decoding: lock, as: UTF8.self))
        let data = try CanonicalJSON.encode(journal)
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
            "\(cause)"
                + (journalKept
                    ? " The publish could not be undone either (\(undoFailure.map { "\($0)" } ?? "unknown")): "
                        + "\(Publisher.journalPath) stays, and the next run completes it."
                    : " Nothing was published; the previous outputs and lock are unchanged.")
        }
    }

    /// Completes a publish a killed runner left half done. Returns its label, or nil when there was none.
    /// Before anything is moved, every path the journal names must be the runner's: staged versions
    /// under `.pipeline/staging/`, backups under `.pipeline/backup/`, and targets `checkTarget` accepts
    /// (it returns why not); the journal's lock must pass `checkLock`. Otherwise nothing is touched and
    /// the journal is refused as invalid input, located at its line.
    public func recover(
        checkTarget: (String) -> String? = { _ in nil },
        checkLock: (Data) -> [String] = { _ in [] }
    ) throws -> String? {
        let data: Data
        switch RunnerFile.read(files.absolute(Self.journalPath)) {
        case .success(let bytes): data = bytes
        case .failure(.missing): return nil
        case .failure(let failure):
            throw PipelineError.invalidInput(
                RunnerFile.problem(
                    failure, path: Self.journalPath, what: "the journal",
                    fix: "Delete \(Self.journalPath) and re-run ('git status out' shows what an interrupted publish left)")!)
        }
        guard let journal = try? CanonicalJSON.decode(Journal.self, from: data) else {
            // The journal is written atomically, so a torn one cannot be ours; nothing was moved yet.
            try files.removeTree(Self.journalPath)
            return nil
        }
        let text = String(decoding: data, as: UTF8.self)
        var problems: [Diagnostic] = []
        func refuse(_ value: String, _ why: String) {
            problems.append(
                Diagnostic(
                    .error, at: SourceLocation(path: Self.journalPath, line: Self.line(of: value, in: text)),
                    "the journal was not written by sportstime for this repository: \(why)",
                    fix: "Delete \(Self.journalPath) and re-run ('git status out' shows what an interrupted publish left)"))
        }
        let confinement = RepositoryConfinement(root: root)
        // A scratch path is reached without any link: nothing is moved in from, or out to, elsewhere.
        func isPlain(_ path: String) -> Bool { confinement.resolvedRelative(path) == path }
        // The stage names a folder of .pipeline/backup/, which is discarded once the journal is completed.
        if RepositoryPath.controlCharacter(in: journal.stage) != nil || journal.stage.contains("/")
            || ["", ".", ".."].contains(journal.stage)
        {
            refuse(journal.stage, "its stage name '\(journal.stage)' is not a stage name")
        }
        for move in journal.moves {
            if let staged = move.staged, !Self.isScratch(staged, under: Self.stagingFolder) || !isPlain(staged) {
                refuse(staged, "'\(staged)' is not a staged output under \(Self.stagingFolder) reached without links")
            }
            if !Self.isScratch(move.backup, under: Self.backupFolder) || !isPlain(move.backup) {
                refuse(move.backup, "'\(move.backup)' is not a backup under \(Self.backupFolder) reached without links")
            }
            if let why = checkTarget(move.target) { refuse(move.target, why) }
        }
        for why in checkLock(Data(journal.lock.utf8)) {
            problems.append(
                Diagnostic(
                    .error, at: SourceLocation(path: Self.journalPath, line: Self.line(of: "\"lock\"", in: text)),
                    "the lock in the journal is not valid (\(why))",
                    fix: "Delete \(Self.journalPath) and re-run ('git status out' shows what an interrupted publish left)"))
        }
        if !problems.isEmpty { throw PipelineError.invalidInputs(problems) }
        try complete(journal)
        return journal.stage
    }

    /// Whether `path` is a plain path (no `.`, `..` or empty parts) strictly inside `folder`.
    static func isScratch(_ path: String, under folder: String) -> Bool {
        guard path.hasPrefix(folder), path.count > folder.count, RepositoryPath.controlCharacter(in: path) == nil else { return false }
        return !path.split(separator: "/", omittingEmptySubsequences: false).contains { $0.isEmpty || $0 == "." || $0 == ".." }
    }

    /// The 1-based line of the first occurrence of `value` (as a JSON string) in `text`; 1 when absent.
    static func line(of value: String, in text: String) -> Int {
        let quoted = value.hasPrefix("\"") ? value : ((try? CanonicalJSON.compact(value)) ?? value)
        for (index, line) in TextLines.split(text).enumerated()
        where line.contains(quoted) || line.contains(value) {
            return index + 1
        }
        return 1
    }

    /// Whether a half-done publish is waiting to be completed.
    public var hasPendingJournal: Bool { files.exists(Self.journalPath) }

    /// Does what is left of `journal`'s moves, writes the lock, then drops the journal and the backups.
    /// A move is done when the target has the staged version's inode (or, for a journal without
    /// inodes, when the staged path is gone); a removal is done when its target is gone.
    private func complete(_ journal: Journal) throws {
        for move in journal.moves {
            guard let staged = move.staged else {
                if files.exists(move.target) {
                    try files.removeTree(move.backup)
                    try files.rename(move.target, to: move.backup, location: move.target)
                    paused()
                }
                continue
            }
            if let inode = move.inode, files.inode(move.target) == inode {
                // Done; killed right after the exchange, the old version is still at the staged path.
                if files.exists(staged) {
                    try files.removeTree(move.backup)
                    try files.rename(staged, to: move.backup, location: move.target)
                }
                continue
            }
            if !files.exists(staged) {
                if move.inode == nil { continue }
                throw FileFault(
                    path: move.target, action: "publish \(move.target)", code: ENOENT,
                    reason: "its staged version \(staged) is gone and the target is not it",
                    fix: "Delete \(Self.journalPath) and run again with --force")
            }
            if files.exists(move.target) {
                try files.removeTree(move.backup)
                if try files.exchange(staged, move.target, location: move.target) {
                    paused()
                    try files.rename(staged, to: move.backup, location: move.target)
                    paused()
                    continue
                }
                try files.rename(move.target, to: move.backup, location: move.target)
                paused()
            }
            try files.rename(staged, to: move.target, location: move.target)
            paused()
        }
        try files.writeAtomically(Data(journal.lock.utf8), to: Self.lockPath)
        try files.removeTree(Self.journalPath)
        for move in journal.moves { discard(move.backup) }
        discard(".pipeline/backup/\(journal.stage)")
    }

    /// Reverses the moves of `journal` that were done, last first: a published target goes back to its
    /// staged path, and the old version back to the target. The lock was not written (it is written last).
    private func undo(_ journal: Journal) throws {
        for move in journal.moves.reversed() {
            if let staged = move.staged {
                let published = move.inode.map { files.inode(move.target) == $0 } ?? !files.exists(staged)
                if published && files.exists(staged) {
                    // Swapped, but the old version was not moved on yet: swap back.
                    if try files.exchange(staged, move.target, location: move.target) { continue }
                }
                if published && files.exists(move.target) && !files.exists(staged) {
                    try files.rename(move.target, to: staged, location: move.target)
                }
            }
            if files.exists(move.backup), !files.exists(move.target) {
                try files.rename(move.backup, to: move.target, location: move.target)
            }
        }
    }

    /// Where an out's previous version waits while it is replaced.
    public static func backupPath(of target: String, label: String) -> String { ".pipeline/backup/\(label)/\(target)" }
}
