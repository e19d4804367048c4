import Foundation
import Testing
@testable import SportsTimeRunner
import SportsTimeCore

@Suite struct RunBehaviourTests {
    @Test func aFailedStageLeavesOutputsAndLockAsTheyWere() throws {
        let repo = try chainRepository()
        #expect(repo.run().code == 0)
        let out = repo.snapshot("out")
        let lock = repo.read("pipeline/pipeline.lock.json")
        try repo.write("fixtures/b.txt", "b2\n")
        try repo.spec(
            chainSpec.replacingOccurrences(
                of: "cat out/a/a.txt fixtures/b.txt > \"$1\"",
                with: "echo partial > \"$1\"; echo broken >&2; exit 3"))
        let run = repo.run()
        #expect(run.code == 1)
        #expect(run.stderr.contains("  b | broken"))
        #expect(run.stderr.contains("b: error: the stage exited with status 3; outputs were not published"))
        let result = outcomes(run.stdout)
        #expect(result["b"]?.status == "failed")
        #expect(result["c"]?.status == "not run")
        #expect(result["c"]?.reason == "upstream b failed")
        #expect(repo.snapshot("out") == out)
        #expect(repo.read("pipeline/pipeline.lock.json") == lock)
        #expect(!repo.exists(".pipeline/staging/b"))
    }

    @Test func invalidArtifactsAreNotPublished() throws {
        let repo = try TestRepository()
        try repo.spec(
            """
            stages:
              s:
                cmd: [/bin/sh, -c, 'mkdir -p "$1" && cp fixtures/state.json "$1/sync-state.json"', sh, "${out}"]
                deps: [fixtures/state.json]
                outs: [out/s]

            """)
        try repo.write(
            "fixtures/state.json",
            envelopeText(
                kind: "sportstime.sync-state", stage: "s",
                records: [syncRecord("games", count: 3)]))
        #expect(repo.run().code == 0)
        let published = repo.snapshot("out")
        try repo.write(
            "fixtures/state.json",
            envelopeText(
                kind: "sportstime.sync-state", stage: "s",
                records: [syncRecord("games", count: 3), "{\"id\":\"teams\",\"recordCount\":\"many\"}"]))
        let run = repo.run()
        #expect(run.code == 1)
        #expect(
            run.stderr.contains(
                "s: out/s/sync-state.json:7: error: records[1].recordCount: expected integer, found string \"many\". "
                    + "Fix stage 's', or update pipeline/schemas/sportstime.sync-state.schema.json if the record type changed."),
            "\(run.stderr)")
        #expect(repo.snapshot("out") == published)

