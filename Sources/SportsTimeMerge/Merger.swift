import SportsTimeCore

/// Whether a run folded everything or only what is new since an earlier merge.
public enum MergeMode: String, Sendable {
    case full, incremental
}

/// What a merge produced: the store, its sync state, the report, the rejects and warnings.
public struct MergeResult: Sendable {
    public var mode: MergeMode
    public var store: MergeStore
    /// One per entity kind, in fold order.
    public var syncStates: [SyncState]
    /// Counts per kind, conflicts, incompatible records and override outcomes (sorted by id).
    public var report: [MergeReportRecord]
    /// Records refused, sorted.
    public var rejects: [Reject]
    /// Problems that do not stop the merge (an override that matches nothing), sorted.
    public var warnings: [Diagnostic]
    /// Per merged game (by id), the rows that fed it and where each part came from.
    public var lineage = MergeLineage()

    /// The counts of one kind.
    public func counts(_ kind: EntityKind) -> MergeEntityCounts? {
        for case .counts(let counts) in report where counts.entity == kind.rawValue { return counts }
        return nil
    }

    public var conflicts: [MergeConflict] { report.compactMap { if case .conflict(let c) = $0 { c } else { nil } } }
    public var overrideOutcomes: [MergeOverrideOutcome] { report.compactMap { if case .override(let o) = $0 { o } else { nil } } }
    public var incompatibleRecords: [MergeIncompatibleRecord] {
        report.compactMap { if case .incompatible(let i) = $0 { i } else { nil } }
    }
    public var ambiguousMatches: [MergeAmbiguousMatch] { report.compactMap { if case .ambiguous(let a) = $0 { a } else { nil } } }
    public var pendingGames: [MergePendingGames] { report.compactMap { if case .pending(let p) = $0 { p } else { nil } } }
    public var conflictSummary: MergeConflictSummary? {
        for case .summary(let summary) in report { return summary }
        return nil
    }
}

/// The merge stage: folds the reference data and every normalized batch into the canonical store,
/// kind by kind in dependency order (`EntityKind.foldOrder`), then marks soft-deleted games, reports
/// cross-source conflicts and applies overrides. Pure: values in, values out.
public enum Merger {
    /// Runs the merge. `checkpoint` is called before each entity kind (so the command can stop
    /// between kinds on a signal by throwing); an error it throws ends the merge with nothing produced.
    /// Throws `PipelineError.invalidInputs` when an override sets a reference to a record that does not
    /// exist (exit 2).
    public static func merge(_ input: MergeInput, checkpoint: (EntityKind) throws -> Void = { _ in }) throws -> MergeResult {
        let priorities = SourcePriorities(input.gameBatches.map(\.origin))
        var store = input.previous?.store ?? MergeStore()
        var counts: [EntityKind: MergeEntityCounts] = [:]
        var highWater: [EntityKind: Instant] = [:]
        var rejects: [Reject] = []
        var incompatible: [MergeIncompatibleRecord] = []
        var warnings: [Diagnostic] = []
        var gameFold = GameFold(context: store, priorities: priorities, mark: input.previous?.highWater[.games])
        var lineage = MergeLineage()
        var conflicts: [MergeConflict] = []

        func fold<Record: MergeableRecord>(_ batches: [RecordBatch<Record>]) {
            let kind = Record.entityKind
            var folder = KindFold(
                kind: kind, records: store[keyPath: Record.storeKeyPath], context: store,
                priorities: priorities, mark: input.previous?.highWater[kind])
            folder.fold(batches)
            store[keyPath: Record.storeKeyPath] = folder.records
            counts[kind] = folder.counts
            highWater[kind] = folder.highWater
            rejects += folder.rejects
            incompatible += folder.incompatible
        }

        let reference = input.reference
        for kind in EntityKind.foldOrder {
            try checkpoint(kind)
            switch kind {
            case .sports: fold([input.referenceBatch(reference.sports, kind: kind)])
            case .stadiums: fold([input.referenceBatch(reference.stadiums, kind: kind)])
            case .teams: fold([input.referenceBatch(reference.teams, kind: kind)])
            case .games:
                gameFold = GameFold(context: store, priorities: priorities, mark: input.previous?.highWater[.games])
                gameFold.fold(input.gameBatches, previous: store.games)
                store.games = gameFold.takeGames()
                counts[.games] = gameFold.counts
                highWater[.games] = gameFold.highWater
                rejects += gameFold.rejects
                incompatible += gameFold.incompatible
                lineage = gameFold.takeLineage()
                conflicts = CrossSourceReport.conflicts(
                    in: store.games, lineage: lineage, stadiums: store.stadiums, priorities: priorities)
                SoftDelete.apply(input.gameBatches, to: &store.games, finalId: gameFold.finalId)
            case .leagueStructures:
                fold([input.referenceBatch(reference.leagueStructures, kind: kind)])
                warnings += unknownStructureWarnings(store, teamsFile: input.referenceFile(of: .teams))
            case .teamAliases: fold([input.referenceBatch(reference.teamAliases, kind: kind)])
            case .stadiumAliases: fold([input.referenceBatch(reference.stadiumAliases, kind: kind)])
            }
        }

        let overrides = try OverrideApplier.apply(input.overrides, to: &store)
        warnings += overrides.warnings

        var report: [MergeReportRecord] = []
        var syncStates: [SyncState] = []
        for kind in EntityKind.foldOrder {
            var kindCounts = counts[kind] ?? MergeEntityCounts(entity: kind.rawValue)
            kindCounts.stored = store.count(of: kind)
            if kind == .games { kindCounts.deprecated = store.games.values.reduce(0) { $0 + ($1.deprecatedAt == nil ? 0 : 1) } }
            report.append(.counts(kindCounts))
            syncStates.append(SyncState(id: kind.rawValue, highWater: highWater[kind], recordCount: kindCounts.stored))
        }
        report += conflicts.map { .conflict($0) }
        report += incompatible.map { .incompatible($0) }
        report += overrides.outcomes.map { .override($0) }
        report += gameFold.ambiguous.map { .ambiguous($0) }
        var summary = MergeConflictSummary(
            matchedAcrossDates: gameFold.matchedAcrossDates,
            ambiguousMatches: gameFold.ambiguous.count)
        for conflict in conflicts {
            for kind in conflict.classes {
                switch kind {
                case .dateMoved: summary.dateMoved += 1
                case .timeMoved: summary.timeMoved += 1
                case .venueDiffers: summary.venueDiffers += 1
                case .statusContradicts: summary.statusContradicts += 1
                }
            }
        }
        report.append(.summary(summary))
        report += PendingGames.report(input.gameBatches.map(\.origin), games: store.games.values).map { .pending($0) }
        report.sort { $0.id < $1.id }

        lineage.keepOnly { store.games.index(forKey: $0) != nil }
        return MergeResult(
            mode: input.previous == nil ? .full : .incremental, store: store, syncStates: syncStates,
            report: report, rejects: rejects.sorted(), warnings: warnings, lineage: lineage)
    }

