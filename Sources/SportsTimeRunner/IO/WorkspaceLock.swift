import Foundation
import SportsTimeCore
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `.pipeline/lock`: an exclusive `flock` so two runners never write the workspace at once.
///
/// The kernel drops the lock when the process dies (even by `kill -9`), so there is no stale lock to
/// clean up. Stages inherit the locked file as descriptor 3 (their standard input is `/dev/null`; see
/// `StageProcess`), so a stage left running by a killed runner keeps the workspace locked until it ends,
/// and no second runner can publish under it. Who holds the lock is written into the file itself.
public final class WorkspaceLock: @unchecked Sendable {
    public let url: URL
    /// The locked file (close-on-exec), handed to stages as their descriptor 3.
    public let descriptor: Int32

    /// Takes the lock or fails at once, naming the holder.
    public init(root: URL) throws {
        url = root.appendingPathComponent(".pipeline/lock")
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        let fd = open(url.path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o644)
        guard fd >= 0 else {
            throw PipelineError.failure(
                Diagnostic(
                    .error, at: SourceLocation(path: ".pipeline/lock"),
                    "cannot open the workspace lock (\(String(cString: strerror(errno))))",
                    fix: "Check that .pipeline/ is writable"))
        }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            let holder =
                (try? RunnerFile.read(url.path, limit: 4096).get()).map { String(decoding: $0, as: UTF8.self) }?
                .trimmingCharacters(in: .whitespacesAndNewlines).replacingOccurrences(of: "\n", with: ", ") ?? ""
            close(fd)
            throw PipelineError.failure(
                Diagnostic(
                    .error, at: SourceLocation(path: ".pipeline/lock"),
                    "another sportstime run is writing this workspace" + (holder.isEmpty ? "" : " (\(holder))"),
                    fix: "Wait for it to finish, or stop it; a stage it started holds the lock until that stage ends"))
        }
        descriptor = fd
        record(["runner pid \(getpid())"])
    }

    /// Writes who holds the lock (shown to a runner that finds it taken).
    public func record(_ lines: [String]) {
        let text = lines.joined(separator: "\n") + "\n"
        _ = ftruncate(descriptor, 0)
        _ = text.withCString { pwrite(descriptor, $0, strlen($0), 0) }
    }

    private let released = Locked(false)

    /// Releases the lock (once: a signal's interrupt and the run's end may both ask).
    public func release() {
        let first = released.withLock { done -> Bool in
            defer { done = true }
            return !done
        }
        guard first else { return }
        _ = ftruncate(descriptor, 0)
        _ = flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}
