import Foundation

/// `ArtifactFiles.write` on threads of its own, several files at a time: each write ends with a flush to
/// disk (`fsync`), which waits on the disk rather than the processor, so the next files are encoded while
/// earlier ones are flushed, and several flushes are in flight together. For the command layer.
///
/// At most `maxPending` files are held at a time (`write` waits for one to be written), so a stage that
/// encodes its outputs one by one to keep its peak memory down still holds only a few. The writing
/// threads are the queue's own, not Dispatch's: a caller that waits for room may itself be one of
/// Dispatch's workers, and the writes must not need a worker to get going. `finish` must be called once
/// every file is handed over; it waits for the writes and ends the threads.
public final class FileWriteQueue: @unchecked Sendable {
    private let condition = NSCondition()
    private let maxPending: Int
    private let threadCount: Int
    private var waiting: [(number: Int, data: Data, url: URL)] = []
    /// Files handed over and not yet written (waiting or being written).
    private var pending = 0
    private var submitted = 0
    private var started = false
    private var closed = false
    private var running = 0
    private var changed: Set<Int> = []
    private var failures: [(path: String, error: any Error)] = []

    public init(maxPending: Int = 8, threads: Int = 4) {
        self.maxPending = max(1, maxPending)
        threadCount = max(1, threads)
    }

    /// Hands `data` for `url` over; waits while `maxPending` files are not yet written. Returns the
    /// write's number (0, 1, … in the order of the calls), by which `finish` tells which files changed.
    @discardableResult
    public func write(_ data: Data, to url: URL) -> Int {
        condition.lock()
        defer { condition.unlock() }
        precondition(!closed, "a file handed to a finished write queue")
        if !started {
            // The threads start with the first file: a stage that writes nothing makes none.
            started = true
            running = threadCount
            for _ in 0..<threadCount { Thread.detachNewThread { [self] in work() } }
        }
        while pending >= maxPending { condition.wait() }
        let number = submitted
        submitted += 1
        pending += 1
        waiting.append((number, data, url))
        condition.broadcast()
        return number
    }

    /// Waits for every file handed over. Throws the failure of the file that failed whose path sorts first
    /// (the same error whatever order the files were handed over in, from however many threads); else
    /// returns the numbers of the writes whose file changed.
    public func finish() throws -> Set<Int> {
        condition.lock()
        defer { condition.unlock() }
        closed = true
        condition.broadcast()
        while running > 0 { condition.wait() }
        if let first = failures.min(by: { $0.path < $1.path }) { throw first.error }
        return changed
    }

    /// One writing thread: takes files in the order they were handed over until the queue is finished.
    private func work() {
        condition.lock()
        while true {
            while waiting.isEmpty && !closed { condition.wait() }
            if waiting.isEmpty { break }
            let job = waiting.removeFirst()
            condition.unlock()
            let outcome = Result { try ArtifactFiles.write(job.data, to: job.url) }
            condition.lock()
            switch outcome {
            case .success(let didChange): if didChange { changed.insert(job.number) }
            case .failure(let error): failures.append((job.url.path, error))
            }
            pending -= 1
            condition.broadcast()
        }
        running -= 1
        condition.broadcast()
        condition.unlock()
    }
}
