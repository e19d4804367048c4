import SportsTimeCore

/// Finds canonical games that several sources list with a different start time, stadium or status.
///
/// Each source is represented by its newest readable record of the game (highest version; first in
/// fold order on a tie). Computed from every batch, not only the records a run folds, so a full and
/// an incremental merge report the same conflicts.
public enum CrossSourceReport {
    public static func conflicts(_ batches: [RecordBatch<Game>], store: [String: Game],
                                 priorities: SourcePriorities) -> [MergeConflict] {
        let supported = Game.artifactKind.currentVersion
        var bySource: [String: [String: Game]] = [:]
        var multiSource: Set<String> = []
        for batch in batches.sorted(by: { MergeRules.folds($0.origin, before: $1.origin) }) {
            for record in batch.records where record.schemaVersion <= supported && store[record.id] != nil {
                var sources = bySource[record.id, default: [:]]
                if let current = sources[record.source], priorities.version(of: record) <= priorities.version(of: current) {
                    continue
                }
                sources[record.source] = record
                if sources.count > 1 { multiSource.insert(record.id) }
                bySource[record.id] = sources
            }
        }
        var conflicts: [MergeConflict] = []
        for id in multiSource.sorted() {
            let records = bySource[id]!.values.sorted { $0.source < $1.source }
            var fields: [String] = []
            if Set(records.map(\.stadiumId)).count > 1 { fields.append("stadiumId") }
            if Set(records.map { $0.startUTC?.secondsSinceEpoch ?? Int64.min }).count > 1 { fields.append("startUTC") }
            if Set(records.map(\.status)).count > 1 { fields.append("status") }
            guard !fields.isEmpty, let stored = store[id] else { continue }
            let sources = records.map {
                MergeConflictSource(source: $0.source, lastModified: $0.lastModified, priority: priorities.priority(of: $0.source),
                                    startUTC: $0.startUTC, stadiumId: $0.stadiumId, status: $0.status)
            }
            conflicts.append(MergeConflict(gameId: id, fields: fields.sorted(), sources: sources, winner: stored.source))
        }
        return conflicts
    }
}
