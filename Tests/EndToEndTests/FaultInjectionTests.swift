import Foundation
import SportsTimeTestSupport
import Testing
#if canImport(Glibc)
    import Glibc
#endif

/// Faults injected into real runs: the built `sportstime` runner and the five stage executables on a
/// slice of the committed fixtures (three sources, two requests; ingest fan-out → normalize → merge →
/// plan fan-out → render). Each iteration starts from a finished run on inputs A, edits the inputs to
/// B, and breaks the run to B at a random moment: `kill -9` of the runner, of the runner and its stage
/// together (a power cut), or of the stage alone, SIGINT or SIGTERM to the runner, or a second runner
/// started beside it. Other tests fill the disk at a random point or make `out/` or the lock's folder
/// read-only.
///
/// After each fault, every stage's outputs are exactly as before (from A) or exactly as after (from B),
/// never in between — the stage a killed runner was publishing included — and its lock entry matches,
/// with one exception: the stage named in `.pipeline/journal.json` may have its new outputs while the
/// lock still has its old entry (the lock is written after the outputs), and the journal then holds
/// the new entry, which the next runner writes. Then the next run finishes, and `out/` and the lock are
/// byte-identical to an uninterrupted run.
///
/// `SPORTSTIME_FAULT_ITERATIONS` (default 10) and `SPORTSTIME_FAULT_SEED` (default: random; every
/// failure message prints the seed) bound and reproduce the random part.
@Suite(.serialized) struct FaultInjectionTests {
    @Test("kill -9, SIGINT, SIGTERM and a second runner at random moments of a real run")
    func randomFaultsOfARealRun() throws {
        let lab = try FaultLab.shared()
        let iterations = Int(ProcessInfo.processInfo.environment["SPORTSTIME_FAULT_ITERATIONS"] ?? "") ?? 10
        let seed = UInt64(ProcessInfo.processInfo.environment["SPORTSTIME_FAULT_SEED"] ?? "") ?? UInt64.random(in: 1...UInt64(UInt32.max))
        var random = SplitMix64(seed: seed)
        var seen: [FaultLab.Fault: Int] = [:], stopped: [FaultLab.Fault: Int] = [:], halfPublished = 0
        for iteration in 0..<iterations {
            let fault = FaultLab.Fault.allCases[Int(random.next() % UInt64(FaultLab.Fault.allCases.count))]
            let fraction = Double(random.next() % 1000) / 1000
            let jobs = 1 + Int(random.next() % 2)
            // Every other iteration makes each publish slow (40 ms after each rename, so the run takes
            // about twice as long), so that kills land inside publishes too.
            let slowPublish = random.next() % 2 == 0
            let delay = fraction * lab.secondsForB * 1.1 * (slowPublish ? 2 : 1)
            let label =
                "seed \(seed) iteration \(iteration): \(fault) after \(String(format: "%.2f", delay)) s, --jobs \(jobs)"
                + (slowPublish ? ", slow publish" : "")
            seen[fault, default: 0] += 1
            let repo = try lab.copyOfA()
            defer { try? FileManager.default.removeItem(at: repo) }
            try FaultLab.editToB(repo)
            if try lab.inject(fault, after: delay, jobs: jobs, slowPublish: slowPublish, in: repo, label: label) {
                stopped[fault, default: 0] += 1
            }
            if PipelineState.journalStage(repo) != nil { halfPublished += 1 }
            try lab.checkBeforeOrAfter(repo, label: label)
            try lab.checkNextRunFinishes(repo, label: label)
        }
        print(
            "fault injection: seed \(seed), \(iterations) iterations: "
                + seen.sorted { $0.key.rawValue < $1.key.rawValue }
                .map { "\($0.key) ×\($0.value) (\(stopped[$0.key] ?? 0) hit a run still working)" }.joined(separator: ", ")
                + "; \(halfPublished) left a half-done publish for the next run to complete")
    }

