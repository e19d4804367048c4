import Foundation
import SportsTimeCore

/// What `sportstime run` was asked to do.
public struct RunOptions: Sendable {
    /// `STAGE`, `STAGE+`, `+STAGE`; empty for the whole pipeline.
    public var targets: [String]
    /// Run the selected stages even when up to date.
    public var force: Bool
    /// After a failure, keep running stages that do not depend on it.
    public var keepGoing: Bool
    /// How many independent stages may run at once.
    public var jobs: Int
    /// The command line, for the run report.
    public var commandLine: [String]

    public init(
        targets: [String] = [], force: Bool = false, keepGoing: Bool = false, jobs: Int = 1,
        commandLine: [String] = ["sportstime", "run"]
    ) {
        self.targets = targets; self.force = force; self.keepGoing = keepGoing; self.jobs = max(1, jobs)
        self.commandLine = commandLine
    }
}

/// Runs the pipeline: decides by content what to run, runs stages into staging (several at once with
/// `jobs`), validates and publishes their outputs, writes the lock, prints a line per stage and keeps
/// a report. Only one runner writes a workspace at a time.
public final class PipelineRunner: @unchecked Sendable {
    public let workspace: Workspace
    let console: Console
    private let runnerFolder: URL?
    private let environment: [String: String]
    private let state = NSLock()
    private var isInterrupted = false
    private var active: [StageProcess] = []
    /// The workspace lock while `run` holds it, and whether `run` has returned (for `interrupt`).
    private var heldLock: WorkspaceLock?
    private var isFinished = false
    /// Held by a publish or a journal's completion; an interrupt takes it for good before it ends the process.
    private let publishing = NSLock()

    public init(
        root: URL, console: Console, runnerFolder: URL? = Workspace.runnerFolder,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) {
        workspace = Workspace(root: root)
        self.console = console
        self.runnerFolder = runnerFolder
        self.environment = environment
    }

    private var root: URL { workspace.root }

    // MARK: status

    /// Computes the status without writing anything but the caches in `.pipeline/cache/` (the hash
    /// cache, and the status snapshot when everything is up to date).
    public func status() throws -> PipelineStatus {
        try workspace.checkRunnerPaths()
        // The stamp is taken before anything is read (racy timestamps: see StatClock).
        let hasher = ContentHasher(root: root)
        defer { hasher.save() }
        let graph = try workspace.loadGraph()
        let lock = try workspace.loadLock(graph: graph)
        var status = PipelineStatus.compute(
            graph: graph, lock: lock, hasher: hasher,
            hasJournal: Publisher(root: root).hasPendingJournal)
        status.strays = workspace.strays(graph: graph, lock: lock, observe: hasher.observe)
        recordSnapshot(status, graph: graph, hasher: hasher)
        return status
    }

    /// Keeps the stat snapshot of an up-to-date status (see StatSnapshot), or drops an old one.
    func recordSnapshot(_ status: PipelineStatus, graph: PipelineGraph, hasher: ContentHasher) {
        guard status.isUpToDate else {
            StatSnapshot.remove(root: root)
            return
        }
        for path in StatSnapshot.fixedPaths { _ = hasher.observe(path) }
        for template in graph.spec.templates {
            if case .glob(let folder, _, _, _) = template.foreach { _ = hasher.observe(folder) }
        }
        StatSnapshot.write(
            root: root, stamp: hasher.stampedAt, stages: graph.stages.map(\.name), lines: status.lines(),
            observed: hasher.observations())
    }

    /// Prints the status; exit 0 when everything is up to date, 1 when work is pending, 2 for a spec error.
    /// An unchanged tree is confirmed from the stat snapshot alone, without reading any file.
    public func printStatus() -> Int32 {
        do {
            try workspace.checkRunnerPaths()
            if let snapshot = StatSnapshot.confirm(root: root) {
                for line in snapshot.lines { console.out(line) }
                return ExitStatus.ok
            }
            let status = try status()
            for line in status.lines() { console.out(line) }
            return status.isUpToDate ? ExitStatus.ok : ExitStatus.failure
        } catch {
            return report(error)
        }
    }

