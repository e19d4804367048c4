import Foundation
import SportsTimeTestSupport
import SportsTimeCore
import Testing

/// The plan stage as pipeline/pipeline.yaml declares it, run by the built runner over the committed merged
/// store: each instance depends on the games files of its request's sports only (it reports them through
/// ${depfile}), so a fix to one sport's games re-plans that sport's requests alone, and a new season file
/// of a sport re-plans the requests of that sport.
@Suite(.serialized) struct PlanInputsTests {
    static let spec = """
        stages:
          plan:
            foreach: {glob: fixtures/requests/*.yaml}
            cmd: [sportstime-plan, --merged, out/merge, --requests, fixtures/requests,
                  --out, "${outs.0.dir}", --request, "${item}", --depfile, "${depfile}"]
            deps: [out/merge, "fixtures/requests/${item}.yaml"]
            outs: ["out/plan/${item}.json"]

        """

    static func workspace() throws -> URL {
        let manager = FileManager.default
        let root = manager.temporaryDirectory.appendingPathComponent("plan-inputs-\(UUID().uuidString)")
        for part in ["out/merge", "fixtures/requests", "pipeline/schemas"] {
            try manager.createDirectory(
                at: root.appendingPathComponent(part).deletingLastPathComponent(), withIntermediateDirectories: true)
            try manager.copyItem(at: BadInputTests.packageRoot.appendingPathComponent(part), to: root.appendingPathComponent(part))
        }
        try Data(spec.utf8).write(to: root.appendingPathComponent("pipeline/pipeline.yaml"))
        return root
    }

    /// The built runner with `arguments` in `root`: exit status and stdout and stderr together.
    static func runner(_ arguments: [String], in root: URL, bin: URL) throws -> (Int32, String) {
        let result = try TestProcess.run(bin.appendingPathComponent("sportstime"), arguments, in: root)
        return (result.status, result.stdout + result.stderr)
    }

    /// `sportstime run`: exit status and stage → status word (`ran`, `skipped`, …).
    static func run(in root: URL, bin: URL) throws -> (Int32, [String: String], String) {
        let (status, output) = try runner(["run"], in: root, bin: bin)
        var stages: [String: String] = [:]
        for line in output.split(separator: "\n") where line.hasPrefix("[") {
            let words = line.split(separator: " ", omittingEmptySubsequences: true)
            if words.count >= 3 { stages[String(words[1])] = String(words[2]) }
        }
        return (status, stages, output)
    }

    @Test func theCommittedSpecDeclaresThePlanStageThisWay() throws {
        let text = try String(contentsOf: BadInputTests.packageRoot.appendingPathComponent("pipeline/pipeline.yaml"), encoding: .utf8)
        #expect(
            text.contains(
                """
                    cmd: [sportstime-plan, --merged, out/merge, --requests, fixtures/requests,
                          --out, "${outs.0.dir}", --request, "${item}", --depfile, "${depfile}"]
                    deps: [out/merge, "fixtures/requests/${item}.yaml"]
                """))
    }

    @Test func anMLBFixReplansOnlyMLBRequestsAndANewSeasonReplansItsSport() throws {
        let bin = try #require(BadInputTests.binFolder, "build the executables first (swift build --build-tests)")
        let root = try Self.workspace()
        defer { try? FileManager.default.removeItem(at: root) }
        let manager = FileManager.default
        let nhl = root.appendingPathComponent("out/merge/games/nhl-2025-26.json")
        let aside = root.appendingPathComponent("nhl-2025-26.json")
        try manager.moveItem(at: nhl, to: aside)

        let (first, ranFirst, output) = try Self.run(in: root, bin: bin)
        #expect(first == 0, "\(output)")
        #expect(ranFirst.count == 14 && ranFirst.values.allSatisfy { $0 == "ran" }, "\(output)")
        let lock = try String(contentsOf: root.appendingPathComponent("pipeline/pipeline.lock.json"), encoding: .utf8)
        #expect(
            lock.contains(
                "\"reads\": [\n        \"fixtures/requests/northeast-winter-nba-nhl.yaml\",\n        \"out/merge/games/nba-*.json\",\n        \"out/merge/games/nhl-*.json\",\n"
            ), "\(lock)")

        // A data fix to one MLB game: the three MLB requests are planned again, nothing else.
        let mlb = root.appendingPathComponent("out/merge/games/mlb-2023.json")
        var text = try String(contentsOf: mlb, encoding: .utf8)
        let range = try #require(text.range(of: "\"lastModified\":\"2023-03-01T00:00:00Z\""))
        text.replaceSubrange(range, with: "\"lastModified\":\"2023-03-02T00:00:00Z\"")
        try Data(text.utf8).write(to: mlb)
        // Merge's report and lineage are not read by any plan.
        try Data("{}\n".utf8).write(to: root.appendingPathComponent("out/merge/merge-report.json"))
        let (second, ranSecond, secondOutput) = try Self.run(in: root, bin: bin)
        #expect(second == 0, "\(secondOutput)")
        #expect(
            Set(ranSecond.filter { $0.value == "ran" }.keys)
                == ["plan@mlb-boston-june-week", "plan@mlb-midwest-most-stadiums", "plan@mlb-must-see-pair"], "\(secondOutput)")
        #expect(secondOutput.contains("(dep out/merge/games/mlb-2023.json changed)"), "\(secondOutput)")

        // The NHL 2025-26 file appears: the requests with NHL in them are planned again (the file joins their
        // `nhl-*.json`), and the one in that season now uses it.
        try manager.moveItem(at: aside, to: nhl)
        let (third, ranThird, thirdOutput) = try Self.run(in: root, bin: bin)
        #expect(third == 0, "\(thirdOutput)")
        #expect(
            Set(ranThird.filter { $0.value == "ran" }.keys)
                == ["plan@northeast-winter-nba-nhl", "plan@nba-nhl-chicago-holidays", "plan@nhl-february-most-arenas"],
            "\(thirdOutput)")
        #expect(thirdOutput.contains("(dep out/merge/games/nhl-2025-26.json added)"), "\(thirdOutput)")
        let plan = try String(contentsOf: root.appendingPathComponent("out/plan/northeast-winter-nba-nhl.json"), encoding: .utf8)
        #expect(plan.contains("\"path\":\"out/merge/games/nhl-2025-26.json\""))

        let (status, statusOutput) = try Self.runner(["status"], in: root, bin: bin)
        #expect(status == 0, "\(statusOutput)")
    }
}
