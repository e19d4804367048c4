import Dispatch

extension Array where Element: Sendable {
    /// `transform` applied to every element, as many at once as there are cores; the results in the
    /// elements' order. For independent, pure work on values (no shared state but what `transform` locks).
    public func parallelMap<Result: Sendable>(_ transform: @Sendable (Element) -> Result) -> [Result] {
        let slots = Locked([Result?](repeating: nil, count: count))
        DispatchQueue.concurrentPerform(iterations: count) { index in
            let result = transform(self[index])
            slots.withLock { $0[index] = result }
        }
        return slots.current.compactMap { $0 }
    }

    /// `parallelMap` for many small elements: the array is cut into a few runs of at least
    /// `minimumRun` elements, each mapped in order by one task, so a task's cost is paid per run and not
    /// per element. The results in the elements' order; short arrays are mapped on the calling thread.
    public func parallelMapInRuns<Result: Sendable>(minimumRun: Int = 512, _ transform: @Sendable (Element) -> Result) -> [Result] {
        let runs = Swift.min(16, count / Swift.max(1, minimumRun))
        guard runs > 1 else { return map(transform) }
        let size = (count + runs - 1) / runs
        let mapped = Array<Int>(0..<runs).parallelMap { run in
            self[Swift.min(run * size, count)..<Swift.min((run + 1) * size, count)].map(transform)
        }
        var results: [Result] = []
        results.reserveCapacity(count)
        for run in mapped { results.append(contentsOf: run) }
        return results
    }
}
