import Foundation
import Testing
@testable import SportsTimeRunner
import SportsTimeCore

/// a → b → c, and d on its own. a upper-cases its input, so an input that differs only in case gives
/// a the same output (early cutoff).
let chainSpec = """
    stages:
      a:
        cmd: [/bin/sh, -c, 'mkdir -p "$1" && tr a-z A-Z < fixtures/a.txt > "$1/a.txt"', sh, "${out}"]
        deps: [fixtures/a.txt]
        outs: [out/a]
      b:
        cmd: [/bin/sh, -c, 'cat out/a/a.txt fixtures/b.txt > "$1"', sh, "${out}"]
        deps: [out/a, fixtures/b.txt]
        outs: [out/b.txt]
      c:
        cmd: [/bin/sh, -c, 'sed "s/^/> /" out/b.txt > "$1"', sh, "${out}"]
        deps: [out/b.txt]
        outs: [out/c.txt]
      d:
        cmd: [/bin/sh, -c, 'cp fixtures/d.txt "$1"', sh, "${out}"]
        deps: [fixtures/d.txt]
        outs: [out/d.txt]

    """

func chainRepository() throws -> TestRepository {
    let repo = try TestRepository()
    try repo.spec(chainSpec)
    try repo.write("fixtures/a.txt", "abc\n")
    try repo.write("fixtures/b.txt", "b1\n")
    try repo.write("fixtures/d.txt", "d1\n")
    return repo
}

/// stage name → (status word, reason) from the summary lines of a run.
func outcomes(_ stdout: String) -> [String: (status: String, reason: String)] {
    var result: [String: (String, String)] = [:]
    for line in stdout.split(separator: "\n") where line.hasPrefix("[") {
        let words = line.split(separator: " ", omittingEmptySubsequences: true)
        guard words.count >= 3 else { continue }
        let name = String(words[1])
        let status = words[2] == "not" ? "not run" : String(words[2])
        let reason =
            line.firstIndex(of: "(").flatMap { open in
                line[open...].firstIndex(of: ")").map { String(line[line.index(after: open)..<$0]) }
            } ?? ""
        result[name] = (status, reason)
    }
    return result
}

/// stage name → the rest of its status line.
func statusLines(_ stdout: String) -> [String: String] {
    var result: [String: String] = [:]
    for line in stdout.split(separator: "\n") {
        let words = line.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard words.count == 2 else { continue }
        result[String(words[0])] = words[1].trimmingCharacters(in: .whitespaces)
    }
    return result
}

@Suite struct ContentKeyTests {
    @Test func firstRunRunsEverythingAndTheSecondNothing() throws {
        let repo = try chainRepository()
        let before = repo.status()
        #expect(before.code == 1)
        #expect(statusLines(before.stdout)["a"] == "run   never run")

        let first = repo.run()
        #expect(first.code == 0, "\(first.stderr)")
        #expect(outcomes(first.stdout).values.allSatisfy { $0.status == "ran" })
        #expect(repo.read("out/c.txt") == "> ABC\n> b1\n")

        let status = repo.status()
        #expect(status.code == 0, "\(status.stdout)")
        #expect(status.stdout.hasSuffix("up to date: 0 to run, 0 waiting, 4 up to date.\n"))

        let second = repo.run()
        #expect(second.code == 0)
        let skipped = outcomes(second.stdout)
        #expect(skipped.count == 4)
        #expect(skipped.values.allSatisfy { $0.status == "skip" || $0.status == "skipped" })
        #expect(skipped.values.allSatisfy { $0.reason == "up to date" })
    }

