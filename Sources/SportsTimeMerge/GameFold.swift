import SportsTimeCore

/// Folds every game batch into merged games: one real game, one record, the best known value of every
/// part of it.
///
/// 1. **Records.** Each record is read in fold order (`MergeRules.folds`, then id): a `schemaVersion`
///    newer than this build reads is *skippedIncompatible*; a bad value, an unknown reference or a
///    record naming another source is *rejected*; every other record is a contribution.
/// 2. **Identity.** Contributions with the same id are one game. `GameMatcher` then joins games of
///    different source systems that are the same real game dated differently (same teams, dates within
///    the sport's window, one unambiguous pairing); ambiguous pairings are reported, never guessed.
/// 3. **Fields.** Each `FieldGroup` of the game takes its value from one contribution: a stated value
///    beats one normalize inferred; then the source's `trust` for that group; then the newest record
///    (`lastModified`, then priority, then source id, then fold order). The id follows the winning date.
///    A start is taken only from a record of that date; an exact start also replaces a newer day/night
///    flag that it agrees with (a 1:05 PM start is a day game).
/// 4. **Counts.** Per game, in fold order, the first contribution is *inserted*, one newer than every
///    earlier one *replaced*, any other *skippedOlder* (in an incremental merge *skippedBelowMark* when
///    below the mark). Losers still give the values they alone state.
///
/// The result depends only on the set of contributions, never their order, so an incremental merge
/// whose inputs hold every earlier batch equals a full merge.
struct GameFold: Sendable {
    /// One valid record of one batch. A class: the fold hands contributions around in groups (by id, by
    /// matched game, by field), and a reference is one retain where a copied game is a dozen.
    /// The game is not copied: it is read in place from its batch's records (which the merge input
    /// holds anyway), so the fold adds no second copy of every game to the merge's peak memory.
    final class Contribution: Sendable {
        private let records: Records
        private let index: Int
        let origin: Origin
        /// Position in fold order, for ties.
        let order: Int
        let line: Int?
        let version: RecordVersion

        init(records: Records, index: Int, origin: Origin, order: Int, line: Int?, version: RecordVersion) {
            self.records = records; self.index = index; self.origin = origin; self.order = order; self.line = line
            self.version = version
        }

        var game: Game {
            _read { yield records.games[index] }
        }

        /// This record as a lineage row (fields read in place, without a copy of the game: read through the
        /// array's subscript, the fourteen fields were taken from one copy of the whole game).
        var lineageRow: LineageRow {
            let batch = line.map { String.joining(origin.path, UInt8(ascii: ":"), String($0)) } ?? origin.path
            let priority = origin.priority
            return records.games.withUnsafeBufferPointer { games in
                let game = games.baseAddress! + index
                let source = game.pointee.source
                return LineageRow(
                    source: source, row: game.pointee.provenance, batch: batch, recordId: game.pointee.id,
                    sourceGameId: game.pointee.sourceIds[source], lastModified: game.pointee.lastModified,
                    priority: priority, localDate: game.pointee.localDate, gameNumber: game.pointee.gameNumber,
                    startUTC: game.pointee.startUTC, startKnowledge: game.pointee.startKnowledge,
                    stadiumId: game.pointee.stadiumId, status: game.pointee.status, kind: game.pointee.kind,
                    inferred: game.pointee.inferred)
            }
        }
    }

    /// One batch's records, shared by its contributions (the same storage as the batch's array).
    final class Records: Sendable {
        let games: [Game]
        init(_ games: [Game]) { self.games = games }
    }

    /// A batch's origin, shared by all its contributions (one reference each instead of a copy).
    final class Origin: Sendable {
        let batch: BatchOrigin
        init(_ batch: BatchOrigin) { self.batch = batch }
        var source: String { batch.source }
        var system: String { batch.system }
        var scope: String { batch.scope }
        var path: String { batch.path }
        var priority: Int { batch.priority }
        var trust: [FieldGroup: Int] { batch.trust }
    }

    let context: MergeStore
    let priorities: SourcePriorities
    let mark: Instant?

