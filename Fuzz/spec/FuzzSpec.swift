import Foundation
import SportsTimeCore
import SportsTimeRunner

/// libFuzzer harness: the runner's spec checks, everything `sportstime status` runs on
/// pipeline/pipeline.yaml before it looks at files (`PipelineGraph.load`: UTF-8, strict YAML, per-stage
/// checks, fan-out, one writer per path, no cycles), with a fixed folder listing for fan-out globs.
/// An accepted spec must give a sound graph; a refused one exit 2 with every message at a line of the spec.
let specPath = "pipeline/pipeline.yaml"

/// What the globs of the real spec (and of small variations of it) see.
func listing(_ folder: String) -> [DirectoryEntry]? {
    switch folder {
    case "fixtures/scraped":
        return [
            DirectoryEntry(name: "mlb-2023-retrosheet", isFolder: true), DirectoryEntry(name: "ufl-2025-sample", isFolder: true),
            DirectoryEntry(name: ".hidden", isFolder: true), DirectoryEntry(name: "bad name", isFolder: true),
            DirectoryEntry(name: "README.md", isFolder: false),
        ]
    case "fixtures/requests":
        return [
            DirectoryEntry(name: "mlb-boston-june-week.yaml", isFolder: false),
            DirectoryEntry(name: "ufl-spring-2025.yaml", isFolder: false),
            DirectoryEntry(name: "README.md", isFolder: false), DirectoryEntry(name: "old", isFolder: true),
        ]
    case "out", "fixtures":
        return [DirectoryEntry(name: "a", isFolder: true), DirectoryEntry(name: "b.json", isFolder: false)]
    default:
        return nil
    }
}

func check(_ graph: PipelineGraph) {
    let names = graph.stages.map(\.name)
    precondition(Set(names).count == names.count, "two stages named alike: \(names)")
    for (index, stage) in graph.stages.enumerated() {
        for up in graph.upstream[index] {
            precondition(up < index, "stage \(stage.name) runs before its upstream \(graph.stages[up].name)")
            precondition(graph.downstream[up].contains(index), "edge \(graph.stages[up].name) → \(stage.name) missing downstream")
        }
        for path in stage.deps + stage.outs {
            guard case .success(let normal) = RepositoryPath.normalize(path), normal == path else {
                preconditionFailure("stage \(stage.name) kept a path that is not normalized or leaves the repository: \(path)")
            }
        }
        for out in stage.outs {
            precondition(!stage.deps.contains { RepositoryPath.overlaps($0, out) }, "stage \(stage.name) reads its own out \(out)")
            for (other, otherStage) in graph.stages.enumerated() where other != index {
                precondition(!otherStage.outs.contains { RepositoryPath.overlaps($0, out) }, "two writers of \(out)")
            }
        }
        precondition(!stage.argv.isEmpty, "stage \(stage.name) has an empty argv")
    }
    _ = MermaidGraph.render(graph, showInputs: true)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSpec(_ start: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    let data = start.map { Data(bytes: $0, count: count) } ?? Data()
    do {
        check(try PipelineGraph.load(spec: data, path: specPath, list: listing))
    } catch let error as PipelineError {
        let diagnostics = error.diagnostics
        precondition(!diagnostics.isEmpty, "a pipeline error without a diagnostic")
        precondition(error.exitCode == 2, "a bad spec must be exit 2, was \(error.exitCode)")
        for d in diagnostics {
            precondition(d.location?.path == specPath && d.location?.line != nil, "message without the spec's line: \(d)")
            precondition(d.fix.map { !$0.isEmpty } ?? false, "message without what to do: \(d)")
            precondition(!d.description.contains("\n"), "message over several lines: \(d)")
        }
    } catch {
        preconditionFailure("unexpected error type: \(error)")
    }
    return 0
}

/// SwiftPM links an executable with `main` = `<module>_main`; hand the process to libFuzzer's driver.
@_cdecl("fuzz_spec_main")
public func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
    var argc = argc
    var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = argv
    return LLVMFuzzerRunDriver(&argc, &argv, fuzzSpec)
}

@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<Int32>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
) -> Int32
