import Foundation
import SportsTimeCore
import SportsTimeIngest

/// libFuzzer harness: StrictYAML (syntax, types, unknown keys, line:col lookup) through the sources
/// spec loader, which also runs every per-source check with its YAML location.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzYAML(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> Int32 {
    let text = String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    do {
        let configs = try SourceCatalog.load(text: text, path: "pipeline/sources.yaml")
        precondition(Set(configs.map(\.id)).count == configs.count, "two sources with one id were accepted")
    } catch let error as PipelineError {
        let diagnostics = error.diagnostics
        precondition(!diagnostics.isEmpty, "a pipeline error without a diagnostic")
        precondition(error.exitCode == 2, "a bad spec must be exit 2, was \(error.exitCode)")
        for d in diagnostics { precondition(d.description.hasPrefix("pipeline/sources.yaml"), "message without the file: \(d)") }
    } catch {
        preconditionFailure("unexpected error type: \(error)")
    }
    return 0
}
