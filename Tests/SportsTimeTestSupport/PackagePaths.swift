import Foundation

/// Where the package and its built executables are, for tests that read committed files or run the
/// real executables.
public enum PackagePaths {
    /// The package root (the folder holding Package.swift).
    public static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
}

/// A failure of the test support itself (an executable not built, a process that cannot start).
public struct TestSupportError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// The built executables. One policy: a test that needs an executable fails when it is not built
/// (`swift build --build-tests` builds them all, and `make test` runs that), never skips.
public enum Executables {
    /// The folder of the executables this test process was built with: beside the test bundle (and a
    /// few levels up, as `swift test` lays products out), else `.build/debug`, else `.build/release`.
    public static func folder() throws -> URL {
        if let found = search() { return found }
        throw TestSupportError(
            "the executables are not built (looked beside the test bundle and in .build/debug and "
                + ".build/release); run swift build --build-tests first")
    }

    /// The executable `name` (e.g. `sportstime-merge`).
    public static func url(_ name: String) throws -> URL {
        let url = try folder().appendingPathComponent(name)
        guard FileManager.default.isExecutableFile(atPath: url.path) else {
            throw TestSupportError("\(name) is not built in \(url.deletingLastPathComponent().path); run swift build --build-tests first")
        }
        return url
    }

    private static func search() -> URL? {
        var candidates: [URL] = []
        var url = URL(fileURLWithPath: CommandLine.arguments[0])
        for _ in 0..<4 {
            url = url.deletingLastPathComponent()
            candidates.append(url)
        }
        candidates.append(Bundle.main.bundleURL.deletingLastPathComponent())
        candidates += ["debug", "release"].map { PackagePaths.root.appendingPathComponent(".build/\($0)") }
        return candidates.first {
            FileManager.default.isExecutableFile(atPath: $0.appendingPathComponent("sportstime-ingest").path)
                && FileManager.default.isExecutableFile(atPath: $0.appendingPathComponent("sportstime").path)
        }
    }
}
