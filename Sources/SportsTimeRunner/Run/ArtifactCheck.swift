import Foundation
import SportsTimeCore

/// `sportstime validate`: checks published artifacts against their schemas, the same way outputs
/// are checked before they are published.
public struct ArtifactCheck: Sendable {
    public let root: URL

    public init(root: URL) { self.root = root }

    /// Problems in every `.json` and `.jsonl` file under `paths`, and how many files were checked. A path
    /// that does not exist, or that leads outside the repository through a symbolic link, is a problem too.
    public func check(_ paths: [String]) -> (problems: [Diagnostic], files: Int) {
        let schemas = SchemaStore(root: root)
        let validator = ArtifactValidator(stage: nil) { try schemas.schema(for: $0) }
        // Outs the spec declares as not envelopes (`validate: false`, `schema: S`) are checked that way.
        var checks: [String: OutCheck] = [:]
        if let graph = try? Workspace(root: root).loadGraph() {
            for stage in graph.stages { for (out, check) in stage.outChecks { checks[out] = check } }
        }
        func check(of file: String) -> OutCheck {
            checks.first { RepositoryPath.contains($0.key, file) }?.value ?? .envelope
        }
        var problems: [Diagnostic] = []
        var count = 0
        let confinement = RepositoryConfinement(root: root)
        for path in paths {
            let absolute = root.appendingPathComponent(path).path
            guard FileStatus(path: absolute) != nil || RepositoryConfinement.isLink(absolute) else {
                problems.append(
                    Diagnostic(
                        .error, at: SourceLocation(path: path), "the file is missing",
                        fix: "Name a file or folder that exists, relative to the repository root (e.g. out/merge)"))
                continue
            }
            let outside = confinement.linksLeavingRepository(under: path)
            guard outside.isEmpty else {
                problems.append(contentsOf: outside.map(RepositoryConfinement.outsideLink))
                continue
            }
            for (file, shown) in PipelineRunner.files(at: root.appendingPathComponent(path).path, publishedAs: path)
            where shown.hasSuffix(".json") || shown.hasSuffix(".jsonl") {
                let declared = check(of: shown)
                guard declared != .unchecked, let data = FileManager.default.contents(atPath: file) else { continue }
                count += 1
                if case .schema(let schemaPath) = declared {
                    do {
                        problems.append(
                            contentsOf: validator.validate(
                                data, path: shown, against: try schemas.schema(at: schemaPath),
                                schemaPath: schemaPath
                            ).problems)
                    } catch {
                        problems.append(
                            Diagnostic(
                                .error, at: SourceLocation(path: schemaPath), "cannot be used as the schema of \(shown): \(error)",
                                fix: "Fix the schema, or the schema path in \(Workspace.specPath)"))
                    }
                    continue
                }
                problems.append(contentsOf: validator.validate(data, path: shown).problems)
            }
        }
        return (problems, count)
    }
}