    @Test func oneChangedDepByteRerunsExactlyDownstream() throws {
        let repo = try chainRepository()
        #expect(repo.run().code == 0)
        try repo.write("fixtures/b.txt", "b2\n")

        let status = repo.status()
        #expect(status.code == 1)
        let lines = statusLines(status.stdout)
        #expect(lines["a"] == "ok    up to date")
        #expect(lines["b"] == "run   dep fixtures/b.txt changed")
        #expect(lines["c"] == "wait  after b (skipped if its outputs do not change)")
        #expect(lines["d"] == "ok    up to date")

        let run = repo.run()
        let result = outcomes(run.stdout)
        #expect(result["a"]?.status == "skipped")
        #expect(result["b"]?.status == "ran")
        #expect(result["b"]?.reason == "dep fixtures/b.txt changed")
        #expect(result["c"]?.status == "ran")
        #expect(result["c"]?.reason == "dep out/b.txt changed")
        #expect(result["d"]?.status == "skipped")
        #expect(repo.read("out/c.txt") == "> ABC\n> b2\n")
        #expect(repo.status().code == 0)
    }

    @Test func unchangedOutputsStopTheRerun() throws {
        let repo = try chainRepository()
        #expect(repo.run().code == 0)
        let lockBefore = repo.read("pipeline/pipeline.lock.json")
        try repo.write("fixtures/a.txt", "ABC\n")

        let run = repo.run()
        let result = outcomes(run.stdout)
        #expect(result["a"]?.status == "ran")
        #expect(result["b"]?.status == "skipped")
        #expect(result["b"]?.reason == "early cutoff: outputs of a unchanged")
        #expect(result["c"]?.status == "skipped")
        #expect(result["c"]?.reason == "up to date")
        // Only a's dep hash (and so its key) changed in the lock.
        let lockAfter = repo.read("pipeline/pipeline.lock.json") ?? ""
        #expect(lockAfter != lockBefore)
        let before = try PipelineLock.decode(Data((lockBefore ?? "").utf8), path: "lock")
        let after = try PipelineLock.decode(Data(lockAfter.utf8), path: "lock")
        #expect(before.stages["b"] == after.stages["b"])
        #expect(before.stages["a"]?.outs == after.stages["a"]?.outs)
        #expect(before.stages["a"]?.key != after.stages["a"]?.key)
    }

