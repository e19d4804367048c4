import Crypto
import Foundation

/// File operations for the command layer: atomic writes that skip unchanged bytes, hashing,
/// and repository-relative paths. Stage libraries never call these.
public enum ArtifactFiles {
    /// Writes `data` to `url` atomically, creating parent folders, only when the bytes differ.
    /// Returns whether the file changed.
    @discardableResult
    /// A failure is a `PipelineError` located at the file (relative to the working folder), with the
    /// system's reason and what to do (a full or read-only disk, a missing permission).
    public static func write(_ data: Data, to url: URL) throws -> Bool {
        if let existing = FileManager.default.contents(atPath: url.path), existing == data { return false }
        let shown = relativePath(of: url, to: URL(fileURLWithPath: FileManager.default.currentDirectoryPath))
        let (folderCode, _) = AtomicFile.makeFolders(url.deletingLastPathComponent().path)
        if folderCode != 0 { throw PipelineError.failure(FileFault(path: shown, action: "create its folder", code: folderCode).diagnostic) }
        let code = AtomicFile.write(data, to: url.path)
        if code != 0 { throw PipelineError.failure(FileFault(path: shown, action: "write", code: code).diagnostic) }
        return true
    }

    /// Lowercase hex SHA-256 of `data`.
    public static func sha256(_ data: Data) -> String {
        let digest = SHA256.hash(data: data)
        return String(unsafeUninitializedCapacity: 2 * SHA256.byteCount) { text in
            var at = 0
            for byte in digest {
                text[at] = hexDigits[Int(byte >> 4)]
                text[at + 1] = hexDigits[Int(byte & 0x0F)]
                at += 2
            }
            return at
        }
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    /// Lowercase hex SHA-256 of the file at `url`.
    public static func sha256(of url: URL) throws -> String { sha256(try Data(contentsOf: url)) }

    /// `url`'s path relative to `root`, with `/` separators; the absolute path when outside `root`.
    public static func relativePath(of url: URL, to root: URL) -> String {
        let base = root.standardizedFileURL.resolvingSymlinksInPath().path
        let full = url.standardizedFileURL.resolvingSymlinksInPath().path
        if full == base { return "." }
        let prefix = base.hasSuffix("/") ? base : base + "/"
        return full.hasPrefix(prefix) ? String(full.dropFirst(prefix.count)) : full
    }

    /// Regular files under `directory` (recursively) whose names end in `suffix`, sorted by path, as
    /// `directory`'s path and the names below it. Hidden files and folders (a name starting with `.`) are
    /// left out; links are neither listed nor followed, nor is a `directory` that is itself a link; a
    /// missing or unreadable folder lists nothing. (Read with `opendir`/`readdir`: Foundation's
    /// enumerator, which lists the same files, made a URL and asked for its resource values per entry.)
    public static func files(under directory: URL, suffix: String) -> [URL] {
        let root = directory.path
        guard entryKind(root) == .folder else { return [] }
        var found: [String] = []
        func walk(_ folder: String) {
            guard let stream = opendir(folder) else { return }
            var folders: [String] = []
            while let entry = readdir(stream) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                    String(cString: raw.baseAddress!.assumingMemoryBound(to: CChar.self))
                }
                // Also `.` and `..`.
                if name.hasPrefix(".") { continue }
                let path = folder + "/" + name
                let kind: EntryKind =
                    switch Int32(entry.pointee.d_type) {
                    case Int32(DT_DIR): .folder
                    case Int32(DT_REG): .file
                    case Int32(DT_UNKNOWN): entryKind(path)
                    default: .other
                    }
                if kind == .folder {
                    folders.append(path)
                } else if kind == .file, name.hasSuffix(suffix) {
                    found.append(path)
                }
            }
            closedir(stream)
            for path in folders { walk(path) }
        }
        walk(root)
        return found.sorted().map { URL(fileURLWithPath: $0) }
    }

    private enum EntryKind { case file, folder, other }

    /// What is at `path` itself (a link is not followed): `.other` for a link, a missing path or anything
    /// but a regular file or a folder.
    private static func entryKind(_ path: String) -> EntryKind {
        var info = stat()
        guard lstat(path, &info) == 0 else { return .other }
        switch info.st_mode & S_IFMT {
        case S_IFDIR: return .folder
        case S_IFREG: return .file
        default: return .other
        }
    }

    /// The repository root: the nearest folder at or above `start` holding `pipeline/pipeline.yaml`,
    /// else `start` itself.
    public static func repositoryRoot(from start: URL = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)) -> URL {
        var candidate = start.standardizedFileURL
        while true {
            if FileManager.default.fileExists(atPath: candidate.appendingPathComponent("pipeline/pipeline.yaml").path) {
                return candidate
            }
            let parent = candidate.deletingLastPathComponent()
            if parent.path == candidate.path { return start.standardizedFileURL }
            candidate = parent
        }
    }
}