    /// Prints an error's diagnostics and returns its exit code.
    public func report(_ error: Error) -> Int32 {
        if error is RunInterrupted { return 130 }
        if let pipelineError = error as? PipelineError {
            for diagnostic in pipelineError.reported { console.err(diagnostic.description) }
            return pipelineError.exitCode
        }
        if error is FileFault || error is Publisher.PublishFailure {
            console.err("\(error)")
        } else {
            console.err("error: \(error)")
        }
        return ExitStatus.failure
    }

    /// Stops the run on SIGINT or SIGTERM (called on the signal watcher's thread): no stage starts and no
    /// publish begins after it; the running stages' process groups get SIGTERM, and SIGKILL 30 ms later
    /// (they write only into staging). With `endingProcess` (the command owns its process) the process
    /// then ends with 130 within about 100 ms, whatever the main thread is doing — checking the spec,
    /// hashing, waiting on a file: a publish under way is finished first (so every out stays wholly old
    /// or wholly new) and the workspace lock is released. A main thread that ends by itself meanwhile
    /// exits as usual, with 130.
    public func interrupt(endingProcess: Bool = false) {
        state.lock()
        isInterrupted = true
        let running = active
        state.unlock()
        for process in running { process.stop() }
        Self.wait(seconds: 0.03) { running.allSatisfy { !$0.isRunning } }
        for process in running where process.isRunning { process.forceStop() }
        guard endingProcess else { return }
        Self.wait(seconds: 0.04) { self.finished }
        guard !finished else { return }
        publishing.lock()
        state.lock()
        let held = heldLock
        state.unlock()
        console.err("note: stopped by a signal; the stages that were running published nothing.")
        held?.release()
        _exit(130)
    }

    /// Waits until `done` holds, at most `seconds` (checked every millisecond).
    private static func wait(seconds: Double, until done: () -> Bool) {
        let deadline = Date().addingTimeInterval(seconds)
        while !done() && Date() < deadline { usleep(1000) }
    }

    private var finished: Bool {
        state.lock(); defer { state.unlock() }
        return isFinished
    }

    /// Runs a publish (or a journal's completion) unless the run was interrupted: an interrupt waits
    /// for it to end before ending the process, and none begins after one.
    func whilePublishing<T>(_ body: () throws -> T) throws -> T {
        publishing.lock(); defer { publishing.unlock() }
        if interrupted { throw RunInterrupted() }
        return try body()
    }

    var interrupted: Bool {
        state.lock(); defer { state.unlock() }
        return isInterrupted
    }

    // MARK: run

    /// Runs the selected stages; returns the exit code (0 all good, 1 a stage failed, 2 spec error,
    /// 64 usage error, 130 interrupted).
    public func run(_ options: RunOptions) -> Int32 {
        defer {
            state.lock()
            isFinished = true
            state.unlock()
        }
        let workspaceLock: WorkspaceLock
        do {
            // Nothing is opened or created before the runner's own paths are known to be its own.
            try workspace.checkRunnerPaths()
            workspaceLock = try WorkspaceLock(root: root)
        } catch { return report(error) }
        state.lock()
        heldLock = workspaceLock
        state.unlock()
        defer { workspaceLock.release() }
        do {
            return try runLocked(options, workspaceLock: workspaceLock)
        } catch {
            return report(error)
        }
    }

