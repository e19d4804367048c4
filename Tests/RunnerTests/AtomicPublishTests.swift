import Foundation
import SportsTimeTestSupport
import Testing
@testable import SportsTimeRunner
import SportsTimeCore
#if canImport(Glibc)
    import Glibc
#endif

/// A pipeline whose one stage is slow, so it can be killed while it works.
let slowSpec = """
    stages:
      slow:
        cmd: [/bin/sh, -c, 'mkdir -p "$1" && cp fixtures/in.txt "$1/part1.txt" && sleep 30 && cp fixtures/in.txt "$1/part2.txt"', sh, "${out}"]
        deps: [fixtures/in.txt]
        outs: [out/slow]
      after:
        cmd: [/bin/sh, -c, 'cat out/slow/*.txt > "$1"', sh, "${out}"]
        deps: [out/slow]
        outs: [out/after.txt]

    """

@Suite(.serialized) struct AtomicPublishTests {
    /// Starts the built `sportstime run` in `repo`, waits until the slow stage has started, and returns
    /// the runner process and the stage's pid (from the workspace lock's holder line).
    func startSlowRun(_ repo: TestRepository) throws -> (Process, Int32) {
        let running = try TestProcess.start(try TestRepository.runnerExecutable(), ["run"], in: repo.root)
        let process = running.process
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            if let holder = repo.read(".pipeline/lock"), let range = holder.range(of: "stage slow pid ") {
                let pid = Int32(holder[range.upperBound...].prefix { $0.isNumber }) ?? 0
                if pid > 0, repo.exists(".pipeline/staging/slow/out/slow/part1.txt") { return (process, pid) }
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
        process.terminate()
        throw TestFailure("the slow stage did not start")
    }

    func preparedRepository() throws -> (TestRepository, [String: Data], String?) {
        let repo = try TestRepository()
        try repo.spec(slowSpec.replacingOccurrences(of: "sleep 30", with: "true"))
        try repo.write("fixtures/in.txt", "first\n")
        #expect(repo.run().code == 0)
        try repo.spec(slowSpec)
        try repo.write("fixtures/in.txt", "second\n")
        return (repo, repo.snapshot("out"), repo.read("pipeline/pipeline.lock.json"))
    }

    @Test func killingTheRunnerLeavesOutAndLockAsBeforeAndTheNextRunResumes() throws {
        let (repo, out, lock) = try preparedRepository()
        #expect(out["out/slow/part1.txt"] == Data("first\n".utf8))
        let (runner, stagePid) = try startSlowRun(repo)
        kill(runner.processIdentifier, SIGKILL)
        runner.waitUntilExit()
        #expect(repo.snapshot("out") == out)
        #expect(repo.read("pipeline/pipeline.lock.json") == lock)

        // The orphaned stage still holds the workspace: a new runner must not publish under it.
        let refused = repo.run()
        #expect(refused.code == 1)
        #expect(refused.stderr.contains("another sportstime run is writing this workspace"))
        kill(-stagePid, SIGKILL)
        // Its descriptors (the workspace lock among them) are closed when it has died, zombie or not.
        var waited = 0
        while !Self.liveMembers(ofGroup: stagePid).isEmpty && waited < 200 {
            Thread.sleep(forTimeInterval: 0.05)
            waited += 1
        }

        try repo.spec(slowSpec.replacingOccurrences(of: "sleep 30", with: "true"))
        let resumed = repo.run()
        #expect(resumed.code == 0, "\(resumed.stderr)")
        #expect(repo.read("out/after.txt") == "second\nsecond\n")
        #expect(repo.status().code == 0)
        #expect(!repo.exists(".pipeline/staging/slow"))
    }

    @Test func killingTheStageFailsItAndLeavesOutAndLockAsBefore() throws {
        let (repo, out, lock) = try preparedRepository()
        let (runner, stagePid) = try startSlowRun(repo)
        #expect(Self.liveMembers(ofGroup: stagePid).contains(stagePid), "the stage runs in a process group of its own")
        kill(stagePid, SIGKILL)
        runner.waitUntilExit()
        #expect(runner.terminationStatus == 1)
        // What the stage left running (its sleep, in the stage's own process group) is stopped with it:
        // the group has no live member once the signal has landed (a killed process may stay a zombie
        // until its new parent reaps it).
        var live = Self.liveMembers(ofGroup: stagePid)
        for _ in 0..<100 where !live.isEmpty {
            Thread.sleep(forTimeInterval: 0.1)
            live = Self.liveMembers(ofGroup: stagePid)
        }
        #expect(live.isEmpty, "still running in the stage's process group: \(live)")
        #expect(repo.snapshot("out") == out)
        #expect(repo.read("pipeline/pipeline.lock.json") == lock)
        #expect(repo.status().code == 1)
    }

    @Test func interruptingTheRunnerStopsTheStageAndPublishesNothing() throws {
        let (repo, out, lock) = try preparedRepository()
        let (runner, stagePid) = try startSlowRun(repo)
        kill(runner.processIdentifier, SIGINT)
        runner.waitUntilExit()
        #expect(runner.terminationStatus == 130)
        #expect(kill(stagePid, 0) != 0)
        #expect(repo.snapshot("out") == out)
        #expect(repo.read("pipeline/pipeline.lock.json") == lock)
    }

    /// SIGTERM ends the runner within a fraction of a second even when its stage ignores SIGTERM (it
    /// gets SIGKILL 30 ms later): exit 130, nothing published, the workspace lock free.
    @Test(arguments: [SIGTERM, SIGINT])
    func anInterruptEndsAStageThatIgnoresIt(signal: Int32) throws {
        let (repo, out, lock) = try preparedRepository()
        try repo.spec(slowSpec.replacingOccurrences(of: "mkdir -p", with: "trap \"\" TERM INT; mkdir -p"))
        let (runner, stagePid) = try startSlowRun(repo)
        kill(runner.processIdentifier, signal)
        let seconds = try Self.waitForExit(runner, seconds: 10)
        #expect(seconds < 0.5, "the runner ended \(seconds) s after the signal")
        #expect(runner.terminationStatus == 130)
        #expect(Self.liveMembers(ofGroup: stagePid).isEmpty)
        #expect(Self.workspaceIsFree(repo))
        #expect(repo.snapshot("out") == out)
        #expect(repo.read("pipeline/pipeline.lock.json") == lock)
    }

    /// SIGTERM ends the runner while it is busy before any stage runs — here checking a spec of 600
    /// fan-out stages, which takes seconds: exit 130 at once, the lock free, nothing written.
    @Test func anInterruptEndsTheRunnerDuringItsSpecChecks() throws {
        let repo = try TestRepository()
        try repo.spec(
            """
            stages:
              each:
                foreach: {glob: fixtures/items/*.txt}
                cmd: [/bin/sh, -c, 'cp "$2" "$1"', sh, "${out}", "fixtures/items/${item}.txt"]
                deps: ["fixtures/items/${item}.txt"]
                outs: ["out/each/${item}.txt"]

            """)
        for item in 0..<600 { try repo.write("fixtures/items/i\(item).txt", "\(item)\n") }
        let runner = try TestProcess.start(try TestRepository.runnerExecutable(), ["run"], in: repo.root).process
        // The runner holds the workspace lock once its checks begin.
        for _ in 0..<400 where !(repo.read(".pipeline/lock") ?? "").contains("runner pid") { Thread.sleep(forTimeInterval: 0.01) }
        Thread.sleep(forTimeInterval: 0.2)
        kill(runner.processIdentifier, SIGTERM)
        let seconds = try Self.waitForExit(runner, seconds: 60)
        #expect(seconds < 0.5, "the runner ended \(seconds) s after the signal")
        #expect(runner.terminationStatus == 130)
        #expect(Self.workspaceIsFree(repo))
        #expect(!repo.exists("out") && !repo.exists("pipeline/pipeline.lock.json"))
    }

    /// Seconds until `process` ends; killed (and the test failed) after `seconds`.
    static func waitForExit(_ process: Process, seconds: Double) throws -> Double {
        let start = Date()
        while process.isRunning && Date().timeIntervalSince(start) < seconds { usleep(2000) }
        let waited = Date().timeIntervalSince(start)
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            throw TestFailure("still running \(seconds) s after the signal")
        }
        process.waitUntilExit()
        return waited
    }

