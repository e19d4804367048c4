import Foundation
import SportsTimeCore

/// The content hash of a path, and the record counts found while reading it.
public struct PathDigest: Sendable, Hashable {
    /// SHA-256 of a file's bytes; for a folder, of its listing (sorted relative paths and file hashes);
    /// `missing` when the path does not exist.
    public var hash: String
    public var isFolder: Bool
    /// Records in envelopes and non-rejects JSON Lines files.
    public var records: Int
    /// Lines in `rejects*.jsonl` files.
    public var rejected: Int
    /// Whether any file held an envelope (so `records` means something).
    public var hasRecords: Bool
}

/// Hashes files and folder trees by content. A cache keyed by (path, size, mtime, ctime, inode) under
/// `.pipeline/cache/` saves re-reading unchanged files, the way git's index does; it only ever supplies
/// a hash computed from the bytes. ctime cannot be set back (`touch -d` changes it). Racy timestamps:
/// before it reads anything the hasher stamps `.pipeline/cache/stamp` (`StatClock`), and an entry is
/// kept only when the file's mtime and ctime are older than that stamp, as the file system's own clock
/// and granularity set it; a file changed in the same clock tick as it was read is hashed again next
/// time, so a same-size edit within the timestamp granularity cannot go unseen.
public final class ContentHasher: @unchecked Sendable {
    public let root: URL
    /// `root.path`, joined with repository paths as text.
    private let rootPath: String
    private let cacheFile: URL
    private let listingFolder: URL
    private let lock = NSLock()
    private var cache: [String: Entry] = [:]
    private var cacheChanged = false
    private var memo: [String: PathDigest] = [:]
    private var listings: [String: String] = [:]
    /// Every repository path stat'ed (nil: missing), for the status snapshot.
    private var observed: [String: FileStatus?] = [:]
    /// The file system's time just before anything was read (`StatClock`); nil when it cannot be stamped.
    public let stampedAt: Int64?

    private struct Entry {
        var hash: String
        var size: Int64
        var modified: Int64
        var changed: Int64
        var inode: UInt64
        var count: Int?
        /// Whether the entry may be written to disk (the file was old enough when hashed).
        var isSettled: Bool
    }

    /// The header, followed by a tab and the stamp (`StatClock`) of the run that wrote the file.
    private static let header = "sportstime file hashes 3"
    private static let treeHeader = "sportstime tree 1\n"

    public init(root: URL) {
        self.root = root
        rootPath = root.path
        cacheFile = root.appendingPathComponent(".pipeline/cache/file-hashes.tsv")
        listingFolder = root.appendingPathComponent(".pipeline/cache/listings")
        stampedAt = StatClock.stamp(root: root)
        load()
    }

    private func load() {
        guard let data = RunnerFile.cache(cacheFile.path) else { return }
        let text = String(decoding: data, as: UTF8.self)
        // Split by byte (`TabSeparated`).
        var lines = TabSeparated.lines(text)[...]
        guard let first = lines.popFirst(), first.hasPrefix(Self.header + "\t"),
            let written = Int64(first.dropFirst(Self.header.count + 1))
        else { return }
        for line in lines {
            let fields = TabSeparated.fields(line, maxSplits: 6)
            guard fields.count == 7, let size = Int64(fields[1]), let modified = Int64(fields[2]),
                let changed = Int64(fields[3]), let inode = UInt64(fields[4])
            else { continue }
            // Racily clean: a file whose times are not older than the stamp of the run that hashed it
            // may have changed in the same tick after it was read. It is read again.
            guard StatClock.isSettled(modified: modified, changed: changed, before: written) else { continue }
            cache[String(fields[6])] = Entry(
                hash: String(fields[0]), size: size, modified: modified, changed: changed,
                inode: inode, count: Int(fields[5]), isSettled: true)
        }
    }

    /// Writes the cache back when it changed (atomically; a lost update only costs re-hashing).
    public func save() {
        lock.lock(); defer { lock.unlock() }
        guard cacheChanged, let stampedAt else { return }
        var text = Self.header + "\t\(stampedAt)\n"
        for path in cache.keys.sorted() {
            let entry = cache[path]!
            guard entry.isSettled, FileStatus(path: PathText.join(rootPath, path)) != nil else { continue }
            text +=
                "\(entry.hash)\t\(entry.size)\t\(entry.modified)\t\(entry.changed)\t\(entry.inode)\t"
                + "\(entry.count.map(String.init) ?? "-")\t\(path)\n"
        }
        try? FileManager.default.createDirectory(at: cacheFile.deletingLastPathComponent(), withIntermediateDirectories: true)
        ScratchFile.replace(Data(text.utf8), at: cacheFile)
        cacheChanged = false
    }

