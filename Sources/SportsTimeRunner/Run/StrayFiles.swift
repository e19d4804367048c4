import Foundation
import SportsTimeCore

/// Files and folders in the folders outs live in (`out/`) that no stage owns: written by hand, or left
/// by a stage that no longer writes them. `status` lists them; `run` refuses to publish over one.
extension Workspace {
    /// The folders that hold outs without being one: every folder above an out inside its top-level
    /// folder (`out`, `out/ingest`, `out/plan`), and the folder a fan-out with no items yet writes into.
    static func outContainers(of graph: PipelineGraph) -> Set<String> {
        var folders = Set<String>()
        var outs = graph.stages.flatMap(\.outs)
        for template in graph.spec.templates where template.foreach != nil {
            for out in template.outs { if let range = out.range(of: "${item}") { outs.append(String(out[..<range.lowerBound]) + "x") } }
        }
        for out in outs {
            var folder = RepositoryPath.parent(of: out)
            while folder != "." && !folder.isEmpty {
                folders.insert(folder)
                folder = RepositoryPath.parent(of: folder)
            }
        }
        return folders
    }

    /// Paths under the out folders that are neither an out, inside one, a folder holding outs, nor an
    /// out of a stage no longer in the spec (those a full run removes). Names starting with `.` are
    /// skipped. Each folder looked at is stat'ed through `observe` (for the status snapshot).
    func strays(graph: PipelineGraph, lock: PipelineLock, observe: (String) -> FileStatus?) -> [String] {
        let containers = Self.outContainers(of: graph)
        let owned = Set(graph.stages.flatMap(\.outs))
        let names = Set(graph.stages.map(\.name))
        let gone = lock.stages.filter { !names.contains($0.key) }.flatMap { Array($0.value.outs.keys) }
        var result: [String] = []
        for folder in containers.sorted() {
            guard let status = observe(folder), status.isFolder,
                let entries = try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent(folder).path)
            else { continue }
            for name in entries.sorted() where !name.hasPrefix(".") {
                let path = folder + "/" + name
                if containers.contains(path) || owned.contains(path) { continue }
                if gone.contains(where: { RepositoryPath.overlaps($0, path) }) { continue }
                result.append(path)
            }
        }
        let recorded = lock.stages.values.flatMap { Array($0.outs.keys) }
        for out in graph.stages.flatMap(\.outs) where Self.isInTheWay(out, recorded: recorded, exists: observe(out) != nil) {
            result.append(out)
        }
        return result.sorted()
    }

    /// Whether an out exists on disk although no lock entry records it (or a path overlapping it):
    /// something no stage wrote, which a run does not publish over.
    static func isInTheWay(_ out: String, recorded: [String], exists: Bool) -> Bool {
        exists && !recorded.contains { RepositoryPath.overlaps($0, out) }
    }

    /// The message for an out that is in the way (see `isInTheWay`).
    static func inTheWayMessage(_ out: String, stage: String) -> String {
        Diagnostic(
            .error, at: SourceLocation(path: out),
            "a file no stage wrote is in the way of out '\(out)' of stage '\(stage)', so the stage did not run",
            fix:
                "Delete it (or move it out of the way) and run again; if it is an output of its own, declare it under its stage's outs in \(specPath)"
        ).description
    }
}