        try repo.write(
            "fixtures/state.json",
            envelopeText(kind: "sportstime.sync-state", stage: "s", records: [])
                .replacingOccurrences(of: "\"schemaVersion\": 1", with: "\"schemaVersion\": 9"))
        let newer = repo.run()
        #expect(newer.stderr.contains("schemaVersion 9 of sportstime.sync-state is not one this build supports (1 to 1)"))
        try repo.write("fixtures/state.json", "{\"kind\":\"sportstime.nonsense\",\"schemaVersion\":1,\"records\":[]}\n")
        #expect(repo.run().stderr.contains("kind 'sportstime.nonsense' is not a known artifact kind"))
        #expect(repo.snapshot("out") == published)
    }

    @Test func summaryCountsRecordsInOutAndRejected() throws {
        let repo = try TestRepository()
        try repo.spec(
            """
            stages:
              produce:
                cmd: [/bin/sh, -c, 'mkdir -p "$1" && cp fixtures/state.json "$1/state.json" && printf "{\\"reason\\":\\"bad\\"}\\n" > "$1/rejects.jsonl"', sh, "${out}"]
                deps: [fixtures/state.json]
                outs: [out/produce]
              consume:
                cmd: [/bin/sh, -c, 'cp out/produce/state.json "$1"', sh, "${out}"]
                deps: [out/produce]
                outs: [out/consume.json]

            """)
        try repo.write(
            "fixtures/state.json",
            envelopeText(
                kind: "sportstime.sync-state", stage: "produce",
                records: (1...1234).map { syncRecord("kind-\($0)", count: $0) }))
        let run = repo.run()
        #expect(run.code == 0, "\(run.stderr)")
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(lines[0].hasPrefix("[1/2] produce  ran     (never run)  "))
        #expect(lines[0].hasSuffix("s  in 1,234 out 1,234 rejected 1"))
        #expect(lines[1].hasPrefix("[2/2] consume  ran     (never run)  "))
        #expect(lines[1].hasSuffix("s  in 1,234 out 1,234 rejected 0"))
    }

    @Test func keepGoingRunsWhatDoesNotDependOnAFailure() throws {
        let repo = try chainRepository()
        try repo.spec(chainSpec.replacingOccurrences(of: "tr a-z A-Z < fixtures/a.txt > \"$1/a.txt\"", with: "exit 1"))
        let stopped = repo.run()
        #expect(stopped.code == 1)
        let first = outcomes(stopped.stdout)
        #expect(first["a"]?.status == "failed")
        #expect(first["d"]?.status == "not run")
        #expect(first["d"]?.reason == "stopped after a failure; --keep-going runs it anyway")
        let going = repo.run(keepGoing: true)
        #expect(going.code == 1)
        let second = outcomes(going.stdout)
        #expect(second["d"]?.status == "ran")
        #expect(second["b"]?.status == "not run")
        #expect(repo.read("out/d.txt") == "d1\n")
    }

    @Test func aSecondRunnerIsRefusedWhileTheWorkspaceIsLocked() throws {
        let repo = try chainRepository()
        let held = try WorkspaceLock(root: repo.root)
        let refused = repo.run()
        #expect(refused.code == 1)
        #expect(refused.stderr.contains(".pipeline/lock: error: another sportstime run is writing this workspace (runner pid \(getpid()))"))
        #expect(repo.status().code == 1)
        held.release()
        #expect(repo.run().code == 0)
    }

    @Test func fanOutFollowsTheFilesAndRemovesWhatWentAway() throws {
        let repo = try TestRepository()
        try repo.spec(
            """
            stages:
              plan:
                foreach: {glob: fixtures/requests/*.yaml}
                cmd: [/bin/sh, -c, 'tr a-z A-Z < "$2" > "$1"', sh, "${out}", "fixtures/requests/${item}.yaml"]
                deps: ["fixtures/requests/${item}.yaml"]
                outs: ["out/plan/${item}.txt"]
              render:
                cmd: [/bin/sh, -c, 'cat out/plan/*.txt > "$1"', sh, "${out}"]
                deps: [out/plan]
                outs: [out/render.txt]

            """)
        try repo.write("fixtures/requests/east.yaml", "east\n")
        try repo.write("fixtures/requests/west.yaml", "west\n")
        let first = repo.run()
        #expect(Set(outcomes(first.stdout).keys) == ["plan@east", "plan@west", "render"])
        #expect(repo.read("out/render.txt") == "EAST\nWEST\n")

        try repo.write("fixtures/requests/west.yaml", "west coast\n")
        let one = outcomes(repo.run().stdout)
        #expect(one["plan@east"]?.status == "skipped")
        #expect(one["plan@west"]?.status == "ran")
        #expect(one["render"]?.status == "ran")

        try repo.remove("fixtures/requests/east.yaml")
        try repo.write("fixtures/requests/north.yaml", "north\n")
        let lines = statusLines(repo.status().stdout)
        #expect(lines["plan@north"] == "run   never run")
        #expect(lines["plan@east"] == "gone  no longer in pipeline/pipeline.yaml; a full run removes out/plan/east.txt")
        let run = repo.run()
        #expect(
            run.stdout.contains("[-] plan@east   removed (no longer in pipeline/pipeline.yaml; removed out/plan/east.txt)"), "\(run.stdout)"
        )
        #expect(!repo.exists("out/plan/east.txt"))
        #expect(repo.read("out/render.txt") == "NORTH\nWEST COAST\n")
        #expect(repo.read("pipeline/pipeline.lock.json")?.contains("plan@east") == false)
        #expect(repo.status().code == 0)
    }

    @Test func selectionRunsOnlyTheNamedStages() throws {
        let repo = try chainRepository()
        #expect(Set(outcomes(repo.run(["b"]).stdout).keys) == ["b"])
        #expect(!repo.exists("out/b.txt") || repo.exists("out/a"))
        #expect(Set(outcomes(repo.run(["+b"]).stdout).keys) == ["a", "b"])
        #expect(Set(outcomes(repo.run(["a+"]).stdout).keys) == ["a", "b", "c"])
        let unknown = repo.run(["nope+"])
        #expect(unknown.code == 64)
        #expect(unknown.stderr.contains("error: no stage 'nope' in pipeline/pipeline.yaml. Stages: a, b, c, d"))
    }

    @Test func aMissingProgramFailsTheStageWithAFix() throws {
        let repo = try TestRepository()
        try repo.spec(
            """
            stages:
              x:
                cmd: [sportstime-no-such-stage, --out, "${out}"]
                outs: [out/x]

            """)
        let run = repo.run()
        #expect(run.code == 1)
        #expect(
            run.stderr.contains(
                "x: error: cannot find program 'sportstime-no-such-stage' next to sportstime or on PATH. "
                    + "Build it (make build) or fix cmd in pipeline/pipeline.yaml."))
    }

    @Test func aStageThatWritesNothingFails() throws {
        let repo = try TestRepository()
        try repo.spec(
            """
            stages:
              x:
                cmd: [/bin/sh, -c, 'echo "$1"', sh, "${out}"]
                outs: [out/x.json]

            """)
        let run = repo.run()
        #expect(run.code == 1)
        #expect(run.stderr.contains("x: error: the stage did not write out/x.json (expected at .pipeline/staging/x/out/x.json)."))
    }

    @Test func theRunReportIsWritten() throws {
        let repo = try chainRepository()
        #expect(repo.run().code == 0)
        try repo.write("fixtures/b.txt", "b2\n")
        let run = repo.run()
        #expect(run.stdout.hasSuffix("Report: .pipeline/runs/2/report.md\n"))
        let markdown = repo.read(".pipeline/runs/2/report.md") ?? ""
        #expect(markdown.contains("- status: **succeeded**"))
        #expect(markdown.contains("| `b` | ran | dep fixtures/b.txt changed |"))
        #expect(markdown.contains("| `a` | skipped | up to date |"))
        #expect(markdown.contains("`out/b.txt`"))
        let json = try JSONParser.parse(Data((repo.read(".pipeline/runs/2/report.json") ?? "").utf8))
        #expect(json["status"]?.stringValue == "succeeded")
        #expect(json["stages"]?.arrayValue?.count == 4)
        #expect(repo.read(".pipeline/runs/2/logs/b.log") != nil)
    }

    @Test func parallelJobsOverlapAndGiveIdenticalResults() throws {
        // Each instance marks itself running in markers/ and reports the most instances it saw running at
        // once during its life. It waits for a partner (up to PARTNER_WAIT tenths of a second) until some
        // instance has seen two at once (`overlapped`): with --jobs 2 the first two instances start
        // together, so one of them must see the other however loaded the machine, and no instance may ever
        // see three; with --jobs 1 (PARTNER_WAIT 0) none can see another. No clock is compared, and no
        // instance depends on catching a partner that may already have left.
        let spec = """
            stages:
              w:
                foreach: [one, two, three, four]
                cmd: [/bin/sh, -c, 'mkdir -p markers; touch "markers/$2"; n=0; max=$(ls markers | wc -l); while [ "$max" -lt 2 ] && [ ! -e overlapped ] && [ $n -lt "$PARTNER_WAIT" ]; do sleep 0.1; n=$((n+1)); c=$(ls markers | wc -l); [ "$c" -gt "$max" ] && max=$c; done; [ "$max" -ge 2 ] && touch overlapped; echo "beside $((max - 1))" >&2; echo "$2" > "$1"; rm "markers/$2"', sh, "${out}", "${item}"]
                outs: ["out/w/${item}.txt"]
              join:
                cmd: [/bin/sh, -c, 'cat out/w/*.txt > "$1"', sh, "${out}"]
                deps: [out/w]
                outs: [out/all.txt]

            """
        let serial = try TestRepository()
        let parallel = try TestRepository()
        try serial.spec(spec)
        try parallel.spec(spec)
        let one = serial.run(jobs: 1, environment: ["PARTNER_WAIT": "0"])
        let two = parallel.run(jobs: 2, environment: ["PARTNER_WAIT": "600"])
        #expect(one.code == 0 && two.code == 0)
        #expect(serial.snapshot("out") == parallel.snapshot("out"))
        #expect(serial.read("pipeline/pipeline.lock.json") == parallel.read("pipeline/pipeline.lock.json"))
        var overlapping = 0
        for item in ["one", "two", "three", "four"] {
            #expect(one.stderr.contains("  w@\(item) | beside 0\n"), "--jobs 1 ran w@\(item) beside another instance")
            // Output stays grouped per stage: each stage's line is printed as one block.
            let alone = two.stderr.contains("  w@\(item) | beside 0\n"), beside = two.stderr.contains("  w@\(item) | beside 1\n")
            #expect(alone != beside, "--jobs 2: w@\(item) saw none or more than one instance beside it:\n\(two.stderr)")
            if beside { overlapping += 1 }
        }
        #expect(overlapping >= 1, "--jobs 2 ran no two instances at once:\n\(two.stderr)")
    }
}

