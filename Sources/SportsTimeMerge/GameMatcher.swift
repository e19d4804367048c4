import SportsTimeCore

/// Finds the games that are one real game although their sources date them differently.
///
/// Games start grouped by id (sources that agree on the date meet there), and ids that share a source
/// system's own game id (`sourceIds`: ESPN's 401547353, the NBA's 0022500001) are one group whatever
/// dates they carry — a re-scrape that re-dates a game, or a feed listing a moved game under its old
/// and new date, is still that game. Two groups may be one game
/// when they have the same sport, home and away team (not necessarily the same season label: a source
/// that calls the NBA season `2026` instead of `2025-26` still meets the others), none of their records comes from the same
/// source system and scope (one system's own snapshots never pair: a newer snapshot replaces an older
/// one, and soft delete handles what it dropped), and their dates are within the sport's window
/// (`Sport.matchWindowDays`, default 3) — or one's makeup date is the other's date.
///
/// Pairing is by nearest date, then the same game number, then the nearer start time. Two groups join
/// only when each is the other's single best candidate; this repeats until nothing joins. A group left
/// with candidates but no single best is *ambiguous*: it stays apart and is reported with them, so a
/// series whose games could pair in more than one way is never guessed.
enum GameMatcher {
    struct Result {
        /// Each cluster: the ids (of `byId`) that are one game, sorted.
        var clusters: [[String]]
        var ambiguous: [MergeAmbiguousMatch]
    }

    /// One group of same-id records, or a cluster of them. Dates and systems are sorted, without repeats.
    private struct Node {
        var ids: [String]
        var dates: [LocalDate]
        var makeupDates: [LocalDate]
        var gameNumber: Int
        /// Seconds into the UTC day of a known exact start.
        var startSecond: Int64?
        /// The source systems and scopes (numbered by `match`), sorted, unique.
        var systems: [Int]
        var alive = true
    }

    private struct Pairing: Hashable {
        var sport, home, away: String
    }

    private struct SystemKey: Hashable {
        var system, scope: String
    }

    /// `values` sorted with repeats left out.
    private static func sortedUnique<T: Comparable>(_ values: [T]) -> [T] {
        var unique: [T] = []
        for value in values.sorted() where unique.last != value { unique.append(value) }
        return unique
    }

    /// Whether two sorted arrays share an element.
    private static func intersects<T: Comparable>(_ a: [T], _ b: [T]) -> Bool {
        var i = 0, j = 0
        while i < a.count, j < b.count {
            if a[i] == b[j] { return true }
            if a[i] < b[j] { i += 1 } else { j += 1 }
        }
        return false
    }

    /// The members of one pairing (sport, home, away; places in `entries`, in id order) that share a
    /// source system's own game id (`sourceIds` of the record's source), joined: the same id in two
    /// records of one system, for the same teams, is one game whatever dates they give it (an id reused
    /// for other teams is not trusted to be the same game). Each set in the order of its first id;
    /// members that share none stay alone.
    private static func sameSourceGame(
        _ members: [Int], _ entries: [Entry], _ contributions: [GameFold.Contribution],
        system: (GameFold.Contribution) -> Int
    ) -> [[Int]] {
        guard members.count > 1 else { return [members] }
        var partition = Partition(count: members.count)
        var owned: [(system: Int, id: String, index: Int)] = []
        for (index, member) in members.enumerated() {
            for part in entries[member].parts {
                let game = contributions[part].game
                if let own = game.sourceIds[game.source] { owned.append((system(contributions[part]), own, index)) }
            }
        }
        owned.sort { ($0.system, $0.id) < ($1.system, $1.id) }
        for (a, b) in zip(owned, owned.dropFirst()) where a.system == b.system && a.id == b.id { partition.link(a.index, b.index) }
        return partition.parts().map { part in part.map { members[$0] } }
    }

    /// One id of the fold and its records (places in the fold's contributions).
    private struct Entry {
        var id: String
        var parts: [Int]
    }

