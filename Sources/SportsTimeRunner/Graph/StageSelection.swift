import Foundation
import SportsTimeCore

/// Which stages a command line names: `STAGE` (just it), `STAGE+` (it and everything downstream),
/// `+STAGE` (it and everything upstream). A fan-out's name (`plan`) stands for all its instances;
/// `plan@mlb-week` for one.
public enum StageSelection {
    /// The selected stage indices; all stages when `targets` is empty. Unknown names are usage errors.
    public static func select(_ targets: [String], in graph: PipelineGraph) throws -> Set<Int> {
        guard !targets.isEmpty else { return Set(graph.stages.indices) }
        var selected = Set<Int>()
        for target in targets {
            var name = Substring(target)
            let withUpstream = name.hasPrefix("+")
            if withUpstream { name = name.dropFirst() }
            let withDownstream = name.hasSuffix("+")
            if withDownstream { name = name.dropLast() }
            let matches = graph.stages.indices.filter {
                graph.stages[$0].name == name || graph.stages[$0].template == name
            }
            guard !matches.isEmpty else {
                let templates = graph.spec.templates.map(\.name)
                throw PipelineError.usage(
                    "no stage '\(name)' in \(graph.spec.path). Stages: \(templates.joined(separator: ", ")) "
                        + "(write STAGE, STAGE+ for it and what follows, +STAGE for it and what it needs)")
            }
            for index in matches {
                selected.insert(index)
                if withDownstream { selected.formUnion(closure(from: index, edges: graph.downstream)) }
                if withUpstream { selected.formUnion(closure(from: index, edges: graph.upstream)) }
            }
        }
        return selected
    }

    /// Every stage reachable from `start` along `edges` (not including `start`).
    public static func closure(from start: Int, edges: [[Int]]) -> Set<Int> {
        var seen = Set<Int>()
        var queue = edges[start]
        while let next = queue.popLast() {
            if seen.insert(next).inserted { queue.append(contentsOf: edges[next]) }
        }
        return seen
    }
}
