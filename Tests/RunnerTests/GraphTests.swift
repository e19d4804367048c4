import Foundation
import SportsTimeTestSupport
import Testing
@testable import SportsTimeRunner
import SportsTimeCore

@Suite struct GraphTests {
    /// ingest@x, ingest@y → normalize → merge → plan@east, plan@west → render; docs on its own.
    static let spec = """
        code: [src/core]
        stages:
          docs:
            cmd: [/bin/true, "${out}"]
            outs: [out/docs.md]
          ingest:
            foreach: [x, y]
            cmd: [/bin/true, "${outs.0.dir}", "${item}"]
            deps: ["fixtures/scraped/${item}"]
            outs: ["out/ingest/${item}"]
            code: [src/ingest]
          normalize:
            cmd: [/bin/true, "${out}"]
            deps: [out/ingest, fixtures/reference]
            outs: [out/normalize]
          merge:
            cmd: [/bin/true, "${out}", "${params.mode}"]
            params: {mode: full}
            deps: [out/normalize, fixtures/reference]
            outs: [out/merge]
          plan:
            foreach: {items: [east, west]}
            cmd: [/bin/true, "${out}"]
            deps: [out/merge, "fixtures/requests/${item}.yaml"]
            outs: ["out/plan/${item}.json"]
          render:
            cmd: [/bin/true, "${out}"]
            deps: [out/plan, out/merge]
            outs: [out/render]

        """

    static func graph() throws -> PipelineGraph {
        try PipelineGraph.build(try SpecParser.parse(spec, path: "pipeline/pipeline.yaml")) { _ in nil }
    }

    func names(_ indices: Set<Int>, _ graph: PipelineGraph) -> [String] { indices.sorted().map { graph.stages[$0].name } }

    @Test func fanOutAndTopologicalOrder() throws {
        let graph = try Self.graph()
        #expect(graph.stages.map(\.name) == ["docs", "ingest@x", "ingest@y", "normalize", "merge", "plan@east", "plan@west", "render"])
        let ingest = graph.stages[1]
        #expect(ingest.argv == ["/bin/true", ".pipeline/staging/ingest@x/out/ingest", "x"])
        #expect(ingest.deps == ["fixtures/scraped/x"])
        #expect(ingest.code == ["src/core", "src/ingest"])
        #expect(graph.stages[4].argv == ["/bin/true", ".pipeline/staging/merge/out/merge", "full"])
        #expect(graph.upstream[3] == [1, 2])
        #expect(graph.upstream[7] == [4, 5, 6])
        #expect(graph.downstream[4] == [5, 6, 7])
    }

    @Test func selection() throws {
        let graph = try Self.graph()
        #expect(names(try StageSelection.select([], in: graph), graph).count == 8)
        #expect(names(try StageSelection.select(["merge"], in: graph), graph) == ["merge"])
        #expect(names(try StageSelection.select(["merge+"], in: graph), graph) == ["merge", "plan@east", "plan@west", "render"])
        #expect(names(try StageSelection.select(["+merge"], in: graph), graph) == ["ingest@x", "ingest@y", "normalize", "merge"])
        #expect(names(try StageSelection.select(["plan"], in: graph), graph) == ["plan@east", "plan@west"])
        #expect(
            names(try StageSelection.select(["+plan@west"], in: graph), graph)
                == ["ingest@x", "ingest@y", "normalize", "merge", "plan@west"])
        #expect(
            names(try StageSelection.select(["ingest@y+"], in: graph), graph)
                == ["ingest@y", "normalize", "merge", "plan@east", "plan@west", "render"])
        #expect(names(try StageSelection.select(["docs", "render"], in: graph), graph) == ["docs", "render"])
        do {
            _ = try StageSelection.select(["merg"], in: graph)
            Issue.record("accepted")
        } catch let error as PipelineError {
            #expect(error.exitCode == 64)
            #expect(error.description.contains("no stage 'merg'"))
        }
    }

    @Test func mermaid() throws {
        let text = MermaidGraph.render(try Self.graph())
        #expect(text.hasPrefix("flowchart LR\n  s0[\"docs\"]\n  s1[\"ingest@x\"]\n"))
        #expect(text.contains("  i0[(\"fixtures/reference\")]\n"))
        #expect(text.contains("  i0 --> s3\n"))
        #expect(text.contains("  s4 --> s7\n  s5 --> s7\n  s6 --> s7\n"))
        #expect(!MermaidGraph.render(try Self.graph(), showInputs: false).contains("fixtures"))
    }

    @Test func fingerprintsChangeWithEachInput() throws {
        let stage = try Self.graph().stages[4]
        let base = StageFingerprint(stage: stage, deps: ["out/normalize": "a", "fixtures/reference": "b"], code: ["src/core": "c"])
        var other = stage
        other.params["mode"] = "incremental"
        #expect(StageFingerprint(stage: other, deps: base.deps, code: base.code).key != base.key)
        #expect(StageFingerprint(stage: stage, deps: ["out/normalize": "a", "fixtures/reference": "B"], code: base.code).key != base.key)
        #expect(StageFingerprint(stage: stage, deps: base.deps, code: ["src/core": "C"]).key != base.key)
        #expect(StageFingerprint(stage: stage, deps: base.deps, code: base.code).key == base.key)
    }
}

