import SportsTimeCore

/// Soft delete: which games a newer batch of the same system and scope no longer lists.
///
/// Batches are grouped by `(system, scope)` (e.g. `retrosheet` / `mlb-2020`: the original and the
/// COVID-revised 2020 schedules). Within a group, batches with the same `scrapedAt` form one snapshot
/// listing the union of their ids; snapshots are ordered by `scrapedAt`. For each game a group lists:
/// - listed by the group's latest snapshot → active in that group;
/// - otherwise dropped at the `scrapedAt` of the first snapshot after the last one that listed it.
///
/// A game is deprecated when every group that listed it has dropped it; `deprecatedAt` is the latest
/// of those drop times. A game listed again by a later snapshot is active again (restored), and
/// records that could not be read (newer schema) still count as listed.
///
/// A source's file is replaced when it is scraped again, so an incremental merge may hold games that
/// no current batch lists. Such a game's listing is known only through its `sourceIds`: when a source
/// that listed it has a current batch (which does not list it), that source dropped it at that batch's
/// `scrapedAt` (the earliest, if several); a game already deprecated keeps its earlier `deprecatedAt`.
/// When every earlier batch is still among the inputs — always so in a full merge — this case never
/// arises, which keeps an incremental merge equal to a full one.
public enum SoftDelete {
    /// Sets or clears `deprecatedAt` on every game of `games` that the batches say something about.
    /// `finalId` maps the ids batches list to the ids of the games they became (games matched across
    /// dates); an id not in it is its own.
    public static func apply(
        _ batches: [RecordBatch<Game>], to games: inout [String: Game],
        finalId: [String: String] = [:]
    ) {
        var groups: [GroupKey: [RecordBatch<Game>]] = [:]
        var groupOfSource: [String: GroupKey] = [:]
        var earliestBatchOfSource: [String: Instant] = [:]
        for batch in batches {
            let key = GroupKey(system: batch.origin.system, scope: batch.origin.scope)
            groups[key, default: []].append(batch)
            groupOfSource[batch.origin.source] = key
            let source = batch.origin.source
            earliestBatchOfSource[source] = min(earliestBatchOfSource[source] ?? batch.origin.scrapedAt, batch.origin.scrapedAt)
        }
        // Groups numbered in order, so a verdict holds its listing groups as numbers.
        let groupKeys = groups.keys.sorted()
        let groupNumber = Dictionary(uniqueKeysWithValues: groupKeys.enumerated().map { ($1, $0) })

        // Per game: the groups that list it in a current batch, and whether it is active in one.
        var verdicts: [String: Verdict] = [:]
        for (number, key) in groupKeys.enumerated() {
            let snapshots = snapshotsInOrder(groups[key]!, finalId: finalId)
            var lastListed: [String: Int] = [:]
            for (index, snapshot) in snapshots.enumerated() {
                for id in snapshot.ids { lastListed[id] = index }
            }
            let latest = snapshots.count - 1
            for (id, last) in lastListed {
                // Updated in place: a verdict is read, changed and stored without a copy.
                verdicts[id, default: Verdict()].listed(by: number)
                if last == latest {
                    verdicts[id]!.isActive = true
                } else {
                    verdicts[id]!.drop(at: snapshots[last + 1].scrapedAt)
                }
            }
        }

        // Walk the store by position and change a game in place: iterating `games.keys` while assigning
        // `games[id]` would copy the whole store on the first change.
        var position = games.startIndex
        while position != games.endIndex {
            defer { games.formIndex(after: &position) }
            // Fields read in place: a copy of the game would retain every string of it.
            let id = games.keys[position]
            var verdict = verdicts[id] ?? Verdict()
            let listedNow = verdict.isListed
            // Sources that listed the game in a batch no longer among the inputs.
            for source in games.values[position].sourceIds.keys {
                guard let group = groupOfSource[source], !verdict.isListed(by: groupNumber[group]!),
                    let scrapedAt = earliestBatchOfSource[source]
                else { continue }
                verdict.drop(at: scrapedAt)
            }
            let deprecatedAt: Instant?
            if verdict.isActive {
                deprecatedAt = nil
            } else if let dropped = verdict.droppedAt {
                deprecatedAt = listedNow ? dropped : (games.values[position].deprecatedAt ?? dropped)
            } else {
                continue // nothing in the inputs speaks about this game: keep what the store says
            }
            if games.values[position].deprecatedAt != deprecatedAt {
                games.values[position].deprecatedAt = deprecatedAt
            }
        }
    }

    /// What the groups say about one game. The groups that list it are kept by number: the first 64 as
    /// bits (no allocation per game), any others in a list.
    struct Verdict {
        private var listingBits: UInt64 = 0
        private var listingBeyond: [Int] = []
        var isActive = false
        var droppedAt: Instant?
        mutating func drop(at time: Instant) { droppedAt = max(droppedAt ?? time, time) }
        mutating func listed(by group: Int) {
            if group < 64 { listingBits |= 1 << UInt64(group) } else if !listingBeyond.contains(group) { listingBeyond.append(group) }
        }
        func isListed(by group: Int) -> Bool {
            group < 64 ? listingBits & (1 << UInt64(group)) != 0 : listingBeyond.contains(group)
        }
        var isListed: Bool { listingBits != 0 || !listingBeyond.isEmpty }
    }

    struct GroupKey: Hashable, Comparable {
        var system: String
        var scope: String
        static func < (a: Self, b: Self) -> Bool { (a.system, a.scope) < (b.system, b.scope) }
    }

    struct Snapshot {
        var scrapedAt: Instant
        var ids: Set<String>
    }

    static func snapshotsInOrder(_ batches: [RecordBatch<Game>], finalId: [String: String] = [:]) -> [Snapshot] {
        var byTime: [Instant: Set<String>] = [:]
        for batch in batches {
            byTime[batch.origin.scrapedAt, default: []].formUnion(batch.listedIds.map { finalId[$0] ?? $0 })
        }
        return byTime.keys.sorted().map { Snapshot(scrapedAt: $0, ids: byTime[$0]!) }
    }
}
