import Foundation
import Testing
@testable import SportsTimeRunner
import SportsTimeCore

/// A malformed spec, the line its error must name, and words the message must contain.
struct MalformedSpec: CustomTestStringConvertible, Sendable {
    var name: String
    var yaml: String
    var line: Int
    var message: String
    var fix: String
    var testDescription: String { name }
}

@Suite struct SpecErrorTests {
    static let cases: [MalformedSpec] = [
        MalformedSpec(
            name: "unknown key in a stage",
            yaml: """
                stages:
                  a:
                    cmd: [/bin/true]
                    outs: [out/a]
                    dep: [fixtures/x]
                """, line: 5, message: "unknown key 'dep' in stages.a",
            fix: "Use one of: cmd, code, deps, description, foreach, outs, params"),
        MalformedSpec(
            name: "isList is not a foreach key",
            yaml: """
                stages:
                  a:
                    cmd: [/bin/true]
                    outs: [out/a]
                    foreach: {items: [x], isList: true}
                """, line: 5, message: "unknown key 'isList' in stages.a.foreach", fix: "Use one of: glob, items"),
        MalformedSpec(
            name: "unknown top-level key",
            yaml: """
                stage:
                  a: {cmd: [/bin/true], outs: [out/a]}
                stages:
                  a: {cmd: [/bin/true], outs: [out/a]}
                """, line: 1, message: "unknown key 'stage'", fix: "Use one of: code, stages"),
        MalformedSpec(
            name: "empty cmd",
            yaml: """
                stages:
                  a:
                    cmd: []
                    outs: [out/a]
                """, line: 3, message: "stage 'a' has an empty cmd", fix: "Give the command as a list"),
        MalformedSpec(
            name: "cmd written as one string",
            yaml: """
                stages:
                  a:
                    cmd: sh -c 'echo hi'
                    outs: [out/a]
                """, line: 3, message: "stages.a.cmd: expected a list", fix: "Fix the value"),
        MalformedSpec(
            name: "cycle",
            yaml: """
                stages:
                  a:
                    cmd: [/bin/true]
                    deps: [out/b]
                    outs: [out/a]
                  b:
                    cmd: [/bin/true]
                    deps: [out/a]
                    outs: [out/b]
                """, line: 2, message: "stages form a cycle: a → b → a ('b' reads out/a written by 'a'; 'a' reads out/b written by 'b')",
            fix: "Remove the dep that closes the loop"),
        MalformedSpec(
            name: "two stages write one path",
            yaml: """
                stages:
                  a:
                    cmd: [/bin/true]
                    outs: [out/shared]
                  b:
                    cmd: [/bin/true]
                    outs: [out/shared]
                """, line: 7, message: "out 'out/shared' of stage 'b' is also written by stage 'a' (line 4)",
            fix: "Give every path exactly one writing stage"),
        MalformedSpec(
            name: "an out inside another stage's out",
            yaml: """
                stages:
                  a:
                    cmd: [/bin/true]
                    outs: [out/a]
                  b:
                    cmd: [/bin/true]
                    outs: [out/a/inner.json]
                """, line: 7, message: "out 'out/a/inner.json' of stage 'b' overlaps 'out/a' written by stage 'a' (line 4)",
            fix: "Give every path exactly one writing stage"),
        MalformedSpec(
            name: "out inside its own dep",
            yaml: """
                stages:
                  a:
                    cmd: [/bin/true]
                    deps: [out]
                    outs: [out/a]
                """, line: 4, message: "out 'out/a' of stage 'a' is inside its own dep 'out'", fix: "A stage cannot read what it writes"),
        MalformedSpec(
            name: "dep inside its own out",
            yaml: """
                stages:
                  a:
                    cmd: [/bin/true]
                    deps: [out/a/previous.json]
                    outs: [out/a]
                """, line: 4, message: "dep 'out/a/previous.json' of stage 'a' is inside its own out 'out/a'",
            fix: "A stage cannot read what it writes"),
        MalformedSpec(
            name: "path leaving the repository",
            yaml: """
                stages:
                  a:
                    cmd: [/bin/true]
                    deps: [fixtures/../../secrets]
                    outs: [out/a]
                """, line: 4, message: "dep 'fixtures/../../secrets' leaves the repository", fix: "Use a path inside the repository"),
        MalformedSpec(
            name: "absolute out",
            yaml: """
                stages:
                  a:
                    cmd: [/bin/true]
                    outs: [/srv/a]
                """, line: 4, message: "out '/srv/a' is an absolute path and leaves the repository", fix: "Use a path inside the repository"
        ),
        MalformedSpec(
            name: "out in the runner's folder",
            yaml: """
                stages:
                  a:
                    cmd: [/bin/true]
                    outs: [.pipeline/cache]
                """, line: 4, message: "out '.pipeline/cache' is inside .pipeline, which belongs to the runner",
            fix: "Use a path inside the repository"),
        MalformedSpec(
            name: "dep no stage writes",
            yaml: """
                stages:
                  a:
                    cmd: [/bin/true]
                    outs: [out/ingest]
                  b:
                    cmd: [/bin/true]
                    deps: [out/ingst]
                    outs: [out/b]
                """, line: 7, message: "dep 'out/ingst' of stage 'b' does not exist and no stage writes it",
            fix: "Fix the path, or add the stage that writes it (stages write: out/b, out/ingest)"),
        MalformedSpec(
            name: "unknown placeholder",
            yaml: """
                stages:
                  a:
                    cmd: [/bin/sh, -c, 'touch "$1"', sh, "${outs.1}"]
                    outs: [out/a]
                """, line: 3, message: "cmd argument '${outs.1}' uses unknown placeholder ${outs.1}",
            fix: "Use ${out}, ${outs.N}, ${outs.N.dir}, ${params.NAME}, ${depfile}"),
        MalformedSpec(
            name: "item without foreach",
            yaml: """
                stages:
                  a:
                    cmd: [/bin/true]
                    outs: ["out/${item}.json"]
                """, line: 4, message: "uses ${item} but the stage has no foreach", fix: "Add a foreach, or remove ${item}"),
        MalformedSpec(
            name: "fan-out out without item",
            yaml: """
                stages:
                  plan:
                    foreach: [a, b]
                    cmd: [/bin/true]
                    outs: [out/plan.json]
                """, line: 5, message: "out 'out/plan.json' of fan-out stage 'plan' does not use ${item}", fix: "Put ${item} in each out"),
        MalformedSpec(
            name: "stage name not a slug",
            yaml: """
                stages:
                  Plan Trips:
                    cmd: [/bin/true]
                    outs: [out/a]
                """, line: 2, message: "stage name 'Plan Trips' is not a lowercase slug", fix: "Use lowercase letters"),
        MalformedSpec(
            name: "missing code path",
            yaml: """
                code: [Sources/Nowhere]
                stages:
                  a:
                    cmd: [/bin/true]
                    outs: [out/a]
                """, line: 1, message: "code path 'Sources/Nowhere' of stage 'a' does not exist", fix: "Name the source folders"),
        MalformedSpec(
            name: "YAML syntax error",
            yaml: """
                stages:
                  a:
                    cmd: [/bin/true
                    outs: [out/a]
                """, line: 4, message: "YAML syntax", fix: "Fix the YAML at that position"),
        MalformedSpec(
            name: "no stages",
            yaml: """
                stages: {}
                """, line: 1, message: "the pipeline has no stages", fix: "List at least one stage"),
        MalformedSpec(
            name: "a name longer than file systems allow",
            yaml: """
                stages:
                  a:
                    cmd: [/bin/true]
                    outs: [out/\(String(repeating: "x", count: 300))]
                """, line: 4, message: "has a name of 300 bytes; file systems allow 255", fix: "Use shorter file and folder names"),
        MalformedSpec(
            name: "a stage name too long for its staging folder",
            yaml: """
                stages:
                  \(String(repeating: "a", count: 101)):
                    cmd: [/bin/true]
                    outs: [out/a]
                """, line: 2, message: "is 101 characters long, more than 100", fix: "Use a shorter name"),
    ]