    @Test("a full disk at a random point of the run", .enabled(if: FaultLab.canMount, "needs root to mount a small tmpfs"))
    func aFullDiskAtRandomPoints() throws {
        let lab = try FaultLab.shared()
        let iterations = max(2, (Int(ProcessInfo.processInfo.environment["SPORTSTIME_FAULT_ITERATIONS"] ?? "") ?? 10) / 2)
        let seed = UInt64(ProcessInfo.processInfo.environment["SPORTSTIME_FAULT_SEED"] ?? "") ?? UInt64.random(in: 1...UInt64(UInt32.max))
        var random = SplitMix64(seed: seed)
        var failed = 0
        var stoppedAt: [String] = []
        for iteration in 0..<iterations {
            let disk = try FaultLab.Mount.tmpfs(megabytes: 256)
            defer { disk.unmount() }
            let repo = disk.folder.appendingPathComponent("repo")
            try FaultLab.copy(lab.stateA, to: repo)
            try FaultLab.editToB(repo)
            // Room for only part of what the run writes: somewhere between nothing and all of out/.
            let room = 4096 + Int(random.next() % UInt64(lab.bytesOfBOut))
            let used = try disk.usedBytes()
            try disk.resize(bytes: used + room)
            let label = "seed \(seed) iteration \(iteration): \(room / 1024) KB free"
            let (code, stderr) = try lab.runToEnd(in: repo)
            #expect(code == 0 || code == 1, "\(label): exit \(code)\n\(stderr)")
            if code == 1 {
                failed += 1
                let first = stderr.split(separator: "\n").first { $0.contains(": error: ") }.map(String.init) ?? "?"
                stoppedAt.append(
                    first.trimmingCharacters(in: .whitespaces).components(separatedBy: ": error: ")[0]
                        .components(separatedBy: " | ").last ?? "?")
                #expect(stderr.contains("No space left on device"), "\(label): the failure does not say the disk is full\n\(stderr)")
            }
            FaultLab.expectNoCrash(stderr, label: label)
            try lab.checkBeforeOrAfter(repo, label: label, killed: false)
            try disk.resize(bytes: 256 << 20)
            try lab.checkNextRunFinishes(repo, label: label)
        }
        print(
            "full disk: seed \(seed), \(iterations) iterations, \(failed) runs stopped by the full disk, at: "
                + stoppedAt.joined(separator: "; "))
    }