    /// The paths stat'ed so far (repository-relative; nil when missing).
    func observations() -> [String: FileStatus?] {
        lock.lock(); defer { lock.unlock() }
        return observed
    }

    /// Stats `path` and records what it saw for the status snapshot.
    func observe(_ path: String) -> FileStatus? {
        let status = FileStatus(path: PathText.join(rootPath, path))
        lock.lock(); defer { lock.unlock() }
        observed[path] = status
        return status
    }

    /// Forgets what this process computed for paths at or under `path` (after they were replaced).
    public func invalidate(_ path: String) {
        lock.lock(); defer { lock.unlock() }
        for key in memo.keys where RepositoryPath.overlaps(key, path) { memo[key] = nil }
    }

    /// The digest of a repository-relative path (memoized until `invalidate`).
    public func digest(_ path: String) -> PathDigest {
        lock.lock(); defer { lock.unlock() }
        if let known = memo[path] { return known }
        let result =
            Depfile.isGlob(path)
            ? computeGlob(path)
            : compute(relative: path, absolute: PathText.join(rootPath, path), cacheKey: path)
        memo[path] = result
        return result
    }

    /// The digest of a path outside the repository's published tree (a staging folder), shown as `displayPath`
    /// for counting. Not cached: staged files are new. `known` gives the hash and record count of files
    /// just read (by absolute path), which are then not read again.
    public func digest(
        absolute: String, countingAs displayPath: String, known: [String: (hash: String, count: Int?)] = [:]
    ) -> PathDigest {
        lock.lock(); defer { lock.unlock() }
        return compute(relative: displayPath, absolute: absolute, cacheKey: nil, known: known)
    }

    /// The folder listing (relative path → file hash) behind a folder hash, when this machine has seen it.
    public func listing(_ hash: String) -> [String: String]? {
        lock.lock(); defer { lock.unlock() }
        let text: String
        if let known = listings[hash] {
            text = known
        } else if let stored = RunnerFile.cache(listingFolder.appendingPathComponent(hash).path),
            ArtifactFiles.sha256(stored) == hash
        {
            text = String(decoding: stored, as: UTF8.self)
            listings[hash] = text
        } else {
            return nil
        }
        var result: [String: String] = [:]
        for line in TabSeparated.lines(text).dropFirst() {
            guard line.utf8.count > 66 else { continue }
            let hashPart = line.prefix(64)
            result[String(line.dropFirst(66))] = String(hashPart)
        }
        return result
    }