    /// With the workspace locked: the no-op fast path, or the spec, journal and lock checked and the
    /// selected stages run by a `RunSession`; staging, backups and the trash are cleared around it.
    private func runLocked(_ options: RunOptions, workspaceLock: WorkspaceLock) throws -> Int32 {
        let started = Date()
        var publisher = Publisher(root: root, pauseBetweenRenames: try TestHook.publishPause.seconds(in: environment))
        // Backups of published stages and their staging leftovers are deleted off this thread.
        let trash = Trash(root: root)
        defer { trash.drain() }
        publisher.discard = { trash.discard($0) }
        trash.emptyLeftovers()
        // Staging and backups only live during a run (a journal left by a failed undo keeps them).
        func clearScratch() {
            guard !publisher.hasPendingJournal else { return }
            trash.discard(".pipeline/staging")
            trash.discard(".pipeline/backup")
        }
        // A whole-pipeline run over an unchanged tree: confirmed from the stat snapshot alone.
        if options.targets.isEmpty && !options.force && !publisher.hasPendingJournal,
            let snapshot = StatSnapshot.confirm(root: root)
        {
            clearScratch()
            return noOpRun(snapshot, options: options, started: started, trash: trash)
        }
        // The stamp is taken before anything is read (racy timestamps: see StatClock).
        let hasher = ContentHasher(root: root)
        defer { hasher.save() }
        // The spec, a journal left by an interrupted run and the lock are all checked before anything
        // is moved: every path they name must be one the runner may touch.
        let graph = try workspace.loadGraph()
        if let label = try whilePublishing({ try workspace.recover(publisher, graph: graph) }) {
            console.err("note: completed the publish of \(label) that an interrupted run left half done")
        }
        let lock = try workspace.loadLock(graph: graph)
        clearScratch()
        defer { clearScratch() }
        let selected = try StageSelection.select(options.targets, in: graph)
        let session = RunSession(
            runner: self, options: options, graph: graph, lock: lock, selected: selected, hasher: hasher,
            publisher: publisher, trash: trash, workspaceLock: workspaceLock, started: started)
        return try session.execute()
    }

    /// A run with nothing to do, confirmed by `StatSnapshot`: every stage is skipped as up to date.
    private func noOpRun(_ snapshot: StatSnapshot, options: RunOptions, started: Date, trash: Trash) -> Int32 {
        let reports = RunReportWriter(
            root: root, command: options.commandLine, started: started, selected: snapshot.stages, writeNow: false,
            trash: trash)
        let width = snapshot.stages.map(\.count).max() ?? 0
        for (index, name) in snapshot.stages.enumerated() {
            let outcome = StageOutcome(stage: name, status: .skipped, reason: "up to date")
            console.out(
                "[\(index + 1)/\(snapshot.stages.count)] " + name.padded(to: width)
                    + "  " + outcome.status.rawValue.padded(to: 7) + " (up to date)")
            reports.record(outcome)
        }
        for line in snapshot.lines where line.contains("  stray  ") { console.err("note: " + line) }
        let seconds = Date().timeIntervalSince(started)
        reports.finish(.succeeded, seconds: seconds)
        let count = snapshot.stages.count
        console.out(
            "\(count) stage\(count == 1 ? "" : "s"): 0 ran, \(count) skipped, 0 failed, 0 not run in \(Format.seconds(seconds)). "
                + "Report: \(reports.markdownPath)")
        return ExitStatus.ok
    }

    // MARK: one stage

    struct StageWork: Sendable {
        var index: Int
        var stage: Stage
        var fingerprint: StageFingerprint
        var reason: String
        var recordsIn: Int?
    }

    struct StageResult: Sendable {
        var work: StageWork
        var problems: [String]
        var seconds: Double
        /// Out path → digest of the staged output.
        var staged: [String: PathDigest]
        var recordsOut: Int?
        var rejected: Int?
        var filtered: Int?
        /// What the stage reported reading, when it writes a depfile.
        var reads: [String]?
        /// Output lines held back to print as one block (when stages run concurrently).
        var bufferedLines: [String]
    }