    private(set) var counts = MergeEntityCounts(entity: EntityKind.games.rawValue)
    private(set) var rejects: [Reject] = []
    private(set) var incompatible: [MergeIncompatibleRecord] = []
    private(set) var highWater: Instant?
    private(set) var games: [String: Game] = [:]
    private(set) var lineage: [String: MergeLineage.Entry] = [:]
    private(set) var ambiguous: [MergeAmbiguousMatch] = []
    /// The ids batches list that became a game of another id (matched across dates) → that game's id.
    /// Any other id (nearly all of them, and every record that could not be read) is its own game's.
    private(set) var finalId: [String: String] = [:]
    /// Games whose sources contradict each other (worked out per game as it is merged, so the records
    /// of every game need not be kept).
    private(set) var conflicts: [MergeConflict] = []
    private(set) var matchedAcrossDates = 0

    /// The merged games, handed over (the fold keeps none, so the caller's copy is the only one and
    /// changes to it copy nothing).
    mutating func takeGames() -> [String: Game] {
        defer { games = [:] }
        return games
    }

    /// The lineage per merged game, handed over like `takeGames()`.
    mutating func takeLineage() -> MergeLineage {
        defer { lineage = [:] }
        return MergeLineage(entries: lineage)
    }

    init(context: MergeStore, priorities: SourcePriorities, mark: Instant?) {
        self.context = context; self.priorities = priorities; self.mark = mark; self.highWater = mark
    }

    mutating func fold(_ batches: [RecordBatch<Game>], previous: [String: Game]) {
        let contributions = read(batches)

        var byId: [String: [Int]] = [:]
        byId.reserveCapacity(contributions.count)
        for (index, contribution) in contributions.enumerated() { byId[contribution.game.id, default: []].append(index) }
        let matching = GameMatcher.match(byId, contributions: contributions, sports: context.sports)
        ambiguous = matching.ambiguous
        matchedAcrossDates = matching.clusters.filter { $0.count > 1 }.count

        // Sized once: a dictionary that grows holds its old and new storage at the same time, and with
        // 63k games of ~300 bytes that moment was the merge's peak memory.
        games.reserveCapacity(matching.clusters.count + previous.count)
        lineage.reserveCapacity(matching.clusters.count)
        // The matched games merged on all cores, a run of clusters at a time (only one run's merged games
        // wait beside the store), then stored in cluster order.
        let runLength = 8192
        for start in stride(from: 0, to: matching.clusters.count, by: runLength) {
            let run = Array(matching.clusters[start..<min(start + runLength, matching.clusters.count)])
            // Merged last cluster first and taken from the end of the results: each merged game is moved
            // into the store, not copied (reversing the results would copy every merged game twice).
            var merged = mergeClusters(run.reversed(), byId: byId, contributions: contributions)
            for members in run {
                let (parts, game, origins, conflict) = merged.removeLast()
                let gameId = game.id
                lineage[gameId] = consume origins
                if members.count > 1 { for id in members where id != gameId { finalId[id] = gameId } }
                // A full merge has no earlier store: no id is hashed to find that out.
                classify(parts, previous: previous.isEmpty ? nil : previous[gameId])
                if let conflict { conflicts.append(conflict) }
                games[gameId] = consume game
            }
        }
        // Incremental: games of the earlier store that no batch lists any more stay as they were. (An id
        // some batch lists is a key of `byId`: every listed id is in exactly one cluster.)
        for (id, game) in previous where games.index(forKey: id) == nil && byId.index(forKey: id) == nil { games[id] = game }
    }

    /// Each cluster's records (in fold order), merged game, lineage and cross-source conflict; pure, on
    /// all cores.
    private func mergeClusters(
        _ clusters: [[String]], byId: [String: [Int]], contributions: [Contribution]
    ) -> [(parts: [Contribution], game: Game, origins: MergeLineage.Entry, conflict: MergeConflict?)] {
        clusters.parallelMapInRuns(minimumRun: 256) { members in
            // A game of one record (nearly every game) merged without the ranking: nothing to rank.
            if members.count == 1, let only = byId[members[0]], only.count == 1 {
                let part = contributions[only[0]]
                let (game, origins) = mergeOne(part)
                return ([part], game, origins, nil)
            }
            let parts = members.flatMap { byId[$0]! }.sorted().map { contributions[$0] }
            let (game, origins) = merge(parts)
            return (parts, game, origins, CrossSourceReport.conflict(parts, merged: game, context: self))
        }
    }

    // MARK: Reading

