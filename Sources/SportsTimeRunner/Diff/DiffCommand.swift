import Foundation
import SportsTimeCore

/// `sportstime diff`: the record-level changes of the stages' outputs against a git revision.
public struct OutputDiff: Sendable {
    public let workspace: Workspace

    public init(root: URL) { workspace = Workspace(root: root) }

    /// The paths compared: the outs of the named stages (`--stage`), or of every stage.
    public func paths(stages: [String]) throws -> [String] {
        let graph = try workspace.loadGraph()
        let selected = try StageSelection.select(stages, in: graph)
        var paths: [String] = []
        for index in selected.sorted() {
            for out in graph.stages[index].outs where !paths.contains(where: { RepositoryPath.contains($0, out) }) {
                paths.removeAll { RepositoryPath.contains(out, $0) }
                paths.append(out)
            }
        }
        return paths.sorted()
    }

    /// The diff of `paths` between `revision` and the working tree.
    public func compare(revision: String, paths: [String]) throws -> [FileDiff] {
        let git = GitFiles(root: workspace.root, environment: ProcessInfo.processInfo.environment)
        let old = try git.files(at: revision, under: paths)
        let new = try git.workingFiles(under: paths)
        return RecordDiff.compare(old: old, new: new)
    }

    /// What was compared, for the heading: `out/` when every path is under it.
    public static func scope(of paths: [String]) -> String {
        if !paths.isEmpty && paths.allSatisfy({ RepositoryPath.contains("out", $0) }) {
            return paths.count == 1 ? paths[0] : "out/"
        }
        return paths.joined(separator: ", ")
    }
}