/// Path containment decides which stage is upstream of which and what a run may touch; it compares bytes.
@Suite struct RepositoryPathTests {
    @Test func containmentIsByWholeFolderNames() {
        #expect(RepositoryPath.contains("out/merge", "out/merge"))
        #expect(RepositoryPath.contains("out/merge", "out/merge/games/mlb-2023.json"))
        #expect(!RepositoryPath.contains("out/merge", "out/merged"))
        #expect(!RepositoryPath.contains("out/merge", "out/merg"))
        #expect(!RepositoryPath.contains("out/merge/games", "out/merge"))
        #expect(RepositoryPath.contains("fixtures/scraped/caf\u{E9}", "fixtures/scraped/caf\u{E9}/a.csv"))
        #expect(RepositoryPath.overlaps("out", "out/plan/x.json") && RepositoryPath.overlaps("out/plan/x.json", "out"))
        #expect(!RepositoryPath.overlaps("out/plan", "out/render"))
    }

    @Test func cacheLinesSplitByByte() {
        #expect(TabSeparated.lines("a\tb\n\nc\u{E9}\t\t\n") == ["a\tb", "c\u{E9}\t\t"])
        #expect(TabSeparated.fields("c\u{E9}\t\t") == ["c\u{E9}", "", ""])
        #expect(TabSeparated.fields("h\t1\t2\tpath\twith\ttabs", maxSplits: 3) == ["h", "1", "2", "path\twith\ttabs"])
    }
}

@Suite struct LockTests {
    @Test func encodingIsSortedStableAndRoundTrips() throws {
        var lock = PipelineLock()
        lock.stages["normalize"] = LockEntry(
            cmd: ["sportstime-normalize", "--out", ".pipeline/staging/normalize/out/normalize"],
            code: ["Sources/SportsTimeNormalize": "c2", "Package.swift": "c1"],
            deps: ["out/ingest": "d2", "fixtures/reference": "d1"], key: "k",
            outs: ["out/normalize": "o1"], params: [:])
        lock.stages["ingest@a"] = LockEntry(
            cmd: ["x \"quoted\""], code: [:], deps: [:], key: "k2", outs: ["out/ingest/a": "o"],
            params: ["threshold": "5"])
        let text = String(decoding: lock.encoded(), as: UTF8.self)
        #expect(
            text == """
                {
                  "schemaVersion": 1,
                  "stages": {
                    "ingest@a": {
                      "cmd": ["x \\"quoted\\""],
                      "code": {},
                      "deps": {},
                      "key": "k2",
                      "outs": {
                        "out/ingest/a": "o"
                      },
                      "params": {
                        "threshold": "5"
                      }
                    },
                    "normalize": {
                      "cmd": ["sportstime-normalize", "--out", ".pipeline/staging/normalize/out/normalize"],
                      "code": {
                        "Package.swift": "c1",
                        "Sources/SportsTimeNormalize": "c2"
                      },
                      "deps": {
                        "fixtures/reference": "d1",
                        "out/ingest": "d2"
                      },
                      "key": "k",
                      "outs": {
                        "out/normalize": "o1"
                      },
                      "params": {}
                    }
                  }
                }

                """)
        #expect(try PipelineLock.decode(lock.encoded(), path: "lock") == lock)
        #expect(String(decoding: PipelineLock().encoded(), as: UTF8.self) == "{\n  \"schemaVersion\": 1,\n  \"stages\": {}\n}\n")
    }

    @Test func aBrokenOrNewerLockIsAnInputError() {
        for text in ["{", "{\"schemaVersion\": 2, \"stages\": {}}"] {
            do {
                _ = try PipelineLock.decode(Data(text.utf8), path: "pipeline/pipeline.lock.json")
                Issue.record("accepted \(text)")
            } catch let error as PipelineError {
                #expect(error.exitCode == 2)
                #expect(error.description.hasPrefix("pipeline/pipeline.lock.json:1: error: "))
            } catch {
                Issue.record("\(error)")
            }
        }
    }
}

@Suite struct CommandLineTests {
    func run(_ arguments: [String], in repo: TestRepository) throws -> RunResult {
        let result = try TestProcess.run(try TestRepository.runnerExecutable(), arguments, in: repo.root)
        return RunResult(code: result.status, stdout: result.stdout, stderr: result.stderr)
    }

    @Test func statusExitCodesAndStageOutputUnderItsName() throws {
        let repo = try chainRepository()
        #expect(try run(["status"], in: repo).code == 1)
        let ran = try run(["run", "--jobs", "2"], in: repo)
        #expect(ran.code == 0, "\(ran.stderr)")
        #expect(try run(["status"], in: repo).code == 0)
        try repo.write("pipeline/pipeline.yaml", "stages: [\n")
        let broken = try run(["status"], in: repo)
        #expect(broken.code == 2)
        #expect(broken.stderr.hasPrefix("pipeline/pipeline.yaml:"))
        #expect(try run(["run", "--jobs", "0"], in: repo).code == 64)
        #expect(try run(["frobnicate"], in: repo).code == 64)
    }

    @Test func validateChecksPublishedArtifacts() throws {
        let repo = try chainRepository()
        try repo.write(
            "out/merge/sync-state.json",
            envelopeText(
                kind: "sportstime.sync-state", stage: "merge",
                records: [syncRecord("games", count: 1)]))
        #expect(try run(["validate"], in: repo).code == 0)
        try repo.write("out/merge/rejects.jsonl", "{\"reason\":\"x\"}\nnot json\n")
        let invalid = try run(["validate"], in: repo)
        #expect(invalid.code == 2)
        #expect(
            invalid.stderr.contains(
                "out/merge/rejects.jsonl:2:1: error: not valid JSON: invalid literal (expected 'null'). Fix the stage that wrote it."))
    }
}