    private mutating func read(_ batches: [RecordBatch<Game>]) -> [Contribution] {
        let supported = Game.artifactKind.currentVersion
        var contributions: [Contribution] = []
        var order = 0
        for batch in batches.sorted(by: { MergeRules.folds($0.origin, before: $1.origin) }) {
            let origin = Origin(batch.origin)
            let records = Records(batch.records)
            for stub in batch.unreadable.sorted(by: { ($0.id, $0.schemaVersion) < ($1.id, $1.schemaVersion) }) {
                counts.read += 1
                counts.skippedIncompatible += 1
                incompatible.append(
                    MergeIncompatibleRecord(
                        entity: EntityKind.games.rawValue, recordId: stub.id, source: batch.origin.source,
                        file: batch.origin.path, schemaVersion: stub.schemaVersion, supportedVersion: supported))
            }
            // Each record checked against the store on all cores (a pure check; most records pass).
            let context = self.context
            // By index, each record read in place (a record handed to the closure would be a copy of it).
            let games = batch.records
            let refusals = Array(games.indices).parallelMapInRuns { index in
                // Through the game's pointer: the buffer's subscript copied the game first.
                games.withUnsafeBufferPointer { ($0.baseAddress! + index).pointee.refusal(against: context) }
            }
            let indices = TextOrder.positions(of: batch.records.map(\.id))
            for index in indices {
                let line = batch.firstRecordLine.map { $0 + index }
                counts.read += 1
                let lastModified = batch.records[index].lastModified
                highWater = max(highWater ?? lastModified, lastModified)
                if batch.records[index].schemaVersion > supported {
                    let record = batch.records[index]
                    counts.skippedIncompatible += 1
                    incompatible.append(
                        MergeIncompatibleRecord(
                            entity: EntityKind.games.rawValue, recordId: record.id, source: batch.origin.source,
                            file: batch.origin.path, schemaVersion: record.schemaVersion, supportedVersion: supported))
                    continue
                }
                let refusal =
                    batch.records[index].source == batch.origin.source
                    ? refusals[index]
                    : Refusal(
                        "games record '\(batch.records[index].id)' names source '\(batch.records[index].source)' but its batch is from '\(batch.origin.source)'"
                    )
                if let refusal {
                    let record = batch.records[index]
                    counts.rejected += 1
                    rejects.append(
                        Reject(
                            file: batch.origin.path, line: line, reason: refusal.reason,
                            raw: try? CanonicalJSON.compact(record), recordId: record.id))
                } else {
                    // A valid game is the record itself (`validated` changes nothing): read in place (its
                    // version from its fields: handed to the generic `version(of:)`, the game was copied).
                    let version = priorities.version(lastModified: lastModified, source: batch.records[index].source)
                    contributions.append(
                        Contribution(records: records, index: index, origin: origin, order: order, line: line, version: version))
                    order += 1
                }
            }
        }
        return contributions
    }

    /// Inserted / replaced / skipped, per contribution in fold order.
    private mutating func classify(_ parts: [Contribution], previous: Game?) {
        var best = previous.map { priorities.version(of: $0) }
        for part in parts {
            if best == nil {
                counts.applied += 1; counts.inserted += 1; best = part.version
            } else if part.version > best! {
                counts.applied += 1; counts.replaced += 1; best = part.version
            } else if let mark, part.game.lastModified < mark {
                counts.skippedBelowMark += 1
            } else {
                counts.skippedOlder += 1
            }
        }
    }

    // MARK: Fields

    /// How one contribution ranks for one field group: stated first, then trust, then recency
    /// (`lastModified`, priority, source id), then the earlier in fold order.
    private func rank(_ c: Contribution, _ group: FieldGroup, stated: Bool) -> (Int, Int, RecordVersion, Int) {
        (stated ? 1 : 0, c.origin.trust[group] ?? 0, c.version, -c.order)
    }

    private func best(_ parts: [Contribution], _ group: FieldGroup, stated: (Contribution) -> Bool) -> Contribution {
        parts.max { a, b in
            let (x, y) = (rank(a, group, stated: stated(a)), rank(b, group, stated: stated(b)))
            if x.0 != y.0 { return x.0 < y.0 }
            if x.1 != y.1 { return x.1 < y.1 }
            if x.2 != y.2 { return x.2 < y.2 }
            return x.3 < y.3
        }!
    }

