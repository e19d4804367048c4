import Foundation
import Testing
@testable import SportsTimeRunner
import SportsTimeCore

/// A merge-like stage copies season files into out/merge; a plan-like fan-out reads the sports file and
/// its sport's seasons only, and says so through ${depfile} (as sportstime-plan does).
let depfileSpec = """
    stages:
      merge:
        cmd: [/bin/sh, -c, 'mkdir -p "$1/games" && cp src/games/*.txt "$1/games/" && cp src/sports.txt src/report.txt "$1/"', sh, "${out}"]
        deps: [src]
        outs: [out/merge]
      plan:
        foreach: [mlb, nba]
        cmd: [/bin/sh, -c, 'cat out/merge/sports.txt out/merge/games/$2-*.txt > "$1" && printf "out/merge/sports.txt\\nout/merge/games/$2-*.txt\\n" > "$3"',
              sh, "${out}", "${item}", "${depfile}"]
        deps: [out/merge]
        outs: ["out/plan/${item}.txt"]

    """

@Suite struct DepfileTests {
    static func repository() throws -> TestRepository {
        let repo = try TestRepository()
        try repo.spec(depfileSpec)
        try repo.write("src/sports.txt", "mlb nba\n")
        try repo.write("src/report.txt", "merged 4 games\n")
        try repo.write("src/games/mlb-2023.txt", "mlb 2023 game 1\n")
        try repo.write("src/games/nba-2025-26.txt", "nba 2025-26 game 1\n")
        let first = repo.run()
        #expect(first.code == 0, "\(first.stderr)")
        return repo
    }