    /// `out/` (or `pipeline/`, where the lock is) that the run may not write. Root ignores file modes,
    /// so as root the runner runs as `nobody` over a repository that `nobody` owns.
    @Test(
        "an out/ or lock folder that cannot be written fails the run cleanly",
        .enabled(if: FaultLab.canWriteProtect, "as root, needs setpriv and a build that the user nobody can run"),
        arguments: ["out", "pipeline"])
    func aFolderThatCannotBeWritten(_ folder: String) throws {
        let lab = try FaultLab.shared()
        let root = try lab.copyOfA()
        defer { try? FileManager.default.removeItem(at: root) }
        try FaultLab.editToB(root)
        let asNobody = geteuid() == 0
        if asNobody { try FaultLab.Mount.sh("chown -R 65534:65534 '\(root.path)'") }
        try FaultLab.Mount.sh("find '\(root.appendingPathComponent(folder).path)' -type d -exec chmod a-w {} +")
        let (code, stderr) = try FaultLab.run(["run"], in: root, bin: lab.bin, asNobody: asNobody)
        try FaultLab.Mount.sh("chmod -R u+w '\(root.appendingPathComponent(folder).path)'")
        let label = "\(folder)/ not writable"
        #expect(code == 1, "\(label): exit \(code)\n\(stderr)")
        #expect(
            stderr.contains("Permission denied") && stderr.contains("Make \(folder)/ writable and re-run"),
            "\(label): the failure does not say why or what to do\n\(stderr)")
        FaultLab.expectNoCrash(stderr, label: label)
        try lab.checkBeforeOrAfter(root, label: label, killed: false)
        #expect(
            !FileManager.default.fileExists(atPath: root.appendingPathComponent(".pipeline/journal.json").path),
            "\(label): a failed publish left its journal behind instead of undoing its moves")
        try lab.checkNextRunFinishes(root, label: label)
    }

    @Test("a read-only file system changes nothing and says so", .enabled(if: FaultLab.canMount, "needs root for a read-only bind mount"))
    func aReadOnlyFileSystem() throws {
        let lab = try FaultLab.shared()
        let root = try lab.copyOfA()
        defer { try? FileManager.default.removeItem(at: root) }
        try FaultLab.editToB(root)
        let mount = try FaultLab.Mount.readOnly(root)
        let (code, stderr) = try lab.runToEnd(in: root)
        mount.unmount()
        #expect(code == 1, "exit \(code)\n\(stderr)")
        #expect(stderr.contains("Read-only file system") && !stderr.contains(root.path), "\(stderr)")
        FaultLab.expectNoCrash(stderr, label: "read-only file system")
        let now = try PipelineState(root)
        #expect(now.files == lab.before.files && now.lockText == lab.before.lockText, "out/ or the lock changed")
        try lab.checkNextRunFinishes(root, label: "read-only file system")
    }

    /// The real merge, paused by its test hook (it ignores SIGTERM until its next check, which the pause
    /// puts seconds away): SIGTERM or SIGINT to the runner ends the run within half a second with 130, and
    /// `kill -9` of the runner ends the orphaned merge (its parent-death signal) and frees the workspace
    /// lock within a second. Each time out/ and the lock are as before or after, and the next run finishes.
    @Test("a signal to the runner, or its death, ends a busy stage at once", arguments: ["SIGTERM", "SIGINT", "kill -9"])
    func aSignalEndsABusyStage(_ fault: String) throws {
        let lab = try FaultLab.shared()
        let repo = try lab.copyOfA()
        defer { try? FileManager.default.removeItem(at: repo) }
        try FaultLab.editToB(repo)
        let runner = try FaultLab.start(["run"], in: repo, bin: lab.bin, environment: ["SPORTSTIME_MERGE_PAUSE_MS": "5000"])
        try #require(runner.waitForStandardError(containing: "test pause before merging", timeout: 120), "\(runner.standardErrorSoFar)")
        let stages = FaultLab.children(of: runner.pid)
        let sent = Date()
        runner.signal(fault == "SIGTERM" ? SIGTERM : fault == "SIGINT" ? SIGINT : SIGKILL)
        runner.process.waitUntilExit()
        let runnerGone = Date().timeIntervalSince(sent)
        FaultLab.waitForWorkspace(repo, seconds: 30)
        let workspaceFree = Date().timeIntervalSince(sent)
        let label = "\(fault) during the merge"
        if fault == "kill -9" {
            #expect(runner.code == 128 + SIGKILL, "\(label): exit \(runner.code)")
            #expect(workspaceFree < 1, "\(label): the orphaned stage held the workspace lock \(workspaceFree) s")
        } else {
            #expect(runner.code == 130, "\(label): exit \(runner.code)\n\(runner.standardErrorSoFar)")
            #expect(runnerGone < 0.5, "\(label): the runner ended \(runnerGone) s after the signal")
        }
        #expect(!stages.isEmpty && stages.allSatisfy { !FaultLab.isAlive($0) }, "\(label): stages \(stages) still run")
        FaultLab.expectNoCrash(runner.standardErrorSoFar, label: label)
        try lab.checkBeforeOrAfter(repo, label: label)
        try lab.checkNextRunFinishes(repo, label: label)
    }

    /// Publishing renames, so out/ on another file system than .pipeline/ is refused, with the reason.
    @Test("out/ on another file system is refused with the reason", .enabled(if: FaultLab.canMount, "needs root for a bind mount"))
    func outOnAnotherFileSystem() throws {
        let lab = try FaultLab.shared()
        let root = try lab.copyOfA()
        defer { try? FileManager.default.removeItem(at: root) }
        try FaultLab.editToB(root)
        let mount = try FaultLab.Mount.bind(root.appendingPathComponent("out"))
        let (code, stderr) = try lab.runToEnd(in: root)
        #expect(code == 1, "exit \(code)\n\(stderr)")
        #expect(stderr.contains("Keep out/ and .pipeline/ on one file system"), "\(stderr)")
        try lab.checkBeforeOrAfter(root, label: "out/ on another file system", killed: false)
        mount.unmount()
        try lab.checkNextRunFinishes(root, label: "out/ on another file system")
    }
}

