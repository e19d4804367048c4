import SportsTimeCore

/// Soft delete: which games a newer batch of the same system and scope no longer lists.
///
/// Batches are grouped by `(system, scope)` (e.g. `retrosheet` / `mlb-2020`: the original and the
/// COVID-revised 2020 schedules). Within a group, batches with the same `scrapedAt` form one snapshot
/// listing the union of their ids; snapshots are ordered by `scrapedAt`. For each game a group has
/// ever listed:
/// - listed by the group's latest snapshot → active in that group;
/// - otherwise dropped at the `scrapedAt` of the first snapshot after the last one that listed it.
/// A game is deprecated when every group that listed it has dropped it; `deprecatedAt` is the latest
/// of those drop times. A game listed again by a later snapshot is active again (restored).
/// Records that could not be read (newer schema) still count as listed.
public enum SoftDelete {
    /// For every game id any batch lists: nil when active, else when it was dropped.
    public static func deprecations(_ batches: [RecordBatch<Game>]) -> [String: Instant?] {
        var groups: [GroupKey: [RecordBatch<Game>]] = [:]
        for batch in batches { groups[GroupKey(system: batch.origin.system, scope: batch.origin.scope), default: []].append(batch) }

        var result: [String: Instant?] = [:]
        for key in groups.keys.sorted() {
            let snapshots = snapshotsInOrder(groups[key]!)
            var lastListed: [String: Int] = [:]
            for (index, snapshot) in snapshots.enumerated() {
                for id in snapshot.ids { lastListed[id] = index }
            }
            let latest = snapshots.count - 1
            for (id, last) in lastListed {
                let droppedAt: Instant? = last == latest ? nil : snapshots[last + 1].scrapedAt
                switch result[id] {
                case .none: result[id] = droppedAt
                case .some(.none): break // active in another group
                case .some(.some(let earlier)): result[id] = droppedAt.map { max($0, earlier) } ?? .some(nil)
                }
            }
        }
        return result
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

    static func snapshotsInOrder(_ batches: [RecordBatch<Game>]) -> [Snapshot] {
        var byTime: [Instant: Set<String>] = [:]
        for batch in batches { byTime[batch.origin.scrapedAt, default: []].formUnion(batch.listedIds) }
        return byTime.keys.sorted().map { Snapshot(scrapedAt: $0, ids: byTime[$0]!) }
    }
}
