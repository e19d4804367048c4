import Foundation
import SportsTimeCore

/// The one place the command loads `fixtures/reference/`.
///
/// INTEGRATION: the shared loader (`SportsTimeCore/Reference/ReferenceLoader.swift`) is written on
/// another branch. When it lands, replace the body of `load` with
/// `try ReferenceLoader.load(from: url, displayPath: displayPath)` and delete `loaderNotLinked`.
enum ReferenceSeam {
    static func load(from url: URL, displayPath: String) throws -> ReferenceData {
        try loaderNotLinked(displayPath: displayPath)
    }

    private static func loaderNotLinked(displayPath: String) throws -> ReferenceData {
        throw PipelineError.failure(Diagnostic(
            .error, at: SourceLocation(path: displayPath),
            "reference loader not linked: this build of sportstime-merge cannot read reference data yet",
            fix: "Build from the integrated branch, where ReferenceSeam calls ReferenceLoader.load"))
    }
}
