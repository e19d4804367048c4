import Foundation
import Testing
@testable import SportsTimeRunner
import SportsTimeCore

/// What a stage gets besides its argv (standard input, descriptors), and files in out/ no stage owns.
@Suite struct StageIOTests {
    @Test func aStageReadsEmptyStandardInputAndHoldsTheLockAsDescriptor3() throws {
        let repo = try TestRepository()
        try repo.spec("""
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
        #expect(status.stdout.contains(
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
        try repo.spec("""
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
        #expect(run.stderr.contains("out/a.txt: error: a file no stage wrote is in the way of out 'out/a.txt' of stage 'a', so the stage did not run. Delete it (or move it out of the way) and run again"))
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
}
