/// Which stage of a run may start when: the state machine behind `sportstime run`. It holds no
/// processes, files or clocks, so tests drive it with made-up completions.
///
/// Every selected stage moves one way through these states:
///
///     waiting ──consider──▶ deciding ──start──▶ running ──endRunning──▶ publishing ──finish──▶ done
///        │                     └──────────────── finish (skipped, failed) ─────────────────▶ done
///        └── an upstream stage failed or did not run ──────────────────────────────────────▶ done (not run)
///
/// `next` sweeps the stages in graph order and stops at the first it can act on: a stage with an
/// upstream stage that failed or did not run is done as not run; a stage whose selected upstream stages
/// all ran or were skipped is handed over to be considered, while a job slot is free, the run is not
/// interrupted and no stage failed (or `keepGoing`). After the end of a sweep that acted on some stage
/// it sweeps again from the start; a sweep that acts on none ends the round (`next` returns nil).
///
/// The runner decides what a considered stage does — it is up to date (`finish(_, .skipped)`), an out is
/// in the way (`finish(_, .failed)`), or it starts (`start`) — because that takes content hashes. A
/// running stage keeps its job slot until `endRunning`; it is done with `finish`, once published.
struct Scheduler {
    enum State: Hashable {
        case waiting
        case deciding
        case running
        case publishing
        case done(StageOutcome.Status)
    }

    enum Decision: Hashable {
        /// Every selected upstream stage ran or was skipped and a job slot is free: the runner skips,
        /// fails or starts the stage.
        case consider(Int)
        /// An upstream stage failed or did not run: the stage is done, as not run, for `reason`.
        case notRun(Int, reason: String)
    }

    /// The selected stages, in graph order.
    let order: [Int]
    /// Upstream stage indices of every stage of the graph (selected or not).
    let upstream: [[Int]]
    /// Every stage's name, by index.
    let names: [String]
    let jobs: Int
    let keepGoing: Bool

    private(set) var states: [Int: State] = [:]
    /// Stages holding a job slot.
    private(set) var running: Set<Int> = []
    /// Stages that failed (before they started, while running or while publishing).
    private(set) var failed: Set<Int> = []
    /// Stages that ran and were published in this run.
    private(set) var ran: Set<Int> = []
    private let selected: Set<Int>
    private var cursor = 0
    private var sweepActed = false

    init(order: [Int], upstream: [[Int]], names: [String], jobs: Int, keepGoing: Bool) {
        self.order = order
        self.upstream = upstream
        self.names = names
        self.jobs = max(1, jobs)
        self.keepGoing = keepGoing
        selected = Set(order)
        for index in order { states[index] = .waiting }
    }

    init(graph: PipelineGraph, order: [Int], options: RunOptions) {
        self.init(
            order: order, upstream: graph.upstream, names: graph.stages.map(\.name), jobs: options.jobs,
            keepGoing: options.keepGoing)
    }

    func state(of index: Int) -> State? { states[index] }

    /// A stage failed: no new stage starts unless `keepGoing`.
    var hasFailure: Bool { !failed.isEmpty }

    /// The next stage to act on, or nil when no selected stage can move until a running one ends.
    mutating func next(interrupted: Bool) -> Decision? {
        precondition(!states.values.contains(.deciding), "a considered stage must be skipped, failed or started first")
        while true {
            if cursor == order.count {
                cursor = 0
                guard sweepActed else { return nil }
                sweepActed = false
            }
            let index = order[cursor]
            cursor += 1
            guard states[index] == .waiting else { continue }
            if let problem = upstreamProblem(index) {
                states[index] = .done(.notRun)
                sweepActed = true
                return .notRun(index, reason: problem)
            }
            guard isReady(index), running.count < jobs, !interrupted, keepGoing || !hasFailure else { continue }
            states[index] = .deciding
            sweepActed = true
            return .consider(index)
        }
    }

    /// A considered stage starts: it holds a job slot until `endRunning`.
    mutating func start(_ index: Int) {
        precondition(states[index] == .deciding, "only a considered stage starts")
        states[index] = .running
        running.insert(index)
    }

    /// A running stage's process ended: its job slot is free while it is checked and published; its
    /// downstream stages wait for `finish`.
    mutating func endRunning(_ index: Int) {
        precondition(states[index] == .running, "only a running stage ends")
        states[index] = .publishing
        running.remove(index)
    }

    /// A stage is done: skipped or failed when considered; ran or failed once it ended, or not run when an
    /// interrupt came before its publish.
    mutating func finish(_ index: Int, _ status: StageOutcome.Status) {
        precondition(
            states[index] == .deciding || (states[index] == .publishing && [.ran, .failed, .notRun].contains(status)),
            "a stage is finished once, after it was considered or ended")
        states[index] = .done(status)
        if status == .failed { failed.insert(index) }
        if status == .ran { ran.insert(index) }
    }

    /// Selected stages never acted on, each with why: the run was interrupted, a failure stopped it, or
    /// (neither) it was not reached. They are done as not run.
    mutating func finishUnreached(interrupted: Bool) -> [(index: Int, reason: String)] {
        let why = interrupted ? "interrupted" : (hasFailure ? "stopped after a failure; --keep-going runs it anyway" : "not reached")
        let left = order.filter { states[$0] == .waiting }
        for index in left { states[index] = .done(.notRun) }
        return left.map { ($0, why) }
    }

    /// Why a considered stage with nothing changed is skipped: up to date, or an early cutoff when
    /// upstream stages ran in this run with outputs that left its key as it was.
    func skipReason(of index: Int, keyedByReads: Bool) -> String {
        let ranUpstream = upstream[index].filter { ran.contains($0) }.map { names[$0] }
        guard !ranUpstream.isEmpty else { return "up to date" }
        let list = ranUpstream.joined(separator: ", ")
        return keyedByReads
            ? "early cutoff: what it read of the outputs of \(list) is unchanged"
            : "early cutoff: outputs of \(list) unchanged"
    }

    private func upstreamProblem(_ index: Int) -> String? {
        for up in upstream[index] where selected.contains(up) {
            if case .done(let status) = states[up], status == .failed || status == .notRun {
                return "upstream \(names[up]) \(status == .failed ? "failed" : "did not run")"
            }
        }
        return nil
    }

    private func isReady(_ index: Int) -> Bool {
        upstream[index].allSatisfy { up in
            !selected.contains(up) || states[up] == .done(.ran) || states[up] == .done(.skipped)
        }
    }
}
