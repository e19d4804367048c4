import Foundation
import SportsTimeCore

/// An entry of a folder, as a fan-out glob sees it.
public struct DirectoryEntry: Sendable, Hashable {
    public var name: String
    public var isFolder: Bool
    public init(name: String, isFolder: Bool) { self.name = name; self.isFolder = isFolder }
}

/// The stages after fan-out, in a topological order, with their edges.
///
/// Stage B depends on stage A when one of B's deps and one of A's outs contain one another
/// (`out/plan` contains `out/plan/mlb-week.json`). The order breaks ties by the spec's document order.
public struct PipelineGraph: Sendable {
    public let spec: PipelineSpec
    /// Topological order.
    public let stages: [Stage]
    /// Direct upstream stages of each stage (indices into `stages`, ascending).
    public let upstream: [[Int]]
    /// Direct downstream stages of each stage (indices into `stages`, ascending).
    public let downstream: [[Int]]

    /// The index of the stage named `name`.
    public func index(of name: String) -> Int? { stages.firstIndex { $0.name == name } }

    /// Every check of the spec that needs no file system, from the spec's bytes: UTF-8 text (a UTF-16 or
    /// UTF-32 file is refused at line 1), strict YAML and the per-stage checks (`SpecParser`), fan-out
    /// (folders listed through `list`), one writer per path and no cycles (`build`). Pure, so it can be
    /// fuzzed; `Workspace.loadGraph` runs it and then checks that deps and code paths exist.
    /// `params` is `pipeline/params.yaml`'s bytes, nil when there is none.
    public static func load(
        spec data: Data, path: String, params: Data? = nil,
        list: (String) -> [DirectoryEntry]?
    ) throws -> PipelineGraph {
        try TextEncoding.refuseWide(data, path: path)
        var shared = SharedParams.none
        if let params {
            try TextEncoding.refuseWide(params, path: SharedParams.path)
            shared = try SharedParams.parse(String(decoding: params, as: UTF8.self))
        }
        let spec = try SpecParser.parse(String(decoding: data, as: UTF8.self), path: path, shared: shared)
        return try build(spec, list: list)
    }

    /// Expands fan-outs (listing folders through `list`, which returns nil for a missing folder) and
    /// checks the graph: one writer per path, no stage reading its own outs, no cycles.
    public static func build(_ spec: PipelineSpec, list: (String) -> [DirectoryEntry]?) throws -> PipelineGraph {
        var problems = SpecProblems(locations: spec.locations)
        var expanded: [(stage: Stage, template: StageTemplate)] = []
        for template in spec.templates {
            for stage in instances(of: template, shared: spec.shared, list: list, problems: &problems) {
                expanded.append((stage, template))
            }
        }
        try problems.throwIfAny()

        checkWriters(expanded, locations: spec.locations, problems: &problems)
        try problems.throwIfAny()

        let count = expanded.count
        var up = Array(repeating: Set<Int>(), count: count)
        var via: [[Int: String]] = Array(repeating: [:], count: count)
        for (b, consumer) in expanded.enumerated() {
            for dep in consumer.stage.deps {
                for (a, producer) in expanded.enumerated() where a != b {
                    if producer.stage.outs.contains(where: { RepositoryPath.overlaps($0, dep) }) {
                        up[b].insert(a)
                        if via[b][a] == nil { via[b][a] = dep }
                    }
                }
            }
        }

        if let cycle = findCycle(up) {
            let names = cycle.map { expanded[$0].stage.name }
            var reads: [String] = []
            for (position, index) in cycle.enumerated() {
                let next = cycle[(position + 1) % cycle.count]
                reads.append("'\(expanded[next].stage.name)' reads \(via[next][index] ?? "?") written by '\(expanded[index].stage.name)'")
            }
            let first = expanded[cycle[0]].template.name
            problems.add(
                ["stages", first],
                "stages form a cycle: \((names + [names[0]]).joined(separator: " → ")) (\(reads.joined(separator: "; ")))",
                fix: "Remove the dep that closes the loop")
            try problems.throwIfAny()
        }

        let order = topologicalOrder(up)
        var position = Array(repeating: 0, count: count)
        for (p, original) in order.enumerated() { position[original] = p }
        let stages = order.map { expanded[$0].stage }
        let upstream = order.map { original in up[original].map { position[$0] }.sorted() }
        var downstream = Array(repeating: [Int](), count: count)
        for (b, ups) in upstream.enumerated() { for a in ups { downstream[a].append(b) } }
        return PipelineGraph(spec: spec, stages: stages, upstream: upstream, downstream: downstream.map { $0.sorted() })
    }

