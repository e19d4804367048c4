import Foundation
import SportsTimeCore
@testable import SportsTimeIngest
import Testing

/// Paths and helpers shared by the ingest tests. Files are read from the source tree via `#filePath`.
enum TestSupport {
    /// `Tests/IngestTests/`.
    static let testsFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    /// The package root.
    static let packageRoot = testsFolder.deletingLastPathComponent().deletingLastPathComponent()
    static let fixtures = testsFolder.appendingPathComponent("Fixtures")

    /// Loads a spec from text and ingests one source the way the command does: its folder under
    /// `scraped` (relative to `root`), its files and lookups, paths shown relative to `root`.
    static func ingest(spec text: String, source id: String, root: URL, scraped: String = "fixtures/scraped") throws -> IngestResult {
        let configs = try SourceCatalog.load(text: text, path: "sources.yaml")
        guard let config = configs.first(where: { $0.id == id }) else { throw TestFailure("no source \(id) in the spec") }
        return try ingest(config, root: root, scraped: scraped)
    }

    static func ingest(_ config: SourceConfig, root: URL, scraped: String = "fixtures/scraped") throws -> IngestResult {
        let folder = root.appendingPathComponent(scraped).appendingPathComponent(config.folder)
        let listing = ArtifactFiles.files(under: folder, suffix: "").map { ArtifactFiles.relativePath(of: $0, to: folder) }
        func load(_ name: String) throws -> LoadedFile {
            let url = folder.appendingPathComponent(name)
            return LoadedFile(path: ArtifactFiles.relativePath(of: url, to: root), name: name, data: try Data(contentsOf: url))
        }
        let files = try config.dataFiles(in: listing).map(load)
        let lookups = try config.lookupFiles.filter { listing.contains($0.file) }.map { try load($0.file) }
        return try Ingester.ingest(config, files: files, lookups: lookups)
    }

    /// Ingests in-memory files for a one-source spec (files named relative to the source folder).
    static func ingest(spec text: String, files: [String: Data], lookups: [String: Data] = [:]) throws -> IngestResult {
        let configs = try SourceCatalog.load(text: text, path: "sources.yaml")
        let config = try #require(configs.first)
        func loaded(_ pairs: [String: Data]) -> [LoadedFile] {
            pairs.keys.sorted().map { LoadedFile(path: "fixtures/scraped/\(config.id)/\($0)", name: $0, data: pairs[$0]!) }
        }
        return try Ingester.ingest(config, files: loaded(files), lookups: loaded(lookups))
    }

    /// A minimal spec for one generic CSV source with the given mapping lines (indented under `mapping:`).
    static func csvSpec(
        _ mapping: String, extra: String = "", format: String = "csv-mapping", season: String = "2025",
        zone: String = "America/Chicago", threshold: String = "100%"
    ) -> String {
        """
        sources:
          - id: test
            sport: xfl
            season: "\(season)"
            system: test
            files: ["*"]
            format: \(format)
            scrapedAt: "2025-01-01T00:00:00Z"
            naiveTimeZone: \(zone)
            rejectThreshold: "\(threshold)"
            priority: 1
        \(extra.split(separator: "\n").map { "    " + $0 }.joined(separator: "\n"))
            mapping:
        \(mapping.split(separator: "\n").map { "      " + $0 }.joined(separator: "\n"))
        """
    }

    /// A unified-style line diff of two texts (for golden mismatches).
}

struct TestFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

extension Data {
    init(utf8 text: String) { self.init(text.utf8) }
}
