import Foundation
import SportsTimeCore

/// A raw name that resolved in the previously published games and no longer does: most often a stadium
/// or team renamed in the reference without keeping its old name as an alias.
public struct LostName: Sendable, Hashable {
    public enum Entity: String, Sendable { case stadium, team }
    public var entity: Entity
    /// The name as the sources print it (`TD Garden`).
    public var value: String
    /// The id it resolved to before (`td-garden`).
    public var previousId: String
    /// The record's current name in the reference (`TD Garden Arena`), nil when the record is gone.
    public var currentName: String?
    /// The day the reference record last changed (its `last_modified`): the alias's `valid_until`.
    public var changeDate: LocalDate?
    /// The record's `last_modified`, given to the alias row.
    public var lastModified: Instant?
    /// Games that resolved before and would now be dropped, and the sources they come from.
    public var games: Int
    public var sources: [String]
    /// The row that keeps the old name resolving, in the aliases file's columns.
    public var aliasRow: String

    /// `stadium-aliases.csv` or `team-aliases.csv`.
    public var aliasFile: String { entity == .stadium ? "stadium-aliases.csv" : "team-aliases.csv" }
    /// `stadiums.csv` or `teams.csv`: where the record is.
    public var recordFile: String { entity == .stadium ? "stadiums.csv" : "teams.csv" }

    /// `fixtures/reference/stadiums.csv:412: error: 'TD Garden' no longer resolves … Add this row to …: <row>.`
    public func diagnostic(referencePath: String, line: Int?) -> Diagnostic {
        let renamed = currentName.map { $0 == value ? "" : " (now named '\($0)')" } ?? " (no longer in the reference)"
        let sourceList = sources.joined(separator: ", ")
        return Diagnostic(
            .error, at: SourceLocation(path: "\(referencePath)/\(recordFile)", line: line),
            "'\(value)' no longer resolves: it resolved to \(entity.rawValue) \(previousId)\(renamed) in the published "
                + "games, and \(NumberText.grouped(games)) game\(games == 1 ? "" : "s") of \(sourceList) would be dropped",
            fix: "Keep the old name as an alias valid until the change: add this row to \(referencePath)/\(aliasFile): "
                + aliasRow)
    }
}