    func start(
        _ work: StageWork, options: RunOptions, schemas: SchemaStore, workspaceLock: WorkspaceLock,
        hasher: ContentHasher, reports: RunReportWriter, progress: ProgressBoard, completions: CompletionQueue
    ) {
        let process = StageProcess()
        state.lock()
        active.append(process)
        // Interrupted meanwhile: it will not start.
        if isInterrupted { process.stop() }
        state.unlock()
        let live = options.jobs == 1
        let console = self.console
        let root = self.root
        let environment = self.environment.merging(
            ["SPORTSTIME_STAGE": work.stage.name, StageLifetime.runnerVariable: "\(getpid())"]) { $1 }
        let log = reports.logPath(for: work.stage.name)
        Thread.detachNewThread { [self] in
            let began = Date()
            let buffer = LineBuffer()
            let prefix = "  \(work.stage.name) | "
            @Sendable func emit(_ text: String) {
                buffer.append(prefix + text)
                progress.line(work.stage.name, text)
                if live { console.err(prefix + text) }
            }
            var problems: [String] = []
            var staged: [String: PathDigest] = [:]
            var recordsOut: Int?
            var rejected: Int?
            var filtered: Int?
            var reads: [String]?
            defer {
                try? Data(buffer.lines.map { $0 + "\n" }.joined().utf8).write(to: log)
                state.lock()
                active.removeAll { $0 === process }
                state.unlock()
                completions.add(
                    StageResult(
                        work: work, problems: problems, seconds: Date().timeIntervalSince(began),
                        staged: staged, recordsOut: recordsOut, rejected: rejected, filtered: filtered,
                        reads: reads, bufferedLines: live ? [] : buffer.lines))
            }
            let stage = work.stage
            let manager = FileManager.default
            let executable: URL
            switch prepare(stage) {
            case .success(let found): executable = found
            case .failure(let problem):
                problems.append(problem.text)
                return
            }
            if let depfile = stage.depfile { try? manager.removeItem(at: root.appendingPathComponent(depfile)) }
            progress.started(stage.name)
            let end = process.run(
                executable: executable, arguments: Array(stage.argv.dropFirst()), root: root,
                environment: environment, lockDescriptor: workspaceLock.descriptor,
                onStart: { pid in workspaceLock.record(["runner pid \(getpid())", "stage \(stage.name) pid \(pid)"]) },
                onLine: { text, _ in emit(text) })
            progress.ended(stage.name)
            guard end.isSuccess else {
                problems.append(Self.unsuccessful(end, stage: stage))
                return
            }
            let checked = checkOutputs(of: stage, schemas: schemas, hasher: hasher)
            problems += checked.problems
            staged = checked.staged
            (recordsOut, rejected, filtered) = (checked.recordsOut, checked.rejected, checked.filtered)
            checked.warnings.forEach(emit)
            // What the stage read, as it reports it (`Depfile`): its key from now on.
            if let depfile = stage.depfile {
                switch readDepfile(depfile, of: stage) {
                case .success(let entries): reads = entries
                case .failure(let problem): problems.append(problem.text)
                }
            }
        }
    }

    /// The problem of a stage whose process did not exit 0, with what to do.
    static func unsuccessful(_ end: ProcessEnd, stage: Stage) -> String {
        let fix: String
        switch end {
        case .exited: fix = "Fix what it reported above, then run again"
        case .signalled: fix = "Run it again; if it keeps dying, run its cmd by hand to see why"
        case .couldNotStart: fix = "Check cmd of stage '\(stage.template)' in \(Workspace.specPath)"
        }
        return "error: the stage \(end); outputs were not published. \(fix)."
    }

    /// A problem that stops a stage's outputs from being published, as its line in the run's output.
    struct StageProblem: Error {
        var text: String
    }

    /// Makes the stage's staging folders and finds its program.
    private func prepare(_ stage: Stage) -> Result<URL, StageProblem> {
        let folders = [stage.stagingFolder] + stage.outs.map { RepositoryPath.parent(of: Stage.stagingPath(of: $0, stage: stage.name)) }
        for folder in folders {
            let (code, _) = AtomicFile.makeFolders(root.appendingPathComponent(folder).path)
            if code != 0 {
                return .failure(StageProblem(text: FileFault(path: folder, action: "create the staging folder", code: code).description))
            }
        }
        guard let executable = StageProcess.resolve(stage.argv[0], root: root, siblingFolder: runnerFolder, path: environment["PATH"])
        else {
            return .failure(
                StageProblem(
                    text: "error: cannot find program '\(stage.argv[0])' next to sportstime"
                        + (runnerFolder.map { " (\($0.path))" } ?? "") + " or on PATH. "
                        + "Build it (make build) or fix cmd in \(Workspace.specPath)."))
        }
        return .success(executable)
    }

