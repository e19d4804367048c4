import SportsTimeCore

/// One ingest artifact (`out/ingest/<source>/games.json`): its raw games and the batch's declared facts.
public struct RawBatch: Sendable, Hashable {
    /// The meta keys normalize copies from the ingest envelope into its own `games/<source>.json`.
    public static let copiedMetaKeys: Set<MetaKey> = [
        .source, .system, .sport, .season, .scope, .scrapedAt, .priority, .allowShrink, .rejectThreshold,
        .expectedGamesPerTeam, .expectedGamesReason,
    ]
    /// The meta keys a batch must declare.
    public static let requiredMetaKeys: [MetaKey] = [.source, .system, .sport, .season, .scrapedAt]

    /// Repository-relative path of the artifact, used in messages and rejects.
    public var path: String
    /// The source id (`retrosheet-2023`), from the envelope's `meta.source`.
    public var source: String
    /// The source system (`retrosheet`, `espn`, `nflverse`), which selects source-specific aliases.
    public var system: String
    /// When the source was scraped; becomes every game's `lastModified`.
    public var scrapedAt: Instant
    /// The envelope's meta, restricted to `copiedMetaKeys`.
    public var meta: [MetaKey: String]
    public var games: [RawGame]

    /// Checks the batch's meta: every required key present and `scrapedAt` an ISO-8601 instant.
    ///
    /// - Throws: `PipelineError.invalidInput` naming the file and the missing or bad key.
    public init(path: String, meta: [MetaKey: String], games: [RawGame]) throws {
        let missing = Self.requiredMetaKeys.filter { (meta[$0] ?? "").isEmpty }
        guard missing.isEmpty else {
            throw PipelineError.invalidInput(
                Diagnostic(
                    .error, at: SourceLocation(path: path, line: 1),
                    "the envelope's meta lacks \(missing.map { "'\($0)'" }.joined(separator: ", "))",
                    fix: "Re-run ingest with this build; it writes source, system, sport, season, scope, scrapedAt and priority"))
        }
        let scraped = meta[.scrapedAt] ?? ""
        guard let scrapedAt = Instant(iso8601: scraped) else {
            throw PipelineError.invalidInput(
                Diagnostic(
                    .error, at: SourceLocation(path: path, line: 1),
                    "meta.scrapedAt '\(scraped)' is not an ISO-8601 instant",
                    fix: "Declare scrapedAt like 2026-01-15T12:00:00Z in pipeline/sources.yaml and re-run ingest"))
        }
        let source = meta[.source] ?? ""
        guard Self.isFileSafe(source) else {
            throw PipelineError.invalidInput(
                Diagnostic(
                    .error, at: SourceLocation(path: path, line: 1),
                    "meta.source '\(source)' is not a usable source id (letters, digits, '.', '_' and '-', not starting with '.')",
                    fix: "Rename the source in pipeline/sources.yaml and re-run ingest"))
        }
        self.path = path
        self.source = source
        self.system = (meta[.system] ?? "").lowercased()
        self.scrapedAt = scrapedAt
        self.meta = meta.filter { Self.copiedMetaKeys.contains($0.key) || $0.key.trustedGroup != nil }
        self.games = games
    }

    /// Source ids name output files (`games/<source>.json`), so they must be plain file names.
    static func isFileSafe(_ id: String) -> Bool {
        !id.isEmpty && !id.hasPrefix(".")
            && id.unicodeScalars.allSatisfy {
                $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "._-".unicodeScalars.contains($0))
            }
    }
}