    /// The clusters of the fold's ids: `byId` gives each id's records as places in `contributions`.
    static func match(
        _ byId: [String: [Int]], contributions: [GameFold.Contribution], sports: [String: Sport]
    ) -> Result {
        // Each batch's source system and scope numbered, and the ids grouped by pairing; then the
        // pairings are matched on all cores (no pairing's games can be one game with another's). A
        // system's number only tells systems apart, so the order ids are met in does not matter.
        var systemNumbers: [SystemKey: Int] = [:]
        var batchNumbers: [ObjectIdentifier: Int] = [:]
        var entries: [Entry] = []
        var idsByPairing: [Pairing: [Int]] = [:]
        for (id, parts) in byId {
            for part in parts where batchNumbers[ObjectIdentifier(contributions[part].batch)] == nil {
                let batch = contributions[part].batch
                let key = SystemKey(system: batch.origin.system, scope: batch.origin.scope)
                let number = systemNumbers[key] ?? systemNumbers.count
                systemNumbers[key] = number
                batchNumbers[ObjectIdentifier(batch)] = number
            }
            let first = contributions[parts[0]]
            idsByPairing[Pairing(sport: first.game.sport, home: first.game.homeTeamId, away: first.game.awayTeamId), default: []]
                .append(entries.count)
            entries.append(Entry(id: id, parts: parts))
        }
        let (numbers, pairingIds, all) = (batchNumbers, idsByPairing, entries)
        let pairings = pairingIds.keys.sorted(by: { ($0.sport, $0.home, $0.away) < ($1.sport, $1.home, $1.away) })
        let matched = pairings.parallelMapInRuns(minimumRun: 64) { key in
            matchPairing(
                pairingIds[key]!.sorted { all[$0].id < all[$1].id }, all, contributions,
                window: sports[key.sport]?.matchWindowDays ?? Sport.defaultMatchWindowDays,
                system: { numbers[ObjectIdentifier($0.batch)]! })
        }
        var clusters: [[String]] = []
        var ambiguous: [MergeAmbiguousMatch] = []
        for (pairingClusters, pairingAmbiguous) in matched {
            clusters.append(contentsOf: pairingClusters)
            ambiguous.append(contentsOf: pairingAmbiguous)
        }
        return Result(clusters: clusters, ambiguous: ambiguous.sorted { $0.id < $1.id })
    }

    /// The clusters of one pairing's ids (its members, places in `entries` in id order; clusters in node
    /// order) and its ambiguous games.
    private static func matchPairing(
        _ members: [Int], _ entries: [Entry], _ contributions: [GameFold.Contribution], window: Int,
        system: (GameFold.Contribution) -> Int
    ) -> (clusters: [[String]], ambiguous: [MergeAmbiguousMatch]) {
        var nodes: [Node] = []
        for group in sameSourceGame(members, entries, contributions, system: system) {
            let parts = group.flatMap { entries[$0].parts }
            let first = contributions[parts[0]]
            let node = Node(
                ids: group.map { entries[$0].id },
                dates: sortedUnique(group.map { contributions[entries[$0].parts[0]].game.localDate }),
                makeupDates: sortedUnique(parts.compactMap { contributions[$0].game.makeupDate }),
                gameNumber: first.game.gameNumber ?? 1,
                startSecond: parts.lazy.compactMap { contributions[$0].game.startUTC }.first.map {
                    (($0.secondsSinceEpoch % 86_400) + 86_400) % 86_400
                },
                systems: sortedUnique(parts.map { system(contributions[$0]) }))
            nodes.append(node)
        }
        var ambiguous: [MergeAmbiguousMatch] = []
        if nodes.count > 1 {
            // Only nodes linked by a chain of dates within the window (or a makeup date) can ever be
            // one game, joined or not: each such part is joined on its own, so a pairing that meets
            // in many seasons costs per series, not per pair of its games.
            for part in linkedParts(nodes, window: window) {
                if part.count == 1 { continue }
                var sub = part.map { nodes[$0] }
                join(&sub, window: window, ambiguous: &ambiguous)
                for (position, index) in part.enumerated() { nodes[index] = sub[position] }
            }
        }
        var clusters: [[String]] = []
        for node in nodes where node.alive { clusters.append(node.ids.sorted()) }
        return (clusters, ambiguous)
    }

    /// The nodes of one pairing in parts that no join can cross: sorted by date, a node is in the part of
    /// the nodes within `window` days before it, and of any node one of its makeup dates falls on. A
    /// node's distance to a node of another part is nil, and stays nil after joins within the parts
    /// (a joined node's dates and makeup dates are those of its part). Each part's indices ascending,
    /// parts in order of their first index.
    private static func linkedParts(_ nodes: [Node], window: Int) -> [[Int]] {
        var partition = Partition(count: nodes.count)
        // Every date of every node, sorted: neighbours within the window are linked.
        var dated: [(day: Int64, node: Int)] = []
        for (index, node) in nodes.enumerated() { for date in node.dates { dated.append((date.daysSinceEpoch, index)) } }
        dated.sort { ($0.day, $0.node) < ($1.day, $1.node) }
        for (a, b) in zip(dated, dated.dropFirst()) where b.day - a.day <= Int64(window) { partition.link(a.node, b.node) }
        // A makeup date links to the nodes dated on it (most pairings have none: no index is built then).
        if nodes.contains(where: { !$0.makeupDates.isEmpty }) {
            var onDay: [Int64: [Int]] = [:]
            for entry in dated { onDay[entry.day, default: []].append(entry.node) }
            for (index, node) in nodes.enumerated() {
                for makeup in node.makeupDates { for other in onDay[makeup.daysSinceEpoch] ?? [] { partition.link(index, other) } }
            }
        }
        return partition.parts()
    }

