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
}