    /// Teams are folded before league structures (the fold order of docs/design.md §5), so their
    /// conference and division ids are checked afterwards, as warnings.
    static func unknownStructureWarnings(_ store: MergeStore, teamsFile: String) -> [Diagnostic] {
        var warnings: [Diagnostic] = []
        for id in store.teams.keys.sorted() {
            let team = store.teams[id]!
            for (role, structure) in [("conference", team.conferenceId), ("division", team.divisionId)] {
                guard let structure, store.leagueStructures[structure] == nil else { continue }
                warnings.append(
                    Diagnostic(
                        .warning, at: SourceLocation(path: teamsFile),
                        "team '\(id)' names \(role) '\(structure)', which is not a known league structure",
                        fix: "Add it to league-structures.csv or fix the team's \(role)_id"))
            }
        }
        return warnings
    }
}

/// The lineage of every merged game. Each game keeps the records that fed it (which the merge holds
/// anyway) rather than a copy of every row: the `GameLineage` is built when it is read, one file at a
/// time when the lineage is written. For ten seasons the copies were ~20 MB of the merge's peak memory.
public struct MergeLineage: Sendable {
    struct Entry: Sendable {
        let formerIds: [String]?
        /// Oldest first (by `lastModified`, then source, then row, then fold order).
        let rows: [GameFold.Contribution]
        let fields: FieldOrigins
    }

    private(set) var entries: [String: Entry]

    public init() { entries = [:] }
    init(entries: [String: Entry]) { self.entries = entries }

    /// How many games have a lineage.
    public var count: Int { entries.count }

    /// The lineage of the merged game `id`.
    public subscript(id: String) -> GameLineage? { lineage(of: id, eachBatch: { _ in }) }

    /// The lineage of the merged game `id`, with `body` given the batch file each of its rows was read
    /// from, in row order (the row's `batch` without its line).
    public func lineage(of id: String, eachBatch body: (String) -> Void) -> GameLineage? {
        guard let entry = entries[id] else { return nil }
        for row in entry.rows { body(row.batch.origin.path) }
        return GameLineage(id: id, formerIds: entry.formerIds, rows: entry.rows.map(\.lineageRow), fields: entry.fields)
    }

    /// The rows that fed the merged game `id` (source, its own game id, scraped row), or nil without a lineage.
    public func sourceRows(of id: String, season: String? = nil) -> [ShrinkGuard.SourceRow]? {
        entries[id]?.rows.map { part in
            ShrinkGuard.SourceRow(
                gameId: id, source: part.game.source, sourceGameId: part.game.sourceIds[part.game.source],
                row: part.game.provenance, season: season)
        }
    }

    /// `body` with the source of each row that fed the merged game `id` (none without a lineage).
    public func forEachRowSource(of id: String, _ body: (String) -> Void) {
        guard let index = entries.index(forKey: id) else { return }
        for row in entries.values[index].rows { body(row.game.source) }
    }

    /// Drops the lineage of every game `isKept` refuses (games an override or soft delete removed).
    mutating func keepOnly(_ isKept: (String) -> Bool) {
        if entries.keys.contains(where: { !isKept($0) }) { entries = entries.filter { isKept($0.key) } }
    }
}
