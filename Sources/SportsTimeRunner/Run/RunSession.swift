import Foundation
import SportsTimeCore

/// One `sportstime run` of the selected stages with the workspace locked, on the runner's main thread:
/// the `Scheduler` says which stage can move; this decides whether a considered stage is skipped,
/// fails (an out in the way) or starts, publishes what a finished stage wrote, and prints a line per
/// stage and the summary. Stages run on threads of their own (`PipelineRunner.start`) and hand their
/// results back through `completions`.
final class RunSession {
    private let runner: PipelineRunner
    private let options: RunOptions
    private let graph: PipelineGraph
    private var lock: PipelineLock
    private let hasher: ContentHasher
    private let publisher: Publisher
    private let trash: Trash
    private let workspaceLock: WorkspaceLock
    private let started: Date
    /// The selected stages, in graph order.
    private let order: [Int]
    /// The width stage names are padded to in the lines of the run.
    private let width: Int
    /// Outs any lock entry records when the run starts: an existing out no entry records is in the way.
    private let recordedOuts: [String]
    private let reports: RunReportWriter
    private let schemas: SchemaStore
    private let progress: ProgressBoard
    private let completions = CompletionQueue()
    private var scheduler: Scheduler
    private var outcomes: [Int: StageOutcome] = [:]
    private var finishedCount = 0

    init(
        runner: PipelineRunner, options: RunOptions, graph: PipelineGraph, lock: PipelineLock,
        selected: Set<Int>, hasher: ContentHasher, publisher: Publisher, trash: Trash,
        workspaceLock: WorkspaceLock, started: Date
    ) {
        self.runner = runner
        self.options = options
        self.graph = graph
        self.lock = lock
        self.hasher = hasher
        self.publisher = publisher
        self.trash = trash
        self.workspaceLock = workspaceLock
        self.started = started
        order = graph.stages.indices.filter(selected.contains)
        width = max(
            order.map { graph.stages[$0].name.count }.max() ?? 0, lock.stages.keys.map(\.count).max() ?? 0)
        recordedOuts = lock.stages.values.flatMap { Array($0.outs.keys) }
        reports = RunReportWriter(
            root: runner.workspace.root, command: options.commandLine, started: started,
            selected: order.map { graph.stages[$0].name }, trash: trash)
        schemas = SchemaStore(root: runner.workspace.root)
        progress = ProgressBoard(console: runner.console)
        scheduler = Scheduler(graph: graph, order: order, options: options)
    }

    private var console: Console { runner.console }
    private var root: URL { runner.workspace.root }

    /// Runs the stages; returns the exit code.
    func execute() throws -> Int32 {
        defer { progress.finish() }
        defer { schemas.validated.save() }
        // Stages no longer in the spec: a full run removes what they published.
        var removedAny = false
        if options.targets.isEmpty && lock.stages.keys.contains(where: { name in !graph.stages.contains { $0.name == name } }) {
            removedAny = true
            try runner.removeOrphans(
                graph: graph, lock: &lock, publisher: publisher, hasher: hasher, width: width, reports: reports)
        }
        schedule()
        while !scheduler.running.isEmpty {
            ended(completions.next())
        }
        for (index, reason) in scheduler.finishUnreached(interrupted: runner.interrupted) {
            report(index, StageOutcome(stage: graph.stages[index].name, status: .notRun, reason: reason))
        }
        return summarize(removedAny: removedAny)
    }

    // MARK: scheduling

    /// Acts on every stage the scheduler can move now.
    private func schedule() {
        while let decision = scheduler.next(interrupted: runner.interrupted) {
            switch decision {
            case .notRun(let index, let reason):
                report(index, StageOutcome(stage: graph.stages[index].name, status: .notRun, reason: reason))
            case .consider(let index):
                consider(index)
            }
        }
    }

    /// A stage whose upstream stages are done: skipped when its key and outputs are as recorded (and
    /// not forced), failed when a file no stage wrote is in the way of an out, started otherwise.
    private func consider(_ index: Int) {
        let stage = graph.stages[index]
        let entry = lock.stages[stage.name]
        let fingerprint = PipelineStatus.fingerprint(of: stage, hasher: hasher, recorded: entry)
        var reasons = StagePlanner.reasons(
            fingerprint, outputs: PipelineStatus.outputHashes(of: stage, hasher: hasher), lock: entry,
            listing: hasher.listing)
        if reasons.isEmpty && options.force { reasons = [.forced] }
        if reasons.isEmpty {
            scheduler.finish(index, .skipped)
            let reason = scheduler.skipReason(of: index, keyedByReads: fingerprint.reads != nil)
            report(index, StageOutcome(stage: stage.name, status: .skipped, reason: reason))
            return
        }
        if let out = stage.outs.first(where: isInTheWay) {
            let problem = Workspace.inTheWayMessage(out, stage: stage.name)
            console.err(problem)
            scheduler.finish(index, .failed)
            var outcome = StageOutcome(stage: stage.name, status: .failed, reason: StagePlanner.summary(reasons))
            outcome.problems = [problem]
            report(index, outcome)
            return
        }
        let recordsIn = fingerprint.deps.keys.sorted().map { hasher.digest($0) }
        let inCount = recordsIn.contains(where: \.hasRecords) ? recordsIn.reduce(0) { $0 + $1.records } : nil
        scheduler.start(index)
        let work = PipelineRunner.StageWork(
            index: index, stage: stage, fingerprint: fingerprint, reason: StagePlanner.summary(reasons),
            recordsIn: inCount)
        runner.start(
            work, options: options, schemas: schemas, workspaceLock: workspaceLock, hasher: hasher,
            reports: reports, progress: progress, completions: completions)
    }

