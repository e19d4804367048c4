import Foundation

/// The stage graph as a Mermaid flowchart (GitHub draws it): stages as boxes, the files and folders
/// no stage writes (the inputs) as cylinders, an arrow for each dependency.
public enum MermaidGraph {
    public static func render(_ graph: PipelineGraph, showInputs: Bool = true) -> String {
        var text = "flowchart LR\n"
        func label(_ value: String) -> String {
            "\"" + value.replacingOccurrences(of: "\"", with: "#quot;") + "\""
        }
        for (index, stage) in graph.stages.enumerated() {
            text += "  s\(index)[\(label(stage.name))]\n"
        }
        var inputs: [String] = []
        if showInputs {
            let outs = graph.stages.flatMap(\.outs)
            var seen = Set<String>()
            for stage in graph.stages {
                for dep in stage.deps where !outs.contains(where: { RepositoryPath.overlaps($0, dep) }) && seen.insert(dep).inserted {
                    inputs.append(dep)
                }
            }
            inputs.sort()
            for (index, input) in inputs.enumerated() { text += "  i\(index)[(\(label(input)))]\n" }
        }
        for (index, stage) in graph.stages.enumerated() {
            if showInputs {
                for dep in stage.deps { if let input = inputs.firstIndex(of: dep) { text += "  i\(input) --> s\(index)\n" } }
            }
            for up in graph.upstream[index] { text += "  s\(up) --> s\(index)\n" }
        }
        return text
    }
}