    /// Disjoint sets of `0..<count` (union-find): `parts()` gives each set's members ascending, the sets
    /// in order of their smallest member.
    private struct Partition {
        private var parent: [Int]

        init(count: Int) { parent = Array(0..<count) }

        private mutating func root(_ i: Int) -> Int {
            var i = i
            while parent[i] != i {
                parent[i] = parent[parent[i]]
                i = parent[i]
            }
            return i
        }

        mutating func link(_ a: Int, _ b: Int) {
            let (x, y) = (root(a), root(b))
            if x != y { parent[max(x, y)] = min(x, y) }
        }

        mutating func parts() -> [[Int]] {
            // A set's root is its smallest member, so sets are met in order of their smallest member.
            var slot = [Int](repeating: -1, count: parent.count)
            var parts: [[Int]] = []
            for index in parent.indices {
                let r = root(index)
                if slot[r] < 0 {
                    slot[r] = parts.count
                    parts.append([])
                }
                parts[slot[r]].append(index)
            }
            return parts
        }
    }

    /// How far apart two nodes are, or nil when they cannot be one game.
    private static func distance(_ a: Node, _ b: Node, window: Int) -> (Int64, Int, Int64)? {
        guard !intersects(a.systems, b.systems) else { return nil }
        var days = Int64.max
        for x in a.dates { for y in b.dates { days = min(days, abs(x.daysSinceEpoch - y.daysSinceEpoch)) } }
        let madeUp = intersects(a.makeupDates, b.dates) || intersects(b.makeupDates, a.dates)
        guard days <= Int64(window) || madeUp else { return nil }
        let startGap: Int64 = if let s = a.startSecond, let t = b.startSecond { min(abs(s - t), 86_400 - abs(s - t)) } else { 86_400 }
        return (madeUp ? 0 : days, a.gameNumber == b.gameNumber ? 0 : 1, startGap)
    }

    /// Joins mutual single-best pairs until none is left; reports nodes left with tied candidates.
    private static func join(_ nodes: inout [Node], window: Int, ambiguous: inout [MergeAmbiguousMatch]) {
        while true {
            var bestOf: [Int: Int] = [:]
            var tied: [Int: [Int]] = [:]
            for i in nodes.indices where nodes[i].alive {
                var best: (Int64, Int, Int64)?
                var at: [Int] = []
                for j in nodes.indices where j != i && nodes[j].alive {
                    guard let d = distance(nodes[i], nodes[j], window: window) else { continue }
                    if best == nil || d < best! { best = d; at = [j] } else if d == best! { at.append(j) }
                }
                if at.count == 1 { bestOf[i] = at[0] } else if at.count > 1 { tied[i] = at }
            }
            var joined = false
            for (i, j) in bestOf.sorted(by: { $0.key < $1.key }) where i < j && bestOf[j] == i {
                guard nodes[i].alive, nodes[j].alive else { continue }
                nodes[i].ids += nodes[j].ids
                nodes[i].dates = sortedUnique(nodes[i].dates + nodes[j].dates)
                nodes[i].makeupDates = sortedUnique(nodes[i].makeupDates + nodes[j].makeupDates)
                nodes[i].systems = sortedUnique(nodes[i].systems + nodes[j].systems)
                nodes[i].startSecond = nodes[i].startSecond ?? nodes[j].startSecond
                nodes[j].alive = false
                joined = true
            }
            if joined { continue }
            // Nothing joins any more: a game with several equally near candidates is ambiguous (a game
            // whose single best candidate is such a game is listed among that game's candidates).
            for (i, candidates) in tied.sorted(by: { $0.key < $1.key }) {
                let id = nodes[i].ids.sorted()[0]
                let others = candidates.map { nodes[$0].ids.sorted()[0] }.sorted()
                ambiguous.append(
                    MergeAmbiguousMatch(
                        gameId: id, candidates: others,
                        reason: "same teams within \(window) days in other sources, equally near; kept apart"))
            }
            return
        }
    }
}
