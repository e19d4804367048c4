import Foundation
import Testing
@testable import SportsTimeRunner
import SportsTimeCore

/// The one symbolic-link rule and the paths the runner may remove (issue 15): links inside the
/// repository are followed, links leading out are refused at the link, and only outs are ever removed.
@Suite struct ConfinementTests {
    let spec = """
        stages:
          copy:
            cmd: [/bin/sh, -c, 'mkdir -p "$1" && cp fixtures/in/a.txt "$1/a.txt"', sh, "${out}"]
            deps: [fixtures/in]
            outs: [out/copy]

        """

    func link(_ repo: TestRepository, _ path: String, to target: String) throws {
        try FileManager.default.createDirectory(at: repo.url(path).deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: repo.url(path).path, withDestinationPath: target)
    }

    @Test func resolvingFollowsChainsAndParentsAndGivesUpOnALoop() throws {
        let repo = try TestRepository()
        try repo.write("fixtures/real/a.txt", "a\n")
        try link(repo, "fixtures/hop", to: "real")
        try link(repo, "fixtures/two", to: "./hop/../hop")
        try link(repo, "loop/a", to: "b")
        try link(repo, "loop/b", to: "a")
        let confinement = RepositoryConfinement(root: repo.root)
        #expect(confinement.resolvedRelative("fixtures/two/a.txt") == "fixtures/real/a.txt")
        #expect(confinement.resolvedRelative("fixtures/not-yet/x") == "fixtures/not-yet/x")
        #expect(confinement.resolvedRelative("loop/a") == nil)
        #expect(confinement.linkLeavingRepository("loop/a/x") == "loop/a")
        #expect(confinement.linkLeavingRepository("fixtures/two/a.txt") == nil)
    }

    @Test func theLinkThatLeavesIsNamedWhereverItIs() throws {
        let repo = try TestRepository()
        let outside = FileManager.default.temporaryDirectory.appendingPathComponent("confinement-outside-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: outside) }
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        try Data("outside\n".utf8).write(to: outside.appendingPathComponent("x.txt"))
        try repo.write("fixtures/in/a.txt", "a\n")
        try link(repo, "fixtures/in/deep/x.txt", to: outside.appendingPathComponent("x.txt").path)
        try link(repo, "fixtures/in/.hidden", to: outside.path)
        try link(repo, "out", to: outside.path)
        let confinement = RepositoryConfinement(root: repo.root)
        #expect(confinement.linkLeavingRepository("out/copy/a.txt") == "out")
        #expect(confinement.linksLeavingRepository(under: "fixtures/in") == ["fixtures/in/deep/x.txt"])
        #expect(throws: PipelineError.self) {
            _ = try confinement.inputFiles(under: repo.url("fixtures/in"), suffix: ".txt")
        }
        do {
            _ = try confinement.inputFiles(under: repo.url("fixtures/in"), suffix: ".txt")
        } catch let error as PipelineError {
            #expect(
                error.diagnostics.map(\.description) == [
                    "fixtures/in/deep/x.txt: error: cannot follow the symbolic link: it leads outside the repository. "
                        + "Replace the link with the file or folder itself, or point it inside the repository."
                ])
            #expect(error.exitCode == ExitStatus.invalidInput)
        }
    }

    /// Links back up the tree (a folder holding links to itself) end: each real folder is searched once.
    @Test func linksThatLoopBackUpTheTreeAreSearchedOnce() throws {
        let repo = try TestRepository()
        try repo.write("fixtures/in/a.txt", "a\n")
        for name in ["self1", "self2", "self3"] { try link(repo, "fixtures/in/" + name, to: ".") }
        let confinement = RepositoryConfinement(root: repo.root)
        #expect(confinement.linksLeavingRepository(under: "fixtures/in").isEmpty)
        #expect(try confinement.inputFiles(under: repo.url("fixtures/in"), suffix: ".txt") == ["a.txt"])
    }

    @Test func inputFilesFollowLinksInsideTheRepository() throws {
        let repo = try TestRepository()
        try repo.write("fixtures/shared/b.txt", "b\n")
        try repo.write("fixtures/shared/more/c.txt", "c\n")
        try repo.write("fixtures/in/a.txt", "a\n")
        try link(repo, "fixtures/in/b.txt", to: "../shared/b.txt")
        try link(repo, "fixtures/in/more", to: "../shared/more")
        try link(repo, "fixtures/in/dangling.txt", to: "../shared/none.txt")
        let names = try RepositoryConfinement(root: repo.root).inputFiles(under: repo.url("fixtures/in"), suffix: ".txt")
        #expect(names == ["a.txt", "b.txt", "more/c.txt"])
    }

    @Test func onlyOutsInsideTheOutFoldersMayBeRemoved() throws {
        let repo = try TestRepository()
        try repo.spec(spec)
        try repo.write("fixtures/in/a.txt", "a\n")
        try repo.write("fixtures/other.txt", "o\n")
        let workspace = Workspace(root: repo.root)
        let graph = try workspace.loadGraph()
        #expect(workspace.outProblem("out/copy", graph: graph) == nil)
        #expect(workspace.outProblem("out/renamed", graph: graph) == nil)
        #expect(workspace.outProblem("out", graph: graph) == "out 'out' is not inside a folder the spec's stages write (out/)")
        #expect(workspace.outProblem("../outside.txt", graph: graph) == "out '../outside.txt' leaves the repository")
        #expect(
            workspace.outProblem("fixtures/other.txt", graph: graph)
                == "out 'fixtures/other.txt' is not inside a folder the spec's stages write (out/)")
        #expect(workspace.outProblem("out/./copy", graph: graph) == "out 'out/./copy' is not a plain repository path (it means 'out/copy')")
        #expect(workspace.outProblem(".pipeline/x", graph: graph) == "out '.pipeline/x' is inside .pipeline, which belongs to the runner")
        try link(repo, "out/sneaky", to: "../fixtures/in")
        #expect(
            workspace.outProblem("out/sneaky", graph: graph)
                == "out 'out/sneaky' resolves through a symbolic link to 'fixtures/in', which overlaps 'fixtures/in' that stage 'copy' reads"
        )
    }

    /// A lock entry of a stage in the spec that lists an out on an input: the run refuses the lock
    /// before the stage runs, and the input is untouched.
    @Test func aLockOutOnAnInputIsRefusedBeforeAnythingRuns() throws {
        let repo = try TestRepository()
        try repo.spec(spec)
        try repo.write("fixtures/in/a.txt", "a\n")
        #expect(repo.run().code == 0)
        let lock = try #require(repo.read("pipeline/pipeline.lock.json"))
        let edited = lock.replacingOccurrences(of: "\"outs\": {\n", with: "\"outs\": {\n        \"fixtures/in/a.txt\": \"x\",\n")
        try #require(edited != lock)
        try repo.write("pipeline/pipeline.lock.json", edited)
        try repo.write("fixtures/in/a.txt", "changed\n")
        let result = repo.run()
        #expect(result.code == ExitStatus.invalidInput)
        let line = Workspace.line(ofOut: "fixtures/in/a.txt", stage: "copy", in: edited)
        #expect(line > 1)
        #expect(
            result.stderr.contains(
                "pipeline/pipeline.lock.json:\(line): error: stage 'copy' in the lock: out 'fixtures/in/a.txt' "
                    + "is not inside a folder the spec's stages write (out/)"), "\(result.stderr)")
        #expect(repo.read("fixtures/in/a.txt") == "changed\n")
        #expect(repo.read("out/copy/a.txt") == "a\n")
        #expect(repo.read("pipeline/pipeline.lock.json") == edited)
    }
}
