import SportsTimeCore

/// Finds the merged games whose sources contradict each other, and says how.
///
/// Each source is represented by its newest record of the game (highest version; first in fold order on
/// a tie). Only two *stated* values that differ count: a venue or status normalize filled in, a start a
/// source does not know, and progress (scheduled → final) are not conflicts. The classes
/// (`ConflictClass`): `dateMoved` (the sources date the game differently and were matched across
/// dates; a record that postponed the game to its stored date, or a date printed in another zone within
/// a day of it, does not count), `timeMoved` (on the game's date, two different exact starts, or an exact start against a
/// day/night flag it contradicts), `venueDiffers`, `statusContradicts` (final against cancelled, or
/// postponed against final on the same date).
enum CrossSourceReport {
    /// The conflicts among the merged games, each read from the records that fed it (its lineage), sorted
    /// by game id.
    static func conflicts(
        in games: [String: Game], lineage: MergeLineage, stadiums: [String: Stadium], priorities: SourcePriorities
    ) -> [MergeConflict] {
        lineage.entries.compactMap { id, entry -> MergeConflict? in
            guard entry.rows.count > 1, let game = games[id] else { return nil }
            let parts = entry.rows.sorted { $0.order < $1.order }
            return conflict(parts, merged: game, stadiums: stadiums, priorities: priorities)
        }.sorted { $0.id < $1.id }
    }

    /// The conflict of one merged game (`parts`: every record that fed it, in fold order), or nil when its
    /// sources agree or it has one source.
    static func conflict(
        _ parts: [GameFold.Contribution], merged stored: Game, stadiums: [String: Stadium], priorities: SourcePriorities
    ) -> MergeConflict? {
        var newest: [String: GameFold.Contribution] = [:]
        for part in parts {
            if let held = newest[part.game.source], held.version >= part.version { continue }
            newest[part.game.source] = part
        }
        guard newest.count > 1 else { return nil }
        let records = newest.values.sorted { $0.game.source < $1.game.source }
        var classes: Set<ConflictClass> = []
        // A record that postponed the game to the stored date, or that prints a date of another zone
        // within a day of it (a UTC date), does not contradict the stored date.
        let dated = records.filter { record in
            if record.game.status == .postponed, record.game.makeupDate == stored.localDate { return false }
            if record.game.isInferred(.localDate), abs(record.game.localDate.daysSinceEpoch - stored.localDate.daysSinceEpoch) <= 1 {
                return false
            }
            return true
        }
        let days = Set(dated.map { "\($0.game.localDate.iso8601)#\($0.game.gameNumber ?? 1)" })
        if days.count > 1 || (days.count == 1 && !days.contains("\(stored.localDate.iso8601)#\(stored.gameNumber ?? 1)")) {
            classes.insert(.dateMoved)
        }

        let onDay = records.filter { $0.game.localDate == stored.localDate && ($0.game.gameNumber ?? 1) == (stored.gameNumber ?? 1) }
        let exact = onDay.filter { $0.game.startKnowledge == .exact }
        if Set(exact.compactMap { $0.game.startUTC?.secondsSinceEpoch }).count > 1 { classes.insert(.timeMoved) }
        for flagged in onDay where flagged.game.startKnowledge == .day || flagged.game.startKnowledge == .night {
            if exact.contains(where: { !GameFold.startAgrees($0.game, with: flagged.game.startKnowledge, stadiums: stadiums) }) {
                classes.insert(.timeMoved)
            }
        }

        let venues = Set(records.filter { !$0.game.isInferred(.stadiumId) }.map { $0.game.stadiumId })
        if venues.count > 1 { classes.insert(.venueDiffers) }

        let stated = records.filter { !$0.game.isInferred(.status) }
        let statuses = Set(stated.map { $0.game.status })
        if statuses.contains(.final) && statuses.contains(.cancelled) { classes.insert(.statusContradicts) }
        for postponed in stated where postponed.game.status == .postponed {
            if stated.contains(where: { $0.game.status == .final && $0.game.localDate == postponed.game.localDate }) {
                classes.insert(.statusContradicts)
            }
        }
        guard !classes.isEmpty else { return nil }
        let sources = records.map {
            MergeConflictSource(
                source: $0.game.source, lastModified: $0.game.lastModified,
                priority: priorities.priority(of: $0.game.source), recordId: $0.game.id,
                localDate: $0.game.localDate, startUTC: $0.game.startUTC, startKnowledge: $0.game.startKnowledge,
                stadiumId: $0.game.stadiumId, status: $0.game.status)
        }
        return MergeConflict(gameId: stored.id, classes: classes.sorted(), sources: sources, winner: stored.source)
    }
}
