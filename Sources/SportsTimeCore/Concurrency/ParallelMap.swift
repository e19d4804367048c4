import Dispatch

extension Array where Element: Sendable {
    /// `transform` applied to every element, as many at once as there are cores; the results in the
    /// elements' order. For independent, pure work on values (no shared state but what `transform` locks).
    ///
    /// Each result is written once, by the task that made it, straight into its place in the returned
    /// array: no lock per element, and no copy of the results (a copy of a merged game is a retain of
    /// every string it holds; gathering 10k of them on one thread was a single-threaded stretch).
    public func parallelMap<Result: Sendable>(_ transform: @Sendable (Element) -> Result) -> [Result] {
        let count = self.count
        return [Result](unsafeUninitializedCapacity: count) { buffer, initialized in
            let slots = ResultSlots(base: buffer.baseAddress)
            DispatchQueue.concurrentPerform(iterations: count) { index in
                slots.put(transform(self[index]), at: index)
            }
            initialized = count
        }
    }

    /// `parallelMap` for many small elements: the array is cut into a few runs of at least
    /// `minimumRun` elements, each mapped in order by one task, so a task's cost is paid per run and not
    /// per element. The results in the elements' order; short arrays are mapped on the calling thread.
    public func parallelMapInRuns<Result: Sendable>(minimumRun: Int = 512, _ transform: @Sendable (Element) -> Result) -> [Result] {
        let runs = Swift.min(16, count / Swift.max(1, minimumRun))
        guard runs > 1 else { return map(transform) }
        let count = self.count
        let size = (count + runs - 1) / runs
        return [Result](unsafeUninitializedCapacity: count) { buffer, initialized in
            let slots = ResultSlots(base: buffer.baseAddress)
            DispatchQueue.concurrentPerform(iterations: runs) { run in
                for index in Swift.min(run * size, count)..<Swift.min((run + 1) * size, count) {
                    slots.put(transform(self[index]), at: index)
                }
            }
            initialized = count
        }
    }
}

/// The uninitialized storage of a result array being filled by `concurrentPerform`: every index is
/// initialized exactly once, by one task, and the storage is read only after every task has ended
/// (`concurrentPerform` returns then), so the tasks never touch the same memory.
private struct ResultSlots<Result>: @unchecked Sendable {
    let base: UnsafeMutablePointer<Result>?

    func put(_ result: consuming Result, at index: Int) {
        (base! + index).initialize(to: result)
    }
}

/// Work started on another core at once, its result taken later: `value()` waits for it, then returns
/// it or throws its error (work that cannot throw gives a `value()` that cannot either). For a stage's
/// independent reads (the reference data while the batches are read) and independent searches; work
/// whose value is never asked for still runs to its end.
public final class Background<Value: Sendable, Failure: Error>: Sendable {
    private let result = Locked<Result<Value, Failure>?>(nil)
    private let done = DispatchSemaphore(value: 0)

    public init(_ work: @escaping @Sendable () throws(Failure) -> Value) {
        DispatchQueue.global().async { [result, done] in
            let outcome = Result<Value, Failure>(catching: work)
            result.withLock { $0 = outcome }
            done.signal()
        }
    }

    /// The work's result, once it has finished (the first call waits; later ones return at once).
    public func value() throws(Failure) -> Value {
        if let outcome = result.current { return try outcome.get() }
        done.wait()
        done.signal() // for any later caller
        return try result.current!.get()
    }
}