/// The slice of the repository, its two finished states, and the fault machinery.
final class FaultLab: @unchecked Sendable {
    static let sources = ["ufl-2025-sample", "wnba-2023-bbref", "nfl-nflverse-2021-2022"]
    static let requests = ["ufl-spring-2025.yaml", "wnba-2023-east-rest-days.yaml"]

    enum Fault: String, CaseIterable, CustomStringConvertible {
        case killRunner = "kill -9 runner"
        case powerCut = "kill -9 runner and stages"
        case killStage = "kill -9 stage"
        case interrupt = "SIGINT"
        case terminate = "SIGTERM"
        case secondRunner = "second runner"
        var description: String { rawValue }
    }

    /// A finished run on inputs A (a folder to copy from), and the state of a finished run on B.
    let stateA: URL
    let before: PipelineState
    let after: PipelineState
    let secondsForB: Double
    let bytesOfBOut: Int
    let bin: URL

    private static let lock = NSLock()
    nonisolated(unsafe) private static var made: FaultLab?

    static func shared() throws -> FaultLab {
        lock.lock()
        defer { lock.unlock() }
        if let made { return made }
        let lab = try FaultLab()
        made = lab
        return lab
    }

    private init() throws {
        bin = try #require(BadInputTests.binFolder, "build the executables first (swift build --build-tests)")
        // One lab per test process; a lab left by a finished process is removed.
        let temporary = FileManager.default.temporaryDirectory
        for name in (try? FileManager.default.contentsOfDirectory(atPath: temporary.path)) ?? [] where name.hasPrefix("fault-lab-") {
            if let pid = Int32(name.dropFirst("fault-lab-".count)), pid != getpid(), !Self.isAlive(pid) {
                try? FileManager.default.removeItem(at: temporary.appendingPathComponent(name))
            }
        }
        let scratch = temporary.appendingPathComponent("fault-lab-\(getpid())")
        try? FileManager.default.removeItem(at: scratch)
        stateA = scratch.appendingPathComponent("a")
        try Self.makeRepository(at: stateA)
        let (codeA, stderrA) = try Self.run(["run"], in: stateA, bin: bin)
        try #require(codeA == 0, "the run on inputs A failed:\n\(stderrA)")
        before = try PipelineState(stateA)
        let b = scratch.appendingPathComponent("b")
        try Self.copy(stateA, to: b)
        try Self.editToB(b)
        let started = Date()
        let (codeB, stderrB) = try Self.run(["run"], in: b, bin: bin)
        secondsForB = Date().timeIntervalSince(started)
        try #require(codeB == 0, "the run on inputs B failed:\n\(stderrB)")
        after = try PipelineState(b)
        bytesOfBOut = after.files.values.reduce(0) { $0 + $1.count }
        try #require(before.lockEntries != after.lockEntries && before.files != after.files, "the edit to B changed nothing")
        let changed = after.lockEntries.keys.filter { before.lockEntries[$0] != after.lockEntries[$0] }
        try #require(changed.count >= 5, "the edit to B re-runs only \(changed)")
        try? FileManager.default.removeItem(at: b)
    }

    /// Package.swift and Sources (the stages' code fingerprints), the pipeline spec and schemas, the
    /// reference data, and three sources and two requests of the committed fixtures.
    static func makeRepository(at root: URL) throws {
        let manager = FileManager.default
        let package = BadInputTests.packageRoot
        try manager.createDirectory(at: root.appendingPathComponent("fixtures/scraped"), withIntermediateDirectories: true)
        try manager.createDirectory(at: root.appendingPathComponent("fixtures/requests"), withIntermediateDirectories: true)
        var parts = [
            "Package.swift", "Sources", "pipeline/pipeline.yaml", "pipeline/params.yaml", "pipeline/sources.yaml", "pipeline/schemas",
            "fixtures/reference", "fixtures/overrides", "fixtures/geo",
        ]
        parts += sources.map { "fixtures/scraped/\($0)" } + requests.map { "fixtures/requests/\($0)" }
        for part in parts {
            try manager.createDirectory(
                at: root.appendingPathComponent(part).deletingLastPathComponent(), withIntermediateDirectories: true)
            try manager.copyItem(at: package.appendingPathComponent(part), to: root.appendingPathComponent(part))
        }
    }

