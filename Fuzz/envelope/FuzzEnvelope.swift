import Foundation
import SportsTimeCore

/// libFuzzer harness: the envelope decoder (header first, then the records) for every artifact kind
/// with its record type, and the canonical writer on whatever decodes (decode → encode → decode must
/// give the same bytes again), and the reading of some ids of a games file against the whole reading.
func roundTrip<Record: Codable & Sendable & Identifiable>(_ type: Record.Type, _ kind: ArtifactKind, _ data: Data)
where Record.ID == String {
    do {
        let envelope = try EnvelopeReader.read(type, from: data, path: "out/fuzz/artifact.json", expecting: kind)
        precondition(
            envelope.schemaVersion >= 1 && envelope.schemaVersion <= kind.currentVersion,
            "accepted an envelope of version \(envelope.schemaVersion)")
        guard let written = try? envelope.canonicalData() else { return }
        let again = try EnvelopeReader.read(type, from: written, path: "out/fuzz/artifact.json", expecting: kind)
        let rewritten = try again.canonicalData()
        precondition(rewritten == written, "canonical output of \(kind.rawValue) is not stable")
    } catch let error as PipelineError {
        let diagnostics = error.diagnostics
        precondition(!diagnostics.isEmpty, "a pipeline error without a diagnostic")
        precondition(error.exitCode == 2, "a bad envelope must be exit 2, was \(error.exitCode)")
        for d in diagnostics { precondition(d.description.hasPrefix("out/fuzz/artifact.json:"), "message without the file: \(d)") }
    } catch {
        preconditionFailure("unexpected error type: \(error)")
    }
}

/// Reading some ids of a games file (`EnvelopeReader.records(…ids:)`) gives exactly the records the
/// whole reading gives for them, and fails only where the whole reading fails, with a located exit-2 error.
func selectiveRead(_ data: Data) {
    let path = "out/fuzz/artifact.json"
    let whole = try? EnvelopeReader.read(Game.self, from: data, path: path, expecting: .games).records
    let ids = Set((whole ?? []).enumerated().filter { $0.offset % 2 == 0 }.map(\.element.id) + ["fuzz-absent-id"])
    do {
        let some = try EnvelopeReader.records(Game.self, from: data, path: path, expecting: .games, ids: ids)
        if let whole { precondition(some == whole.filter { ids.contains($0.id) }, "reading some ids differs from the whole reading") }
    } catch let error as PipelineError {
        precondition(whole == nil, "reading some ids failed where the whole reading did not: \(error)")
        precondition(error.exitCode == 2, "a bad envelope must be exit 2, was \(error.exitCode)")
        for d in error.diagnostics { precondition(d.description.hasPrefix(path + ":"), "message without the file: \(d)") }
    } catch {
        preconditionFailure("unexpected error type: \(error)")
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzEnvelope(_ start: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    let empty: [UInt8] = [0]
    return empty.withUnsafeBufferPointer { fallback in
        fuzzEnvelopeBody(count > 0 ? start ?? fallback.baseAddress! : fallback.baseAddress!, start == nil ? 0 : count)
    }
}

func fuzzEnvelopeBody(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> Int32 {
    let data = Data(bytes: bytes, count: count)
    roundTrip(RawGame.self, .rawGames, data)
    roundTrip(Game.self, .games, data)
    selectiveRead(data)
    roundTrip(Team.self, .teams, data)
    roundTrip(Stadium.self, .stadiums, data)
    roundTrip(UnresolvedName.self, .unresolved, data)
    roundTrip(TripPlan.self, .tripPlan, data)
    return 0
}

/// SwiftPM links an executable with `main` = `<module>_main`; hand the process to libFuzzer's driver.
@_cdecl("fuzz_envelope_main")
public func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
    var argc = argc
    var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = argv
    return LLVMFuzzerRunDriver(&argc, &argv, fuzzEnvelope)
}

@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<Int32>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
) -> Int32