    @Test func theLockRecordsWhatEachInstanceRead() throws {
        let repo = try Self.repository()
        let lock = try PipelineLock.decode(Data(try #require(repo.read("pipeline/pipeline.lock.json")).utf8), path: "lock")
        let entry = try #require(lock.stages["plan@nba"])
        #expect(entry.reads == ["out/merge/games/nba-*.txt", "out/merge/sports.txt"])
        #expect(Set(entry.deps.keys) == ["out/merge/games/nba-*.txt", "out/merge/sports.txt"])
        #expect(lock.stages["merge"]?.reads == nil)
        #expect(repo.read("pipeline/pipeline.lock.json")!.contains("\"reads\": [\n        \"out/merge/games/nba-*.txt\",\n"))
        // No depfile is left behind, and nothing was taken for a file beside the outs.
        #expect(!repo.exists(".pipeline/staging"))
        let again = repo.run()
        #expect(outcomes(again.stdout)["plan@nba"]?.reason == "up to date")
    }

    @Test func changingOneSportsFileRunsOnlyThatSportsInstances() throws {
        let repo = try Self.repository()
        try repo.write("src/games/mlb-2023.txt", "mlb 2023 game 1 (moved)\n")
        try repo.write("src/report.txt", "merged 4 games, one moved\n")
        let status = statusLines(repo.status().stdout)
        #expect(status["merge"]?.hasPrefix("run") == true)
        let result = repo.run()
        #expect(result.code == 0, "\(result.stderr)")
        let ran = outcomes(result.stdout)
        #expect(ran["merge"]?.status == "ran")
        #expect(ran["plan@mlb"]?.status == "ran")
        #expect(ran["plan@mlb"]?.reason == "dep out/merge/games/mlb-2023.txt changed")
        #expect(ran["plan@nba"]?.status == "skipped")
        #expect(ran["plan@nba"]?.reason == "early cutoff: what it read of the outputs of merge is unchanged")
        #expect(repo.read("out/plan/mlb.txt") == "mlb nba\nmlb 2023 game 1 (moved)\n")
    }

    @Test func aNewSeasonFileRunsTheInstancesItsGlobCovers() throws {
        let repo = try Self.repository()
        try repo.write("src/games/nba-2026-27.txt", "nba 2026-27 game 1\n")
        let result = repo.run()
        let ran = outcomes(result.stdout)
        #expect(ran["plan@nba"]?.status == "ran")
        #expect(ran["plan@nba"]?.reason == "dep out/merge/games/nba-2026-27.txt added")
        #expect(ran["plan@mlb"]?.status == "skipped")
        #expect(repo.read("out/plan/nba.txt") == "mlb nba\nnba 2025-26 game 1\nnba 2026-27 game 1\n")
        // A season file that goes away runs them again too.
        try repo.remove("src/games/nba-2026-27.txt")
        let after = outcomes(repo.run().stdout)
        #expect(after["plan@nba"]?.reason == "dep out/merge/games/nba-2026-27.txt removed")
        #expect(after["plan@mlb"]?.status == "skipped")
    }

    @Test func statusNamesTheReadFileThatChanged() throws {
        let repo = try Self.repository()
        try repo.write("src/sports.txt", "mlb nba nhl\n")
        #expect(repo.run(["merge"]).code == 0)
        let status = statusLines(repo.status().stdout)
        #expect(status["merge"] == "ok    up to date")
        #expect(status["plan@mlb"] == "run   dep out/merge/sports.txt changed")
        #expect(status["plan@nba"] == "run   dep out/merge/sports.txt changed")
    }

    @Test func aForcedRunKeysByTheReadsItReports() throws {
        let repo = try Self.repository()
        let before = repo.read("pipeline/pipeline.lock.json")
        #expect(repo.run(force: true).code == 0)
        #expect(repo.read("pipeline/pipeline.lock.json") == before)
    }

    @Test func aDepfileNamingAPathOutsideTheDepsFailsTheStage() throws {
        let repo = try TestRepository()
        try repo.spec(
            """
            stages:
              a:
                cmd: [/bin/sh, -c, 'cp src/a.txt "$1" && echo src/b.txt > "$2"', sh, "${out}", "${depfile}"]
                deps: [src/a.txt]
                outs: [out/a.txt]

            """)
        try repo.write("src/a.txt", "a\n")
        try repo.write("src/b.txt", "b\n")
        let result = repo.run()
        #expect(result.code == 1)
        #expect(
            result.stderr.contains(
                "a: error: its depfile .pipeline/staging/a.deps, line 1: the stage reports reading 'src/b.txt', which none of its deps holds (deps: src/a.txt); outputs were not published. Add it (or a folder holding it) to the stage's deps in pipeline/pipeline.yaml."
            ), "\(result.stderr)")
        #expect(!repo.exists("out/a.txt"))
        #expect(!repo.exists("pipeline/pipeline.lock.json") || !repo.read("pipeline/pipeline.lock.json")!.contains("\"a\""))
    }

    @Test func aStageThatWritesNoDepfileFails() throws {
        let repo = try TestRepository()
        try repo.spec(
            """
            stages:
              a:
                cmd: [/bin/sh, -c, 'cp src/a.txt "$1"', sh, "${out}", "${depfile}"]
                deps: [src/a.txt]
                outs: [out/a.txt]

            """)
        try repo.write("src/a.txt", "a\n")
        let result = repo.run()
        #expect(result.code == 1)
        #expect(result.stderr.contains("a: error: the stage did not write its depfile .pipeline/staging/a.deps"), "\(result.stderr)")
        #expect(!repo.exists("out/a.txt"))
    }

    @Test func parsingAndNarrowing() {
        #expect(
            Depfile.parse("# read\nout/merge/x.json\n\n./out/merge/games/a-*.json\n", deps: ["out/merge"])
                == .success(["out/merge/games/a-*.json", "out/merge/x.json"]))
        // A depfile written with CRLF line ends (a tool on Windows) reads the same.
        #expect(
            Depfile.parse("# read\r\nout/merge/x.json\r\n\r\n./out/merge/games/a-*.json\r\n", deps: ["out/merge"])
                == .success(["out/merge/games/a-*.json", "out/merge/x.json"]))
        if case .failure(let problem) = Depfile.parse("out/ok.json\r\n../x\r\n", deps: ["out"]) {
            #expect(problem.message == "line 2: the path '../x' leaves the repository")
        } else {
            Issue.record("accepted a path leaving the repository")
        }
        if case .failure(let problem) = Depfile.parse("out/*/x.json\n", deps: ["out"]) {
            #expect(problem.message.contains("has a '*' outside its last part"))
        } else {
            Issue.record("accepted a '*' in a folder")
        }
        if case .failure(let problem) = Depfile.parse("../x\n", deps: ["out"]) {
            #expect(problem.message == "line 1: the path '../x' leaves the repository")
        } else {
            Issue.record("accepted a path leaving the repository")
        }
        #expect(
            Depfile.narrowed(deps: ["out/merge", "req.yaml"], reads: ["out/merge/a.json", "req.yaml"]) == ["out/merge/a.json", "req.yaml"])
        #expect(Depfile.narrowed(deps: ["out/merge", "req.yaml"], reads: ["out/merge"]) == ["out/merge", "req.yaml"])
        #expect(Depfile.narrowed(deps: ["out/merge"], reads: nil) == ["out/merge"])
        #expect(Depfile.matches("mlb-2023.json", pattern: "mlb-*.json"))
        #expect(!Depfile.matches("mlbx-2023.json", pattern: "mlb-*.json"))
        #expect(!Depfile.matches("mlb-.jso", pattern: "mlb-*.json"))
    }
}
