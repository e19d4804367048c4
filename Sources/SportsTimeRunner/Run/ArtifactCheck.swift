import Foundation
import SportsTimeCore

/// `sportstime validate`: checks published artifacts against their schemas, the same way outputs
/// are checked before they are published.
public struct ArtifactCheck: Sendable {
    public let root: URL

    public init(root: URL) { self.root = root }

    /// Problems in every `.json` and `.jsonl` file under `paths`, and how many files were checked.
    public func check(_ paths: [String]) -> (problems: [Diagnostic], files: Int) {
        let schemas = SchemaStore(root: root)
        let validator = ArtifactValidator(stage: nil) { try schemas.schema(for: $0) }
        var problems: [Diagnostic] = []
        var count = 0
        for path in paths {
            for (file, shown) in PipelineRunner.files(at: root.appendingPathComponent(path).path, publishedAs: path)
            where shown.hasSuffix(".json") || shown.hasSuffix(".jsonl") {
                guard let data = FileManager.default.contents(atPath: file) else { continue }
                count += 1
                problems.append(contentsOf: validator.validate(data, path: shown).problems)
            }
        }
        return (problems, count)
    }
}