    @Test(arguments: cases)
    func reportsFileLineAndFix(_ spec: MalformedSpec) throws {
        let repo = try TestRepository()
        try repo.write("pipeline/pipeline.yaml", spec.yaml + "\n")
        do {
            _ = try Workspace(root: repo.root).loadGraph()
            Issue.record("\(spec.name): the spec was accepted")
        } catch let error as PipelineError {
            #expect(error.exitCode == 2)
            let text = error.description
            #expect(text.hasPrefix("pipeline/pipeline.yaml:\(spec.line):"), "\(spec.name): \(text)")
            #expect(text.contains(": error: "), "\(spec.name): \(text)")
            #expect(text.contains(spec.message), "\(spec.name): \(text)")
            #expect(text.contains(spec.fix), "\(spec.name): \(text)")
        }
    }

    /// A case copied without being changed tests nothing new: names, specs and messages are each unique.
    @Test func casesAreDistinct() {
        #expect(Set(Self.cases.map(\.name)).count == Self.cases.count)
        #expect(Set(Self.cases.map(\.yaml)).count == Self.cases.count)
        #expect(Set(Self.cases.map(\.message)).count == Self.cases.count)
    }

    @Test func statusAndRunExitTwoOnASpecError() throws {
        let repo = try TestRepository()
        try repo.write("pipeline/pipeline.yaml", Self.cases[0].yaml + "\n")
        let status = repo.status()
        #expect(status.code == 2)
        #expect(status.stderr.contains("pipeline/pipeline.yaml:5:5: error: unknown key 'dep' in stages.a."))
        let run = repo.run()
        #expect(run.code == 2)
        #expect(!repo.exists("pipeline/pipeline.lock.json"))
    }

