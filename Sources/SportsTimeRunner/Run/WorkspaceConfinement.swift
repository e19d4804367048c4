import Foundation
import SportsTimeCore

/// Where the runner may read, write and remove, checked before anything is touched.
///
/// - Every path it reads or writes resolves, symbolic links followed, inside the repository; a link
///   that leads outside (or loops) is refused at the link (`RepositoryConfinement`), whether it is a
///   dep, a file inside a dep folder, a code path, an out or a folder above one.
/// - The runner's own files (`.pipeline/` and what it holds) are never reached through a link.
/// - An out does not resolve, through a link inside the repository, onto a path a stage reads (a dep or
///   code path that no stage writes) or onto the runner's own files.
/// - Outs recorded in the lock (and in a journal left by a killed runner) are outs the spec declares,
///   or paths strictly inside a top-level folder the spec's outs live in (`out/`) that no stage reads:
///   the only paths a run may remove.
/// A violation is invalid input (exit 2), located at the link, the spec line or the lock line.
extension Workspace {
    public var confinement: RepositoryConfinement { RepositoryConfinement(root: root) }

    /// The runner's own paths, and the spec and schemas it reads.
    static let runnerPaths = [
        ".pipeline", ".pipeline/lock", Publisher.journalPath, ".pipeline/staging",
        ".pipeline/backup", ".pipeline/cache", ".pipeline/cache/listings", ".pipeline/cache/file-hashes.tsv", ValidationCache.path,
        Trash.folder,
        StatClock.path, StatSnapshot.path,
        ".pipeline/runs", Publisher.lockPath, Workspace.specPath, SharedParams.path, "pipeline/schemas",
    ]

    /// Checks the runner's own paths, the spec and the schemas (before the workspace lock is opened).
    public func checkRunnerPaths() throws {
        var problems = Problems()
        for path in Self.runnerPaths {
            let outside =
                path == "pipeline/schemas"
                ? confinement.linksLeavingRepository(under: path) : confinement.linkLeavingRepository(path).map { [$0] } ?? []
            if !outside.isEmpty {
                for link in outside { problems.add(RepositoryConfinement.outsideLink(link)) }
            } else if path.hasPrefix(".pipeline"), RepositoryConfinement.isLink(confinement.absolute(path)) {
                problems.add(
                    Diagnostic(
                        .error, at: SourceLocation(path: path),
                        "cannot follow the symbolic link: the runner's own files in .pipeline/ are never reached through links",
                        fix: "Remove the link (the runner creates what it needs) and re-run"))
            }
        }
        try problems.throwIfAny()
    }

    /// Checks every dep, code path and out of `graph` against the link rule, and that no out lands,
    /// through a link inside the repository, on something a stage reads or on the runner's own files.
    func checkConfinement(_ graph: PipelineGraph) throws {
        var problems = Problems()
        let paths = Set(graph.stages.flatMap { $0.deps + $0.code + $0.outs })
        // A folder inside another listed one is searched with it.
        let tops = paths.filter { path in !paths.contains { $0 != path && RepositoryPath.contains($0, path) } }
        for path in tops.sorted() {
            for link in confinement.linksLeavingRepository(under: path) { problems.add(RepositoryConfinement.outsideLink(link)) }
        }
        // The pipeline's inputs are only needed for an out that resolves elsewhere (through a link).
        var inputs: [(path: String, stage: String)]?
        for stage in graph.stages {
            for out in stage.outs {
                guard let real = confinement.resolvedRelative(out), real != out else { continue }
                if inputs == nil { inputs = Self.inputs(of: graph) }
                if let why = Self.readers(of: real, inputs: inputs ?? []) ?? Self.runnerOwned(real) {
                    problems.add(
                        Diagnostic(
                            .error, at: SourceLocation(path: out),
                            "cannot write through the symbolic link: out '\(out)' of stage '\(stage.name)' resolves to '\(real)', \(why)",
                            fix: "Remove the link so that the out is a plain folder or file, and re-run"))
                }
            }
        }
        try problems.throwIfAny()
    }

    /// Deps and code paths that no stage writes (the pipeline's inputs), with a stage reading each.
    static func inputs(of graph: PipelineGraph) -> [(path: String, stage: String)] {
        let outs = graph.stages.flatMap(\.outs)
        var result: [(String, String)] = []
        for stage in graph.stages {
            for path in stage.deps + stage.code where !outs.contains(where: { RepositoryPath.overlaps($0, path) }) {
                result.append((path, stage.name))
            }
        }
        return result
    }

