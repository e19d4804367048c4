import Foundation
import SportsTimeCore

/// Validates many output files at once, on every core: a stage such as merge writes dozens of files,
/// and their validation lies between it and the stages that wait for it.
enum ParallelValidation {
    /// One file to check: where it is, the path shown in messages, and the stage's own schema if its
    /// out declares one.
    struct Item: Sendable {
        var file: String
        var published: String
        var ownSchema: (validator: SchemaValidator, path: String)?
    }

    /// The result of each item, in the items' order (nil for a file that could not be read, which is
    /// then left to the publish step to report). Largest files are started first so the cores finish together.
    static func validate(_ items: [Item], with validator: ArtifactValidator) -> [ValidatedFile?] {
        let results = ResultSlots<ValidatedFile?>(count: items.count, initial: nil)
        let sizes = items.map { FileStatus(path: $0.file)?.size ?? 0 }
        let order = items.indices.sorted { (sizes[$0], $1) > (sizes[$1], $0) }
        let next = Counter()
        let workers = min(items.count, max(1, ProcessInfo.processInfo.activeProcessorCount))
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            while let position = next.take(below: order.count) {
                let index = order[position]
                let item = items[index]
                guard let data = FileManager.default.contents(atPath: item.file) else { continue }
                if let own = item.ownSchema {
                    results.set(index, validator.validate(data, path: item.published, against: own.validator, schemaPath: own.path))
                } else {
                    results.set(index, validator.validate(data, path: item.published))
                }
            }
        }
        return results.values
    }

    /// Hands out positions 0, 1, 2, … to the workers.
    private final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var value = 0
        func take(below limit: Int) -> Int? {
            lock.lock(); defer { lock.unlock() }
            guard value < limit else { return nil }
            value += 1
            return value - 1
        }
    }

    /// One slot per item, each written once.
    private final class ResultSlots<Value>: @unchecked Sendable {
        private let lock = NSLock()
        private var slots: [Value]
        init(count: Int, initial: Value) { slots = Array(repeating: initial, count: count) }
        func set(_ index: Int, _ value: Value) { lock.lock(); slots[index] = value; lock.unlock() }
        var values: [Value] { lock.lock(); defer { lock.unlock() }; return slots }
    }
}
