import Foundation
import SportsTimeCore
import SportsTimeIngest

/// libFuzzer harness: StrictYAML (syntax, types, unknown keys, line:col lookup) through the sources
/// spec loader, which also runs every per-source check with its YAML location.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzYAML(_ start: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    let empty: [UInt8] = [0]
    return empty.withUnsafeBufferPointer { fallback in
        fuzzYAMLBody(count > 0 ? start ?? fallback.baseAddress! : fallback.baseAddress!, start == nil ? 0 : count)
    }
}

func fuzzYAMLBody(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> Int32 {
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

/// SwiftPM links an executable with `main` = `<module>_main`; hand the process to libFuzzer's driver.
@_cdecl("fuzz_yaml_main")
public func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
    var argc = argc
    var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = argv
    return LLVMFuzzerRunDriver(&argc, &argv, fuzzYAML)
}

@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<Int32>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
) -> Int32