    /// What checking a finished stage's staged outputs found.
    struct OutputCheck {
        var problems: [String] = []
        /// The staged version of each out that exists.
        var staged: [String: PathDigest] = [:]
        var recordsOut: Int?
        var rejected: Int?
        var filtered: Int?
        /// Lines for the stage's output (files written beside its outs).
        var warnings: [String] = []
    }

    /// Checks the staged outputs: every out written, every file valid (on every core), records counted,
    /// files beside the outs named; and hashes each out for the publish.
    private func checkOutputs(of stage: Stage, schemas: SchemaStore, hasher: ContentHasher) -> OutputCheck {
        var result = OutputCheck()
        let validator = ArtifactValidator(stage: stage.name) { try schemas.schema(for: $0) }
        var outCount = 0, rejectCount = 0, filteredCount = 0, sawRecords = false, sawFiltered = false
        var items: [ParallelValidation.Item] = []
        var written: [(out: String, stagedPath: String)] = []
        for out in stage.outs {
            let stagedPath = root.appendingPathComponent(Stage.stagingPath(of: out, stage: stage.name)).path
            guard FileStatus(path: stagedPath) != nil else {
                result.problems.append(
                    "error: the stage did not write \(out) (expected at \(Stage.stagingPath(of: out, stage: stage.name))). "
                        + "Make cmd write it through ${outs.N} in \(Workspace.specPath).")
                continue
            }
            // Nothing in staging is read through a link: an output is files and folders.
            if let link = Self.firstLink(at: stagedPath) {
                result.problems.append(
                    "error: the stage wrote a symbolic link at \(Stage.stagingPath(of: out, stage: stage.name))\(link); "
                        + "outputs were not published. Make it write files and folders, not links.")
                continue
            }
            let check = stage.check(of: out)
            var ownSchema: SchemaValidator?
            if case .schema(let path) = check {
                do { ownSchema = try schemas.schema(at: path) } catch {
                    result.problems.append(
                        Diagnostic(
                            .error, at: SourceLocation(path: path), "the schema of out '\(out)' cannot be used: \(error)",
                            fix: "Fix the schema, or the schema path in \(Workspace.specPath)"
                        ).description)
                    continue
                }
            }
            for (file, published) in Self.files(at: stagedPath, publishedAs: out) where check != .unchecked {
                var own: (validator: SchemaValidator, path: String)?
                if case .schema(let path) = check, let ownSchema { own = (ownSchema, path) }
                items.append(ParallelValidation.Item(file: file, published: published, ownSchema: own))
            }
            written.append((out, stagedPath))
        }
        var known: [String: (hash: String, count: Int?)] = [:]
        for (item, found) in zip(items, ParallelValidation.validate(items, with: validator, cache: schemas.validated)) {
            guard let found else { continue }
            known[item.file] = (found.hash, found.count)
            let checked = found.validated
            result.problems.append(contentsOf: checked.problems.map(\.description))
            // Records are counted in envelopes and JSON Lines files an out checks as such.
            guard item.ownSchema == nil, let records = checked.records else { continue }
            if checked.isRejects {
                rejectCount += records
            } else if checked.isFiltered {
                filteredCount += records; sawFiltered = true
            } else {
                outCount += records; sawRecords = true
            }
        }
        for (out, stagedPath) in written {
            result.staged[out] = hasher.digest(absolute: stagedPath, countingAs: out, known: known)
        }
        // Files the stage wrote beside its outs are not published: say so rather than lose them quietly.
        let stagingRoot = root.appendingPathComponent(stage.stagingFolder).path
        let strays = Self.files(at: stagingRoot, publishedAs: "").map { String($0.1.dropFirst()) }
            .filter { file in !stage.outs.contains { RepositoryPath.contains($0, file) } }
        for stray in strays.prefix(10) {
            result.warnings.append(
                "warning: wrote \(stray), which is not in its outs; it was not published. "
                    + "List it under outs in \(Workspace.specPath), or stop writing it.")
        }
        if sawRecords || rejectCount > 0 {
            result.recordsOut = outCount
            result.rejected = rejectCount
        }
        if sawFiltered { result.filtered = filteredCount }
        return result
    }

