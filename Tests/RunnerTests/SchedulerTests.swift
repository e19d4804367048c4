import Testing

@testable import SportsTimeRunner

/// The scheduler driven the way `RunSession` drives it, with made-up stages: no processes, no files.
@Suite struct SchedulerTests {
    /// A made-up run: which stages need to run, whose outputs come out unchanged, which fail, and in
    /// which order running stages end. It plays the runner's part and logs what happened.
    struct FakeRun {
        var scheduler: Scheduler
        /// Stages whose own key changed before the run.
        var stale: Set<String> = []
        /// Stages that, when they run, write exactly what was published before.
        var unchanged: Set<String> = []
        /// Stages whose process fails.
        var failing: Set<String> = []
        /// Stages with a file no stage wrote in the way of an out.
        var blocked: Set<String> = []
        /// Ends the oldest running stage first, or (false) the newest.
        var endOldestFirst = true
        var interrupted = false
        private(set) var log: [String] = []
        /// The most stages running at once.
        private(set) var mostRunning = 0
        private var changedOutputs: Set<Int> = []
        private var runningOrder: [Int] = []

        init(_ stages: [(name: String, upstream: [String])], selected: [String]? = nil, jobs: Int = 1, keepGoing: Bool = false) {
            let names = stages.map(\.name)
            let upstream = stages.map { $0.upstream.map { names.firstIndex(of: $0)! } }
            let chosen = selected ?? names
            scheduler = Scheduler(
                order: names.indices.filter { chosen.contains(names[$0]) }, upstream: upstream, names: names, jobs: jobs,
                keepGoing: keepGoing)
        }

        private func name(_ index: Int) -> String { scheduler.names[index] }

        /// Acts on everything the scheduler lets move, as `RunSession.schedule` does.
        mutating func schedule() {
            while let decision = scheduler.next(interrupted: interrupted) {
                switch decision {
                case .notRun(let index, let reason): log.append("\(name(index)): not run (\(reason))")
                case .consider(let index): consider(index)
                }
            }
        }

        private mutating func consider(_ index: Int) {
            let upstreamChanged = scheduler.upstream[index].contains { changedOutputs.contains($0) }
            guard stale.contains(name(index)) || upstreamChanged else {
                scheduler.finish(index, .skipped)
                log.append("\(name(index)): skipped (\(scheduler.skipReason(of: index, keyedByReads: false)))")
                return
            }
            if blocked.contains(name(index)) {
                scheduler.finish(index, .failed)
                log.append("\(name(index)): failed (in the way)")
                return
            }
            scheduler.start(index)
            runningOrder.append(index)
            mostRunning = max(mostRunning, scheduler.running.count)
            log.append("\(name(index)): started")
        }

        /// Ends one running stage (publishing it), as `RunSession.ended` does; false when none runs.
        @discardableResult
        mutating func endOne() -> Bool {
            guard !runningOrder.isEmpty else { return false }
            let index = endOldestFirst ? runningOrder.removeFirst() : runningOrder.removeLast()
            scheduler.endRunning(index)
            if scheduler.jobs > 1 && !failing.contains(name(index)) { schedule() }
            if failing.contains(name(index)) {
                scheduler.finish(index, .failed)
                log.append("\(name(index)): failed")
            } else {
                scheduler.finish(index, .ran)
                if !unchanged.contains(name(index)) { changedOutputs.insert(index) }
                log.append("\(name(index)): ran")
            }
            schedule()
            return true
        }

        /// The whole run: schedule, end stages until none runs, then the stages never reached.
        mutating func run() -> [String] {
            schedule()
            while endOne() {}
            for (index, reason) in scheduler.finishUnreached(interrupted: interrupted) {
                log.append("\(name(index)): not run (\(reason))")
            }
            return log
        }
    }

    /// a → b → c, and d on its own.
    static let chainAndLone: [(name: String, upstream: [String])] = [
        ("a", []), ("b", ["a"]), ("c", ["b"]), ("d", []),
    ]

