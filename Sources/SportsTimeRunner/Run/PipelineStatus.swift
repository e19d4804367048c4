import Foundation
import SportsTimeCore

/// Where one stage stands against the lock.
public struct StageState: Sendable, Hashable {
    public enum Kind: Sendable, Hashable {
        case upToDate
        /// Its own inputs changed (or its outputs are missing or modified).
        case run([StageReason])
        /// Up to date now, but upstream stages will run first; skipped if their outputs do not change.
        case wait([String])
    }

    public var stage: Stage
    public var kind: Kind
    public var fingerprint: StageFingerprint
}

/// `sportstime status`: every stage's state and why, plus leftovers of stages no longer in the spec.
public struct PipelineStatus: Sendable {
    public var states: [StageState]
    /// Lock entries of stages no longer in the spec, whose outputs a full run removes.
    public var orphans: [String: LockEntry]
    /// A publish a killed runner left half done (completed by the next run).
    public var interruptedPublish: Bool
    /// Paths under the out folders that no stage owns (see `Workspace.strays`); they do not make the
    /// pipeline out of date, but a run will not publish over one.
    public var strays: [String] = []

    public var isUpToDate: Bool {
        !interruptedPublish && orphans.isEmpty && states.allSatisfy { $0.kind == .upToDate }
    }

    /// One line per stage, aligned, then a count line.
    public func lines() -> [String] {
        let width = max(states.map(\.stage.name.count).max() ?? 0, orphans.keys.map(\.count).max() ?? 0)
        func pad(_ name: String) -> String { name.padded(to: width) }
        var lines: [String] = []
        if interruptedPublish {
            lines.append("a publish was interrupted; the next run completes it before anything else")
        }
        var toRun = 0, waiting = 0, current = 0
        for state in states {
            switch state.kind {
            case .upToDate:
                current += 1
                lines.append("\(pad(state.stage.name))  ok    up to date")
            case .run(let reasons):
                toRun += 1
                lines.append("\(pad(state.stage.name))  run   \(StagePlanner.summary(reasons))")
            case .wait(let upstream):
                waiting += 1
                let names =
                    upstream.count > 3
                    ? upstream.prefix(3).joined(separator: ", ") + " and \(upstream.count - 3) more"
                    : upstream.joined(separator: ", ")
                lines.append(
                    "\(pad(state.stage.name))  wait  after \(names) (skipped if \(upstream.count == 1 ? "its" : "their") outputs do not change)"
                )
            }
        }
        for name in orphans.keys.sorted() {
            let outs = orphans[name]!.outs.keys.sorted().joined(separator: ", ")
            lines.append(
                "\(pad(name))  gone  no longer in \(Workspace.specPath); a full run removes \(outs.isEmpty ? "its lock entry" : outs)")
        }
        for path in strays {
            lines.append("\(path)  stray  no stage writes it. Delete it, or list it under a stage's outs in \(Workspace.specPath).")
        }
        var parts = ["\(toRun) to run", "\(waiting) waiting", "\(current) up to date"]
        if !orphans.isEmpty { parts.append("\(orphans.count) to remove") }
        if !strays.isEmpty { parts.append("\(strays.count) stray file\(strays.count == 1 ? "" : "s") in out folders") }
        lines.append((isUpToDate ? "up to date: " : "work pending: ") + parts.joined(separator: ", ") + ".")
        return lines
    }

    /// Computes every stage's state in topological order.
    static func compute(graph: PipelineGraph, lock: PipelineLock, hasher: ContentHasher, hasJournal: Bool) -> PipelineStatus {
        var states: [StageState] = []
        for (index, stage) in graph.stages.enumerated() {
            let fingerprint = fingerprint(of: stage, hasher: hasher, recorded: lock.stages[stage.name])
            let reasons = StagePlanner.reasons(
                fingerprint, outputs: outputHashes(of: stage, hasher: hasher),
                lock: lock.stages[stage.name], listing: hasher.listing)
            let kind: StageState.Kind
            if !reasons.isEmpty {
                kind = .run(reasons)
            } else {
                let pending = graph.upstream[index].filter { states[$0].kind != .upToDate }.map { graph.stages[$0].name }
                kind = pending.isEmpty ? .upToDate : .wait(pending)
            }
            states.append(StageState(stage: stage, kind: kind, fingerprint: fingerprint))
        }
        let names = Set(graph.stages.map(\.name))
        return PipelineStatus(
            states: states, orphans: lock.stages.filter { !names.contains($0.key) },
            interruptedPublish: hasJournal)
    }

    /// The stage's fingerprint. For a stage that writes a depfile, the reads its last run recorded
    /// (`recorded.reads`) stand for the dep folders holding them (`Depfile.narrowed`); `reads` gives the
    /// reads of a run that just ended instead.
    static func fingerprint(
        of stage: Stage, hasher: ContentHasher, recorded: LockEntry?,
        reads: [String]? = nil
    ) -> StageFingerprint {
        let reads = stage.depfile == nil ? nil : (reads ?? recorded?.reads)
        var deps: [String: String] = [:]
        for dep in Depfile.narrowed(deps: stage.deps, reads: reads) { deps[dep] = hasher.digest(dep).hash }
        var code: [String: String] = [:]
        for path in stage.code { code[path] = hasher.digest(path).hash }
        return StageFingerprint(stage: stage, deps: deps, code: code, reads: reads)
    }

    static func outputHashes(of stage: Stage, hasher: ContentHasher) -> [String: String] {
        var hashes: [String: String] = [:]
        for out in stage.outs { hashes[out] = hasher.digest(out).hash }
        return hashes
    }
}