    /// The paths a stage says it read (its depfile), each inside one of its deps.
    private func readDepfile(_ depfile: String, of stage: Stage) -> Result<[String], StageProblem> {
        let data: Data
        switch RunnerFile.read(PathText.join(root.path, depfile)) {
        case .success(let bytes): data = bytes
        case .failure(.missing):
            return .failure(
                StageProblem(
                    text: "error: the stage did not write its depfile \(depfile), though its cmd passes ${depfile}; "
                        + "outputs were not published. Make it write the paths it read there, or take ${depfile} "
                        + "out of its cmd in \(Workspace.specPath)."))
        case .failure(let failure):
            let problem = RunnerFile.problem(failure, path: depfile, what: "the depfile", fix: "Make the stage write its depfile as a file")
            return .failure(StageProblem(text: (problem?.description ?? depfile) + " Outputs were not published."))
        }
        switch Depfile.parse(String(decoding: data, as: UTF8.self), deps: stage.deps) {
        case .success(let entries): return .success(entries)
        case .failure(let problem):
            return .failure(
                StageProblem(text: "error: its depfile \(depfile), \(problem.message); outputs were not published. \(problem.fix)."))
        }
    }

    /// The first symbolic link at `path` or under it (`""` for `path` itself, else `/` and the path below).
    static func firstLink(at path: String) -> String? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        if info.st_mode & S_IFMT == S_IFLNK { return "" }
        guard info.st_mode & S_IFMT == S_IFDIR, let below = FileManager.default.enumerator(atPath: path) else { return nil }
        for case let name as String in below where lstat(path + "/" + name, &info) == 0 && info.st_mode & S_IFMT == S_IFLNK {
            return "/" + name
        }
        return nil
    }

    /// Regular files at `path` (itself, or under it) with the path each will have once published.
    static func files(at path: String, publishedAs published: String) -> [(String, String)] {
        guard let status = FileStatus(path: path) else { return [] }
        if !status.isFolder { return [(path, published)] }
        var result: [(String, String)] = []
        func walk(_ folder: String, _ shown: String) {
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
            for name in names.sorted() where !name.hasPrefix(".") {
                guard let child = FileStatus(path: folder + "/" + name) else { continue }
                if child.isFolder {
                    walk(folder + "/" + name, shown + "/" + name)
                } else if child.isFile {
                    result.append((folder + "/" + name, shown + "/" + name))
                }
            }
        }
        walk(path, published)
        return result
    }

    /// Moves changed outputs into place and records the stage in the lock; outs the stage no longer
    /// lists (and no stage writes) are removed. Returns the outs that changed.
    func publish(
        _ result: StageResult, lock: inout PipelineLock, publisher: Publisher,
        hasher: ContentHasher, allOuts: [String]
    ) throws -> [String] {
        let stage = result.work.stage
        var moves: [Publisher.Move] = []
        var published: [String: String] = [:]
        for out in stage.outs {
            let stagedHash = result.staged[out]?.hash ?? ContentHash.missing
            published[out] = stagedHash
            if hasher.digest(out).hash != stagedHash {
                moves.append(
                    Publisher.Move(
                        staged: Stage.stagingPath(of: out, stage: stage.name), target: out,
                        backup: Publisher.backupPath(of: out, label: stage.name)))
            }
        }
        for old in (lock.stages[stage.name]?.outs.keys.sorted() ?? []) where !stage.outs.contains(old) {
            guard !allOuts.contains(where: { RepositoryPath.overlaps($0, old) }),
                FileStatus(path: root.appendingPathComponent(old).path) != nil
            else { continue }
            moves.append(Publisher.Move(staged: nil, target: old, backup: Publisher.backupPath(of: old, label: stage.name)))
        }
        var next = lock
        // A stage that reported what it read is recorded with the hashes of those reads.
        let fingerprint =
            result.reads == nil
            ? result.work.fingerprint
            : PipelineStatus.fingerprint(of: stage, hasher: hasher, recorded: nil, reads: result.reads)
        next.stages[stage.name] = fingerprint.lockEntry(outs: published)
        try whilePublishing { try publisher.publish(label: stage.name, moves: moves, lock: next.encoded()) }
        lock = next
        for move in moves { hasher.invalidate(move.target) }
        return moves.map(\.target)
    }

    func removeOrphans(
        graph: PipelineGraph, lock: inout PipelineLock, publisher: Publisher, hasher: ContentHasher,
        width: Int, reports: RunReportWriter
    ) throws {
        let names = Set(graph.stages.map(\.name))
        let currentOuts = graph.stages.flatMap(\.outs)
        for name in lock.stages.keys.sorted() where !names.contains(name) {
            let entry = lock.stages[name]!
            let removable = entry.outs.keys.sorted().filter { out in
                !currentOuts.contains { RepositoryPath.overlaps($0, out) } && FileStatus(path: root.appendingPathComponent(out).path) != nil
            }
            var next = lock
            next.stages[name] = nil
            let moves = removable.map { Publisher.Move(staged: nil, target: $0, backup: Publisher.backupPath(of: $0, label: name)) }
            try whilePublishing { try publisher.publish(label: "remove \(name)", moves: moves, lock: next.encoded()) }
            lock = next
            for out in removable { hasher.invalidate(out) }
            let outcome = StageOutcome(
                stage: name, status: .removed,
                reason: "no longer in \(Workspace.specPath)" + (removable.isEmpty ? "" : "; removed \(removable.joined(separator: ", "))"),
                outputsChanged: removable)
            console.out("[-] " + name.padded(to: width) + "  removed (\(outcome.reason))")
            reports.record(outcome)
        }
    }
}