    /// Inputs B: a UFL kickoff moved, a WNBA game moved a day, the UFL trip a week longer.
    static func editToB(_ root: URL) throws {
        try replace(
            "fixtures/scraped/ufl-2025-sample/ufl_2025_sample.csv", in: root,
            "\"Fri, Mar 28, 2025\",8:00 PM", with: "\"Fri, Mar 28, 2025\",7:30 PM")
        try replace("fixtures/requests/ufl-spring-2025.yaml", in: root, "lastDate: 2025-04-13", with: "lastDate: 2025-04-20")
        try replace(
            "fixtures/requests/wnba-2023-east-rest-days.yaml", in: root, "maxDrivingHoursPerDay:", with: "maxDrivingHoursPerDay: 7 #")
    }

    static func replace(_ path: String, in root: URL, _ old: String, with new: String) throws {
        let url = root.appendingPathComponent(path)
        let text = try String(contentsOf: url, encoding: .utf8)
        try #require(text.contains(old), "\(path) no longer contains \(old)")
        try Data(text.replacingOccurrences(of: old, with: new).utf8).write(to: url)
    }

    static func copy(_ from: URL, to: URL) throws {
        try FileManager.default.createDirectory(at: to.deletingLastPathComponent(), withIntermediateDirectories: true)
        let copied = try TestProcess.run(URL(fileURLWithPath: "/bin/cp"), ["-a", from.path, to.path])
        try #require(copied.code == 0, "cp -a \(from.path) \(to.path) failed: \(copied.stderr)")
    }

