import Foundation

/// One pass over the reference files: read each (the file of its kind, e.g. `ReferenceStadiums.swift`), then
/// check ids and references across them.
struct ReferenceParser {
    let displayPath: String
    var errors: [Diagnostic] = []
    var warnings: [Diagnostic] = []

    init(displayPath: String) { self.displayPath = displayPath }

    /// How messages name `file` of the reference folder.
    func path(_ file: String) -> String { displayPath.isEmpty ? file : "\(displayPath)/\(file)" }

    mutating func error(_ path: String, _ line: Int?, _ message: String, fix: String) {
        errors.append(Diagnostic(.error, at: SourceLocation(path: path, line: line), message, fix: fix))
    }

    /// Reads the CSV file `file` with exactly `columns` through `ReferenceRows`; its problems join `errors`.
    mutating func readRows<Record>(
        _ file: String, _ data: Data?, columns: [String],
        record: (ReferenceTable.Row, inout ReferenceRows) -> Record?
    ) -> ReferenceFile<Record> {
        ReferenceRows.read(data, path: path(file), columns: columns, problems: &errors, record: record)
    }

    mutating func run(_ files: [String: Data]) -> ReferenceData {
        let sports = parseSports(files["sports.yaml"])
        let stadiums = parseStadiums(files["stadiums.csv"])
        let structures = parseStructures(files["league-structures.csv"])
        let teams = parseTeams(files["teams.csv"])
        let teamAliases = parseTeamAliases(files["team-aliases.csv"])
        let stadiumAliases = parseStadiumAliases(files["stadium-aliases.csv"])
        let teamHomes = parseTeamHomes(files["team-homes.csv"])

        // References are checked against every id a file declares, even on rows rejected for another reason,
        // and not at all against a file that could not be read: one mistake gives one message.
        let known = KnownIds(sports: sports, stadiums: stadiums, structures: structures, teams: teams)
        checkStructures(structures.items, known)
        checkTeams(teams.items, known)
        checkAliasTargets(
            teamAliases.items, file: "team-aliases.csv", what: "team alias", column: "team_id", known: known.teamIds,
            targetFile: "teams.csv", target: "team")
        checkAliasTargets(
            stadiumAliases.items, file: "stadium-aliases.csv", what: "stadium alias", column: "stadium_id", known: known.stadiumIds,
            targetFile: "stadiums.csv", target: "stadium")
        checkTeamHomes(teamHomes.items, known)
        warnAmbiguousTeamAliases(teamAliases.items, teamSport: known.teamSport, path: path("team-aliases.csv"))
        warnAmbiguousStadiumAliases(stadiumAliases.items, path: path("stadium-aliases.csv"))

        let allSports = BuiltInSport.allCases.map(\.sport) + sports.items.map(\.record)
        return ReferenceData(
            sports: allSports.sorted { $0.id < $1.id },
            stadiums: stadiums.items.map(\.record).sorted { $0.id < $1.id },
            teams: teams.items.map(\.record).sorted { $0.id < $1.id },
            leagueStructures: structures.items.map(\.record).sorted { $0.id < $1.id },
            teamAliases: teamAliases.items.map(\.record).sorted { $0.id < $1.id },
            stadiumAliases: stadiumAliases.items.map(\.record).sorted { $0.id < $1.id },
            teamHomes: teamHomes.items.map(\.record).sorted(by: TeamHomeSpell.precedes))
    }
}

/// The ids each file declares (nil when the file could not be read, so references to it are not checked).
struct KnownIds {
    let sportIds: Set<String>?
    let sportList: String
    let stadiumIds: Set<String>?
    let structureIds: Set<String>?
    let teamIds: Set<String>?
    let structureById: [String: LeagueStructure]
    let teamSport: [String: String]

    init(
        sports: ReferenceFile<Sport>, stadiums: ReferenceFile<Stadium>, structures: ReferenceFile<LeagueStructure>,
        teams: ReferenceFile<Team>
    ) {
        sportIds = sports.isUsable ? Set(BuiltInSport.allCases.map(\.rawValue)).union(sports.declared) : nil
        sportList = (sportIds ?? []).sorted().joined(separator: ", ")
        stadiumIds = stadiums.isUsable ? stadiums.declared : nil
        structureIds = structures.isUsable ? structures.declared : nil
        teamIds = teams.isUsable ? teams.declared : nil
        var byId: [String: LeagueStructure] = [:]
        for item in structures.items { byId[item.record.id] = item.record }
        structureById = byId
        var sportOfTeam: [String: String] = [:]
        for item in teams.items { sportOfTeam[item.record.id] = item.record.sport }
        teamSport = sportOfTeam
    }
}

extension ReferenceParser {
    /// Reports `sport` on `line` of `path` when sports.yaml could be read and it is not a known sport (`owner` and
    /// `fix` are put together only then).
    mutating func checkSport(
        _ sport: String, _ known: KnownIds, at path: String, _ line: Int, owner: @autoclosure () -> String,
        fix: @autoclosure () -> String
    ) {
        if let sportIds = known.sportIds, !sportIds.contains(sport) {
            error(path, line, "\(owner()): sport '\(sport)' is not known", fix: fix())
        }
    }

    /// The league structure `id` named in `column`; nil, reported when league-structures.csv could be read and
    /// does not declare it, when there is none.
    mutating func structure(
        _ id: String, _ known: KnownIds, column: String, at path: String, _ line: Int, owner: @autoclosure () -> String
    ) -> LeagueStructure? {
        if let structure = known.structureById[id] { return structure }
        if known.structureIds?.contains(id) == false {
            error(path, line, "\(owner()): \(column) '\(id)' is not in league-structures.csv", fix: "Add that structure or fix the id")
        }
        return nil
    }
}
