import Foundation
import SportsTimeCore
import SportsTimeIngest

/// libFuzzer harness: the generic CSV mapping reader (format csv-mapping) through the public ingest
/// entry point, with two sources as pipeline/sources.yaml declares them: the UFL sample (local dates
/// and times in English layouts) and ESPN (UTC date and time, a lookup table joined by date, a range
/// filter). The bytes are the data file; the ESPN lookup is a fixed slice of season_dates.csv.
let spec = """
    sources:
      - id: nfl-espn-2022-2023
        sport: nfl
        season: 2022..2023
        system: espn
        files: [games.csv]
        format: csv-mapping
        scrapedAt: "2024-01-02T00:00:00Z"
        naiveTimeZone: UTC
        rejectThreshold: "2%"
        priority: 40
        filters:
          - {column: seasonDates.season_year, range: {from: "2022", to: "2023"}}
        mapping:
          lookups:
            - {name: seasonDates, file: season_dates.csv, key: date, match: date}
          fields:
            id: game_id
            date: {from: date, layout: yyyy-MM-dd, zone: UTC}
            time: {from: utc_time, layout: ["HH:mm", "HH:mm:ss"], zone: UTC}
            homeTeam: home_team_name
            awayTeam: away_team_name
            venue: venue_name
            season: seasonDates.season_year
            kind:
              from: seasonDates.season_type
              values: {Regular Season: regular, Post Season: postseason, Preseason: preseason}
      - id: ufl-2025-sample
        sport: ufl
        season: "2025"
        system: ufl-sample
        files: [ufl_2025_sample.csv]
        format: csv-mapping
        scrapedAt: "2025-03-01T00:00:00Z"
        naiveTimeZone: venue
        rejectThreshold: "0"
        priority: 10
        mapping:
          fields:
            date: {from: Game Day, layout: "EEE, MMM d, yyyy"}
            time: {from: Kickoff (local), layout: "h:mm a"}
            awayTeam: Visitors
            homeTeam: Home
            venue: Stadium
            city: City
    """

let seasonDates = LoadedFile(
    path: "fixtures/scraped/nfl-espn-2022-2023/season_dates.csv", name: "season_dates.csv",
    data: Data(
        """
        date,season_year,season_type,week
        2022-09-09,2022,Regular Season,1
        2022-09-11,2022,Regular Season,1
        2023-01-14,2022,Post Season,1
        2023-09-07,2023,Regular Season,1
        2024-01-13,2023,Post Season,1

        """.utf8))

nonisolated(unsafe) let sources: [SourceConfig] = {
    do { return try SourceCatalog.load(text: spec, path: "pipeline/sources.yaml") } catch {
        preconditionFailure("the embedded sources no longer load: \(error)")
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
public func fuzzMappingCSV(_ start: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    let empty: [UInt8] = [0]
    return empty.withUnsafeBufferPointer { fallback in
        fuzzMappingCSVBody(count > 0 ? start ?? fallback.baseAddress! : fallback.baseAddress!, start == nil ? 0 : count)
    }
}

func fuzzMappingCSVBody(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> Int32 {
    let data = Data(bytes: bytes, count: count)
    check(
        sources[0], LoadedFile(path: "fixtures/scraped/nfl-espn-2022-2023/games.csv", name: "games.csv", data: data),
        lookups: [seasonDates])
    check(sources[1], LoadedFile(path: "fixtures/scraped/ufl-2025-sample/ufl_2025_sample.csv", name: "ufl_2025_sample.csv", data: data))
    return 0
}

/// SwiftPM links an executable with `main` = `<module>_main`; hand the process to libFuzzer's driver.
@_cdecl("fuzz_mapping_csv_main")
public func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
    var argc = argc
    var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = argv
    return LLVMFuzzerRunDriver(&argc, &argv, fuzzMappingCSV)
}

@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<Int32>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
) -> Int32