/// A publish refused because the run was interrupted (exit 130, nothing printed).
struct RunInterrupted: Error, CustomStringConvertible {
    var description: String { "interrupted before its outputs were published" }
}

/// Results of stages running on other threads, handed to the scheduling thread one at a time.
final class CompletionQueue: @unchecked Sendable {
    private let condition = NSCondition()
    private var results: [PipelineRunner.StageResult] = []

    func add(_ result: PipelineRunner.StageResult) {
        condition.lock()
        results.append(result)
        condition.signal()
        condition.unlock()
    }

    func next() -> PipelineRunner.StageResult {
        condition.lock()
        defer { condition.unlock() }
        while results.isEmpty { condition.wait() }
        return results.removeFirst()
    }
}

/// A stage's output lines.
final class LineBuffer: Sendable {
    private let stored = Locked<[String]>([])
    func append(_ line: String) { stored.withLock { $0.append(line) } }
    var lines: [String] { stored.current }
}

/// Loads `pipeline/schemas/<kind>.schema.json` once per kind.
final class SchemaStore: Sendable {
    private let root: URL
    /// Loaded schemas: the built-in ones by kind, a stage's own by repository path.
    private let loaded = Locked((byKind: [ArtifactKind: SchemaValidator](), byPath: [String: SchemaValidator]()))

    /// What earlier runs validated cleanly (`ValidationCache`), under this repository's schemas.
    let validated: ValidationCache

    init(root: URL) {
        self.root = root
        validated = ValidationCache(root: root, context: ValidationCache.context(root: root))
    }

    /// A stage's own schema (`schema:` of an out), by repository path.
    func schema(at path: String) throws -> SchemaValidator {
        try loaded.withLock { loaded in
            if let known = loaded.byPath[path] { return known }
            guard let data = FileManager.default.contents(atPath: root.appendingPathComponent(path).path) else {
                throw FileFault(path: path, action: "read", code: ENOENT)
            }
            let validator = try SchemaValidator(schema: data)
            loaded.byPath[path] = validator
            return validator
        }
    }

    func schema(for kind: ArtifactKind) throws -> SchemaValidator? {
        try loaded.withLock { loaded in
            if let known = loaded.byKind[kind] { return known }
            let path = "pipeline/schemas/\(kind.rawValue).schema.json"
            guard let data = FileManager.default.contents(atPath: root.appendingPathComponent(path).path) else { return nil }
            let validator = try SchemaValidator(schema: data)
            loaded.byKind[kind] = validator
            return validator
        }
    }
}
