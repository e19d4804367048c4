import Foundation
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A file-system call that failed, with the repository-relative path and the system's reason, said as
/// `path: error: cannot ACTION: REASON. FIX.` (a read-only or full disk, a missing permission).
public struct FileFault: Error, CustomStringConvertible, Sendable {
    public var path: String
    public var action: String
    public var code: Int32
    /// Said instead of the system's reason for `code`.
    public var reason: String?
    public var fix: String?

    public init(path: String, action: String, code: Int32, reason: String? = nil, fix: String? = nil) {
        self.path = path; self.action = action; self.code = code; self.reason = reason; self.fix = fix
    }

    public var diagnostic: Diagnostic {
        Diagnostic(
            .error, at: SourceLocation(path: path), "cannot \(action): \(reason ?? String(cString: strerror(code)))",
            fix: fix ?? Self.fix(for: code, path: path))
    }

    public var description: String { diagnostic.description }

    public static func fix(for code: Int32, path: String) -> String {
        let folder = path.split(separator: "/").first.map(String.init) ?? path
        switch code {
        case EROFS, EACCES, EPERM: return "Make \(folder)/ writable and re-run"
        case ENOSPC, EDQUOT, EFBIG: return "Free disk space and re-run"
        case EXDEV: return "Keep \(folder)/ and .pipeline/ on one file system (outputs are published by renaming) and re-run"
        default: return "Fix the file system problem and re-run"
        }
    }
}

/// Whole-file replacement by system calls: the bytes go to a temporary file beside `path`, are flushed,
/// and renamed over it, so `path` always holds either the old bytes or the new ones.
public enum AtomicFile {
    /// Returns 0, or the errno of the call that failed (the temporary file is then removed). `sync`
    /// flushes the bytes to disk before the rename; files that only save work (caches) skip it.
    public static func write(_ data: Data, to path: String, sync: Bool = true) -> Int32 {
        // `.<name>.<pid>.tmp` beside the file.
        let (folder, name) = PathText.splitLast(path)
        let temporary = folder + "." + name + "." + String(getpid()) + ".tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o644)
        guard fd >= 0 else { return errno }
        var failure: Int32 = 0
        data.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let count = Foundation.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
                if count < 0 { if errno == EINTR { continue }; failure = errno; return }
                offset += count
            }
        }
        if sync && failure == 0 && fsync(fd) != 0 { failure = errno }
        if close(fd) != 0 && failure == 0 { failure = errno }
        if failure == 0 && rename(temporary, path) != 0 { failure = errno }
        if failure != 0 { unlink(temporary) }
        return failure
    }

    /// Creates `path` and its missing parents; returns 0 or the errno of the `mkdir` that failed, and
    /// the folder it failed on.
    public static func makeFolders(_ path: String) -> (code: Int32, folder: String) {
        var info = stat()
        if stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR { return (0, path) }
        var built = path.hasPrefix("/") ? "" : "."
        for part in path.split(separator: "/") {
            built += "/" + part
            if mkdir(built, 0o755) != 0 && errno != EEXIST { return (errno, built) }
        }
        return (0, path)
    }
}