    /// One writer per path, and no stage reading its own outs.
    private static func checkWriters(
        _ expanded: [(stage: Stage, template: StageTemplate)], locations: SpecText, problems: inout SpecProblems
    ) {
        var writers: [(stage: Int, out: Int, path: String)] = []
        for (s, entry) in expanded.enumerated() {
            for (o, out) in entry.stage.outs.enumerated() {
                for earlier in writers where earlier.stage != s && RepositoryPath.overlaps(earlier.path, out) {
                    let other = expanded[earlier.stage]
                    let otherLine = locations.location(["stages", other.template.name, "outs", "[\(earlier.out)]"]).line ?? 0
                    let relation = earlier.path == out ? "is also written by" : "overlaps '\(earlier.path)' written by"
                    problems.add(
                        ["stages", entry.template.name, "outs", "[\(o)]"],
                        "out '\(out)' of stage '\(entry.stage.name)' \(relation) stage '\(other.stage.name)' (line \(otherLine))",
                        fix: "Give every path exactly one writing stage")
                }
                writers.append((s, o, out))
                for (d, dep) in entry.stage.deps.enumerated() where RepositoryPath.overlaps(dep, out) {
                    let (inner, outer) =
                        RepositoryPath.contains(dep, out) ? ("out '\(out)'", "dep '\(dep)'") : ("dep '\(dep)'", "out '\(out)'")
                    problems.add(
                        ["stages", entry.template.name, "deps", "[\(d)]"],
                        "\(inner) of stage '\(entry.stage.name)' is inside its own \(outer)",
                        fix: "A stage cannot read what it writes: narrow the dep or move the out")
                }
            }
        }
    }

    /// Kahn's algorithm over `up` (each stage's upstream stages), always taking the earliest stage in
    /// document order that is ready.
    private static func topologicalOrder(_ up: [Set<Int>]) -> [Int] {
        let count = up.count
        var remaining = up
        var done = Array(repeating: false, count: count)
        var order: [Int] = []
        while order.count < count {
            guard let next = (0..<count).first(where: { !done[$0] && remaining[$0].isEmpty }) else { break }
            done[next] = true
            order.append(next)
            for i in 0..<count { remaining[i].remove(next) }
        }
        return order
    }

    /// Indices on a cycle in `upstream` edges (listed in execution direction), or nil.
    private static func findCycle(_ upstream: [Set<Int>]) -> [Int]? {
        let count = upstream.count
        var downstream = Array(repeating: [Int](), count: count)
        for (b, ups) in upstream.enumerated() { for a in ups.sorted() { downstream[a].append(b) } }
        var state = Array(repeating: 0, count: count) // 0 new, 1 on stack, 2 done
        var stack: [Int] = []
        func visit(_ node: Int) -> [Int]? {
            state[node] = 1
            stack.append(node)
            for next in downstream[node] {
                if state[next] == 1, let start = stack.firstIndex(of: next) { return Array(stack[start...]) }
                if state[next] == 0, let cycle = visit(next) { return cycle }
            }
            stack.removeLast()
            state[node] = 2
            return nil
        }
        for node in 0..<count where state[node] == 0 {
            if let cycle = visit(node) { return cycle }
        }
        return nil
    }

