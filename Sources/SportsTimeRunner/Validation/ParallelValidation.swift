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

    /// What checking one file found, with the SHA-256 of the bytes checked and their record count as
    /// `RecordCounter` counts it (for the out's digest, so the file is not read and hashed twice).
    struct Checked: Sendable {
        var validated: ValidatedFile
        var hash: String
        var count: Int?
    }

    /// The result of each item, in the items' order (nil for a file that could not be read, which is
    /// then left to the publish step to report). Largest files are started first so the cores finish
    /// together. A file whose bytes `cache` has seen validate cleanly under the same rules and schemas
    /// is not validated again; a file that validates cleanly now is added to it.
    static func validate(_ items: [Item], with validator: ArtifactValidator, cache: ValidationCache?) -> [Checked?] {
        let results = Locked([Checked?](repeating: nil, count: items.count))
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
                let hash = ArtifactFiles.sha256(data)
                let checked: ValidatedFile
                let count: Int?
                if let own = item.ownSchema {
                    checked = validator.validate(data, path: item.published, against: own.validator, schemaPath: own.path)
                    count = RecordCounter.count(data, path: item.file)
                } else if let cache, let key = ValidationCache.key(hash: hash, path: item.published) {
                    if let known = cache.entry(for: key) {
                        checked = validator.validated(path: item.published, records: known.records, kind: known.kind)
                        count = known.recordLines
                    } else {
                        checked = validator.validate(data, path: item.published)
                        count = RecordCounter.count(data, path: item.file)
                        if checked.problems.isEmpty {
                            cache.remember(
                                ValidationCache.Entry(records: checked.records, kind: checked.kind, recordLines: count), for: key)
                        }
                    }
                } else {
                    checked = validator.validate(data, path: item.published)
                    count = RecordCounter.count(data, path: item.file)
                }
                let result = Checked(validated: checked, hash: hash, count: count)
                results.withLock { $0[index] = result }
            }
        }
        return results.current
    }
}