    /// Whether nobody holds the workspace lock (`flock` on `.pipeline/lock`).
    static func workspaceIsFree(_ repo: TestRepository) -> Bool {
        let fd = open(repo.url(".pipeline/lock").path, O_RDWR | O_CLOEXEC)
        guard fd >= 0 else { return true }
        defer { close(fd) }
        return flock(fd, LOCK_EX | LOCK_NB) == 0
    }

    /// A publish killed between any two of its renames is completed by the next runner.
    @Test(arguments: 0...4)
    func aHalfDonePublishIsCompleted(renamesDone: Int) throws {
        let repo = try TestRepository()
        try repo.write("out/a/x.txt", "old a\n")
        try repo.write("out/b.txt", "old b\n")
        try repo.write("pipeline/pipeline.lock.json", "old lock\n")
        try repo.write(".pipeline/staging/s/out/a/x.txt", "new a\n")
        try repo.write(".pipeline/staging/s/out/b.txt", "new b\n")
        try repo.write(".pipeline/staging/s/out/c.txt", "new c\n")
        let moves = [
            Publisher.Move(staged: ".pipeline/staging/s/out/a", target: "out/a", backup: Publisher.backupPath(of: "out/a", label: "s")),
            Publisher.Move(
                staged: ".pipeline/staging/s/out/b.txt", target: "out/b.txt", backup: Publisher.backupPath(of: "out/b.txt", label: "s")),
            Publisher.Move(
                staged: ".pipeline/staging/s/out/c.txt", target: "out/c.txt", backup: Publisher.backupPath(of: "out/c.txt", label: "s")),
        ]
        let journal = Publisher.Journal(stage: "s", moves: moves, lock: "new lock\n")
        try repo.write(".pipeline/journal.json", String(decoding: try CanonicalJSON.encode(journal), as: UTF8.self))
        // The renames publish would have done, in order, before the crash.
        var renames: [(String, String)] = []
        for move in moves {
            if repo.exists(move.target) { renames.append((move.target, move.backup)) }
            renames.append((move.staged!, move.target))
        }
        for (from, to) in renames.prefix(renamesDone) {
            try FileManager.default.createDirectory(at: repo.url(to).deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.moveItem(at: repo.url(from), to: repo.url(to))
        }
        #expect(try Publisher(root: repo.root).recover() == "s")
        #expect(repo.read("out/a/x.txt") == "new a\n")
        #expect(repo.read("out/b.txt") == "new b\n")
        #expect(repo.read("out/c.txt") == "new c\n")
        #expect(repo.read("pipeline/pipeline.lock.json") == "new lock\n")
        #expect(!repo.exists(".pipeline/journal.json"))
        #expect(!repo.exists(".pipeline/backup/s/out/a"))
        #expect(try Publisher(root: repo.root).recover() == nil)
    }

    /// A publish swaps each existing out with its staged version in one step (`RENAME_EXCHANGE`), then
    /// moves the old version to the backup; a new out is renamed in. Killed after any of those steps,
    /// every out is wholly old or wholly new (never missing, never mixed), and the next runner, told by
    /// the inodes in the journal which moves were done, completes the publish.
    @Test(arguments: 0...5)
    func anExchangedPublishIsWholeAtEveryStepAndIsCompleted(stepsDone: Int) throws {
        let repo = try TestRepository()
        try repo.write("out/a/x.txt", "old a\n")
        try repo.write("out/a/gone.txt", "old a only\n")
        try repo.write("out/b.txt", "old b\n")
        try repo.write("pipeline/pipeline.lock.json", "old lock\n")
        try repo.write(".pipeline/staging/s/out/a/x.txt", "new a\n")
        try repo.write(".pipeline/staging/s/out/b.txt", "new b\n")
        try repo.write(".pipeline/staging/s/out/c.txt", "new c\n")
        let files = RepositoryFiles(root: repo.root)
        let moves = ["out/a", "out/b.txt", "out/c.txt"].map { target in
            Publisher.Move(
                staged: ".pipeline/staging/s/" + target, target: target, backup: Publisher.backupPath(of: target, label: "s"),
                inode: files.inode(".pipeline/staging/s/" + target))
        }
        let journal = Publisher.Journal(stage: "s", moves: moves, lock: "new lock\n")
        try repo.write(".pipeline/journal.json", String(decoding: try CanonicalJSON.encode(journal), as: UTF8.self))
        // The steps publish takes, in order, before the crash.
        var steps: [() throws -> Void] = []
        for move in moves {
            if repo.exists(move.target) {
                steps.append {
                    let swapped = try files.exchange(move.staged!, move.target, location: move.target)
                    #expect(swapped, "this file system cannot exchange")
                }
                steps.append { try files.rename(move.staged!, to: move.backup, location: move.target) }
            } else {
                steps.append { try files.rename(move.staged!, to: move.target, location: move.target) }
            }
        }
        try #require(steps.count == 5)
        for step in steps.prefix(stepsDone) { try step() }
        let a = (repo.read("out/a/x.txt"), repo.read("out/a/gone.txt"))
        #expect((a.0 == "old a\n" && a.1 == "old a only\n") || (a.0 == "new a\n" && a.1 == nil), "out/a is mixed: \(a)")
        #expect(["old b\n", "new b\n"].contains(repo.read("out/b.txt")), "out/b.txt is missing or mixed")
        #expect([nil, "new c\n"].contains(repo.read("out/c.txt")))
        #expect(try Publisher(root: repo.root).recover() == "s")
        #expect(repo.read("out/a/x.txt") == "new a\n")
        #expect(!repo.exists("out/a/gone.txt"))
        #expect(repo.read("out/b.txt") == "new b\n")
        #expect(repo.read("out/c.txt") == "new c\n")
        #expect(repo.read("pipeline/pipeline.lock.json") == "new lock\n")
        #expect(!repo.exists(".pipeline/journal.json"))
        #expect(!repo.exists(".pipeline/backup/s"))
    }

    /// A journal naming paths that are not the runner's is refused before anything moves: a target
    /// outside the repository, a staged path outside `.pipeline/staging/`, a backup outside `.pipeline/backup/`.
    @Test func aJournalNamingPathsThatAreNotTheRunnersIsRefusedBeforeAnythingMoves() throws {
        let repo = try TestRepository()
        try repo.write("out/a.txt", "old a\n")
        try repo.write("fixtures/keep.txt", "keep\n")
        try repo.write(".pipeline/staging/s/out/a.txt", "new a\n")
        let moves = [
            Publisher.Move(staged: ".pipeline/staging/s/out/a.txt", target: "out/a.txt", backup: "fixtures/keep.txt"),
            Publisher.Move(staged: "fixtures/keep.txt", target: "out/b.txt", backup: ".pipeline/backup/s/out/b.txt"),
            Publisher.Move(staged: nil, target: "../outside.txt", backup: ".pipeline/backup/s/x"),
            Publisher.Move(staged: ".pipeline/staging/linked/x.txt", target: "out/x.txt", backup: ".pipeline/backup/s/out/x.txt"),
        ]
        // A staged folder that is a link to a folder outside: its file must not be moved in.
        let outside = FileManager.default.temporaryDirectory.appendingPathComponent("journal-outside-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: outside) }
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        try Data("outside\n".utf8).write(to: outside.appendingPathComponent("x.txt"))
        try FileManager.default.createSymbolicLink(atPath: repo.url(".pipeline/staging/linked").path, withDestinationPath: outside.path)
        let journal = Publisher.Journal(stage: "s", moves: moves, lock: "new lock\n")
        let text = String(decoding: try CanonicalJSON.encode(journal), as: UTF8.self)
        try repo.write(".pipeline/journal.json", text)
        do {
            _ = try Publisher(root: repo.root).recover(
                checkTarget: { $0.hasPrefix("..") ? "out '\($0)' leaves the repository" : nil },
                checkLock: { _ in ["not a lock"] })
            Issue.record("the journal was completed")
        } catch let error as PipelineError {
            let lines = error.diagnostics.map(\.description)
            #expect(error.exitCode == ExitStatus.invalidInput)
            #expect(lines.count == 5, "\(lines)")
            #expect(
                lines.contains {
                    $0.contains("'.pipeline/staging/linked/x.txt' is not a staged output under .pipeline/staging/ reached without links")
                })
            #expect(lines.contains { $0.contains("'fixtures/keep.txt' is not a backup under .pipeline/backup/ reached without links") })
            #expect(
                lines.contains { $0.contains("'fixtures/keep.txt' is not a staged output under .pipeline/staging/ reached without links") })
            #expect(
                lines.contains {
                    $0.hasPrefix(".pipeline/journal.json:\(Publisher.line(of: "../outside.txt", in: text)): error: ")
                        && $0.contains("out '../outside.txt' leaves the repository")
                })
            #expect(lines.contains { $0.contains("the lock in the journal is not valid (not a lock)") })
        }
        #expect(repo.read("out/a.txt") == "old a\n")
        #expect(repo.read("fixtures/keep.txt") == "keep\n")
        #expect(repo.read(".pipeline/staging/s/out/a.txt") == "new a\n")
        #expect(repo.read(".pipeline/journal.json") == text)
        #expect(!repo.exists("pipeline/pipeline.lock.json"))
        #expect(!repo.exists("out/x.txt"))
        #expect(FileManager.default.contents(atPath: outside.appendingPathComponent("x.txt").path) == Data("outside\n".utf8))
    }

    /// A publish that fails part way (here the lock cannot be written: a folder holds its name) undoes
    /// its moves and drops its journal, so the stage stays exactly as it was.
    @Test func aPublishThatFailsIsUndone() throws {
        let repo = try TestRepository()
        try repo.write("out/a/x.txt", "old a\n")
        try repo.write("out/b.txt", "old b\n")
        try repo.write(".pipeline/staging/s/out/a/x.txt", "new a\n")
        try repo.write(".pipeline/staging/s/out/c.txt", "new c\n")
        try FileManager.default.createDirectory(at: repo.url("pipeline/pipeline.lock.json"), withIntermediateDirectories: true)
        let moves = [
            Publisher.Move(staged: ".pipeline/staging/s/out/a", target: "out/a", backup: Publisher.backupPath(of: "out/a", label: "s")),
            Publisher.Move(staged: nil, target: "out/b.txt", backup: Publisher.backupPath(of: "out/b.txt", label: "s")),
            Publisher.Move(
                staged: ".pipeline/staging/s/out/c.txt", target: "out/c.txt", backup: Publisher.backupPath(of: "out/c.txt", label: "s")),
        ]
        let publisher = Publisher(root: repo.root)
        do {
            try publisher.publish(label: "s", moves: moves, lock: Data("new lock\n".utf8))
            Issue.record("the publish did not fail")
        } catch let failure as Publisher.PublishFailure {
            #expect(!failure.journalKept)
            #expect(failure.description.hasPrefix("pipeline/pipeline.lock.json: error: cannot write: "), "\(failure)")
            #expect(failure.description.hasSuffix("Nothing was published; the previous outputs and lock are unchanged."))
        }
        #expect(repo.read("out/a/x.txt") == "old a\n")
        #expect(repo.read("out/b.txt") == "old b\n")
        #expect(!repo.exists("out/c.txt"))
        #expect(repo.read(".pipeline/staging/s/out/a/x.txt") == "new a\n")
        #expect(repo.read(".pipeline/staging/s/out/c.txt") == "new c\n")
        #expect(!publisher.hasPendingJournal)
        #expect(try publisher.recover() == nil)
    }

    /// A publish with nothing to move (outputs that came out as published) writes the lock and no
    /// journal; when the lock cannot be written it fails like any publish, with nothing changed.
    @Test func aPublishWithNothingToMoveWritesTheLockAlone() throws {
        let repo = try TestRepository()
        try repo.write("out/a.txt", "a\n")
        try repo.write("pipeline/pipeline.lock.json", "old lock\n")
        // No journal can be written here (a file holds the name of its folder), so only a publish that
        // writes none succeeds.
        try repo.write(".pipeline", "not a folder\n")
        let publisher = Publisher(root: repo.root)
        try publisher.publish(label: "s", moves: [], lock: Data("new lock\n".utf8))
        #expect(repo.read("pipeline/pipeline.lock.json") == "new lock\n")
        #expect(repo.read("out/a.txt") == "a\n")
        #expect(!publisher.hasPendingJournal)

        try FileManager.default.removeItem(at: repo.url("pipeline/pipeline.lock.json"))
        try FileManager.default.createDirectory(at: repo.url("pipeline/pipeline.lock.json"), withIntermediateDirectories: true)
        do {
            try publisher.publish(label: "s", moves: [], lock: Data("newer lock\n".utf8))
            Issue.record("the publish did not fail")
        } catch let failure as Publisher.PublishFailure {
            #expect(!failure.journalKept)
            #expect(failure.description.hasPrefix("pipeline/pipeline.lock.json: error: cannot write: "), "\(failure)")
            #expect(failure.description.hasSuffix("Nothing was published; the previous outputs and lock are unchanged."))
        }
        #expect(repo.read("out/a.txt") == "a\n")
        #expect(!publisher.hasPendingJournal)
    }

    /// The processes of a process group that are not zombies (from /proc/<pid>/stat: state, then group).
    static func liveMembers(ofGroup group: Int32) -> [Int32] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { name -> Int32? in
            guard let pid = Int32(name), let stat = try? String(contentsOfFile: "/proc/\(name)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { return nil }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 2, fields[0] != "Z", Int32(fields[2]) == group else { return nil }
            return pid
        }
    }
}