    @Test func everyProblemIsReportedInLineOrder() throws {
        let repo = try TestRepository()
        try repo.write(
            "pipeline/pipeline.yaml",
            """
            stages:
              a:
                cmd: []
                outs: [../a]

            """)
        do {
            _ = try Workspace(root: repo.root).loadGraph()
            Issue.record("accepted")
        } catch let error as PipelineError {
            let lines = error.description.split(separator: "\n")
            #expect(lines.count == 2)
            #expect(lines.first?.hasPrefix("pipeline/pipeline.yaml:3:") == true)
            #expect(lines.last?.hasPrefix("pipeline/pipeline.yaml:4:") == true)
        }
    }

    /// An out refused for its path still counts for `${out}`: one message, not a second one calling
    /// `${out}` unknown while suggesting `${out}`.
    @Test(arguments: ["../merge", "/srv/merge"])
    func aRefusedOutIsTheOnlyMessage(_ out: String) throws {
        let repo = try TestRepository()
        try repo.write("pipeline/pipeline.yaml", "stages:\n  a:\n    cmd: [/bin/true, \"${out}\"]\n    outs: [\(out)]\n")
        do {
            _ = try Workspace(root: repo.root).loadGraph()
            Issue.record("accepted")
        } catch let error as PipelineError {
            #expect(error.diagnostics.count == 1, "\(error)")
            #expect(error.description.hasPrefix("pipeline/pipeline.yaml:4:12: error: out '\(out)' "), "\(error)")
        }
    }

    /// Found by fuzz-spec: a quoted path holding a line break was quoted back as is, so the message ran
    /// over several lines (and the second one looked like no message at all).
    @Test func aLineBreakInAPathIsQuotedOnOneLine() throws {
        let repo = try TestRepository()
        try repo.write("pipeline/pipeline.yaml", "stages:\n  a:\n    cmd: [/bin/true]\n    outs: [\"out/a\n\n      b${x\"]\n")
        do {
            _ = try Workspace(root: repo.root).loadGraph()
            Issue.record("accepted")
        } catch let error as PipelineError {
            #expect(error.diagnostics.allSatisfy { !$0.description.contains("\n") }, "\(error)")
            #expect(error.description.contains("pipeline/pipeline.yaml:4:12: error: out 'out/a\\nb${x' contains a line break."), "\(error)")
        }
    }

    @Test func aUTF16SpecIsRefusedAtLineOne() throws {
        let repo = try TestRepository()
        let url = repo.root.appendingPathComponent("pipeline/pipeline.yaml")
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try "stages:\n  a: {cmd: [/bin/true], outs: [out/a]}\n".data(using: .utf16)!.write(to: url)
        #expect {
            _ = try Workspace(root: repo.root).loadGraph()
        } throws: { error in
            "\(error)" == "pipeline/pipeline.yaml:1: error: the file is UTF-16 encoded. Save it as UTF-8 and re-run."
        }
    }

    @Test func literalDollarBraceIsKept() throws {
        let repo = try TestRepository()
        try repo.write(
            "pipeline/pipeline.yaml",
            """
            stages:
              a:
                cmd: [/bin/sh, -c, 'X=1; echo $${X} > "$1"', sh, "${out}"]
                outs: [out/a.txt]

            """)
        let graph = try Workspace(root: repo.root).loadGraph()
        #expect(graph.stages[0].argv == ["/bin/sh", "-c", "X=1; echo ${X} > \"$1\"", "sh", ".pipeline/staging/a/out/a.txt"])
    }
}
