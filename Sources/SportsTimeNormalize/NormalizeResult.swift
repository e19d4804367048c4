import SportsTimeCore

/// What normalize made of one batch.
public struct NormalizedBatch: Sendable, Hashable {
    /// Repository-relative path of the ingest artifact.
    public var path: String
    public var source: String
    /// The ingest meta to copy into `games/<source>.json` (see `RawBatch.copiedMetaKeys`).
    public var meta: [MetaKey: String]
    /// Canonical games, sorted by id. Empty when the batch was refused.
    public var games: [Game]
    /// Records of this batch that were not turned into games, each with its reason.
    public var rejects: [Reject]
    /// How many raw games the batch held: always `games.count + rejects.count`.
    public var inputCount: Int
    /// Set when the whole batch was refused (it looks corrupt): the error that says why.
    public var refusal: Diagnostic?

    /// Whether the batch was refused as a whole; a refused batch writes no `games/<source>.json`.
    public var isRefused: Bool { refusal != nil }
}

/// Everything normalize produces from a set of batches.
public struct NormalizeResult: Sendable, Hashable {
    /// One entry per batch, sorted by source id.
    public var batches: [NormalizedBatch]
    /// Every raw name that did not resolve, sorted by id.
    public var unresolved: [UnresolvedName]
    /// Every batch's rejects, sorted (file, line, record id, reason).
    public var rejects: [Reject]
    /// Warnings (a venue that contradicts the home team) and errors (a refused batch), sorted by location.
    public var diagnostics: [Diagnostic]
    /// Every name that did not resolve, once per record (for `lostNames(comparedWith:)`).
    var misses: [NameMiss] = []

    /// The sources with a name that resolved to nothing (the only ones `lostNames(comparedWith:)` can
    /// name, so the only published games it needs).
    public var sourcesWithUnresolvedNames: Set<String> { Set(misses.filter(\.candidates.isEmpty).map(\.source)) }

    /// Raw games read across all batches.
    public var inputCount: Int { batches.reduce(0) { $0 + $1.inputCount } }
    /// Games written across all batches.
    public var gameCount: Int { batches.reduce(0) { $0 + $1.games.count } }

    /// One line for the end of a run: `sportstime-normalize: 3 batches, 6,100 games in: 6,050 written, …`.
    public func summary(writtenTo folder: String) -> String {
        let refused = batches.filter(\.isRefused).count
        var text =
            "sportstime-normalize: \(NumberText.grouped(batches.count)) batch\(batches.count == 1 ? "" : "es"), "
            + "\(NumberText.grouped(inputCount)) games in: \(NumberText.grouped(gameCount)) written, "
            + "\(NumberText.grouped(rejects.count)) rejected"
        if refused > 0 { text += " (\(NumberText.grouped(refused)) batch\(refused == 1 ? "" : "es") refused)" }
        text += "; \(NumberText.grouped(unresolved.count)) unresolved name\(unresolved.count == 1 ? "" : "s") -> \(folder)"
        return text
    }
}