    func copyOfA() throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("fault-run-\(UUID().uuidString)")
        try Self.copy(stateA, to: root)
        return root
    }

    // MARK: Processes

    /// Runs `sportstime ARGS` to the end; a death by signal is reported as 128 + the signal.
    static func run(_ arguments: [String], in root: URL, bin: URL, asNobody: Bool = false) throws -> (Int32, String) {
        let process = try start(arguments, in: root, bin: bin, asNobody: asNobody)
        let result = try process.wait()
        return (result.code, result.stderr)
    }

    func runToEnd(in root: URL) throws -> (Int32, String) { try Self.run(["run"], in: root, bin: bin) }

    static func start(
        _ arguments: [String], in root: URL, bin: URL, asNobody: Bool = false,
        environment: [String: String] = [:]
    ) throws -> RunningProcess {
        let sportstime = bin.appendingPathComponent("sportstime")
        let merged = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        if asNobody {
            return try TestProcess.start(
                URL(fileURLWithPath: "/usr/bin/setpriv"),
                ["--reuid=65534", "--regid=65534", "--clear-groups", sportstime.path] + arguments,
                in: root, environment: merged)
        }
        return try TestProcess.start(sportstime, arguments, in: root, environment: merged)
    }

    /// The running child processes of `pid` (the runner's stages), oldest first.
    static func children(of pid: Int32) -> [Int32] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return names.compactMap(Int32.init).filter { child in
            guard let stat = try? String(contentsOfFile: "/proc/\(child)/stat", encoding: .utf8),
                let close = stat.range(of: ")", options: .backwards)
            else { return false }
            let fields = stat[close.upperBound...].split(separator: " ")
            return fields.count > 1 && fields[0] != "Z" && Int32(fields[1]) == pid
        }.sorted()
    }

    /// Whether `pid` runs (a zombie no longer holds its files or locks).
    static func isAlive(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.range(of: ")", options: .backwards)
        else { return false }
        return !stat[close.upperBound...].trimmingCharacters(in: .whitespaces).hasPrefix("Z")
    }

    /// Waits until no process holds the workspace lock `.pipeline/lock` (a `flock` the runner takes and
    /// its stages inherit).
    static func waitForWorkspace(_ root: URL, seconds: Double = 60) {
        let fd = open(root.appendingPathComponent(".pipeline/lock").path, O_RDWR | O_CLOEXEC)
        guard fd >= 0 else { return }
        defer { close(fd) }
        let deadline = Date().addingTimeInterval(seconds)
        while flock(fd, LOCK_EX | LOCK_NB) != 0 && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        flock(fd, LOCK_UN)
    }

    static func waitUntilGone(_ pid: Int32, seconds: Double = 60) {
        let deadline = Date().addingTimeInterval(seconds)
        while isAlive(pid) && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
    }

    static func expectNoCrash(_ stderr: String, label: String) {
        #expect(
            !stderr.contains("Fatal error") && !stderr.contains("Stack dump") && !stderr.contains("💣"),
            "\(label): crashed\n\(stderr)")
    }

    /// Starts a run to B, waits `delay`, and injects `fault`; returns when every process it started is gone.
    @discardableResult
    func inject(_ fault: Fault, after delay: Double, jobs: Int, slowPublish: Bool, in repo: URL, label: String) throws -> Bool {
        let runner = try Self.start(
            ["run", "--jobs", "\(jobs)"], in: repo, bin: bin,
            environment: slowPublish ? ["SPORTSTIME_PUBLISH_PAUSE_MS": "40"] : [:])
        Thread.sleep(forTimeInterval: delay)
        let pid = runner.process.processIdentifier
        var stages: [Int32] = []
        var second: RunningProcess?
        switch fault {
        case .killRunner:
            stages = Self.children(of: pid)
            kill(pid, SIGKILL)
        case .powerCut:
            stages = Self.children(of: pid)
            kill(pid, SIGKILL)
            for stage in stages { kill(-stage, SIGKILL) }
        case .killStage:
            // The stage started last (each stage leads its own process group).
            stages = Self.children(of: pid).suffix(1)
            for stage in stages { kill(-stage, SIGKILL) }
        case .interrupt: kill(pid, SIGINT)
        case .terminate: kill(pid, SIGTERM)
        case .secondRunner: second = try Self.start(["run"], in: repo, bin: bin)
        }
        let signalled = Date()
        runner.process.waitUntilExit()
        let secondsToExit = Date().timeIntervalSince(signalled)
        // Stages whose runner was killed finish on their own and hold the workspace until then (one may
        // have started after the list above was taken): wait until the workspace lock is free.
        for stage in stages { Self.waitUntilGone(stage) }
        Self.waitForWorkspace(repo)
        second?.process.waitUntilExit()
        let code = runner.code, stderr = runner.standardErrorSoFar
        Self.expectNoCrash(stderr, label: label)
        switch fault {
        case .killRunner, .powerCut:
            #expect(code == 128 + SIGKILL || code == 0, "\(label): runner exit \(code)\n\(stderr)")
        case .killStage:
            // A stage may end between being seen and being killed; then the run simply succeeds.
            #expect(code == 1 || code == 0, "\(label): runner exit \(code) (stages \(stages))\n\(stderr)")
            if code == 1 { #expect(stderr.contains("killed by signal 9"), "\(label): \(stderr)") }
        case .interrupt, .terminate:
            #expect(code == 130 || code == 0, "\(label): runner exit \(code)\n\(stderr)")
            // Within about 100 ms wherever it lands; a second of slack for a busy machine.
            #expect(secondsToExit < 1, "\(label): the runner ended \(secondsToExit) s after the signal")
        case .secondRunner:
            let other = try #require(second)
            let codes = [code, other.code].sorted()
            // Whichever took the workspace first runs; the other is refused, or finds nothing to do.
            #expect(
                codes == [0, 1] || codes == [0, 0], "\(label): exits \(code) and \(other.code)\n\(stderr)\n\(other.standardErrorSoFar)")
            if codes == [0, 1] {
                let refused = code == 1 ? stderr : other.standardErrorSoFar
                #expect(refused.contains("another sportstime run is writing this workspace"), "\(label): \(refused)")
            }
            Self.expectNoCrash(other.standardErrorSoFar, label: label + " (second runner)")
            return codes == [0, 1]
        }
        return code != 0
    }

    // MARK: Checks

    /// Every stage's outputs are exactly as before or exactly as after, at every instant a fault can
    /// land, the stage a killed runner was publishing included (each out is swapped in by one atomic
    /// exchange, and every stage here has one out). A stage's lock entry matches its outputs, except
    /// for the stage named in `.pipeline/journal.json` (only when `killed`): its outputs may already be
    /// the new ones while the lock still has the old entry, and then the journal holds the new entry.
    func checkBeforeOrAfter(_ repo: URL, label: String, killed: Bool = true) throws {
        let now = try PipelineState(repo)
        let journal = killed ? PipelineState.journalStage(repo) : nil
        let journalEntries = killed ? PipelineState.journalLockEntries(repo) : nil
        let stages = Set(before.lockEntries.keys).union(after.lockEntries.keys)
        var owned = Set<String>()
        for stage in stages.sorted() {
            let outs = before.outs(of: stage).union(after.outs(of: stage))
            let files = now.files(under: outs)
            owned.formUnion(files.keys)
            let filesAsBefore = files == before.files(under: outs), filesAsAfter = files == after.files(under: outs)
            let entryAsBefore = now.lockEntries[stage] == before.lockEntries[stage]
            let entryAsAfter = now.lockEntries[stage] == after.lockEntries[stage]
            if (filesAsBefore && entryAsBefore) || (filesAsAfter && entryAsAfter) { continue }
            let filesAre = filesAsBefore ? "as before" : filesAsAfter ? "as after" : "neither"
            let entryIs = entryAsBefore ? "as before" : entryAsAfter ? "as after" : "neither"
            if stage == journal && filesAsAfter && entryAsBefore {
                #expect(
                    journalEntries?[stage] == after.lockEntries[stage],
                    "\(label): stage \(stage) is published, but the journal does not hold its new lock entry")
                continue
            }
            let named = stage == journal ? " (it is the stage the journal names)" : ""
            Issue.record("\(label): stage \(stage) is in between: outputs \(filesAre), lock entry \(entryIs)\(named)")
        }
        let strays = Set(now.files.keys).subtracting(owned)
        #expect(strays.isEmpty, "\(label): files in out/ that no stage owns: \(strays.sorted())")
    }

    /// The next run completes; out/ and the lock equal an uninterrupted run's, and status says up to date.
    func checkNextRunFinishes(_ repo: URL, label: String) throws {
        let (code, stderr) = try runToEnd(in: repo)
        #expect(code == 0, "\(label): the next run exits \(code)\n\(stderr)")
        Self.expectNoCrash(stderr, label: label + " (next run)")
        let now = try PipelineState(repo)
        #expect(now.lockText == after.lockText, "\(label): the lock differs from an uninterrupted run's")
        let differing = Set(now.files.keys).union(after.files.keys).filter { now.files[$0] != after.files[$0] }
        #expect(differing.isEmpty, "\(label): out/ differs from an uninterrupted run's: \(differing.sorted().prefix(10))")
        let (status, statusText) = try Self.run(["status"], in: repo, bin: bin)
        #expect(status == 0, "\(label): status after the next run exits \(status)\n\(statusText)")
        for leftover in [".pipeline/journal.json", ".pipeline/staging", ".pipeline/backup"] {
            #expect(
                !FileManager.default.fileExists(atPath: repo.appendingPathComponent(leftover).path), "\(label): \(leftover) left behind")
        }
    }

    // MARK: Mounts (root only)

    /// File modes stop the runner: it is not root, or it can be run as `nobody`.
    static let canWriteProtect: Bool = {
        guard geteuid() == 0 else { return true }
        guard let bin = BadInputTests.binFolder, FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") else { return false }
        let temporary = FileManager.default.temporaryDirectory.path
        return
            (try? Mount.sh(
                "/usr/bin/setpriv --reuid=65534 --regid=65534 --clear-groups '\(bin.path)/sportstime' --help >/dev/null"
                    + " && /usr/bin/setpriv --reuid=65534 --regid=65534 --clear-groups test -x '\(temporary)'")) != nil
    }()

    static let canMount: Bool = {
        guard geteuid() == 0 else { return false }
        guard let probe = try? Mount.tmpfs(megabytes: 1) else { return false }
        probe.unmount()
        return true
    }()

    struct Mount {
        let folder: URL
        let ownsFolder: Bool

        static func tmpfs(megabytes: Int) throws -> Mount {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fault-disk-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try sh("mount -t tmpfs -o size=\(megabytes)m tmpfs '\(folder.path)'")
            return Mount(folder: folder, ownsFolder: true)
        }

        static func bind(_ folder: URL) throws -> Mount {
            try sh("mount --bind '\(folder.path)' '\(folder.path)'")
            return Mount(folder: folder, ownsFolder: false)
        }

        static func readOnly(_ folder: URL) throws -> Mount {
            try sh("mount --bind '\(folder.path)' '\(folder.path)' && mount -o remount,bind,ro '\(folder.path)'")
            return Mount(folder: folder, ownsFolder: false)
        }

        func resize(bytes: Int) throws {
            try Self.sh("mount -o remount,size=\(max(bytes, 4096)) '\(folder.path)'")
        }

        func usedBytes() throws -> Int {
            var stats = statvfs()
            try #require(statvfs(folder.path, &stats) == 0)
            return Int(stats.f_blocks - stats.f_bfree) * Int(stats.f_frsize)
        }

        func unmount() {
            _ = try? Self.sh("umount -l '\(folder.path)'")
            if ownsFolder { try? FileManager.default.removeItem(at: folder) }
        }

        @discardableResult
        static func sh(_ command: String) throws -> String {
            let result = try TestProcess.run(URL(fileURLWithPath: "/bin/sh"), ["-c", command])
            let text = result.stdout + result.stderr
            guard result.code == 0 else { throw FaultError("`\(command)` failed: \(text)") }
            return text
        }
    }
}

