import Foundation
import SportsTimeCore

/// libFuzzer harness: the envelope decoder (header first, then the records) for every artifact kind
/// with its record type, and the canonical writer on whatever decodes (decode → encode → decode must
/// give the same bytes again).
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