    /// The log of a run of `chainAndLone` where every stage is stale unless `stale` says otherwise.
    static func chainLog(
        jobs: Int = 1, keepGoing: Bool = false, stale: Set<String> = ["a", "b", "c", "d"], unchanged: Set<String> = [],
        failing: Set<String> = [], blocked: Set<String> = []
    ) -> [String] {
        var run = FakeRun(chainAndLone, jobs: jobs, keepGoing: keepGoing)
        run.stale = stale
        run.unchanged = unchanged
        run.failing = failing
        run.blocked = blocked
        return run.run()
    }

    @Test func oneJobRunsStagesOneAfterAnotherInGraphOrder() {
        #expect(
            Self.chainLog() == [
                "a: started", "a: ran", "b: started", "b: ran", "c: started", "c: ran", "d: started", "d: ran",
            ])
    }

    @Test func twoJobsStartAnIndependentStageBesideTheFirst() {
        #expect(
            Self.chainLog(jobs: 2) == [
                "a: started", "d: started", "a: ran", "b: started", "d: ran", "b: ran", "c: started", "c: ran",
            ])
    }

    @Test func noMoreStagesRunThanJobs() {
        let wide: [(name: String, upstream: [String])] = (1...6).map { ("w\($0)", []) } + [("join", (1...6).map { "w\($0)" })]
        for jobs in 1...4 {
            var run = FakeRun(wide, jobs: jobs)
            run.stale = Set(wide.map(\.name))
            run.endOldestFirst = jobs.isMultiple(of: 2)
            let log = run.run()
            #expect(run.mostRunning == jobs)
            #expect(log.filter { $0.hasSuffix(": ran") }.count == 7)
            // The join waits for every instance.
            #expect(log.firstIndex(of: "join: started")! > log.lastIndex { $0.hasPrefix("w") && $0.hasSuffix(": ran") }!)
        }
    }

    /// A signal that lands after a stage's process ended but before its publish: the stage is not run
    /// (nothing published), and so is everything after it.
    @Test func aStageInterruptedBeforeItsPublishIsNotRun() {
        var scheduler = Scheduler(order: [0, 1], upstream: [[], [0]], names: ["a", "b"], jobs: 1, keepGoing: false)
        #expect(scheduler.next(interrupted: false) == .consider(0))
        scheduler.start(0)
        scheduler.endRunning(0)
        scheduler.finish(0, .notRun)
        #expect(scheduler.state(of: 0) == .done(.notRun))
        #expect(scheduler.next(interrupted: true) == .notRun(1, reason: "upstream a did not run"))
        #expect(scheduler.next(interrupted: true) == nil)
        #expect(!scheduler.hasFailure)
    }

    @Test func aStageThatEndsFreesItsSlotBeforeItIsPublishedButNotItsDependants() {
        var scheduler = Scheduler(order: [0, 1, 2], upstream: [[], [0], []], names: ["a", "b", "c"], jobs: 1, keepGoing: false)
        #expect(scheduler.next(interrupted: false) == .consider(0))
        scheduler.start(0)
        #expect(scheduler.next(interrupted: false) == nil)
        scheduler.endRunning(0)
        // a is being published: c may take the free slot, b waits for a's outcome.
        #expect(scheduler.next(interrupted: false) == .consider(2))
        scheduler.start(2)
        #expect(scheduler.next(interrupted: false) == nil)
        scheduler.finish(0, .ran)
        #expect(scheduler.next(interrupted: false) == nil, "c holds the only slot")
        scheduler.endRunning(2)
        #expect(scheduler.next(interrupted: false) == .consider(1))
        #expect(scheduler.state(of: 0) == .done(.ran))
        #expect(scheduler.state(of: 2) == .publishing)
    }

    @Test func anUnchangedOutputSkipsTheStagesDownstream() {
        #expect(
            Self.chainLog(stale: ["a"], unchanged: ["a"]) == [
                "a: started", "a: ran", "b: skipped (early cutoff: outputs of a unchanged)", "c: skipped (up to date)",
                "d: skipped (up to date)",
            ])
    }

    @Test func aChangedOutputRunsTheStagesDownstream() {
        #expect(
            Self.chainLog(stale: ["a"], unchanged: ["b"]) == [
                "a: started", "a: ran", "b: started", "b: ran", "c: skipped (early cutoff: outputs of b unchanged)",
                "d: skipped (up to date)",
            ])
    }

    @Test func anEarlyCutoffNamesEveryUpstreamStageThatRan() {
        var scheduler = Scheduler(order: [0, 1, 2], upstream: [[], [], [0, 1]], names: ["x", "y", "z"], jobs: 2, keepGoing: false)
        for index in [0, 1] {
            #expect(scheduler.next(interrupted: false) == .consider(index))
            scheduler.start(index)
            scheduler.endRunning(index)
            scheduler.finish(index, .ran)
        }
        #expect(scheduler.next(interrupted: false) == .consider(2))
        #expect(scheduler.skipReason(of: 2, keyedByReads: false) == "early cutoff: outputs of x, y unchanged")
        #expect(scheduler.skipReason(of: 2, keyedByReads: true) == "early cutoff: what it read of the outputs of x, y is unchanged")
    }

    @Test func aFailureStopsItsDependantsAndEverythingNotStarted() {
        #expect(
            Self.chainLog(failing: ["a"]) == [
                "a: started", "a: failed", "b: not run (upstream a failed)", "c: not run (upstream b did not run)",
                "d: not run (stopped after a failure; --keep-going runs it anyway)",
            ])
    }

    @Test func keepGoingRunsWhatDoesNotDependOnAFailure() {
        #expect(
            Self.chainLog(keepGoing: true, failing: ["a"]) == [
                "a: started", "a: failed", "b: not run (upstream a failed)", "c: not run (upstream b did not run)",
                "d: started", "d: ran",
            ])
    }

    @Test func aStageRunningWhenAnotherFailsStillFinishes() {
        #expect(
            Self.chainLog(jobs: 2, failing: ["a"]) == [
                "a: started", "d: started", "a: failed", "b: not run (upstream a failed)",
                "c: not run (upstream b did not run)", "d: ran",
            ])
    }

    @Test func anOutInTheWayFailsTheStageBeforeItStarts() {
        #expect(
            Self.chainLog(blocked: ["b"]) == [
                "a: started", "a: ran", "b: failed (in the way)", "c: not run (upstream b failed)",
                "d: not run (stopped after a failure; --keep-going runs it anyway)",
            ])
    }

    @Test func anInterruptedRunStartsNothingMore() {
        var run = FakeRun(Self.chainAndLone, jobs: 1)
        run.stale = ["a", "b", "c", "d"]
        run.schedule()
        run.interrupted = true
        run.endOne()
        #expect(
            run.run() == [
                "a: started", "a: ran", "b: not run (interrupted)", "c: not run (interrupted)", "d: not run (interrupted)",
            ])
    }

    @Test func anUnselectedUpstreamStageCountsAsDone() {
        var run = FakeRun(Self.chainAndLone, selected: ["b", "c"], jobs: 1)
        run.stale = ["b"]
        #expect(run.run() == ["b: started", "b: ran", "c: started", "c: ran"])
        #expect(run.scheduler.state(of: 0) == nil)
    }

    @Test func aSweepContinuesPastTheStageItActedOn() {
        // Stages are listed with a dependant before its upstream stage: the sweep goes on to the end,
        // then sweeps again, as the runner always did.
        var scheduler = Scheduler(
            order: [0, 1, 2], upstream: [[1], [], []], names: ["late", "early", "other"], jobs: 3, keepGoing: false)
        #expect(scheduler.next(interrupted: false) == .consider(1))
        scheduler.finish(1, .skipped)
        #expect(scheduler.next(interrupted: false) == .consider(2))
        scheduler.finish(2, .skipped)
        #expect(scheduler.next(interrupted: false) == .consider(0))
        scheduler.finish(0, .skipped)
        #expect(scheduler.next(interrupted: false) == nil)
    }
}