    /// Whether a record says the game was postponed from its own date: a date the game is not played on,
    /// which any record of another date in the same game outranks for the date.
    private static func isPostponed(_ c: Contribution) -> Bool { c.game.status == .postponed }

    /// The words for why `winner` won `group` among `parts`.
    private func rule(
        _ winner: Contribution, among parts: [Contribution], _ group: FieldGroup,
        stated: (Contribution) -> Bool
    ) -> String {
        if parts.count == 1 { return "only source" }
        let others = parts.filter { $0.order != winner.order }
        if stated(winner), others.allSatisfy({ !stated($0) }) { return "the only stated value (the others were inferred)" }
        let trust = winner.origin.trust[group] ?? 0
        if trust > 0, others.contains(where: { stated($0) == stated(winner) && ($0.origin.trust[group] ?? 0) < trust }) {
            return "trusted source for \(group.rawValue) (rank \(trust))"
        }
        return "newest stated value"
    }

    /// `merge([part])`, without the ranking (one record wins every field group): the record as stated,
    /// with the fields a merged game does not keep cleared, and a start only when the record knows one.
    /// Equal to `merge([part])` for every record (a test holds them to it); it shares one `FieldOrigins`
    /// between the games it merges instead of building five entries for each.
    func mergeOne(_ part: Contribution) -> (Game, MergeLineage.Entry) {
        var game = part.game
        var fields = FieldOrigins.onlySource
        if game.startKnowledge == .unknown {
            game.startUTC = nil
            fields[FieldGroup.start.rawValue] = FieldOrigin(
                row: 0, rule: "no source states a start on \(game.localDate.iso8601)")
        }
        game.schemaVersion = Game.artifactKind.currentVersion
        game.deprecatedAt = nil
        game.provenance = nil
        game.inferred = nil
        game.formerIds = nil
        return (game, MergeLineage.Entry(formerIds: nil, rows: [part], fields: fields))
    }