extension NormalizeResult {
    /// The names that resolved in `previous` (the published games, by source) and do not resolve now,
    /// matched record by record through provenance (`file:line`), one per name and former id, sorted.
    /// A game whose stadium was inferred from its home team (`inferred` holds `stadiumId`) named no venue.
    /// A row is matched to its published game by the source's own game id when it has one; else the
    /// published game at its `file:line` counts as that row only when it is the same game (the teams
    /// that resolved agree, and the date within a day); else the one published game of the source
    /// within a day of it with those teams. A row inserted or deleted above shifts every line below it
    /// onto another game: that is no rename, and a real rename below it is still caught.
    public func lostNames(comparedWith previous: [String: [Game]], reference: ReferenceData) -> [LostName] {
        var before: [String: Game] = [:]
        var byOwnId: [String: Game] = [:]
        var byDay: [String: [Game]] = [:]
        for (source, games) in previous {
            for game in games {
                if let provenance = game.provenance { before["\(source)\u{1F}\(provenance)"] = game }
                if let own = game.sourceIds[source] { byOwnId["\(source)\u{1F}\(own)"] = game }
                byDay["\(source)\u{1F}\(game.localDate.iso8601)", default: []].append(game)
            }
        }
        /// The published game a missed row was: by the source's own game id; else the game at its
        /// `file:line` if it is the same game; else the one game of its source within a day of it with the
        /// teams that did resolve (rows shifted by a deletion above no longer match by line).
        func publishedGame(of miss: NameMiss) -> Game? {
            if let own = miss.sourceGameId, let game = byOwnId["\(miss.source)\u{1F}\(own)"] { return game }
            if let game = before["\(miss.source)\u{1F}\(miss.provenance)"], Self.isSameRow(miss, game) { return game }
            guard miss.sourceGameId == nil, let date = miss.date, miss.homeTeamId != nil || miss.awayTeamId != nil else { return nil }
            var found: [Game] = []
            for day in [date.adding(days: -1), date, date.adding(days: 1)] {
                for game in byDay["\(miss.source)\u{1F}\(day.iso8601)"] ?? []
                where (miss.homeTeamId.map { $0 == game.homeTeamId } ?? true) && (miss.awayTeamId.map { $0 == game.awayTeamId } ?? true) {
                    found.append(game)
                }
            }
            return found.count == 1 ? found[0] : nil
        }
        struct Key: Hashable { var entity: LostName.Entity; var value: String; var id: String }
        var found: [Key: (provenances: Set<String>, sources: Set<String>)] = [:]
        for miss in misses where miss.candidates.isEmpty {
            guard let game = publishedGame(of: miss) else { continue }
            let key: Key
            switch miss.field {
            case .venue:
                guard !(game.inferred ?? []).contains(.stadiumId) else { continue }
                key = Key(entity: .stadium, value: miss.value, id: game.stadiumId)
            case .team:
                key = Key(
                    entity: .team, value: miss.value,
                    id: miss.role == "away team" ? game.awayTeamId : game.homeTeamId)
            }
            found[key, default: ([], [])].provenances.insert("\(miss.source)\u{1F}\(miss.provenance)")
            found[key, default: ([], [])].sources.insert(miss.source)
        }
        let stadiums = Dictionary(reference.stadiums.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let teams = Dictionary(reference.teams.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        return found.map { key, seen in
            var lost = LostName(
                entity: key.entity, value: key.value, previousId: key.id, currentName: nil,
                changeDate: nil, lastModified: nil, games: seen.provenances.count,
                sources: seen.sources.sorted(), aliasRow: "")
            switch key.entity {
            case .stadium:
                if let stadium = stadiums[key.id] {
                    lost.currentName = stadium.name; lost.lastModified = stadium.lastModified
                }
            case .team:
                if let team = teams[key.id] {
                    lost.currentName = "\(team.market) \(team.name)"; lost.lastModified = team.lastModified
                }
            }
            lost.changeDate = lost.lastModified?.utcDate
            lost.aliasRow = Self.aliasRow(for: lost, team: teams[key.id])
            return lost
        }.sorted { ($0.entity.rawValue, $0.previousId, $0.value) < ($1.entity.rawValue, $1.previousId, $1.value) }
    }

    /// Whether the published `game` at a missed row's `file:line` is that row's game.
    static func isSameRow(_ miss: NameMiss, _ game: Game) -> Bool {
        if let home = miss.homeTeamId, home != game.homeTeamId { return false }
        if let away = miss.awayTeamId, away != game.awayTeamId { return false }
        if let own = miss.sourceGameId, let published = game.sourceIds[miss.source] { return own == published }
        guard let date = miss.date else { return true }
        return abs(date.daysSinceEpoch - game.localDate.daysSinceEpoch) <= 1
    }

    /// The alias row in the columns of `stadium-aliases.csv`
    /// (`stadium_id,name,valid_from,valid_until,source_system,last_modified,note`) or `team-aliases.csv`
    /// (`team_id,kind,value,valid_from,valid_until,source_system,last_modified,note`).
    static func aliasRow(for lost: LostName, team: Team?) -> String {
        let until = lost.changeDate?.iso8601 ?? ""
        let modified = lost.lastModified?.iso8601 ?? ""
        let note = "renamed \(lost.currentName ?? "(removed)")" + (until.isEmpty ? "" : " \(until)")
        switch lost.entity {
        case .stadium:
            return [lost.previousId, lost.value, "", until, "", modified, note].map(csvField).joined(separator: ",")
        case .team:
            let kind: TeamAlias.Kind
            let letters = lost.value.filter { !$0.isWhitespace }
            if letters.count <= 4, letters == letters.uppercased() {
                kind = .abbreviation
            } else if let team, Slug.matchKey(lost.value).hasPrefix(Slug.matchKey(team.market)) {
                kind = .fullName
            } else {
                kind = .name
            }
            return [lost.previousId, kind.rawValue, lost.value, "", until, "", modified, note]
                .map(csvField).joined(separator: ",")
        }
    }

    /// A CSV field, quoted when it holds a comma, a quote or a line break.
    static func csvField(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0.isNewline }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
