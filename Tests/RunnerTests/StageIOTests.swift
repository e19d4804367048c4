import Foundation
import Testing
@testable import SportsTimeRunner
import SportsTimeCore

/// What a stage gets besides its argv (standard input, descriptors), and files in out/ no stage owns.
@Suite struct StageIOTests {
    @Test func aStageReadsEmptyStandardInputAndHoldsTheLockAsDescriptor3() throws {
        let repo = try TestRepository()
        try repo.spec(
            """
            stages:
              a:
                cmd: [/bin/sh, -c, 'cat > "$1"; ls /proc/$$/fd | sort -n | tr "\\n" " " >&2; readlink /proc/$$/fd/3 >&2; cat <&3 >&2', sh, "${out}"]
                outs: [out/a.txt]

            """)
        let run = repo.run()
        #expect(run.code == 0)
        #expect(repo.read("out/a.txt") == "", "a stage's standard input is /dev/null, not the workspace lock")
        #if os(Linux)
            // 0, 1, 2, the lock, and whatever the listing itself opens; nothing else of the runner's.
            #expect(run.stderr.contains("a | 0 1 2 3 "))
            #expect(run.stderr.contains(repo.url(".pipeline/lock").path))
            #expect(run.stderr.contains("a | stage a pid "), "who holds the lock is written in the lock file")
        #endif
    }

    @Test func statusListsFilesInOutThatNoStageOwns() throws {
        let repo = try chainRepository()
        #expect(repo.run().code == 0)
        try repo.write("out/notes.txt", "by hand\n")
        try repo.write("out/a/.hidden", "skipped\n")
        let status = repo.status()
        #expect(status.code == 0, "a stray does not make outputs stale")
        #expect(
            status.stdout.contains(
                "out/notes.txt  stray  no stage writes it. Delete it, or list it under a stage's outs in pipeline/pipeline.yaml."))
        #expect(status.stdout.contains("up to date: 0 to run, 0 waiting, 4 up to date, 1 stray file in out folders."))
        #expect(!status.stdout.contains(".hidden"))
        // A confirmed status (from the stat snapshot) says the same.
        try repo.settle()
        let first = repo.status()
        #expect(repo.status().stdout == first.stdout)
        #expect(first.stdout.contains("out/notes.txt  stray"))
    }

    @Test func runRefusesToPublishOverAFileNoStageWrote() throws {
        let repo = try TestRepository()
        try repo.spec(
            """
            stages:
              a:
                cmd: [/bin/sh, -c, 'echo new > "$1"', sh, "${out}"]
                outs: [out/a.txt]
              b:
                cmd: [/bin/sh, -c, 'echo b > "$1"', sh, "${out}"]
                outs: [out/b.txt]

            """)
        try repo.write("out/a.txt", "written by hand\n")
        #expect(repo.status().stdout.contains("out/a.txt  stray"))
        let run = repo.run()
        #expect(run.code == 1)
        #expect(
            run.stderr.contains(
                "out/a.txt: error: a file no stage wrote is in the way of out 'out/a.txt' of stage 'a', so the stage did not run. Delete it (or move it out of the way) and run again"
            ))
        #expect(outcomes(run.stdout)["a"]?.status == "failed")
        #expect(repo.read("out/a.txt") == "written by hand\n")
        try repo.remove("out/a.txt")
        #expect(repo.run().code == 0)
        #expect(repo.read("out/a.txt") == "new\n")
        // Once a stage wrote it, it is the stage's: a hand edit is restored as before.
        try repo.write("out/a.txt", "edited\n")
        #expect(repo.run().code == 0)
        #expect(repo.read("out/a.txt") == "new\n")
    }

    @Test func outsThatAreNotEnvelopesArePublishedUncheckedOrAgainstTheStagesOwnSchema() throws {
        let repo = try TestRepository()
        try repo.write(
            "tools/report.schema.json",
            """
            {"type": "object", "required": ["total"], "properties": {"total": {"type": "integer"}}}
            """)
        func spec(_ total: String) throws {
            try repo.spec(
                """
                stages:
                  plain:
                    cmd: [/bin/sh, -c, 'echo "{\\"anything\\": 1}" > "$1"', sh, "${out}"]
                    outs: [{path: out/plain.json, validate: false}]
                  report:
                    cmd: [/bin/sh, -c, 'echo "{\\"total\\": \(total)}" > "$1"', sh, "${out}"]
                    outs:
                      - path: out/report.json
                        schema: tools/report.schema.json

                """)
        }
        try spec("3")
        let run = repo.run()
        #expect(run.code == 0, "\(run.stderr)")
        #expect(repo.read("out/plain.json") == "{\"anything\": 1}\n")
        #expect(repo.read("out/report.json") == "{\"total\": 3}\n")
        #expect(repo.status().code == 0)
        // `sportstime validate` checks them as the spec declares them.
        let check = ArtifactCheck(root: repo.root).check(["out"])
        #expect(check.problems.isEmpty, "\(check.problems)")
        #expect(check.files == 1)
        // Invalid against its schema: not published, located at the file.
        try spec("\\\"three\\\"")
        let bad = repo.run()
        #expect(bad.code == 1)
        #expect(bad.stderr.contains("out/report.json:1: error: "))
        #expect(bad.stderr.contains("(tools/report.schema.json)"))
        #expect(repo.read("out/report.json") == "{\"total\": 3}\n")
        // The schema's content is part of the stage's key.
        try spec("3")
        #expect(repo.run().code == 0)
        try repo.write(
            "tools/report.schema.json",
            """
            {"type": "object", "required": ["total"], "properties": {"total": {"type": "number"}}}
            """)
        #expect(statusLines(repo.status().stdout)["report"] == "run   code changed (tools/report.schema.json)")
    }

    @Test func anOutsSchemaMustExistAndCannotBeCombinedWithValidateFalse() throws {
        let repo = try TestRepository()
        try repo.spec(
            """
            stages:
              a:
                cmd: [/bin/sh, -c, 'echo 1 > "$1"', sh, "${out}"]
                outs: [{path: out/a.json, schema: tools/missing.json}]
              b:
                cmd: [/bin/sh, -c, 'echo 1 > "$1"', sh, "${out}"]
                outs: [{path: out/b.json, validate: false, schema: tools/b.json}]

            """)
        let run = repo.run()
        #expect(run.code == 2)
        #expect(
            run.stderr.contains(
                "pipeline/pipeline.yaml:7:48: error: out 'out/b.json' has both validate: false and a schema. Keep the schema"))
        try repo.spec(
            """
            stages:
              a:
                cmd: [/bin/sh, -c, 'echo 1 > "$1"', sh, "${out}"]
                outs: [{path: out/a.json, schema: tools/missing.json}]

            """)
        let missing = repo.status()
        #expect(missing.code == 2)
        #expect(missing.stderr.contains("pipeline/pipeline.yaml:4:"))
        #expect(
            missing.stderr.contains(
                "error: schema 'tools/missing.json' of out 'out/a.json' does not exist. Write the JSON Schema there, or fix the path."))
    }
}