    static func readers(of path: String, inputs: [(path: String, stage: String)]) -> String? {
        guard let input = inputs.first(where: { RepositoryPath.overlaps($0.path, path) }) else { return nil }
        return "which overlaps '\(input.path)' that stage '\(input.stage)' reads"
    }

    static func runnerOwned(_ path: String) -> String? {
        if case .failure(let problem) = RepositoryPath.normalize(path), case .reserved(let what) = problem {
            return "which is inside \(what), which belongs to the runner"
        }
        return nil
    }

    /// Why the runner may not publish to or remove `out`, recorded in a lock or a
    /// journal; nil when it may.
    func outProblem(_ out: String, graph: PipelineGraph) -> String? {
        switch RepositoryPath.normalize(out) {
        case .failure(let problem):
            return problem.message(for: out, role: "out")
        case .success(let normalized) where normalized != out:
            return "out '\(out)' is not a plain repository path (it means '\(normalized)')"
        case .success:
            break
        }
        let outs = graph.stages.flatMap(\.outs)
        if !outs.contains(out) {
            let folders = Self.outFolders(of: graph)
            guard folders.contains(where: { RepositoryPath.contains($0, out) && $0 != out }) else {
                return "out '\(out)' is not inside a folder the spec's stages write"
                    + (folders.isEmpty ? "" : " (\(folders.sorted().map { $0 + "/" }.joined(separator: ", ")))")
            }
            if let why = Self.readers(of: out, inputs: Self.inputs(of: graph)) { return "out '\(out)' \(why)" }
        }
        if let link = confinement.linkLeavingRepository(out) {
            return "out '\(out)' leads outside the repository through the symbolic link \(link)"
        }
        if let real = confinement.resolvedRelative(out), real != out,
            let why = Self.readers(of: real, inputs: Self.inputs(of: graph)) ?? Self.runnerOwned(real)
        {
            return "out '\(out)' resolves through a symbolic link to '\(real)', \(why)"
        }
        return nil
    }

    /// The top-level folders the spec's outs live in (`out` for `out/normalize`); a top-level out names none.
    static func outFolders(of graph: PipelineGraph) -> Set<String> {
        var paths = graph.stages.flatMap(\.outs)
        for template in graph.spec.templates { paths += template.outs }
        return Set(
            paths.compactMap { path -> String? in
                let parts = path.split(separator: "/")
                guard parts.count > 1, !parts[0].contains("${") else { return nil }
                return String(parts[0])
            })
    }

    /// Checks every out a lock records (`text` is the file, for line numbers; `path` names it).
    func checkLock(_ lock: PipelineLock, text: String, path: String, graph: PipelineGraph) -> [Diagnostic] {
        var problems: [Diagnostic] = []
        for name in lock.stages.keys.sorted() {
            for out in (lock.stages[name]?.outs.keys.sorted() ?? []) {
                guard let why = outProblem(out, graph: graph) else { continue }
                problems.append(
                    Diagnostic(
                        .error, at: SourceLocation(path: path, line: Self.line(ofOut: out, stage: name, in: text)),
                        "stage '\(name)' in the lock: \(why); a run replaces or removes only outs inside the folders the spec's stages write",
                        fix: "Restore the lock with 'git checkout \(path)', or delete it to run every stage again"))
            }
        }
        return problems
    }

    /// The line of out `out` in the entry of `stage` of a lock's text (1 when not found).
    static func line(ofOut out: String, stage: String, in text: String) -> Int {
        let lines = TextLines.split(text)
        let stageKey = ((try? CanonicalJSON.compact(stage)) ?? stage) + ":"
        let outKey = ((try? CanonicalJSON.compact(out)) ?? out) + ":"
        var inStage = false, inOuts = false
        for (index, line) in lines.enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix(stageKey) { inStage = true; inOuts = false; continue }
            if inStage && trimmed.hasPrefix("\"outs\":") { inOuts = true }
            if inStage && inOuts && trimmed.contains(outKey) { return index + 1 }
        }
        return 1
    }
}

/// Diagnostics gathered once each.
struct Problems {
    private(set) var items: [Diagnostic] = []
    private var seen = Set<String>()

    mutating func add(_ diagnostic: Diagnostic) {
        if seen.insert(diagnostic.description).inserted { items.append(diagnostic) }
    }

    func throwIfAny() throws {
        if !items.isEmpty { throw PipelineError.invalidInputs(items) }
    }
}
