import Foundation
import SportsTimeCore

/// The repository the runner works in: its spec, its lock, and the checks that need the disk.
public struct Workspace: Sendable {
    public let root: URL
    public static let specPath = "pipeline/pipeline.yaml"

    public init(root: URL) { self.root = root.standardizedFileURL }

    /// Reads and checks the spec: strict YAML, fan-out, graph, and every dep and code path present
    /// (or, for a dep, written by a stage).
    public func loadGraph() throws -> PipelineGraph {
        let url = root.appendingPathComponent(Self.specPath)
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw PipelineError.invalidInput(
                Diagnostic(
                    .error, at: SourceLocation(path: Self.specPath), "cannot read the pipeline spec",
                    fix: "Run sportstime inside the repository (the folder holding \(Self.specPath))"))
        }
        let params = FileManager.default.contents(atPath: root.appendingPathComponent(SharedParams.path).path)
        let graph = try PipelineGraph.load(spec: data, path: Self.specPath, params: params) { folder in
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent(folder).path) else {
                return nil
            }
            return names.map { name in
                DirectoryEntry(
                    name: name, isFolder: FileStatus(path: root.appendingPathComponent(folder + "/" + name).path)?.isFolder ?? false)
            }
        }
        try checkPaths(graph)
        try checkConfinement(graph)
        return graph
    }

    private func checkPaths(_ graph: PipelineGraph) throws {
        var problems = SpecProblems(locations: graph.spec.locations)
        let allOuts = graph.stages.flatMap(\.outs)
        // A fan-out with no items right now (no request files yet) still owns the folder its outs go to.
        let fanoutFolders = graph.spec.templates.filter { $0.foreach != nil }.flatMap { template in
            template.outs.compactMap { out -> String? in
                guard let range = out.range(of: "${item}") else { return nil }
                let folder = RepositoryPath.parent(of: String(out[..<range.lowerBound]) + "x")
                return folder == "." ? nil : folder
            }
        }
        for template in graph.spec.templates {
            let instances = graph.stages.filter { $0.template == template.name }
            for stage in instances {
                for (index, dep) in stage.deps.enumerated() {
                    let produced =
                        allOuts.contains { RepositoryPath.overlaps($0, dep) }
                        || fanoutFolders.contains { RepositoryPath.overlaps($0, dep) }
                    if !produced && FileStatus(path: root.appendingPathComponent(dep).path) == nil {
                        let near = allOuts.filter { RepositoryPath.parent(of: $0) == RepositoryPath.parent(of: dep) }.sorted()
                        problems.add(
                            ["stages", template.name, "deps", "[\(index)]"],
                            "dep '\(dep)' of stage '\(stage.name)' does not exist and no stage writes it",
                            fix: "Fix the path, or add the stage that writes it"
                                + (near.isEmpty ? "" : " (stages write: \(near.prefix(5).joined(separator: ", ")))"))
                    }
                }
            }
            for (index, check) in template.outChecks.enumerated() {
                guard case .schema(let schema) = check else { continue }
                if FileStatus(path: root.appendingPathComponent(schema).path)?.isFile != true {
                    problems.add(
                        ["stages", template.name, "outs", "[\(index)]", "schema"],
                        "schema '\(schema)' of out '\(template.outs[index])' does not exist",
                        fix: "Write the JSON Schema there, or fix the path")
                }
            }
            for path in template.code where FileStatus(path: root.appendingPathComponent(path).path) == nil {
                problems.add(
                    template.codeKeyPaths[path] ?? ["stages", template.name],
                    "code path '\(path)' of stage '\(template.name)' does not exist",
                    fix: "Name the source folders or files the stage is built from")
            }
        }
        try problems.throwIfAny()
    }

    /// The lock, or an empty one when the file does not exist yet. Every out it records must be one
    /// the runner may replace or remove (`outProblem`), else it is invalid input located at its line.
    public func loadLock(graph: PipelineGraph) throws -> PipelineLock {
        guard let data = FileManager.default.contents(atPath: root.appendingPathComponent(Publisher.lockPath).path) else {
            return PipelineLock()
        }
        let lock = try PipelineLock.decode(data, path: Publisher.lockPath)
        let problems = checkLock(lock, text: String(decoding: data, as: UTF8.self), path: Publisher.lockPath, graph: graph)
        if !problems.isEmpty { throw PipelineError.invalidInputs(problems) }
        return lock
    }

    /// Completes a publish an interrupted runner left half done, once its journal is checked: every
    /// target one the runner may replace or remove, and its lock valid. Returns the stage it published.
    func recover(_ publisher: Publisher, graph: PipelineGraph) throws -> String? {
        try publisher.recover(
            checkTarget: { outProblem($0, graph: graph) },
            checkLock: { data in
                do {
                    let lock = try PipelineLock.decode(data, path: Publisher.journalPath)
                    return checkLock(lock, text: String(decoding: data, as: UTF8.self), path: Publisher.journalPath, graph: graph)
                        .map(\.message)
                } catch let error as PipelineError {
                    return error.diagnostics.map(\.message)
                } catch {
                    return ["\(error)"]
                }
            })
    }

    /// The runner's own folder, for sibling stage executables (`.build/release/sportstime-*`).
    public static var runnerFolder: URL? {
        Bundle.main.executableURL?.resolvingSymlinksInPath().deletingLastPathComponent()
    }
}
