import Foundation
import SportsTimeCore
import SportsTimeIngest

/// libFuzzer harness: the iCalendar reader and its mapping, through the public ingest entry point with
/// the MLS source exactly as pipeline/sources.yaml declares it. The bytes are one team's .ics file.
let spec = """
    sources:
      - id: mls-2025
        sport: mls
        season: "2025"
        system: mls-ical
        files: ["*.ics"]
        format: ical
        scrapedAt: "2025-10-31T12:00:00Z"
        naiveTimeZone: venue
        rejectThreshold: "1%"
        priority: 50
        filters:
          - {column: competition, in: ["MLS - Regular Season", "MLS - Cup Playoffs"]}
        mapping:
          fields:
            kind: {from: competition, values: {MLS - Regular Season: regular, MLS - Cup Playoffs: postseason}}
    """

nonisolated(unsafe) let source: SourceConfig? = try? SourceCatalog.load(text: spec, path: "pipeline/sources.yaml").first

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzICal(_ start: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    let empty: [UInt8] = [0]
    return empty.withUnsafeBufferPointer { fallback in
        fuzzICalBody(count > 0 ? start ?? fallback.baseAddress! : fallback.baseAddress!, start == nil ? 0 : count)
    }
}

func fuzzICalBody(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> Int32 {
    guard let source else { preconditionFailure("the embedded MLS source no longer loads") }
    let file = LoadedFile(path: "fixtures/scraped/mls-2025/team.ics", name: "team.ics", data: Data(bytes: bytes, count: count))
    do {
        let result = try Ingester.ingest(source, files: [file])
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
    return 0
}

/// SwiftPM links an executable with `main` = `<module>_main`; hand the process to libFuzzer's driver.
@_cdecl("fuzz_ical_main")
public func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
    var argc = argc
    var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = argv
    return LLVMFuzzerRunDriver(&argc, &argv, fuzzICal)
}

@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<Int32>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
) -> Int32