    @Test func aFolderDepNamesTheFileThatChanged() throws {
        let repo = try TestRepository()
        try repo.spec(
            """
            stages:
              n:
                cmd: [/bin/sh, -c, 'cat fixtures/ref/*.csv > "$1"', sh, "${out}"]
                deps: [fixtures/ref]
                outs: [out/n.txt]

            """)
        try repo.write("fixtures/ref/teams.csv", "t\n")
        try repo.write("fixtures/ref/stadiums.csv", "s\n")
        #expect(repo.run().code == 0)
        try repo.write("fixtures/ref/teams.csv", "t2\n")
        #expect(statusLines(repo.status().stdout)["n"] == "run   dep fixtures/ref/teams.csv changed")
        try repo.write("fixtures/ref/aliases.csv", "a\n")
        try repo.remove("fixtures/ref/stadiums.csv")
        #expect(
            statusLines(repo.status().stdout)["n"]
                == "run   dep fixtures/ref/aliases.csv added, dep fixtures/ref/stadiums.csv removed, dep fixtures/ref/teams.csv changed")
        let run = repo.run()
        #expect(outcomes(run.stdout)["n"]?.status == "ran")
        #expect(repo.read("out/n.txt") == "a\nt2\n")
    }

    @Test func paramCodeAndCommandChangesAreNamed() throws {
        let repo = try TestRepository()
        func spec(_ n: String, extra: String = "") throws {
            try repo.spec(
                """
                stages:
                  p:
                    cmd: [/bin/sh, -c, 'echo "$2" > "$1"\(extra)', sh, "${out}", "${params.n}"]
                    params: {n: \(n)}
                    code: [src]
                    outs: [out/p.txt]

                """)
        }
        try repo.write("src/tool.txt", "v1\n")
        try spec("1")
        #expect(repo.run().code == 0)
        try spec("2")
        #expect(statusLines(repo.status().stdout)["p"] == "run   cmd changed, param n changed (1 → 2)")
        #expect(repo.run().code == 0)
        #expect(repo.read("out/p.txt") == "2\n")
        try repo.write("src/tool.txt", "v2\n")
        #expect(statusLines(repo.status().stdout)["p"] == "run   code changed (src)")
        #expect(repo.run().code == 0)
        try spec("2", extra: " # a comment")
        #expect(statusLines(repo.status().stdout)["p"] == "run   cmd changed")
    }

    /// `pipeline/params.yaml`: a stage's key covers the shared params it uses and no others; its own
    /// param of the same name wins; a stage param may be built from a shared one.
    @Test func sharedParamsReRunOnlyTheStagesThatUseThem() throws {
        let repo = try TestRepository()
        try repo.spec(
            """
            stages:
              a:
                cmd: [/bin/sh, -c, 'echo "$2" > "$1"', sh, "${out}", "${params.season}"]
                outs: [out/a.txt]
              b:
                cmd: [/bin/sh, -c, 'echo "$2" > "$1"', sh, "${out}", "${params.label}"]
                params: {label: "league ${params.league}"}
                outs: [out/b.txt]
              c:
                cmd: [/bin/sh, -c, 'echo "$2" > "$1"', sh, "${out}", "${params.season}"]
                params: {season: own}
                outs: [out/c.txt]
              d:
                cmd: [/bin/sh, -c, 'cat "$2"/* > "$1"', sh, "${out}", "${params.data}"]
                deps: ["${params.data}"]
                outs: [out/d.txt]

            """)
        try repo.write("fixtures/one/x.txt", "one\n")
        try repo.write("fixtures/two/x.txt", "two\n")
        try repo.write("pipeline/params.yaml", "# shared\nseason: 2023\nleague: mlb\nunused: true\ndata: fixtures/one\n")
        #expect(repo.run().code == 0)
        #expect(repo.read("out/d.txt") == "one\n")
        #expect(repo.read("out/a.txt") == "2023\n")
        #expect(repo.read("out/b.txt") == "league mlb\n")
        #expect(repo.read("out/c.txt") == "own\n")

        try repo.write("pipeline/params.yaml", "season: 2024\nleague: mlb\nunused: false\ndata: fixtures/one\n")
        var lines = statusLines(repo.status().stdout)
        #expect(lines["a"] == "run   cmd changed, param season changed (2023 → 2024)")
        #expect(lines["b"]?.hasPrefix("ok") == true)
        #expect(lines["c"]?.hasPrefix("ok") == true)
        #expect(repo.run().code == 0)
        #expect(repo.read("out/a.txt") == "2024\n")

        // A dep named by a shared param follows it.
        try repo.write("pipeline/params.yaml", "season: 2024\nleague: nba\ndata: fixtures/two\n")
        #expect(statusLines(repo.status().stdout)["d"]?.hasPrefix("run   cmd changed") == true)
        lines = statusLines(repo.status().stdout)
        #expect(lines["a"]?.hasPrefix("ok") == true)
        #expect(lines["b"] == "run   cmd changed, param label changed (league mlb → league nba), param league changed (mlb → nba)")
        #expect(repo.run().code == 0)
        #expect(repo.read("out/b.txt") == "league nba\n")
        #expect(repo.read("out/d.txt") == "two\n")
        try repo.write("fixtures/one/x.txt", "one, edited\n")
        #expect(statusLines(repo.status().stdout)["d"]?.hasPrefix("ok") == true)

        // A name no one defines is an error at its use, naming both places it could be defined.
        try repo.write("pipeline/params.yaml", "season: 2024\ndata: fixtures/two\n")
        let missing = repo.status()
        #expect(missing.code == 2)
        #expect(missing.stderr.contains("pipeline/pipeline.yaml:7:"))
        #expect(missing.stderr.contains("param 'label' uses ${params.league}, but pipeline/params.yaml does not define 'league'"))

        // A list as a value is refused at its line; so is a bad name.
        try repo.write("pipeline/params.yaml", "season: 2024\nleague: [mlb, nba]\ndata: fixtures/two\n")
        let list = repo.status()
        #expect(list.code == 2)
        #expect(list.stderr.contains("pipeline/params.yaml:2:"), "\(list.stderr)")
        #expect(list.stderr.contains("not a list or a mapping"))
        try repo.write("pipeline/params.yaml", "season: 2024\nleague: mlb\ndata: fixtures/two\nbad name: 1\n")
        let name = repo.status()
        #expect(name.code == 2)
        #expect(name.stderr.contains("pipeline/params.yaml:4:1: error: param name 'bad name'"), "\(name.stderr)")

        // Without the file, the shared names are unknown again; a comments-only file has no params.
        try repo.write("pipeline/params.yaml", "# nothing yet\n")
        #expect(repo.status().code == 2)
    }

    @Test func modifiedOrMissingOutputsAreRestored() throws {
        let repo = try chainRepository()
        #expect(repo.run().code == 0)
        try repo.write("out/d.txt", "edited by hand\n")
        #expect(statusLines(repo.status().stdout)["d"] == "run   output out/d.txt modified since the last run")
        #expect(repo.run().code == 0)
        #expect(repo.read("out/d.txt") == "d1\n")
        try repo.remove("out/a")
        let lines = statusLines(repo.status().stdout)
        #expect(lines["a"] == "run   output out/a missing")
        #expect(lines["b"] == "run   dep out/a changed")
        #expect(repo.run().code == 0)
        #expect(repo.status().code == 0)
    }

    /// Writes `file`'s current stat into both caches beside what they recorded for it (the old hash,
    /// the old verdict), as if a same-size edit had landed in the clock tick in which it was hashed;
    /// with `stamp`, the caches also claim to have been written at that file-system time.
    private func doctorCaches(_ repo: TestRepository, file: String, stamp: Int64? = nil) throws {
        let now = try #require(FileStatus(path: repo.url(file).path))
        let fields = ["\(now.size)", "\(now.modified)", "\(now.changed)", "\(now.inode)"]
        for cache in [".pipeline/cache/file-hashes.tsv", StatSnapshot.path] {
            let text = try #require(repo.read(cache))
            let doctored = text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
                if let stamp, line.hasPrefix("stamp ") { return "stamp \(stamp)" }
                if let stamp, line.hasPrefix("sportstime file hashes") { return "sportstime file hashes 3\t\(stamp)" }
                guard line.hasSuffix("\t" + file) else { return String(line) }
                var parts = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
                parts.replaceSubrange(1..<5, with: fields)
                return parts.joined(separator: "\t")
            }.joined(separator: "\n")
            #expect(doctored != text, "\(cache) records \(file)")
            try repo.write(cache, doctored)
        }
    }

    @Test func aSameSizeEditWithinTheRacyWindowIsStillCaught() throws {
        let repo = try chainRepository()
        #expect(repo.run().code == 0)
        try repo.settle()
        #expect(repo.status().code == 0)
        // Size, mtime, ctime and inode as the caches record them, but the times are not older than the
        // caches' stamps: racily clean, so neither cache is trusted and the file is read again.
        try repo.shell("printf 'd2\\n' > fixtures/d.txt")
        try doctorCaches(repo, file: "fixtures/d.txt")
        #expect(StatSnapshot.confirm(root: repo.root) == nil)
        #expect(statusLines(repo.status().stdout)["d"] == "run   dep fixtures/d.txt changed")
        #expect(repo.run().code == 0)
        #expect(repo.read("out/d.txt") == "d2\n")

        // Outside the racy window the stat is trusted, as git trusts its index: the same doctoring with
        // caches stamped after the edit is believed without reading the file (so an unchanged tree is
        // confirmed without reading files). Any later change of the stat is seen again.
        try repo.settle()
        #expect(repo.status().code == 0)
        try repo.shell("printf 'd5\\n' > fixtures/d.txt")
        try repo.settle()
        let stamp = try #require(StatClock.stamp(root: repo.root))
        try doctorCaches(repo, file: "fixtures/d.txt", stamp: stamp)
        #expect(StatSnapshot.confirm(root: repo.root) != nil)
        #expect(repo.status().code == 0)
        try repo.shell("touch fixtures/d.txt")
        #expect(statusLines(repo.status().stdout)["d"] == "run   dep fixtures/d.txt changed")
    }

    @Test func anEditAfterTheRacyWindowIsCaughtAndATouchAloneRunsNothing() throws {
        let repo = try chainRepository()
        #expect(repo.run().code == 0)
        try repo.settle()
        #expect(repo.status().code == 0)
        #expect(StatSnapshot.confirm(root: repo.root) != nil, "an unchanged, settled tree is confirmed by stat")
        // A touch: the stat differs, the content is the same; nothing runs.
        try repo.shell("touch fixtures/d.txt fixtures/a.txt")
        #expect(StatSnapshot.confirm(root: repo.root) == nil)
        #expect(repo.status().code == 0)
        let touched = repo.run()
        #expect(touched.code == 0)
        #expect(outcomes(touched.stdout).values.allSatisfy { $0.status == "skipped" })
        // A same-size edit with an old mtime set back: ctime still moves.
        try repo.settle()
        #expect(repo.status().code == 0)
        try repo.shell("printf 'd3\\n' > fixtures/d.txt && touch -d '2001-01-01 00:00:00' fixtures/d.txt")
        #expect(statusLines(repo.status().stdout)["d"] == "run   dep fixtures/d.txt changed")
        #expect(repo.run().code == 0)
        // A same-size edit after the window, mtime changed.
        try repo.settle()
        #expect(repo.status().code == 0)
        #expect(StatSnapshot.confirm(root: repo.root) != nil)
        try repo.shell("printf 'd4\\n' > fixtures/d.txt")
        #expect(StatSnapshot.confirm(root: repo.root) == nil)
        #expect(statusLines(repo.status().stdout)["d"] == "run   dep fixtures/d.txt changed")
        let run = repo.run()
        #expect(outcomes(run.stdout)["d"]?.status == "ran")
        #expect(repo.read("out/d.txt") == "d4\n")
    }

    @Test func aNoOpRunConfirmedByStatPrintsEveryStageAsSkipped() throws {
        let repo = try chainRepository()
        #expect(repo.run().code == 0)
        try repo.settle()
        let status = repo.status()
        #expect(status.code == 0)
        #expect(StatSnapshot.confirm(root: repo.root) != nil)
        #expect(repo.status().stdout == status.stdout, "the confirmed status prints what the full one printed")
        let lock = repo.read("pipeline/pipeline.lock.json")
        let run = repo.run()
        #expect(run.code == 0)
        #expect(outcomes(run.stdout).mapValues(\.status) == ["a": "skipped", "b": "skipped", "c": "skipped", "d": "skipped"])
        #expect(run.stdout.contains("4 stages: 0 ran, 4 skipped, 0 failed, 0 not run in "))
        #expect(repo.read("pipeline/pipeline.lock.json") == lock)
        // A new file inside a dep folder changes the folder's stat: the snapshot no longer confirms.
        try repo.write("out/a/extra.txt", "x\n")
        #expect(StatSnapshot.confirm(root: repo.root) == nil)
        #expect(statusLines(repo.status().stdout)["a"] == "run   output out/a modified since the last run")
    }

    @Test func forceRunsAnUpToDateStage() throws {
        let repo = try chainRepository()
        #expect(repo.run().code == 0)
        let run = repo.run(["d"], force: true)
        #expect(outcomes(run.stdout)["d"]?.status == "ran")
        #expect(outcomes(run.stdout)["d"]?.reason == "forced")
        #expect(outcomes(run.stdout).count == 1)
    }

    @Test func keysDoNotDependOnWhereTheRepositoryIs() throws {
        let first = try chainRepository()
        let second = try chainRepository()
        #expect(first.run().code == 0)
        #expect(second.run().code == 0)
        let lock = first.read("pipeline/pipeline.lock.json")
        #expect(lock != nil)
        #expect(lock == second.read("pipeline/pipeline.lock.json"))
        #expect(lock?.contains(first.root.path) == false)
        #expect(lock?.contains("tmp") == false)
    }
}
