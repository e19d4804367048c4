import Dispatch
import Foundation

extension Array where Element: Sendable {
    /// `transform` applied to every element on all cores, and each result handed to `consume` in the
    /// elements' order, one call at a time, as soon as it and every result before it are ready (so
    /// handing over, e.g. writing a file, overlaps the work on later elements). A task starts an element
    /// only while fewer than `window` results wait to be handed over, which bounds what is held at once.
    ///
    /// When `transform` or `consume` throws for an element, the results before it are still handed
    /// over, nothing after it is, and the error of the first such element is rethrown.
    public func forEachMappedInOrder<Result: Sendable>(
        window: Int, _ transform: @Sendable (Element) throws -> Result, consume: (Result) throws -> Void
    ) throws {
        guard count > 1 else {
            for element in self { try consume(try transform(element)) }
            return
        }
        try withoutActuallyEscaping(consume) { consume in
            let handOver = InOrderHandOver<Result>(count: count, window: Swift.max(1, window), consume: consume)
            DispatchQueue.concurrentPerform(iterations: count) { index in
                guard handOver.mayStart(index) else { return }
                let result: Swift.Result<Result, any Error> = Swift.Result { try transform(self[index]) }
                handOver.finish(index, result)
            }
            if let failure = handOver.failure { throw failure.error }
        }
    }
}

/// The shared state of one `forEachMappedInOrder`: results waiting for the ones before them, and the
/// next index to hand over. Every field is reached under `condition`'s lock, and `consume` is called
/// under it too, so the calls never overlap (which is what lets a non-Sendable closure be called from
/// the worker threads).
private final class InOrderHandOver<Result>: @unchecked Sendable {
    private let condition = NSCondition()
    private var slots: [Result?]
    private var next = 0
    private(set) var failure: (index: Int, error: any Error)?
    private let window: Int
    private let consume: (Result) throws -> Void

    init(count: Int, window: Int, consume: @escaping (Result) throws -> Void) {
        slots = Array(repeating: nil, count: count)
        self.window = window
        self.consume = consume
    }

    /// Waits until `index` is within the window; false when an element before it failed (no work).
    /// Indices are started in increasing order, so the element at `next` is always running or done
    /// and a wait always ends.
    func mayStart(_ index: Int) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while index >= next + window, failure.map({ index < $0.index }) ?? true { condition.wait() }
        return failure.map { index < $0.index } ?? true
    }

    /// Files the result of `index` and hands over every result that is now next in order.
    func finish(_ index: Int, _ result: Swift.Result<Result, any Error>) {
        condition.lock()
        defer {
            condition.broadcast()
            condition.unlock()
        }
        switch result {
        case .success(let value): slots[index] = value
        case .failure(let error): fail(index, error)
        }
        while next < slots.count, failure.map({ next < $0.index }) ?? true, let value = slots[next] {
            slots[next] = nil
            do {
                try consume(value)
            } catch {
                fail(next, error)
                return
            }
            next += 1
        }
    }

    private func fail(_ index: Int, _ error: any Error) {
        if failure.map({ index < $0.index }) ?? true { failure = (index, error) }
    }
}
