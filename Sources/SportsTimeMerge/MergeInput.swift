import SportsTimeCore

/// Where a batch of records came from, and the keys that order it among other batches.
public struct BatchOrigin: Sendable, Hashable {
    /// The source id (`retrosheet-2020-revised`), or `reference` for the curated reference data.
    public var source: String
    /// The source system (`retrosheet`, `espn`); with `scope`, the group whose newer batches soft-delete games.
    public var system: String
    /// What the batch covers (`mlb-2020`): a newer batch of the same system and scope replaces its listing.
    public var scope: String
    /// The batch's `lastModified`: the source's declared scrape time (never a file time).
    public var scrapedAt: Instant
    /// Higher wins ties on `lastModified`.
    public var priority: Int
    /// The repository-relative file the batch was read from (rejects and messages name it).
    public var path: String
    /// Per field group, how much this source is trusted for it (`trust:` in `pipeline/sources.yaml`);
    /// a higher rank wins that field before recency is asked. Missing groups rank 0.
    public var trust: [FieldGroup: Int] = [:]
    /// The season's regular-season games per team and why the batch lists fewer (`expectedGames`), when
    /// the source declares it: merge reports the games not listed as pending.
    public var expectedGames: ExpectedGames?
}

/// A source's `expectedGames`: regular-season games per team in the season, and why it lists fewer.
public struct ExpectedGames: Sendable, Hashable {
    public var perTeam: Int
    public var reason: String
}

/// A record the build could not decode because its `schemaVersion` is newer than it reads: only its id
/// and version are known. It still counts as listed by its batch (for soft delete).
public struct UnreadableRecord: Sendable, Hashable {
    public var id: String
    public var schemaVersion: Int
}

/// One input batch of records of one kind.
public struct RecordBatch<Record: MergeableRecord>: Sendable {
    public var origin: BatchOrigin
    /// Records in file order.
    public var records: [Record]
    /// Records from a newer schema that could not even be decoded.
    public var unreadable: [UnreadableRecord] = []
    /// The 1-based line of `records[0]` when the file has one record per line (canonical envelopes), so
    /// record `i` is on line `firstRecordLine + i`; nil when lines are not known.
    public var firstRecordLine: Int?
}

/// The store and high-water marks of an earlier merge, for an incremental merge.
public struct PreviousMerge: Sendable {
    public var store: MergeStore
    /// Per kind, the newest `lastModified` the earlier merge read.
    public var highWater: [EntityKind: Instant]
}

/// Everything one merge run folds.
public struct MergeInput: Sendable {
    /// The curated reference data (sports include the built-in seven).
    public var reference: ReferenceData
    /// Repository-relative folder the reference data was loaded from (`fixtures/reference`).
    public var referencePath: String
    /// One batch per normalized source file.
    public var gameBatches: [RecordBatch<Game>]
    /// Field patches from `fixtures/overrides/`, applied after the fold.
    public var overrides: [OverridePatch]
    /// The earlier merge, when running incrementally.
    public var previous: PreviousMerge?

    public init(
        reference: ReferenceData, referencePath: String = "fixtures/reference", gameBatches: [RecordBatch<Game>],
        overrides: [OverridePatch] = [], previous: PreviousMerge? = nil
    ) {
        self.reference = reference; self.referencePath = referencePath; self.gameBatches = gameBatches
        self.overrides = overrides; self.previous = previous
    }

    /// The reference data of one kind as a batch. Its `scrapedAt` is the newest `lastModified` in it
    /// (only the ordering among batches uses it; each record keeps its own `lastModified`), its
    /// priority 0, its source `reference`.
    func referenceBatch<Record: MergeableRecord>(_ records: [Record], kind: EntityKind) -> RecordBatch<Record> {
        let newest = records.map(\.lastModified).max() ?? Instant(secondsSinceEpoch: 0)
        let origin = BatchOrigin(
            source: MergeRules.referenceSource, system: MergeRules.referenceSource,
            scope: kind.rawValue, scrapedAt: newest, priority: 0, path: referenceFile(of: kind))
        return RecordBatch(origin: origin, records: records)
    }

    /// The repository-relative reference file of `kind` (`fixtures/reference/teams.csv`).
    public func referenceFile(of kind: EntityKind) -> String {
        kind.referenceFileName.map { "\(referencePath)/\($0)" } ?? referencePath
    }
}
