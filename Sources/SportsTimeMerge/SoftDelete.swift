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

        // Each game of the store by its slot (its place in the store's order): a listed id is looked up
        // once, and everything after works on slots. An id that is no game of the store (a record that
        // could not be read) has no verdict to give.
        var slotOf: [String: Int] = [:]
        slotOf.reserveCapacity(games.count + finalId.count)
        for (slot, id) in games.keys.enumerated() { slotOf[id] = slot }
        // An id that became a game of another id (matched across dates) lists that game: one lookup per
        // listed id instead of two.
        for (id, final) in finalId { slotOf[id] = slotOf[final] }

        // Per game: the groups that list it in a current batch, and whether it is active in one.
        var verdicts = [Verdict](repeating: Verdict(), count: games.count)
        var lastListed = [Int32](repeating: -1, count: games.count)
        var listedSlots: [Int] = []
        for (number, key) in groupKeys.enumerated() {
            // Snapshots (batches of the same `scrapedAt`) in time order; a game's last listing is the
            // latest snapshot whose batches list it.
            let snapshots = Dictionary(grouping: groups[key]!, by: \.origin.scrapedAt).sorted { $0.key < $1.key }
            for (index, snapshot) in snapshots.enumerated() {
                for batch in snapshot.value {
                    func list(_ id: String) {
                        guard let slot = slotOf[id] else { return }
                        if lastListed[slot] < 0 { listedSlots.append(slot) }
                        lastListed[slot] = Int32(index)
                    }
                    // Ids read in place: iterating the records would copy each game (a retain of every string).
                    for index in batch.records.indices { list(batch.records[index].id) }
                    for index in batch.unreadable.indices { list(batch.unreadable[index].id) }
                }
            }
            let latest = snapshots.count - 1
            for slot in listedSlots {
                let last = Int(lastListed[slot])
                verdicts[slot].listed(by: number)
                if last == latest {
                    verdicts[slot].isActive = true
                } else {
                    verdicts[slot].drop(at: snapshots[last + 1].key)
                }
                lastListed[slot] = -1
            }
            listedSlots.removeAll(keepingCapacity: true)
        }

        // Per source: its group's number and its earliest batch, found with one lookup.
        var sourceGroups: [String: (group: Int, earliest: Instant)] = [:]
        for (source, group) in groupOfSource {
            guard let number = groupNumber[group], let earliest = earliestBatchOfSource[source] else { continue }
            sourceGroups[source] = (number, earliest)
        }
        /// Sets or clears one game's `deprecatedAt` by what the groups say of it.
        func settle(_ game: inout Game, _ verdict: Verdict) {
            var verdict = verdict
            let listedNow = verdict.isListed
            // Sources that listed the game in a batch no longer among the inputs.
            for source in game.sourceIds.keys {
                guard let (group, scrapedAt) = sourceGroups[source], !verdict.isListed(by: group) else { continue }
                verdict.drop(at: scrapedAt)
            }
            let deprecatedAt: Instant?
            if verdict.isActive {
                deprecatedAt = nil
            } else if let dropped = verdict.droppedAt {
                deprecatedAt = listedNow ? dropped : (game.deprecatedAt ?? dropped)
            } else {
                return // nothing in the inputs speaks about this game: keep what the store says
            }
            if game.deprecatedAt != deprecatedAt { game.deprecatedAt = deprecatedAt }
        }
        // Walk the store by position and reach each game in place (`inout`): iterating `games.keys` while
        // assigning `games[id]` would copy the whole store on the first change, and reading a game through
        // the values' getter copies it (a retain of every string of it).
        var position = games.startIndex
        var slot = 0
        while position != games.endIndex {
            settle(&games.values[position], verdicts[slot])
            games.formIndex(after: &position)
            slot += 1
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
}