@Suite struct OutsTests {
    @Test func filesBesideTheOutsAreNamedAndNotPublished() throws {
        let repo = try TestRepository()
        try repo.spec(
            """
            stages:
              x:
                cmd: [/bin/sh, -c, 'echo x > "$1"; echo extra > "$2/extra.txt"', sh, "${out}", "${outs.0.dir}"]
                outs: [out/x.txt]

            """)
        let run = repo.run()
        #expect(run.code == 0)
        #expect(run.stderr.contains("  x | warning: wrote out/extra.txt, which is not in its outs; it was not published."))
        #expect(repo.exists("out/x.txt"))
        #expect(!repo.exists("out/extra.txt"))
    }

    @Test func anOutTheStageNoLongerListsIsRemoved() throws {
        let repo = try TestRepository()
        try repo.spec(
            """
            stages:
              x:
                cmd: [/bin/sh, -c, 'echo x > "$1"', sh, "${out}"]
                outs: [out/old.txt]

            """)
        #expect(repo.run().code == 0)
        try repo.spec(
            """
            stages:
              x:
                cmd: [/bin/sh, -c, 'echo x > "$1"', sh, "${out}"]
                outs: [out/new.txt]

            """)
        #expect(statusLines(repo.status().stdout)["x"] == "run   cmd changed, outs changed, output out/new.txt missing")
        let run = repo.run()
        #expect(outcomes(run.stdout)["x"]?.status == "ran")
        #expect(!repo.exists("out/old.txt"))
        #expect(repo.read("out/new.txt") == "x\n")
        #expect(repo.status().code == 0)
    }
}

