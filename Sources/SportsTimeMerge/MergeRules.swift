import SportsTimeCore

/// The ordering rules of the merge, in one place.
///
/// **Batch order.** Batches of one kind are folded in this order, so the result never depends on the
/// order files were listed in:
/// 1. by `scrapedAt` (the batch's `lastModified`), oldest first;
/// 2. then by priority, **highest first**;
/// 3. then by source id, ascending; then by file path.
/// Within a batch, records go by id (file order among equal ids).
///
/// **Record versions.** A record's version is `(lastModified, priority of its source, source id)`;
/// a newer `lastModified` wins; at equal `lastModified` the higher priority wins, then the smaller
/// source id. An incoming record replaces the stored one only when its version is strictly greater;
/// otherwise it is *skippedOlder* (docs/design.md §5, rule 2: "an existing record not strictly older").
///
/// The two agree: because batches with the same `lastModified` are folded highest priority first,
/// in a full merge a tie on `lastModified` always finds the winner already stored and ends as
/// *skippedOlder* — exactly rule 2. The priority in the version matters when the store already
/// holds records from an earlier run (incremental merge) or when a record's own `lastModified`
/// differs from its batch's `scrapedAt`: it makes the winner the same whatever the order, which is
/// what lets an incremental merge equal a full one. Two records with the same id, `lastModified` and
/// source (a source listing a game twice) keep the first folded.
public enum MergeRules {
    /// The source id of the curated reference data.
    public static let referenceSource = "reference"

    /// Whether batch `a` is folded before batch `b`.
    public static func folds(_ a: BatchOrigin, before b: BatchOrigin) -> Bool {
        if a.scrapedAt != b.scrapedAt { return a.scrapedAt < b.scrapedAt }
        if a.priority != b.priority { return a.priority > b.priority }
        if a.source != b.source { return a.source < b.source }
        return a.path < b.path
    }
}

/// Priority per source id, from the batches' metadata; sources not listed (the reference data,
/// built-in sports) have priority 0.
public struct SourcePriorities: Sendable, Hashable {
    public private(set) var bySource: [String: Int] = [:]

    public init(_ origins: [BatchOrigin]) {
        for origin in origins { bySource[origin.source] = max(bySource[origin.source] ?? origin.priority, origin.priority) }
    }

    public func priority(of source: String) -> Int { bySource[source] ?? 0 }

    /// The version of a record, for "does the incoming one win?".
    func version<Record: CanonicalRecord>(of record: Record) -> RecordVersion {
        version(lastModified: record.lastModified, source: record.source)
    }

    /// The version of a record of `source` last modified at `lastModified`.
    func version(lastModified: Instant, source: String) -> RecordVersion {
        RecordVersion(lastModified: lastModified, priority: priority(of: source), source: source)
    }
}

/// What decides which of two records with the same id wins.
struct RecordVersion: Comparable, Sendable {
    var lastModified: Instant
    var priority: Int
    var source: String

    static func < (a: Self, b: Self) -> Bool {
        if a.lastModified != b.lastModified { return a.lastModified < b.lastModified }
        if a.priority != b.priority { return a.priority < b.priority }
        return a.source > b.source
    }
}
