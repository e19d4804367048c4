import Foundation
import SportsTimeCore
import SportsTimePlan

/// libFuzzer harness: the plan request reader (`RequestResolver.resolve(data:)`: UTF-8, strict YAML,
/// then every check against the merged store) with the committed store out/merge as the catalog (read
/// once; run from the repository root, as Fuzz/run.sh does). The file is named after the input's own
/// `id:` line, so inputs get past the id check into the rest of the request. An accepted request must
/// be sound; a refused one exit 2 with every message at a line of the file.
let catalog: PlanCatalog = {
    func records<R: Codable & Sendable>(_ type: R.Type, _ path: String, _ kind: ArtifactKind) -> [R] {
        guard let envelope = try? EnvelopeReader.read(type, at: URL(fileURLWithPath: path), displayPath: path, expecting: kind) else {
            fatalError("fuzz-request: cannot read \(path); run from the repository root with out/merge in place")
        }
        return envelope.records
    }
    let games = ["mlb-2023", "mls-2025", "nba-2025-26", "nfl-2023", "nhl-2025-26", "ufl-2025"].flatMap {
        records(Game.self, "out/merge/games/\($0).json", .games)
    }
    return PlanCatalog(
        sports: records(Sport.self, "out/merge/sports.json", .sports),
        stadiums: records(Stadium.self, "out/merge/stadiums.json", .stadiums),
        teams: records(Team.self, "out/merge/teams.json", .teams), games: games)
}()

/// `fixtures/requests/<id>.yaml` for the input's first `id:` line when it is a plain slug, else `fuzz.yaml`.
func path(for data: Data) -> String {
    let text = String(decoding: data.prefix(4096), as: UTF8.self)
    for line in text.split(separator: "\n") where line.hasPrefix("id:") {
        let id = line.dropFirst(3).trimmingCharacters(in: .whitespaces)
        if !id.isEmpty, id.count <= 80, id.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }) {
            return "fixtures/requests/\(id).yaml"
        }
        break
    }
    return "fixtures/requests/fuzz.yaml"
}

func check(_ request: PlanRequest) {
    precondition(!request.sports.isEmpty && request.sports.allSatisfy { catalog.sport($0) != nil }, "sports \(request.sports)")
    precondition(request.firstDate <= request.lastDate, "empty window accepted")
    precondition(request.firstDate.days(until: request.lastDate) < RequestResolver.maxWindowDays, "window too long accepted")
    precondition((1...10).contains(request.optionCount), "options \(request.optionCount)")
    precondition((1...4).contains(request.maxGamesPerDay), "maxGamesPerDay \(request.maxGamesPerDay)")
    precondition(request.start.coordinate.isPlausible && (request.end?.coordinate.isPlausible ?? true), "a place off the earth")
    precondition(request.mustSeeGameIds.allSatisfy { catalog.game($0) != nil }, "unknown must-see game accepted")
    precondition(request.requiredStadiumIds.allSatisfy { catalog.stadium($0) != nil }, "unknown stadium accepted")
    precondition(request.homeTeamIds.allSatisfy { catalog.team($0) != nil }, "unknown team accepted")
    precondition(Set(request.mustSeeGameIds).count == request.mustSeeGameIds.count, "a must-see game twice")
    precondition(request.candidatePool >= request.optionCount, "candidate pool below the options")
    _ = request.resolved
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRequest(_ start: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    let data = start.map { Data(bytes: $0, count: count) } ?? Data()
    let file = path(for: data)
    do {
        check(try RequestResolver.resolve(data: data, path: file, catalog: catalog))
    } catch let error as PipelineError {
        let diagnostics = error.diagnostics
        precondition(!diagnostics.isEmpty, "a pipeline error without a diagnostic")
        precondition(error.exitCode == 2, "a bad request must be exit 2, was \(error.exitCode)")
        for d in diagnostics {
            precondition(d.location?.path == file && d.location?.line != nil, "message without the request's line: \(d)")
            precondition(d.fix.map { !$0.isEmpty } ?? false, "message without what to do: \(d)")
            precondition(!d.description.contains("\n"), "message over several lines: \(d)")
        }
    } catch {
        preconditionFailure("unexpected error type: \(error)")
    }
    return 0
}

/// SwiftPM links an executable with `main` = `<module>_main`; hand the process to libFuzzer's driver.
@_cdecl("fuzz_request_main")
public func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
    var argc = argc
    var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = argv
    _ = catalog
    return LLVMFuzzerRunDriver(&argc, &argv, fuzzRequest)
}

@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<Int32>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
) -> Int32