    /// Keeps stored listings only for the given folder hashes.
    public func pruneListings(keeping hashes: Set<String>) {
        lock.lock(); defer { lock.unlock() }
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: listingFolder.path) else { return }
        for name in names where !hashes.contains(name) {
            try? FileManager.default.removeItem(at: listingFolder.appendingPathComponent(name))
        }
    }

    private func compute(
        relative: String, absolute: String, cacheKey: String?, known: [String: (hash: String, count: Int?)] = [:]
    ) -> PathDigest {
        let status = FileStatus(path: absolute)
        if let cacheKey { observed[cacheKey] = status }
        guard let status else {
            return PathDigest(hash: ContentHash.missing, isFolder: false, records: 0, rejected: 0, hasRecords: false)
        }
        if !status.isFolder {
            let (hash, count) = known[absolute] ?? fileHash(absolute: absolute, status: status, cacheKey: cacheKey)
            var digest = PathDigest(hash: hash, isFolder: false, records: 0, rejected: 0, hasRecords: false)
            add(count, name: relative, to: &digest)
            return digest
        }
        var files: [(String, String)] = []
        var digest = PathDigest(hash: "", isFolder: true, records: 0, rejected: 0, hasRecords: false)
        walk(
            absolute: absolute, relative: "", depth: 0,
            folder: { rel, folderStatus in
                if let cacheKey { observed[cacheKey + "/" + rel] = folderStatus }
            }
        ) { rel, fileAbsolute, fileStatus in
            let key = cacheKey.map { $0 + "/" + rel }
            if let key { observed[key] = fileStatus }
            let (hash, count) = known[fileAbsolute] ?? fileHash(absolute: fileAbsolute, status: fileStatus, cacheKey: key)
            add(count, name: rel, to: &digest)
            files.append((rel, hash))
        }
        digest.hash = storeListing(files)
        return digest
    }

    /// A glob (`folder/prefix*suffix`, see `Depfile`): the listing of the regular files directly in the
    /// folder whose names match, hashed like a folder's (an absent folder matches nothing).
    private func computeGlob(_ path: String) -> PathDigest {
        let folder = RepositoryPath.parent(of: path)
        let pattern = path.split(separator: "/").last.map(String.init) ?? path
        let folderAbsolute = PathText.join(rootPath, folder)
        let folderStatus = FileStatus(path: folderAbsolute)
        observed[folder] = folderStatus
        var digest = PathDigest(hash: "", isFolder: true, records: 0, rejected: 0, hasRecords: false)
        var files: [(String, String)] = []
        if folderStatus?.isFolder == true, let names = try? FileManager.default.contentsOfDirectory(atPath: folderAbsolute) {
            for name in names where !name.hasPrefix(".") && Depfile.matches(name, pattern: pattern) {
                let key = folder + "/" + name
                guard let status = FileStatus(path: folderAbsolute + "/" + name), status.isFile else { continue }
                observed[key] = status
                let (hash, count) = fileHash(absolute: folderAbsolute + "/" + name, status: status, cacheKey: key)
                add(count, name: name, to: &digest)
                files.append((name, hash))
            }
        }
        digest.hash = storeListing(files)
        return digest
    }

    /// Hashes a listing (relative path, file hash) and keeps it for `listing(_:)`.
    private func storeListing(_ unsorted: [(String, String)]) -> String {
        let files = unsorted.sorted { $0.0.utf8.lexicographicallyPrecedes($1.0.utf8) }
        var text = Self.treeHeader
        for (rel, hash) in files { text += "\(hash)  \(rel)\n" }
        let data = Data(text.utf8)
        let hash = ArtifactFiles.sha256(data)
        if listings[hash] == nil {
            listings[hash] = text
            let url = listingFolder.appendingPathComponent(hash)
            if !FileManager.default.fileExists(atPath: url.path) {
                try? FileManager.default.createDirectory(at: listingFolder, withIntermediateDirectories: true)
                ScratchFile.replace(data, at: url)
            }
        }
        return hash
    }

    private func add(_ count: Int?, name: String, to digest: inout PathDigest) {
        guard let count else { return }
        let file = name.split(separator: "/").last.map(String.init) ?? name
        if file.hasPrefix("rejects") && file.hasSuffix(".jsonl") {
            digest.rejected += count
        } else if file.hasPrefix("filtered") && file.hasSuffix(".jsonl") {
            return // rows a filter left out: neither records nor rejects
        } else {
            digest.records += count
            digest.hasRecords = true
        }
    }

    /// Regular files under a folder (hidden names skipped), depth-first.
    private func walk(
        absolute: String, relative: String, depth: Int, folder: (String, FileStatus) -> Void,
        _ visit: (String, String, FileStatus) -> Void
    ) {
        guard depth < 64, let names = try? FileManager.default.contentsOfDirectory(atPath: absolute) else { return }
        for name in names.sorted() where !name.hasPrefix(".") {
            let childAbsolute = absolute + "/" + name
            let childRelative = relative.isEmpty ? name : relative + "/" + name
            guard let status = FileStatus(path: childAbsolute) else { continue }
            if status.isFolder {
                folder(childRelative, status)
                walk(absolute: childAbsolute, relative: childRelative, depth: depth + 1, folder: folder, visit)
            } else if status.isFile {
                visit(childRelative, childAbsolute, status)
            }
        }
    }

    private func fileHash(absolute: String, status: FileStatus, cacheKey: String?) -> (String, Int?) {
        if let cacheKey, let entry = cache[cacheKey], entry.size == status.size, entry.modified == status.modified,
            entry.changed == status.changed, entry.inode == status.inode
        {
            return (entry.hash, entry.count)
        }
        guard let data = FileManager.default.contents(atPath: absolute) else { return (ContentHash.missing, nil) }
        let hash = ArtifactFiles.sha256(data)
        let count = RecordCounter.count(data, path: absolute)
        if let cacheKey {
            let settled = StatClock.isSettled(modified: status.modified, changed: status.changed, before: stampedAt)
            cache[cacheKey] = Entry(
                hash: hash, size: status.size, modified: status.modified, changed: status.changed,
                inode: status.inode, count: count, isSettled: settled)
            cacheChanged = true
        }
        return (hash, count)
    }
}

/// Lines and tab-separated fields of the runner's cache files, split by byte: the files hold hundreds of
/// lines of hashes and paths, and splitting a `String` by `Character` (grapheme by grapheme) made loading
/// the hash cache a quarter of the instructions of a full `status`.
enum TabSeparated {
    /// The non-empty lines of `text`.
    static func lines(_ text: String) -> [Substring] {
        text.utf8.split(separator: UInt8(ascii: "\n")).map { Substring($0) }
    }

    /// The fields of a line (empty fields kept), at most `maxSplits + 1`.
    static func fields(_ line: Substring, maxSplits: Int = Int.max) -> [Substring] {
        line.utf8.split(separator: UInt8(ascii: "\t"), maxSplits: maxSplits, omittingEmptySubsequences: false).map { Substring($0) }
    }
}