struct FaultError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// `out/` and the lock of a repository: every file's bytes, and each stage's lock entry.
struct PipelineState {
    var files: [String: Data]
    var lockText: Data
    var lockEntries: [String: Data]
    var outsByStage: [String: Set<String>]

    init(_ root: URL) throws {
        files = [:]
        let out = root.appendingPathComponent("out")
        if let walker = FileManager.default.enumerator(at: out, includingPropertiesForKeys: [.isRegularFileKey]) {
            let base = out.standardizedFileURL.path
            for case let file as URL in walker where (try? file.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true {
                let relative = "out/" + String(file.standardizedFileURL.path.dropFirst(base.count + 1))
                files[relative] = try Data(contentsOf: file)
            }
        }
        lockText = try Data(contentsOf: root.appendingPathComponent("pipeline/pipeline.lock.json"))
        let object = try JSONSerialization.jsonObject(with: lockText) as? [String: Any]
        let stages = try #require(object?["stages"] as? [String: Any], "the lock has no stages")
        lockEntries = [:]
        outsByStage = [:]
        for (name, entry) in stages {
            lockEntries[name] = try JSONSerialization.data(withJSONObject: entry, options: [.sortedKeys])
            outsByStage[name] = Set(((entry as? [String: Any])?["outs"] as? [String: Any])?.keys.map { $0 } ?? [])
        }
    }

    func outs(of stage: String) -> Set<String> { outsByStage[stage] ?? [] }

    func files(under outs: Set<String>) -> [String: Data] {
        files.filter { file in outs.contains { file.key == $0 || file.key.hasPrefix($0 + "/") } }
    }

    /// Each stage's entry in the lock a journal left by a killed runner would write.
    static func journalLockEntries(_ root: URL) -> [String: Data]? {
        guard let data = FileManager.default.contents(atPath: root.appendingPathComponent(".pipeline/journal.json").path),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let lock = (object["lock"] as? String).flatMap({ try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }),
            let stages = lock["stages"] as? [String: Any]
        else { return nil }
        return stages.compactMapValues { try? JSONSerialization.data(withJSONObject: $0, options: [.sortedKeys]) }
    }

    static func journalStage(_ root: URL) -> String? {
        guard let data = FileManager.default.contents(atPath: root.appendingPathComponent(".pipeline/journal.json").path),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { return nil }
        return object["stage"] as? String
    }
}

/// A small seeded generator, so a failing iteration can be replayed with SPORTSTIME_FAULT_SEED.