    /// The merged game of `parts` (a non-empty set of contributions, in fold order) and its lineage.
    func merge(_ parts: [Contribution]) -> (Game, MergeLineage.Entry) {
        let rows = parts.sorted {
            ($0.game.lastModified, $0.game.source, $0.game.provenance ?? "", $0.order)
                < ($1.game.lastModified, $1.game.source, $1.game.provenance ?? "", $1.order)
        }
        var fields = FieldOrigins()
        func record(_ group: FieldGroup, _ winner: Contribution, _ rule: String) {
            // A game has a handful of rows: a scan, not an index.
            fields[group.rawValue] = FieldOrigin(row: rows.firstIndex { $0 === winner }!, rule: rule)
        }

        let always: (Contribution) -> Bool = { _ in true }
        /// The record `group` comes from, recorded in the lineage; `field` names what normalize may infer.
        func decide(_ group: FieldGroup, inferable field: String?) -> Contribution {
            let stated: (Contribution) -> Bool = { c in field.map { !c.game.isInferred($0) } ?? true }
            let winner = best(parts, group, stated: stated)
            record(group, winner, rule(winner, among: parts, group, stated: stated))
            return winner
        }
        // The date: records that do not say the game was postponed from their date come first (a
        // made-up game is played on its makeup date, which another record states), then a date stated
        // at the stadium beats one printed in another zone without a time (`localDate` inferred: a UTC
        // date is the next day for an evening game), then trust and recency.
        let dateStated: (Contribution) -> Bool = { !$0.game.isInferred("localDate") }
        let playedOn = parts.contains { !Self.isPostponed($0) } ? parts.filter { !Self.isPostponed($0) } : parts
        let dateWinner = best(playedOn, .date, stated: dateStated)
        if playedOn.count < parts.count {
            let moved = parts.filter(Self.isPostponed).map { $0.game.localDate.iso8601 }
            record(
                .date, dateWinner,
                "played on this date (\(Set(moved).sorted().joined(separator: ", ")) postponed)"
                    + (playedOn.count > 1 ? "; " + rule(dateWinner, among: playedOn, .date, stated: dateStated) : ""))
        } else {
            record(.date, dateWinner, rule(dateWinner, among: parts, .date, stated: dateStated))
        }
        let newest = parts.max { ($0.version, -$0.order) < ($1.version, -$1.order) }!
        var game = newest.game
        game.id = dateWinner.game.id
        game.season = dateWinner.game.season
        game.localDate = dateWinner.game.localDate
        game.gameNumber = dateWinner.game.gameNumber

        let venue = decide(.venue, inferable: "stadiumId")
        game.stadiumId = venue.game.stadiumId
        game.neutralSite = venue.game.neutralSite
        // The neutral flag goes with the venue, unless the venue's record worked it out and another
        // record at the same stadium states it (nflverse's `location`, spreadspoke's `stadium_neutral`).
        if venue.game.isInferred("neutralSite") {
            let stating = parts.filter { !$0.game.isInferred("neutralSite") && $0.game.stadiumId == venue.game.stadiumId }
            if !stating.isEmpty {
                let flag = best(stating, .venue, stated: always)
                game.neutralSite = flag.game.neutralSite
                if flag !== venue {
                    fields["neutralSite"] = FieldOrigin(
                        row: rows.firstIndex { $0 === flag }!,
                        rule: "stated neutral flag (\(venue.game.source) infers it) at the same stadium")
                }
            }
        }
        // The status is about the game on the winning date: a record that postponed the game from
        // another date says nothing of how it stands on this one.
        let statusParts = parts.filter { !Self.isPostponed($0) || $0.game.localDate == game.localDate }
        let status = best(statusParts, .status, stated: { !$0.game.isInferred("status") })
        record(.status, status, rule(status, among: statusParts, .status, stated: { !$0.game.isInferred("status") }))
        game.status = status.game.status
        game.makeupDate = status.game.makeupDate
        game.kind = decide(.kind, inferable: "kind").game.kind

        // The start: only records of the winning date and game number can say when the game starts.
        let sameDay = parts.filter {
            $0.game.localDate == game.localDate && ($0.game.gameNumber ?? 1) == (game.gameNumber ?? 1)
                && $0.game.startKnowledge != .unknown
        }
        if sameDay.isEmpty {
            game.startUTC = nil
            game.startKnowledge = .unknown
            record(.start, dateWinner, "no source states a start on \(game.localDate.iso8601)")
        } else {
            let flag = best(sameDay, .start, stated: always)
            var chosen = flag
            var why = rule(flag, among: sameDay, .start, stated: always)
            if flag.game.startKnowledge != .exact {
                let agreeing = sameDay.filter {
                    $0.game.startKnowledge == .exact && startAgrees($0.game, with: flag.game.startKnowledge)
                }
                if !agreeing.isEmpty {
                    chosen = best(agreeing, .start, stated: always)
                    why = "exact start that agrees with \(flag.game.source)'s \(flag.game.startKnowledge.rawValue)-game flag"
                }
            }
            game.startUTC = chosen.game.startUTC
            game.startKnowledge = chosen.game.startKnowledge
            record(.start, chosen, why)
        }

        // Every source's own id for the game (a source's newest record gives its id). A game of one
        // record keeps that record's map (the same storage, nothing allocated).
        if parts.count > 1 {
            var sourceIds: [String: (String, RecordVersion)] = [:]
            for part in parts {
                for (source, id) in part.game.sourceIds {
                    if let held = sourceIds[source], held.1 >= part.version { continue }
                    sourceIds[source] = (id, part.version)
                }
            }
            game.sourceIds = sourceIds.mapValues(\.0)
        }
        game.lastModified = parts.map { $0.game.lastModified }.max()!
        game.source = newest.game.source
        game.schemaVersion = Game.artifactKind.currentVersion
        game.deprecatedAt = nil
        game.provenance = nil
        game.inferred = nil
        // The other ids of the game, each once (nearly every game has none: no set is built for those).
        var former: [String] = []
        for part in parts where part.game.id != game.id && !former.contains(part.game.id) { former.append(part.game.id) }
        former.sort()
        game.formerIds = former.isEmpty ? nil : former

        return (game, MergeLineage.Entry(formerIds: game.formerIds, rows: rows, fields: fields))
    }

    /// Whether an exact start is a day game (before 17:00 at the stadium) when `flag` says day, or a
    /// night game when it says night.
    func startAgrees(_ game: Game, with flag: StartKnowledge) -> Bool {
        guard let start = game.startUTC, let zone = context.stadiums[game.stadiumId].flatMap({ ZonedTime.zone($0.timeZone) })
        else { return false }
        let isDay = ZonedTime.localSecondOfDay(of: start, in: zone) < 17 * 3600
        return flag == .day ? isDay : !isDay
    }
}