    /// An existing out that no lock entry records: a file no stage wrote.
    private func isInTheWay(_ out: String) -> Bool {
        Workspace.isInTheWay(out, recorded: recordedOuts, exists: FileStatus(path: PathText.join(root.path, out)) != nil)
    }

    /// A stage's process ended: publish what it wrote (or fail it), then move on.
    private func ended(_ result: PipelineRunner.StageResult) {
        let index = result.work.index
        scheduler.endRunning(index)
        // With several jobs, stages that do not depend on this one start before it is published:
        // publishing (journal and lock flushed to disk) happens on this thread, and would otherwise
        // leave a job slot idle for its duration. Its dependents wait for its outcome as before.
        if options.jobs > 1 && result.problems.isEmpty { schedule() }
        let stage = graph.stages[index]
        console.errBlock(result.bufferedLines)
        let outcome = published(result)
        trash.discard(stage.stagingFolder)
        if let depfile = stage.depfile { try? FileManager.default.removeItem(at: root.appendingPathComponent(depfile)) }
        if outcome.status == .failed {
            for problem in outcome.problems { console.err("\(stage.name): \(problem)") }
        }
        scheduler.finish(index, outcome.status)
        report(index, outcome)
        schedule()
    }

    /// The outcome of a stage that ended: ran once its outputs are published, failed with its
    /// problems or the publish's.
    private func published(_ result: PipelineRunner.StageResult) -> StageOutcome {
        var outcome = StageOutcome(
            stage: result.work.stage.name, status: .failed, reason: result.work.reason, seconds: result.seconds,
            recordsIn: result.work.recordsIn)
        guard result.problems.isEmpty else {
            outcome.problems = result.problems
            return outcome
        }
        do {
            let changed = try runner.publish(
                result, lock: &lock, publisher: publisher, hasher: hasher, allOuts: graph.stages.flatMap(\.outs))
            outcome.status = .ran
            outcome.recordsOut = result.recordsOut
            outcome.rejected = result.rejected
            outcome.filtered = result.filtered
            outcome.outputsChanged = changed
        } catch let stopped as RunInterrupted {
            outcome.status = .notRun
            outcome.reason = stopped.description
        } catch {
            outcome.problems = ["\(error)"]
        }
        return outcome
    }

    // MARK: output

    /// Prints a stage's line and records it in the report.
    private func report(_ index: Int, _ outcome: StageOutcome) {
        outcomes[index] = outcome
        finishedCount += 1
        console.out(line(outcome, number: finishedCount))
        reports.record(outcome)
    }

    /// `[2/5] normalize  ran     (dep … changed)  0.41s  in 7,012 out 6,998 rejected 14`
    private func line(_ outcome: StageOutcome, number: Int) -> String {
        var text = "[\(number)/\(order.count)] " + outcome.stage.padded(to: width)
        text += "  " + outcome.status.rawValue.padded(to: 7)
        text += " (\(outcome.reason))"
        if outcome.status == .ran || outcome.status == .failed { text += "  " + Format.seconds(outcome.seconds) }
        var counts: [String] = []
        if let value = outcome.recordsIn { counts.append("in \(Format.count(value))") }
        if let value = outcome.recordsOut { counts.append("out \(Format.count(value))") }
        if let value = outcome.rejected { counts.append("rejected \(Format.count(value))") }
        if let value = outcome.filtered, value > 0 { counts.append("filtered \(Format.count(value))") }
        if !counts.isEmpty { text += "  " + counts.joined(separator: " ") }
        return text
    }

    /// The report's end, the summary line, the caches a whole run keeps; the exit code.
    private func summarize(removedAny: Bool) -> Int32 {
        let interrupted = runner.interrupted
        let failed = scheduler.hasFailure
        let values = order.compactMap { outcomes[$0] }
        let status: RunReport.Status = interrupted ? .interrupted : (failed ? .failed : .succeeded)
        reports.finish(status, seconds: Date().timeIntervalSince(started))
        let count = { (s: StageOutcome.Status) in values.filter { $0.status == s }.count }
        console.out(
            "\(order.count) stage\(order.count == 1 ? "" : "s"): \(count(.ran)) ran, \(count(.skipped)) skipped, "
                + "\(count(.failed)) failed, \(count(.notRun)) not run in \(Format.seconds(Date().timeIntervalSince(started))). "
                + "Report: \(reports.markdownPath)")
        if options.targets.isEmpty && !failed && !interrupted {
            let keep = lock.stages.values.flatMap { Array($0.deps.values) + Array($0.outs.values) }
            hasher.pruneListings(keeping: Set(keep))
        }
        if options.targets.isEmpty && !interrupted && values.allSatisfy({ $0.status == .skipped }) && !removedAny {
            // Nothing was published: what the hasher saw is the tree as it is, so its status can be kept.
            var status = PipelineStatus.compute(graph: graph, lock: lock, hasher: hasher, hasJournal: false)
            status.strays = runner.workspace.strays(graph: graph, lock: lock, observe: hasher.observe)
            runner.recordSnapshot(status, graph: graph, hasher: hasher)
        }
        if interrupted { return 130 }
        return failed ? ExitStatus.failure : ExitStatus.ok
    }
}
