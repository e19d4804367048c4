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
        let results = Locked([ValidatedFile?](repeating: nil, count: items.count))
        let sizes = items.map { FileStatus(path: $0.file)?.size ?? 0 }
        let order = items.indices.sorted { (sizes[$0], $1) > (sizes[$1], $0) }
        let next = Locked(0)
        let workers = min(items.count, max(1, ProcessInfo.processInfo.activeProcessorCount))
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            while true {
                let position = next.withLock { value -> Int in
                    value += 1; return value - 1
                }
                guard position < order.count else { return }
                let index = order[position]
                let item = items[index]
                guard let data = FileManager.default.contents(atPath: item.file) else { continue }
                let checked =
                    item.ownSchema.map {
                        validator.validate(data, path: item.published, against: $0.validator, schemaPath: $0.path)
                    } ?? validator.validate(data, path: item.published)
                results.withLock { $0[index] = checked }
            }
        }
        return results.current
    }
}
