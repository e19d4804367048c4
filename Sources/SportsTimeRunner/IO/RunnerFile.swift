import Foundation
import SportsTimeCore
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// How the runner reads the files it owns or decides by — the spec, the lock, the journal, its caches
/// under `.pipeline/cache/` and the workspace lock's holder line: opened without waiting (a FIFO does not
/// block) and, for its own files under `.pipeline/`, with `O_NOFOLLOW` (a link there is never read
/// through); then `fstat`, and only a regular file within `limit` bytes is read. What an oversized or
/// odd file would cost is refused before it is paid.
enum RunnerFile {
    /// The most bytes of the lock, a journal and each cache file (the lock is tens of kilobytes).
    static let limit = 16 << 20

    enum Failure: Error, Equatable {
        case missing
        /// A symbolic link where a link is not followed.
        case link
        /// A folder, a FIFO, a device.
        case notAFile
        case tooLarge(Int64)
        case unreadable(Int32)
    }

    /// The bytes of the file at `absolute`, when it is a regular file of at most `limit` bytes.
    static func read(_ absolute: String, limit: Int = limit, followLink: Bool = false) -> Result<Data, Failure> {
        let fd = open(absolute, O_RDONLY | O_CLOEXEC | O_NONBLOCK | (followLink ? 0 : O_NOFOLLOW))
        guard fd >= 0 else {
            switch errno {
            case ENOENT: return .failure(.missing)
            case ELOOP: return .failure(.link)
            case let code: return .failure(.unreadable(code))
            }
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return .failure(.unreadable(errno)) }
        guard info.st_mode & S_IFMT == S_IFREG else { return .failure(.notAFile) }
        guard info.st_size <= limit else { return .failure(.tooLarge(Int64(info.st_size))) }
        // At most one byte past the size fstat gave: a file growing meanwhile is read no further.
        var data = Data(count: Int(info.st_size) + 1)
        var count = 0
        let failure: Int32 = data.withUnsafeMutableBytes { buffer in
            while count < buffer.count {
                let got = Foundation.read(fd, buffer.baseAddress! + count, buffer.count - count)
                if got < 0 && errno == EINTR { continue }
                if got < 0 { return errno }
                if got == 0 { break }
                count += got
            }
            return 0
        }
        if failure != 0 { return .failure(.unreadable(failure)) }
        if count > limit { return .failure(.tooLarge(Int64(count))) }
        data.count = count
        return .success(data)
    }

    /// A cache file's bytes; nil for anything else (missing, a link, too large, unreadable), which only
    /// costs rebuilding the cache: its next write replaces the link or the file itself by a rename.
    static func cache(_ absolute: String) -> Data? { try? read(absolute).get() }

    /// The located error for a file `path` the runner needs but cannot use; nil when it is missing.
    static func problem(_ failure: Failure, path: String, what: String, fix: String, limit: Int = limit) -> Diagnostic? {
        let message: String
        switch failure {
        case .missing: return nil
        case .link: message = "cannot follow the symbolic link: the runner's own files in .pipeline/ are never reached through links"
        case .notAFile: message = "cannot read \(what): it is not a regular file"
        case .tooLarge(let size): message = "cannot read \(what): it is \(size) bytes, more than the limit of \(limit)"
        case .unreadable(let code): message = "cannot read \(what): \(String(cString: strerror(code)))"
        }
        return Diagnostic(.error, at: SourceLocation(path: path), message, fix: fix)
    }
}
