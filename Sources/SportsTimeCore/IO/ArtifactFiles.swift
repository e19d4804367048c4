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
        SHA256.hash(data: data).map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined()
    }

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

    /// Regular files under `directory` (recursively) whose names end in `suffix`, sorted by path.
    public static func files(under directory: URL, suffix: String) -> [URL] {
        guard
            let enumerator = FileManager.default.enumerator(
                at: directory, includingPropertiesForKeys: [.isRegularFileKey], options: [.skipsHiddenFiles])
        else { return [] }
        var found: [URL] = []
        for case let url as URL in enumerator where url.lastPathComponent.hasSuffix(suffix) {
            if (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true { found.append(url) }
        }
        return found.sorted { $0.path < $1.path }
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
