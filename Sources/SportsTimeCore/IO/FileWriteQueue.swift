import Dispatch
import Foundation

/// `ArtifactFiles.write` on background threads, several files at a time: each write ends with a flush
/// to disk (`fsync`), which waits on the disk rather than the processor, so the next files are encoded
/// while earlier ones are flushed, and several flushes are in flight together. For the command layer.
///
/// At most `maxPending` files are held at a time (`write` waits for a slot), so a stage that encodes its
/// outputs one by one to keep its peak memory down still holds only a few.
public final class FileWriteQueue: @unchecked Sendable {
    private let queue = DispatchQueue(label: "sportstime.file-writes", attributes: .concurrent)
    private let group = DispatchGroup()
    private let slots: DispatchSemaphore
    private let lock = NSLock()
    private var submitted = 0
    private var changed: Set<Int> = []
    private var failures: [(number: Int, error: any Error)] = []

    public init(maxPending: Int = 8) {
        slots = DispatchSemaphore(value: max(1, maxPending))
    }

    /// Queues `data` for `url`; waits while `maxPending` writes are in flight. Returns the write's number
    /// (0, 1, … in the order of the calls), by which `finish` tells which files changed.
    @discardableResult
    public func write(_ data: Data, to url: URL) -> Int {
        slots.wait()
        lock.lock()
        let number = submitted
        submitted += 1
        lock.unlock()
        group.enter()
        queue.async { [self] in
            defer {
                slots.signal()
                group.leave()
            }
            do {
                let didChange = try ArtifactFiles.write(data, to: url)
                lock.lock()
                if didChange { changed.insert(number) }
                lock.unlock()
            } catch {
                lock.lock()
                failures.append((number, error))
                lock.unlock()
            }
        }
        return number
    }

    /// Waits for every queued write. Throws the failure of the earliest write that failed (in the order
    /// of the calls, so the error is the same whichever thread finished first); else returns the numbers
    /// of the writes whose file changed.
    public func finish() throws -> Set<Int> {
        group.wait()
        lock.lock()
        defer { lock.unlock() }
        if let first = failures.min(by: { $0.number < $1.number }) { throw first.error }
        return changed
    }
}
