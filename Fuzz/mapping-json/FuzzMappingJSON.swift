import Foundation
import SportsTimeCore
import SportsTimeIngest

/// libFuzzer harness: the JSON document parser and the generic JSON mapping reader (format
/// json-mapping) through the public ingest entry point, with the NBA source as pipeline/sources.yaml
/// declares it. The bytes are the schedule file.
let spec = """
    sources:
      - id: nba-2025-26
        sport: nba
        season: 2025-26
        system: nba-schedule
        files: [nba_2025_26_schedule.json]
        format: json-mapping
        scrapedAt: "2025-11-07T12:49:38Z"
        naiveTimeZone: America/New_York
        rejectThreshold: "2%"
        priority: 50
        mapping:
          records: games
          fields:
            id: game_id
            kind:
              from: season_type
              values: {Preseason: preseason, Regular Season: regular, Playoffs: postseason, Play-In: postseason,
                       PlayIn: postseason, All-Star: exhibition}
            start: {from: tip_utc, layout: iso8601}
            timeTBD: is_tbd
            homeTeam: home_team
            awayTeam: away_team
            venue: venue
            city: city
    """

nonisolated(unsafe) let sources: [SourceConfig] = {
    do { return try SourceCatalog.load(text: spec, path: "pipeline/sources.yaml") } catch {
        preconditionFailure("the embedded source no longer loads: \(error)")
    }
}()

func check(_ source: SourceConfig, _ file: LoadedFile, lookups: [LoadedFile] = []) {
    do {
        let result = try Ingester.ingest(source, files: [file], lookups: lookups)
        precondition(result.counts.balances, "ingest counts do not add up: \(result.counts)")
        precondition(result.records.count == result.counts.written, "written count differs from records")
        precondition(result.rejects.count == result.counts.rejected, "rejected count differs from rejects")
        _ = try result.gamesData()
        _ = try result.rejectsData()
    } catch let error as PipelineError {
        precondition(!error.diagnostics.isEmpty, "a pipeline error without a diagnostic")
    } catch {
        preconditionFailure("unexpected error type: \(error)")
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMappingJSON(_ start: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    let empty: [UInt8] = [0]
    return empty.withUnsafeBufferPointer { fallback in
        fuzzMappingJSONBody(count > 0 ? start ?? fallback.baseAddress! : fallback.baseAddress!, start == nil ? 0 : count)
    }
}

func fuzzMappingJSONBody(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> Int32 {
    let data = Data(bytes: bytes, count: count)
    check(
        sources[0],
        LoadedFile(path: "fixtures/scraped/nba-2025-26/nba_2025_26_schedule.json", name: "nba_2025_26_schedule.json", data: data))
    // The document parser on its own: core's JSONParser building located nodes.
    if let node = try? JSONParser.parseNodes(String(decoding: data, as: UTF8.self)) { _ = node }
    return 0
}

/// SwiftPM links an executable with `main` = `<module>_main`; hand the process to libFuzzer's driver.
@_cdecl("fuzz_mapping_json_main")
public func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
    var argc = argc
    var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = argv
    return LLVMFuzzerRunDriver(&argc, &argv, fuzzMappingJSON)
}

@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<Int32>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
) -> Int32
