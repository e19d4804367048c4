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
    /// One batch as the fold reads it: its origin and records, shared by every contribution read from it.
    final class Batch: Sendable {
        let origin: BatchOrigin
        let games: [Game]
        init(_ batch: RecordBatch<Game>) {
            origin = batch.origin
            games = batch.records
        }
    }

    /// One valid record of one batch. The game stays in its batch (the merge input holds it anyway):
    /// the fold adds no second copy of every game.
    final class Contribution: Sendable {
        let batch: Batch
        private let index: Int
        /// Position in fold order, for ties.
        let order: Int
        let line: Int?
        let version: RecordVersion

        init(batch: Batch, index: Int, order: Int, line: Int?, version: RecordVersion) {
            self.batch = batch; self.index = index; self.order = order; self.line = line; self.version = version
        }

        var game: Game {
            _read { yield batch.games[index] }
        }

        /// This record as a lineage row.
        var lineageRow: LineageRow {
            LineageRow(
                source: game.source, row: game.provenance, batch: line.map { "\(batch.origin.path):\($0)" } ?? batch.origin.path,
                recordId: game.id, sourceGameId: game.sourceIds[game.source], lastModified: game.lastModified,
                priority: batch.origin.priority, localDate: game.localDate, gameNumber: game.gameNumber,
                startUTC: game.startUTC, startKnowledge: game.startKnowledge, stadiumId: game.stadiumId,
                status: game.status, kind: game.kind, inferred: game.inferred)
        }
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
    private(set) var matchedAcrossDates = 0

    /// The merged games, handed over (the fold keeps none).
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
        for (index, contribution) in contributions.enumerated() { byId[contribution.game.id, default: []].append(index) }
        let matching = GameMatcher.match(byId, contributions: contributions, sports: context.sports)
        ambiguous = matching.ambiguous
        matchedAcrossDates = matching.clusters.filter { $0.count > 1 }.count

        // Sized once: a dictionary that grows holds its old and new storage at once (at ten seasons, the
        // merge's peak memory). The games are merged on all cores a run of clusters at a time, so only
        // one run's merged games wait beside the store.
        games.reserveCapacity(matching.clusters.count + previous.count)
        let runLength = 8192
        for start in stride(from: 0, to: matching.clusters.count, by: runLength) {
            let run = matching.clusters[start..<min(start + runLength, matching.clusters.count)]
            for (members, (parts, (game, origins))) in zip(run, merged(Array(run), byId: byId, contributions: contributions)) {
                lineage[game.id] = origins
                for id in members where id != game.id { finalId[id] = game.id }
                classify(parts, previous: previous[game.id])
                games[game.id] = game
            }
        }
        // Incremental: games of the earlier store that no batch lists any more stay as they were. (An id
        // some batch lists is a key of `byId`: every listed id is in exactly one cluster.)
        for (id, game) in previous where games[id] == nil && byId[id] == nil { games[id] = game }
    }

    /// Each cluster's records (in fold order) with its merged game and lineage, on all cores.
    private func merged(
        _ clusters: [[String]], byId: [String: [Int]], contributions: [Contribution]
    ) -> [([Contribution], (Game, MergeLineage.Entry))] {
        clusters.parallelMapInRuns(minimumRun: 256) { members in
            let parts = members.flatMap { byId[$0]! }.sorted().map { contributions[$0] }
            return (parts, merge(parts))
        }
    }

    // MARK: Reading

    private mutating func read(_ batches: [RecordBatch<Game>]) -> [Contribution] {
        let supported = Game.artifactKind.currentVersion
        var contributions: [Contribution] = []
        var order = 0
        for batch in batches.sorted(by: { MergeRules.folds($0.origin, before: $1.origin) }) {
            let shared = Batch(batch)
            for stub in batch.unreadable.sorted(by: { ($0.id, $0.schemaVersion) < ($1.id, $1.schemaVersion) }) {
                counts.read += 1
                counts.skippedIncompatible += 1
                incompatible.append(
                    MergeIncompatibleRecord(
                        entity: EntityKind.games.rawValue, recordId: stub.id, source: batch.origin.source,
                        file: batch.origin.path, schemaVersion: stub.schemaVersion, supportedVersion: supported))
            }
            let context = self.context
            let refusals = batch.records.parallelMapInRuns { $0.refusal(against: context) }
            for index in TextOrder.positions(of: batch.records.map(\.id)) {
                let record = batch.records[index]
                let line = batch.firstRecordLine.map { $0 + index }
                counts.read += 1
                highWater = max(highWater ?? record.lastModified, record.lastModified)
                if record.schemaVersion > supported {
                    counts.skippedIncompatible += 1
                    incompatible.append(
                        MergeIncompatibleRecord(
                            entity: EntityKind.games.rawValue, recordId: record.id, source: batch.origin.source,
                            file: batch.origin.path, schemaVersion: record.schemaVersion, supportedVersion: supported))
                    continue
                }
                let refusal =
                    record.source == batch.origin.source
                    ? refusals[index]
                    : Refusal("games record '\(record.id)' names source '\(record.source)' but its batch is from '\(batch.origin.source)'")
                if let refusal {
                    counts.rejected += 1
                    rejects.append(
                        Reject(
                            file: batch.origin.path, line: line, reason: refusal.reason,
                            raw: try? CanonicalJSON.compact(record), recordId: record.id))
                } else {
                    let version = priorities.version(of: record)
                    contributions.append(Contribution(batch: shared, index: index, order: order, line: line, version: version))
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
        (stated ? 1 : 0, c.batch.origin.trust[group] ?? 0, c.version, -c.order)
    }

    private func best(_ parts: [Contribution], _ group: FieldGroup, stated: (Contribution) -> Bool) -> Contribution {
        parts.max { rank($0, group, stated: stated($0)) < rank($1, group, stated: stated($1)) }!
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
        let trust = winner.batch.origin.trust[group] ?? 0
        if trust > 0, others.contains(where: { stated($0) == stated(winner) && ($0.batch.origin.trust[group] ?? 0) < trust }) {
            return "trusted source for \(group.rawValue) (rank \(trust))"
        }
        return "newest stated value"
    }

    /// The merged game of `parts` (a non-empty set of contributions, in fold order) and its lineage.
    func merge(_ parts: [Contribution]) -> (Game, MergeLineage.Entry) {
        let rows = parts.sorted {
            ($0.game.lastModified, $0.game.source, $0.game.provenance ?? "", $0.order)
                < ($1.game.lastModified, $1.game.source, $1.game.provenance ?? "", $1.order)
        }
        var fields = FieldOrigins()
        func record(_ group: FieldGroup, _ winner: Contribution, _ rule: String) {
            fields[group.rawValue] = FieldOrigin(row: rows.firstIndex { $0 === winner }!, rule: rule)
        }

        let always: (Contribution) -> Bool = { _ in true }
        /// The record `group` comes from, recorded in the lineage; `field` names what normalize may infer.
        func decide(_ group: FieldGroup, inferable field: InferredField?) -> Contribution {
            let stated: (Contribution) -> Bool = { c in field.map { !c.game.isInferred($0) } ?? true }
            let winner = best(parts, group, stated: stated)
            record(group, winner, rule(winner, among: parts, group, stated: stated))
            return winner
        }
        // The date: records that do not say the game was postponed from their date come first (a
        // made-up game is played on its makeup date, which another record states), then a date stated
        // at the stadium beats one printed in another zone without a time (`localDate` inferred: a UTC
        // date is the next day for an evening game), then trust and recency.
        let dateStated: (Contribution) -> Bool = { !$0.game.isInferred(.localDate) }
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

        let venue = decide(.venue, inferable: .stadiumId)
        game.stadiumId = venue.game.stadiumId
        // A stated venue wins over an inferred one: an inferred winner that named a placeholder means no record
        // states the venue yet.
        game.venueAssumed = venue.game.isInferred(.stadiumId) && venue.game.venueAssumed == true ? true : nil
        game.neutralSite = venue.game.neutralSite
        // The neutral flag goes with the venue, unless the venue's record worked it out and another
        // record at the same stadium states it (nflverse's `location`, spreadspoke's `stadium_neutral`).
        if venue.game.isInferred(.neutralSite) {
            let stating = parts.filter { !$0.game.isInferred(.neutralSite) && $0.game.stadiumId == venue.game.stadiumId }
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
        let status = best(statusParts, .status, stated: { !$0.game.isInferred(.status) })
        record(.status, status, rule(status, among: statusParts, .status, stated: { !$0.game.isInferred(.status) }))
        game.status = status.game.status
        game.makeupDate = status.game.makeupDate
        game.kind = decide(.kind, inferable: .kind).game.kind

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
                    $0.game.startKnowledge == .exact
                        && Self.startAgrees($0.game, with: flag.game.startKnowledge, stadiums: context.stadiums)
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

        // Every source's own id for the game, from that source's newest record.
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
        // The other ids of the game, each once.
        var former: [String] = []
        for part in parts where part.game.id != game.id && !former.contains(part.game.id) { former.append(part.game.id) }
        former.sort()
        game.formerIds = former.isEmpty ? nil : former

        // Games of one record share one "only source" value: at ten seasons, 16 MB less peak memory.
        if fields == .onlySource { fields = .onlySource }
        return (game, MergeLineage.Entry(formerIds: game.formerIds, rows: rows, fields: fields))
    }

    /// Whether an exact start is a day game (before 17:00 at the stadium) when `flag` says day, or a
    /// night game when it says night.
    static func startAgrees(_ game: Game, with flag: StartKnowledge, stadiums: [String: Stadium]) -> Bool {
        guard let start = game.startUTC, let zone = stadiums[game.stadiumId].flatMap({ ZonedTime.zone($0.timeZone) })
        else { return false }
        let isDay = ZonedTime.localSecondOfDay(of: start, in: zone) < 17 * 3600
        return flag == .day ? isDay : !isDay
    }
}