    /// The stages a template stands for: itself, or one per fan-out item.
    private static func instances(
        of template: StageTemplate, shared: SharedParams, list: (String) -> [DirectoryEntry]?,
        problems: inout SpecProblems
    ) -> [Stage] {
        let at = ["stages", template.name]
        guard let fanout = template.foreach else {
            return stage(template, item: nil, shared: shared, problems: &problems).map { [$0] } ?? []
        }
        var items: [String]
        switch fanout {
        case .items(let list):
            items = list
        case .glob(let folder, let prefix, let suffix, let folders):
            items = []
            for entry in (list(folder) ?? []).sorted(by: { $0.name < $1.name }) {
                guard entry.isFolder == folders, !entry.name.hasPrefix("."),
                    entry.name.count > prefix.count + suffix.count,
                    entry.name.hasPrefix(prefix), entry.name.hasSuffix(suffix)
                else { continue }
                let item = String(entry.name.dropFirst(prefix.count).dropLast(suffix.count))
                guard SpecParser.isItem(item) else {
                    problems.add(
                        at + ["foreach", "glob"],
                        "'\(folder)/\(entry.name)' gives fan-out item '\(item)', which is not usable in a stage name and a path",
                        fix: "Rename it using letters, digits, '.', '_' and '-' only")
                    continue
                }
                items.append(item)
            }
        }
        return items.compactMap { stage(template, item: $0, shared: shared, problems: &problems) }
    }

    private static func stage(
        _ template: StageTemplate, item: String?, shared: SharedParams,
        problems: inout SpecProblems
    ) -> Stage? {
        let at = ["stages", template.name]
        let name = item.map { "\(template.name)@\($0)" } ?? template.name
        // The shared params this instance reads enter its params (and so its content key) by name;
        // its own params of the same name win in its cmd.
        var usedShared: [String: String] = [:]
        let sharedValue: (String) -> String? = { placeholder in
            if placeholder == "item" { return item }
            guard placeholder.hasPrefix("params."), let value = shared.values[String(placeholder.dropFirst(7))] else { return nil }
            usedShared[String(placeholder.dropFirst(7))] = value
            return value
        }
        func expandPath(_ raw: String, key: String, index: Int, role: String) -> String? {
            guard case .success(let text) = Placeholders.expand(raw, sharedValue) else { return nil }
            return problems.path(text, role: role, at: at + [key, "[\(index)]"])
        }
        let deps = template.deps.enumerated().compactMap { expandPath($1, key: "deps", index: $0, role: "dep") }
        let outs = template.outs.enumerated().compactMap { expandPath($1, key: "outs", index: $0, role: "out") }
        guard deps.count == template.deps.count, outs.count == template.outs.count else { return nil }
        var own: [String: String] = [:]
        for (key, raw) in template.params {
            guard case .success(let value) = Placeholders.expand(raw, sharedValue) else { return nil }
            own[key] = value
        }
        let value: (String) -> String? = { placeholder in
            if placeholder == "item" { return item }
            if placeholder == "out" { return outs.first.map { Stage.stagingPath(of: $0, stage: name) } }
            if placeholder == "depfile" { return Stage.depfilePath(for: name) }
            if placeholder.hasPrefix("params.") {
                let param = String(placeholder.dropFirst(7))
                if let value = own[param] { return value }
                return sharedValue(placeholder)
            }
            if placeholder.hasPrefix("outs.") {
                var rest = placeholder.dropFirst(5)
                let wantsFolder = rest.hasSuffix(".dir")
                if wantsFolder { rest = rest.dropLast(4) }
                guard let n = Int(rest), outs.indices.contains(n) else { return nil }
                let staged = Stage.stagingPath(of: outs[n], stage: name)
                return wantsFolder ? RepositoryPath.parent(of: staged) : staged
            }
            return nil
        }
        var argv: [String] = []
        for raw in template.cmd {
            guard case .success(let argument) = Placeholders.expand(raw, value) else { return nil }
            argv.append(argument)
        }
        // An out's own schema fingerprints the stage like its code does.
        var outChecks: [String: OutCheck] = [:]
        var code = template.code
        for (out, check) in zip(outs, template.outChecks) where check != .envelope {
            outChecks[out] = check
            if case .schema(let schema) = check, !code.contains(schema) { code.append(schema) }
        }
        let params = own.merging(usedShared) { mine, _ in mine }
        let usesDepfile = template.cmd.contains { raw in
            (try? Placeholders.names(in: raw).get())?.contains("depfile") == true
        }
        return Stage(
            name: name, template: template.name, item: item, argv: argv, deps: deps, outs: outs,
            params: params, code: code.sorted(), description: template.description, outChecks: outChecks,
            depfile: usesDepfile ? Stage.depfilePath(for: name) : nil)
    }
}
