import Foundation
import SportsTimeTestSupport
import Testing
import SportsTimeCore
@testable import SportsTimePlan

/// Runs the built `sportstime-plan` on a merged store written from the test fixtures.
@Suite(.serialized) struct CommandTests {

    struct Run { var status: Int32; var stdout: String; var stderr: String }

    static func run(_ arguments: [String], in directory: URL) throws -> Run {
        let result = try TestProcess.run(try Executables.url("sportstime-plan"), arguments, in: directory)
        return Run(status: result.status, stdout: result.stdout, stderr: result.stderr)
    }

    /// A repository-shaped folder: out/merge from the fixtures, fixtures/requests with some committed requests.
    static func workspace(requests: [String]) throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("plan-command-\(UUID().uuidString)")
        let merge = root.appendingPathComponent("out/merge")
        try FileManager.default.createDirectory(at: merge.appendingPathComponent("games"), withIntermediateDirectories: true)
        let catalog = RealData.shared
        let producer = Producer(stage: "merge")
        try Envelope(kind: .sports, producer: producer, records: catalog.sports).canonicalData().write(
            to: merge.appendingPathComponent("sports.json"))
        try Envelope(kind: .stadiums, producer: producer, records: catalog.stadiums).canonicalData().write(
            to: merge.appendingPathComponent("stadiums.json"))
        try Envelope(kind: .teams, producer: producer, records: catalog.teams).canonicalData().write(
            to: merge.appendingPathComponent("teams.json"))
        var bySeason: [String: [Game]] = [:]
        for game in catalog.games { bySeason["\(game.sport)-\(game.season)", default: []].append(game) }
        // One deprecated game: it must be skipped.
        var gone = catalog.game("mlb-2023-2023-06-06-chw-at-nyy")!
        gone.deprecatedAt = RealData.stamp
        bySeason["mlb-2023"] = bySeason["mlb-2023"]!.filter { $0.id != gone.id } + [gone]
        for (name, games) in bySeason {
            try Envelope(kind: .games, producer: producer, records: games).canonicalData()
                .write(to: merge.appendingPathComponent("games/\(name).json"))
        }
        let folder = root.appendingPathComponent("fixtures/requests")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for id in requests {
            try FileManager.default.copyItem(
                at: CommittedRequestsTests.directory.appendingPathComponent("\(id).yaml"),
                to: folder.appendingPathComponent("\(id).yaml"))
        }
        return root
    }

    @Test func plansEveryRequestAndWritesEnvelopes() throws {
        let root = try Self.workspace(requests: ["mlb-boston-june-week", "nba-coast-to-coast-infeasible"])
        defer { try? FileManager.default.removeItem(at: root) }
        let args = ["--merged", "out/merge", "--requests", "fixtures/requests", "--out", "out/plan"]
        let first = try Self.run(args, in: root)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.isEmpty)
        #expect(first.stderr.contains("plan: mlb-boston-june-week: 3 options"))
        #expect(first.stderr.contains("plan: nba-coast-to-coast-infeasible: no trip: Must-see games"))
        let data = try Data(contentsOf: root.appendingPathComponent("out/plan/mlb-boston-june-week.json"))
        let envelope = try EnvelopeReader.read(TripPlan.self, from: data, path: "out/plan/mlb-boston-june-week.json", expecting: .tripPlan)
        #expect(envelope.records.count == 1 && envelope.meta[.request] == "mlb-boston-june-week")
        #expect(
            envelope.inputs.map(\.path) == [
                "fixtures/requests/mlb-boston-june-week.yaml", "out/merge/games/mlb-2023.json",
                "out/merge/sports.json", "out/merge/stadiums.json", "out/merge/teams.json",
            ])
        // The deprecated game is not used.
        #expect(!envelope.records[0].options.flatMap(\.visits).contains { $0.gameId == "mlb-2023-2023-06-06-chw-at-nyy" })
        // Same inputs, same bytes; nothing rewritten.
        let second = try Self.run(args, in: root)
        #expect(second.status == 0)
        #expect(second.stderr.contains("(unchanged)"))
        #expect(try Data(contentsOf: root.appendingPathComponent("out/plan/mlb-boston-june-week.json")) == data)
        // One request only; a plan of a request that no longer exists is removed by a full run.
        try FileManager.default.removeItem(at: root.appendingPathComponent("fixtures/requests/nba-coast-to-coast-infeasible.yaml"))
        let only = try Self.run(args + ["--request", "mlb-boston-june-week"], in: root)
        #expect(only.status == 0)
        #expect(FileManager.default.fileExists(atPath: root.appendingPathComponent("out/plan/nba-coast-to-coast-infeasible.json").path))
        let full = try Self.run(args, in: root)
        #expect(full.status == 0)
        #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("out/plan/nba-coast-to-coast-infeasible.json").path))
    }

    @Test func badRequestsExitTwoWithLinesAndWriteNothing() throws {
        let root = try Self.workspace(requests: ["mlb-boston-june-week"])
        defer { try? FileManager.default.removeItem(at: root) }
        let bad = "id: bad\ntitle: Bad\nsports: [mlb]\nfirstDate: 2023-06-05\nlastDate: 2023-06-04\nstart: {stadium: fenwaypark}\n"
        try bad.write(to: root.appendingPathComponent("fixtures/requests/bad.yaml"), atomically: true, encoding: .utf8)
        let run = try Self.run(["--merged", "out/merge", "--requests", "fixtures/requests", "--out", "out/plan"], in: root)
        #expect(run.status == 2)
        #expect(run.stderr.contains("fixtures/requests/bad.yaml:5:11: error: the date window is empty"))
        #expect(run.stderr.contains("fixtures/requests/bad.yaml:6:18: error: unknown stadium 'fenwaypark'. Did you mean fenway-park?"))
        #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("out/plan").path))
    }

    @Test func usageAndMissingStoreErrors() throws {
        let root = try Self.workspace(requests: ["mlb-boston-june-week"])
        defer { try? FileManager.default.removeItem(at: root) }
        let unknown = try Self.run(["--request", "nope"], in: root)
        #expect(unknown.status == 64)
        #expect(unknown.stderr.contains("no request 'nope' in fixtures/requests"))
        let missing = try Self.run(["--merged", "out/nowhere"], in: root)
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("out/nowhere/sports.json: error: cannot read the merged store file. Run sportstime-merge first"))
        let option = try Self.run(["--frobnicate"], in: root)
        #expect(option.status == 64)
    }

    /// `--depfile` lists what the plans depend on: the request, the store's fixed files and one glob per
    /// sport of the request; a games file of another sport is never opened.
    @Test func theDepfileNamesTheRequestsSportsAndNoOtherGames() throws {
        let root = try Self.workspace(requests: ["mlb-boston-june-week", "northeast-winter-nba-nhl"])
        defer { try? FileManager.default.removeItem(at: root) }
        // Not an envelope at all: reading it would fail the run.
        try "not json".write(to: root.appendingPathComponent("out/merge/games/xfl-2020.json"), atomically: true, encoding: .utf8)
        let args = ["--merged", "out/merge", "--requests", "fixtures/requests", "--out", "out/plan", "--depfile", "deps.txt"]
        let one = try Self.run(args + ["--request", "mlb-boston-june-week"], in: root)
        #expect(one.status == 0, "\(one.stderr)")
        #expect(
            try String(contentsOf: root.appendingPathComponent("deps.txt"), encoding: .utf8) == """
                fixtures/requests/mlb-boston-june-week.yaml
                out/merge/games/mlb-*.json
                out/merge/sports.json
                out/merge/stadiums.json
                out/merge/teams.json

                """)
        let two = try Self.run(args + ["--request", "northeast-winter-nba-nhl"], in: root)
        #expect(two.status == 0, "\(two.stderr)")
        #expect(
            try String(contentsOf: root.appendingPathComponent("deps.txt"), encoding: .utf8) == """
                fixtures/requests/northeast-winter-nba-nhl.yaml
                out/merge/games/nba-*.json
                out/merge/games/nhl-*.json
                out/merge/sports.json
                out/merge/stadiums.json
                out/merge/teams.json

                """)
        // Every request at once: the requests folder (its listing decides which stale plans go).
        try FileManager.default.removeItem(at: root.appendingPathComponent("out/merge/games/xfl-2020.json"))
        let all = try Self.run(args, in: root)
        #expect(all.status == 0, "\(all.stderr)")
        let text = try String(contentsOf: root.appendingPathComponent("deps.txt"), encoding: .utf8)
        #expect(
            text.hasPrefix("fixtures/requests\nout/merge/games/mlb-*.json\nout/merge/games/nba-*.json\nout/merge/games/nhl-*.json\n"),
            "\(text)")
    }
}