@Suite struct EmptyFanoutTests {
    @Test func aFanOutWithNoItemsStillOwnsItsFolder() throws {
        let repo = try TestRepository()
        try repo.spec(
            """
            stages:
              plan:
                foreach: {glob: fixtures/requests/*.yaml}
                cmd: [/bin/sh, -c, 'cp "$2" "$1"', sh, "${out}", "fixtures/requests/${item}.yaml"]
                deps: ["fixtures/requests/${item}.yaml"]
                outs: ["out/plan/${item}.yaml"]
              render:
                cmd: [/bin/sh, -c, 'ls out/plan 2>/dev/null | wc -l > "$1"', sh, "${out}"]
                deps: [out/plan]
                outs: [out/render.txt]

            """)
        let first = repo.run()
        #expect(first.code == 0, "\(first.stderr)")
        #expect(Set(outcomes(first.stdout).keys) == ["render"])
        #expect(repo.read("out/render.txt")?.trimmingCharacters(in: .whitespacesAndNewlines) == "0")
        try repo.write("fixtures/requests/east.yaml", "east\n")
        let lines = statusLines(repo.status().stdout)
        #expect(lines["plan@east"] == "run   never run")
        #expect(lines["render"] == "wait  after plan@east (skipped if its outputs do not change)")
        #expect(repo.run().code == 0)
        #expect(repo.read("out/render.txt")?.trimmingCharacters(in: .whitespacesAndNewlines) == "1")
    }
}

/// The run report is written after every stage a run publishes, by hand-written lines: the bytes of its
/// Codable form, read back to the same value.
@Suite struct RunReportLineTests {
    @Test func theReportLineIsItsCodableForm() throws {
        var report = RunReport(run: 7, command: ["sportstime", "run", "--force"], started: "2026-11-27T08:00:00Z", selected: ["a", "b@x"])
        var full = StageOutcome(
            stage: "b@x", status: .failed, reason: "dep \"x\" changed", seconds: 0.051255464553833,
            recordsIn: 12, recordsOut: 10, rejected: 2, outputsChanged: ["out/b"], problems: ["error: line\nbreak"])
        full.filtered = 3
        report.stages = [StageOutcome(stage: "a", status: .notRun, reason: "up to date"), full]
        report.status = .interrupted
        report.seconds = 1.5
        for value in [report, RunReport(run: 1, command: [], started: "", selected: [])] {
            var line = JSONWriter()
            value.write(to: &line)
            var codable = JSONWriter()
            codable.value(try JSONValueEncoder.encode(value))
            #expect(line.text == codable.text)
            #expect(try CanonicalJSON.decode(RunReport.self, from: line.data) == value)
            #expect(try JSONValueDecoder.decode(RunReport.self, from: JSONParser.parse(line.data)) == value)
        }
    }
}
