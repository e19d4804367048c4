import Foundation
import SportsTimeCore

/// How the command obtains the curated reference data of `fixtures/reference/`.
protocol ReferenceDataLoading {
    /// Loads and checks the reference folder at `url`; `displayPath` is the repository-relative path for messages.
    func load(from url: URL, displayPath: String) throws -> ReferenceData
}

/// The reference loader this build uses.
///
/// INTEGRATION: SportsTimeCore's `ReferenceLoader.load(from:displayPath:)` is written on another branch.
/// Once it is merged, replace `referenceLoaderNotLinked` below with
/// `try ReferenceLoader.load(from: url, displayPath: displayPath)` and delete that function.
struct CoreReferenceLoader: ReferenceDataLoading {
    func load(from url: URL, displayPath: String) throws -> ReferenceData {
        try referenceLoaderNotLinked(from: url, displayPath: displayPath)
    }
}

/// Stands in for `ReferenceLoader.load` until the branches are merged: fails plainly instead of guessing.
private func referenceLoaderNotLinked(from url: URL, displayPath: String) throws -> ReferenceData {
    throw PipelineError.failure(Diagnostic(
        .error, at: SourceLocation(path: displayPath),
        "reference loader not linked: this build cannot read the reference data",
        fix: "Build from the integrated branch, where SportsTimeCore's ReferenceLoader is linked"))
}
