import ArgumentParser
import Foundation
import SportsTimeCore
import SportsTimePlan

/// `sportstime-plan --merged out/merge --requests fixtures/requests --out out/plan [--request ID]`
public struct PlanCommand: PipelineCommand {
    public static let configuration = CommandConfiguration(
        commandName: "sportstime-plan",
        abstract: "Plan ranked sports road trips for the requests in fixtures/requests.",
        discussion: """
            An infeasible request is not a failure: its plan explains why and lists the best trip for each \
            compatible set of must-see games.
            Exit status: 0 ok, 1 failure (the output could not be written), 2 invalid request or merged store, \
            64 usage.
            """,
        version: SportsTimeVersion.current)

    @Option(help: "The merged store (sports.json, stadiums.json, teams.json, games/*.json).")
    var merged: String = "out/merge"

    @Option(help: "The folder of request files (<id>.yaml).")
    var requests: String = "fixtures/requests"

    @Option(help: "Where plans are written (<id>.json).")
    var out: String = "out/plan"

    @Option(help: "Plan only this request id (repeatable).")
    var request: [String] = []

    @Option(
        help: ArgumentHelp(
            "Also write the paths the plans depend on here, one a line (globs for games files a new season could add); the runner passes ${depfile}.",
            valueName: "file"))
    var depfile: String?

    public init() {}

    public func execute(in context: CommandContext) throws {
        try PlanRun(merged: merged, requests: requests, out: out, only: request, depfile: depfile, context: context).run()
    }
}
