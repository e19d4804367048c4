import Foundation
import Yams

/// Reads and checks the curated reference data of `fixtures/reference/` — the one loader that normalize,
/// merge and plan share.
///
/// Files and formats (fixed):
/// - `sports.yaml`: the dynamic sports (a YAML list); the seven built-in sports come from `BuiltInSport`.
/// - `stadiums.csv`, `teams.csv`, `league-structures.csv`, `team-aliases.csv`, `stadium-aliases.csv`.
/// - `team-homes.csv` (optional: a missing file means no dated homes): a team's home stadium for a date range.
///
/// Every problem is reported at once, each as `path:line: error: what is wrong. what to do.`, and the load
/// fails (exit 2) when any is an error. Ambiguous aliases are warnings. Records get `source: "reference"`,
/// `schemaVersion: 1` and `lastModified` from their row; every list comes back sorted by id.
public enum ReferenceLoader {
    /// The files of a reference directory, in the order they are read. All are required except
    /// `optionalFileNames`.
    public static let fileNames = [
        "sports.yaml", "stadiums.csv", "teams.csv", "league-structures.csv",
        "team-aliases.csv", "stadium-aliases.csv", "team-homes.csv",
    ]

    /// The files of `fileNames` that may be missing.
    public static let optionalFileNames: Set<String> = ["team-homes.csv"]

    /// The `source` of every record loaded from reference data.
    public static let recordSource = "reference"

    static let stadiumColumns = [
        "id", "name", "city", "region", "country", "latitude", "longitude", "time_zone",
        "capacity", "opened_year", "last_modified", "source_note",
    ]
    static let teamColumns = [
        "id", "sport", "market", "name", "abbreviation", "home_stadium_id", "conference_id",
        "division_id", "last_modified",
    ]
    static let structureColumns = [
        "id", "sport", "level", "name", "abbreviation", "parent_id", "display_order",
        "last_modified",
    ]
    static let teamAliasColumns = [
        "team_id", "kind", "value", "valid_from", "valid_until", "source_system",
        "last_modified", "note",
    ]
    static let stadiumAliasColumns = [
        "stadium_id", "name", "valid_from", "valid_until", "source_system",
        "last_modified", "note",
    ]
    static let teamHomeColumns = ["team_id", "stadium_id", "valid_from", "valid_until", "last_modified", "note"]

    /// Loads `directory`; `displayPath` is how messages name it (repository-relative, e.g. `fixtures/reference`).
    /// Throws `PipelineError.invalidInput`/`.invalidInputs` listing every error.
    public static func load(from directory: URL, displayPath: String) throws -> ReferenceData {
        var diagnostics = Diagnostics()
        return try load(from: directory, displayPath: displayPath, diagnostics: &diagnostics)
    }

    /// Like `load(from:displayPath:)`, appending warnings (ambiguous aliases) to `diagnostics`.
    public static func load(
        from directory: URL, displayPath: String,
        diagnostics: inout Diagnostics
    ) throws -> ReferenceData {
        var contents: [String: Data] = [:]
        // A link to a file inside the repository is followed; one that leads outside it is refused.
        let confinement = RepositoryConfinement(root: ArtifactFiles.repositoryRoot(from: directory))
        if let folderLink = confinement.checkRead(directory) { throw PipelineError.invalidInput(folderLink) }
        let outsideLinks = fileNames.compactMap { confinement.checkRead(directory.appendingPathComponent($0)) }
        if !outsideLinks.isEmpty { throw PipelineError.invalidInputs(outsideLinks) }
        for name in fileNames {
            let url = directory.appendingPathComponent(name)
            if let data = FileManager.default.contents(atPath: url.path) { contents[name] = data }
        }
        return try parse(files: contents, displayPath: displayPath, diagnostics: &diagnostics)
    }

    /// Checks reference files given as bytes keyed by file name (a missing key is a missing file).
    public static func parse(
        files: [String: Data], displayPath: String,
        diagnostics: inout Diagnostics
    ) throws -> ReferenceData {
        var parser = Parser(displayPath: displayPath)
        let data = parser.run(files)
        for warning in Diagnostics.sortedList(parser.warnings) { diagnostics.emit(warning) }
        let errors = Diagnostics.sortedList(parser.errors)
        if errors.count == 1 { throw PipelineError.invalidInput(errors[0]) }
        if !errors.isEmpty { throw PipelineError.invalidInputs(errors) }
        return data
    }

    /// The id of a team alias: the slug of `team_id-kind-source_system-value-valid_from`.
    public static func teamAliasId(
        teamId: String, kind: TeamAlias.Kind, sourceSystem: String?, value: String,
        validFrom: LocalDate?
    ) -> String {
        ReferenceText.slug([teamId, kind.rawValue, sourceSystem ?? "", value, validFrom?.iso8601 ?? ""].joined(separator: "-"))
    }

    /// The id of a stadium alias: the slug of `stadium_id-source_system-name-valid_from`.
    public static func stadiumAliasId(
        stadiumId: String, sourceSystem: String?, name: String,
        validFrom: LocalDate?
    ) -> String {
        ReferenceText.slug([stadiumId, sourceSystem ?? "", name, validFrom?.iso8601 ?? ""].joined(separator: "-"))
    }
}

extension Diagnostics {
    /// Diagnostics in the stable order of `Diagnostics.sorted`.
    static func sortedList(_ items: [Diagnostic]) -> [Diagnostic] {
        var diagnostics = Diagnostics()
        for item in items { diagnostics.emit(item) }
        return diagnostics.sorted
    }
}

/// The YAML shape of one dynamic sport in `sports.yaml`.
struct DynamicSportEntry: Decodable {
    var id: String
    var abbreviation: String
    var displayName: String
    var iconName: String
    var colorHex: String
    var seasonStartMonth: Int
    var seasonEndMonth: Int
    var isActive: Bool
    var lastModified: Instant
}

/// One pass over the reference files: parse each, then check ids and references across them.
private struct Parser {
    let displayPath: String
    var errors: [Diagnostic] = []
    var warnings: [Diagnostic] = []

    init(displayPath: String) { self.displayPath = displayPath }

    func path(_ file: String) -> String { displayPath.isEmpty ? file : "\(displayPath)/\(file)" }

    mutating func error(_ path: String, _ line: Int?, _ message: String, fix: String) {
        errors.append(Diagnostic(.error, at: SourceLocation(path: path, line: line), message, fix: fix))
    }

    // MARK: run

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
        checkAliasTargets(teamAliases.items, stadiumAliases.items, known)
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

    // MARK: references across files

    /// A structure's sport is known; a league has no parent, a conference's parent is a league and a division's a
    /// conference, of the same sport.
    mutating func checkStructures(_ structures: [Lined<LeagueStructure>], _ known: KnownIds) {
        let structuresPath = path("league-structures.csv")
        for item in structures {
            let s = item.record
            if let sportIds = known.sportIds, !sportIds.contains(s.sport) {
                error(
                    structuresPath, item.line, "league structure '\(s.id)': sport '\(s.sport)' is not known",
                    fix: "Use one of: \(known.sportList)")
            }
            let wantedParent: LeagueStructure.Level? =
                switch s.level {
                case .league: nil
                case .conference: .league
                case .division: .conference
                }
            guard let parentId = s.parentId else {
                if let wantedParent {
                    error(
                        structuresPath, item.line, "league structure '\(s.id)': a \(s.level.rawValue) needs a parent_id",
                        fix: "Set parent_id to its \(wantedParent.rawValue)")
                }
                continue
            }
            guard let parent = known.structureById[parentId] else {
                if known.structureIds?.contains(parentId) == false {
                    error(
                        structuresPath, item.line,
                        "league structure '\(s.id)': parent_id '\(parentId)' is not in league-structures.csv",
                        fix: "Add that structure or fix the id")
                }
                continue
            }
            guard let wantedParent else {
                error(
                    structuresPath, item.line, "league structure '\(s.id)': a league has no parent",
                    fix: "Leave parent_id empty")
                continue
            }
            if parent.level != wantedParent {
                error(
                    structuresPath, item.line,
                    "league structure '\(s.id)': parent '\(parentId)' is a \(parent.level.rawValue), not a \(wantedParent.rawValue)",
                    fix: "A conference belongs to a league and a division to a conference")
            } else if parent.sport != s.sport {
                error(
                    structuresPath, item.line,
                    "league structure '\(s.id)': parent '\(parentId)' belongs to sport '\(parent.sport)', not '\(s.sport)'",
                    fix: "Use a parent of the same sport")
            }
        }
    }

    /// A team's sport, home stadium, conference and division exist, fit the sport, and agree with each other.
    mutating func checkTeams(_ teams: [Lined<Team>], _ known: KnownIds) {
        let teamsPath = path("teams.csv")
        for item in teams {
            let t = item.record
            if let sportIds = known.sportIds, !sportIds.contains(t.sport) {
                error(
                    teamsPath, item.line, "team '\(t.id)': sport '\(t.sport)' is not known",
                    fix: "Use one of: \(known.sportList) (dynamic sports are defined in sports.yaml)")
            }
            if let stadiumIds = known.stadiumIds, !stadiumIds.contains(t.homeStadiumId) {
                error(
                    teamsPath, item.line, "team '\(t.id)': home_stadium_id '\(t.homeStadiumId)' is not in stadiums.csv",
                    fix: "Add the stadium or fix the id")
            }
            for (column, id, level) in [
                ("conference_id", t.conferenceId, LeagueStructure.Level.conference),
                ("division_id", t.divisionId, .division),
            ] {
                guard let id else { continue }
                guard let structure = known.structureById[id] else {
                    if known.structureIds?.contains(id) == false {
                        error(
                            teamsPath, item.line, "team '\(t.id)': \(column) '\(id)' is not in league-structures.csv",
                            fix: "Add that structure or fix the id")
                    }
                    continue
                }
                if structure.level != level || structure.sport != t.sport {
                    error(
                        teamsPath, item.line,
                        "team '\(t.id)': \(column) '\(id)' is a \(structure.sport) \(structure.level.rawValue), not a \(t.sport) \(level.rawValue)",
                        fix: "Use a \(level.rawValue) of the team's sport")
                }
            }
            if let conference = t.conferenceId, let division = t.divisionId,
                let parent = known.structureById[division]?.parentId, known.structureById[conference] != nil,
                parent != conference
            {
                error(
                    teamsPath, item.line,
                    "team '\(t.id)': division '\(division)' belongs to '\(parent)', not to conference '\(conference)'",
                    fix: "Make conference_id and division_id agree")
            }
        }
    }

    /// Every alias names a team or stadium that exists.
    mutating func checkAliasTargets(
        _ teamAliases: [Lined<TeamAlias>], _ stadiumAliases: [Lined<StadiumAlias>],
        _ known: KnownIds
    ) {
        let teamAliasesPath = path("team-aliases.csv")
        for item in teamAliases where known.teamIds?.contains(item.record.teamId) == false {
            error(
                teamAliasesPath, item.line,
                "team alias '\(item.record.value)': team_id '\(item.record.teamId)' is not in teams.csv",
                fix: "Add the team or fix the id")
        }
        let stadiumAliasesPath = path("stadium-aliases.csv")
        for item in stadiumAliases where known.stadiumIds?.contains(item.record.stadiumId) == false {
            error(
                stadiumAliasesPath, item.line,
                "stadium alias '\(item.record.name)': stadium_id '\(item.record.stadiumId)' is not in stadiums.csv",
                fix: "Add the stadium or fix the id")
        }
    }

    /// Every dated home names a team and a stadium that exist, and one team's spells do not overlap.
    mutating func checkTeamHomes(_ homes: [Lined<TeamHomeSpell>], _ known: KnownIds) {
        let homesPath = path("team-homes.csv")
        var earlier: [String: [Lined<TeamHomeSpell>]] = [:]
        for item in homes {
            let spell = item.record
            let owner = "team home '\(spell.teamId)' at '\(spell.stadiumId)'"
            if known.teamIds?.contains(spell.teamId) == false {
                error(
                    homesPath, item.line, "\(owner): team_id '\(spell.teamId)' is not in teams.csv",
                    fix: "Add the team or fix the id")
            }
            if known.stadiumIds?.contains(spell.stadiumId) == false {
                error(
                    homesPath, item.line, "\(owner): stadium_id '\(spell.stadiumId)' is not in stadiums.csv",
                    fix: "Add the stadium or fix the id")
            }
            for other in earlier[spell.teamId, default: []] where other.record.overlaps(spell) {
                error(
                    homesPath, item.line,
                    "\(owner) (\(spell.rangeDescription)) overlaps line \(other.line) "
                        + "('\(other.record.stadiumId)', \(other.record.rangeDescription))",
                    fix: "A team has one home on a date: make the ranges of its rows disjoint (both days are inclusive)")
            }
            earlier[spell.teamId, default: []].append(item)
        }
    }

    // MARK: sports.yaml

    mutating func parseSports(_ data: Data?) -> Parsed<Sport> {
        let file = path("sports.yaml")
        guard let data else {
            error(
                file, nil, "the file is missing",
                fix: "Restore it, or create it with [] when there are no dynamic sports")
            return Parsed()
        }
        if let wide = TextEncoding.wideEncoding(of: data) {
            errors.append(TextEncoding.wideEncodingDiagnostic(wide, path: file))
            return Parsed()
        }
        guard let text = String(data: data, encoding: .utf8) else {
            error(file, 1, "the file is not valid UTF-8", fix: "Save it as UTF-8")
            return Parsed()
        }
        let entries: [DynamicSportEntry]
        do {
            entries = try StrictYAML.decode([DynamicSportEntry].self, from: text, path: file)
        } catch let failure as PipelineError {
            errors.append(contentsOf: failure.diagnostics)
            return Parsed()
        } catch {
            self.error(file, 1, "cannot read the YAML: \(error)", fix: "Fix the YAML")
            return Parsed()
        }
        // Lines of the list items, for messages about one sport.
        let node = StrictYAML.composeIfBounded(text)
        var sports = Parsed<Sport>(isUsable: true)
        var seen: [String: Int] = [:]
        let builtIn = Set(BuiltInSport.allCases.map(\.rawValue))
        for (index, entry) in entries.enumerated() {
            let line = node?.sequence.flatMap { index < $0.count ? $0[index].mark?.line : nil }
            let before = errors.count
            if entry.id.isEmpty || ReferenceText.slug(entry.id) != entry.id {
                error(
                    file, line, "sport id '\(entry.id)' is not a lowercase slug",
                    fix: "Use lowercase letters, digits and dashes, e.g. ufl")
            } else if builtIn.contains(entry.id) {
                error(
                    file, line, "sport '\(entry.id)' is built in and cannot be redefined here",
                    fix: "Choose another id, or patch the built-in sport through fixtures/overrides")
            } else if let first = seen[entry.id] {
                error(file, line, "duplicate sport id '\(entry.id)' (first at line \(first))", fix: "Keep one of them")
            }
            if let line, seen[entry.id] == nil { seen[entry.id] = line }
            if !entry.id.isEmpty { sports.declared.insert(entry.id) }
            for (field, value) in [
                ("abbreviation", entry.abbreviation), ("displayName", entry.displayName),
                ("iconName", entry.iconName),
            ] where value.trimmingCharacters(in: .whitespaces).isEmpty {
                error(file, line, "sport '\(entry.id)': \(field) is empty", fix: "Give it a value")
            }
            let color = ColorHex.normalize(entry.colorHex)
            if color == nil {
                error(
                    file, line, "sport '\(entry.id)': colorHex '\(entry.colorHex)' is not a colour",
                    fix: "Use \(ColorHex.acceptedForms)")
            }
            for (field, month) in [("seasonStartMonth", entry.seasonStartMonth), ("seasonEndMonth", entry.seasonEndMonth)]
            where !(1...12).contains(month) {
                error(file, line, "sport '\(entry.id)': \(field) \(month) is not a month", fix: "Use 1 to 12")
            }
            guard errors.count == before, let color else { continue }
            sports.items.append(
                Lined(
                    line: line ?? 1,
                    record: Sport(
                        id: entry.id, abbreviation: entry.abbreviation, displayName: entry.displayName,
                        iconName: entry.iconName, colorHex: color, seasonStartMonth: entry.seasonStartMonth,
                        seasonEndMonth: entry.seasonEndMonth, isActive: entry.isActive, isBuiltIn: false,
                        lastModified: entry.lastModified, schemaVersion: 1, source: ReferenceLoader.recordSource)))
        }
        return sports
    }

    // MARK: CSV files

    mutating func table(_ file: String, _ data: Data?, _ columns: [String]) -> ReferenceTable {
        ReferenceTable.read(data, path: path(file), columns: columns, problems: &errors)
    }

    mutating func parseStadiums(_ data: Data?) -> Parsed<Stadium> {
        let table = table("stadiums.csv", data, ReferenceLoader.stadiumColumns)
        var fields = FieldReader(path: table.path)
        var ids = UniqueIds(what: "stadium id")
        var out = Parsed<Stadium>(isUsable: table.isUsable)
        for row in table.rows {
            let id = fields.slug(row, "id", what: "stadium")
            if !id.isEmpty { out.declared.insert(id) }
            let name = fields.required(row, "name", owner: "stadium '\(id)'")
            let city = fields.required(row, "city", owner: "stadium '\(id)'")
            let region = row["region"]
            let country = fields.required(row, "country", owner: "stadium '\(id)'")
            let latitude = fields.double(row, "latitude", owner: "stadium '\(id)'")
            let longitude = fields.double(row, "longitude", owner: "stadium '\(id)'")
            if let latitude, let longitude,
                !Coordinate(latitude: latitude, longitude: longitude).isPlausible
            {
                fields.fail(
                    row, "stadium '\(id)': coordinates \(row["latitude"]),\(row["longitude"]) are not a place on earth",
                    fix: "Use decimal degrees: latitude -90...90, longitude -180...180, not 0,0")
            }
            let zone = fields.required(row, "time_zone", owner: "stadium '\(id)'")
            if !zone.isEmpty, !ZonedTime.isValidZone(zone) {
                fields.fail(
                    row, "stadium '\(id)': time_zone '\(zone)' is not an IANA time zone",
                    fix: "Use a tzdata name such as America/New_York or Europe/Berlin")
            }
            if let latitude, let longitude, Coordinate(latitude: latitude, longitude: longitude).isPlausible,
                !zone.isEmpty, ZonedTime.isValidZone(zone), !country.isEmpty,
                let problem = StadiumPlacement.problem(latitude: latitude, longitude: longitude, timeZone: zone, country: country)
            {
                fields.fail(
                    row, "stadium '\(id)': \(problem)",
                    fix:
                        "Check the signs and the order of latitude and longitude (west and south are negative), the time_zone and the country"
                )
            }
            let capacity = fields.optionalInt(row, "capacity", owner: "stadium '\(id)'", range: 1...250_000)
            let opened = fields.optionalInt(row, "opened_year", owner: "stadium '\(id)'", range: 1800...2100)
            let modified = fields.instant(row, "last_modified", owner: "stadium '\(id)'")
            ids.check(id, row: row, fields: &fields)
            guard fields.rowIsClean(row), let latitude, let longitude, let modified else { continue }
            out.items.append(
                Lined(
                    line: row.line,
                    record: Stadium(
                        id: id, name: name, city: city, region: region, country: country, latitude: latitude,
                        longitude: longitude, timeZone: zone, capacity: capacity ?? nil, openedYear: opened ?? nil,
                        lastModified: modified, schemaVersion: 1, source: ReferenceLoader.recordSource)))
        }
        errors.append(contentsOf: fields.problems)
        return out
    }

    mutating func parseTeams(_ data: Data?) -> Parsed<Team> {
        let table = table("teams.csv", data, ReferenceLoader.teamColumns)
        var fields = FieldReader(path: table.path)
        var ids = UniqueIds(what: "team id")
        var out = Parsed<Team>(isUsable: table.isUsable)
        for row in table.rows {
            let id = fields.slug(row, "id", what: "team")
            if !id.isEmpty { out.declared.insert(id) }
            let owner = "team '\(id)'"
            let sport = fields.required(row, "sport", owner: owner)
            let name = fields.required(row, "name", owner: owner)
            let abbreviation = fields.required(row, "abbreviation", owner: owner)
            let home = fields.required(row, "home_stadium_id", owner: owner)
            let modified = fields.instant(row, "last_modified", owner: owner)
            ids.check(id, row: row, fields: &fields)
            guard fields.rowIsClean(row), let modified else { continue }
            out.items.append(
                Lined(
                    line: row.line,
                    record: Team(
                        id: id, sport: sport, market: row["market"], name: name, abbreviation: abbreviation,
                        homeStadiumId: home, conferenceId: row["conference_id"].nilIfEmpty,
                        divisionId: row["division_id"].nilIfEmpty, lastModified: modified, schemaVersion: 1,
                        source: ReferenceLoader.recordSource)))
        }
        errors.append(contentsOf: fields.problems)
        return out
    }

    mutating func parseStructures(_ data: Data?) -> Parsed<LeagueStructure> {
        let table = table("league-structures.csv", data, ReferenceLoader.structureColumns)
        var fields = FieldReader(path: table.path)
        var ids = UniqueIds(what: "league structure id")
        var out = Parsed<LeagueStructure>(isUsable: table.isUsable)
        for row in table.rows {
            let id = fields.slug(row, "id", what: "league structure")
            if !id.isEmpty { out.declared.insert(id) }
            let owner = "league structure '\(id)'"
            let sport = fields.required(row, "sport", owner: owner)
            let name = fields.required(row, "name", owner: owner)
            let level = LeagueStructure.Level(rawValue: row["level"])
            if level == nil {
                fields.fail(row, "\(owner): level '\(row["level"])' is not known", fix: "Use league, conference or division")
            }
            let order = fields.int(row, "display_order", owner: owner)
            let modified = fields.instant(row, "last_modified", owner: owner)
            ids.check(id, row: row, fields: &fields)
            guard fields.rowIsClean(row), let level, let order, let modified else { continue }
            out.items.append(
                Lined(
                    line: row.line,
                    record: LeagueStructure(
                        id: id, sport: sport, level: level, name: name, abbreviation: row["abbreviation"].nilIfEmpty,
                        parentId: row["parent_id"].nilIfEmpty, displayOrder: order, lastModified: modified, schemaVersion: 1,
                        source: ReferenceLoader.recordSource)))
        }
        errors.append(contentsOf: fields.problems)
        return out
    }

    mutating func parseTeamAliases(_ data: Data?) -> Parsed<TeamAlias> {
        let table = table("team-aliases.csv", data, ReferenceLoader.teamAliasColumns)
        var fields = FieldReader(path: table.path)
        var ids = UniqueIds(what: "team alias")
        var out = Parsed<TeamAlias>(isUsable: table.isUsable)
        for row in table.rows {
            let value = row["value"]
            let owner = "team alias '\(value)'"
            let teamId = fields.required(row, "team_id", owner: owner)
            if value.isEmpty { fields.fail(row, "team alias of '\(teamId)': value is empty", fix: "Give the alias a value") }
            let kind = TeamAlias.Kind(rawValue: row["kind"])
            if kind == nil {
                fields.fail(
                    row, "\(owner): kind '\(row["kind"])' is not known",
                    fix: "Use one of: \(TeamAlias.Kind.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            let (from, until) = fields.validity(row, owner: owner)
            let system = row["source_system"].nilIfEmpty
            let modified = fields.instant(row, "last_modified", owner: owner)
            guard let kind else { continue }
            let id = ReferenceLoader.teamAliasId(
                teamId: teamId, kind: kind, sourceSystem: system, value: value,
                validFrom: from)
            ids.check(
                id, row: row, fields: &fields,
                same: "the same team_id, kind, source_system, value and valid_from (case, accents and punctuation ignored)")
            guard fields.rowIsClean(row), let modified else { continue }
            out.items.append(
                Lined(
                    line: row.line,
                    record: TeamAlias(
                        id: id, teamId: teamId, kind: kind, value: value, validFrom: from, validUntil: until,
                        sourceSystem: system, lastModified: modified, schemaVersion: 1, source: ReferenceLoader.recordSource)))
        }
        errors.append(contentsOf: fields.problems)
        return out
    }

    mutating func parseStadiumAliases(_ data: Data?) -> Parsed<StadiumAlias> {
        let table = table("stadium-aliases.csv", data, ReferenceLoader.stadiumAliasColumns)
        var fields = FieldReader(path: table.path)
        var ids = UniqueIds(what: "stadium alias")
        var out = Parsed<StadiumAlias>(isUsable: table.isUsable)
        for row in table.rows {
            let name = row["name"]
            let owner = "stadium alias '\(name)'"
            let stadiumId = fields.required(row, "stadium_id", owner: owner)
            if name.isEmpty { fields.fail(row, "stadium alias of '\(stadiumId)': name is empty", fix: "Give the alias a name") }
            let (from, until) = fields.validity(row, owner: owner)
            let system = row["source_system"].nilIfEmpty
            let modified = fields.instant(row, "last_modified", owner: owner)
            let id = ReferenceLoader.stadiumAliasId(stadiumId: stadiumId, sourceSystem: system, name: name, validFrom: from)
            ids.check(
                id, row: row, fields: &fields,
                same: "the same stadium_id, source_system, name and valid_from (case, accents and punctuation ignored)")
            guard fields.rowIsClean(row), let modified else { continue }
            out.items.append(
                Lined(
                    line: row.line,
                    record: StadiumAlias(
                        id: id, stadiumId: stadiumId, name: name, validFrom: from, validUntil: until, sourceSystem: system,
                        lastModified: modified, schemaVersion: 1, source: ReferenceLoader.recordSource)))
        }
        errors.append(contentsOf: fields.problems)
        return out
    }

    /// `team-homes.csv` is optional: a missing file is no dated homes, not an error.
    mutating func parseTeamHomes(_ data: Data?) -> Parsed<TeamHomeSpell> {
        guard let data else { return Parsed(isUsable: true) }
        let table = table("team-homes.csv", data, ReferenceLoader.teamHomeColumns)
        var fields = FieldReader(path: table.path)
        var out = Parsed<TeamHomeSpell>(isUsable: table.isUsable)
        for row in table.rows {
            let teamId = row["team_id"], stadiumId = row["stadium_id"]
            let owner = "team home '\(teamId)' at '\(stadiumId)'"
            _ = fields.required(row, "team_id", owner: owner)
            _ = fields.required(row, "stadium_id", owner: owner)
            let (from, until) = fields.validity(row, owner: owner)
            if row["valid_from"].isEmpty && row["valid_until"].isEmpty {
                fields.fail(
                    row, "\(owner): valid_from and valid_until are both empty",
                    fix: "A home on every date is home_stadium_id in teams.csv; give this row its dates")
            }
            let modified = fields.instant(row, "last_modified", owner: owner)
            guard fields.rowIsClean(row), let modified else { continue }
            out.items.append(
                Lined(
                    line: row.line,
                    record: TeamHomeSpell(
                        teamId: teamId, stadiumId: stadiumId, validFrom: from, validUntil: until, lastModified: modified,
                        note: row["note"])))
        }
        errors.append(contentsOf: fields.problems)
        return out
    }

    // MARK: ambiguity warnings

    mutating func warnAmbiguousTeamAliases(_ aliases: [Lined<TeamAlias>], teamSport: [String: String], path: String) {
        var groups: [String: [Lined<TeamAlias>]] = [:]
        for item in aliases {
            guard let sport = teamSport[item.record.teamId] else { continue }
            groups[sport + "\u{0}" + ReferenceText.matchKey(item.record.value), default: []].append(item)
        }
        for (_, group) in groups where group.count > 1 {
            for (i, a) in group.enumerated() {
                for b in group[..<i]
                where a.record.teamId != b.record.teamId
                    && Self.overlaps(
                        a.record.validFrom, a.record.validUntil, a.record.sourceSystem,
                        b.record.validFrom, b.record.validUntil, b.record.sourceSystem)
                {
                    if a.record.kind == b.record.kind, a.record.sourceSystem == b.record.sourceSystem {
                        // One value, one kind, one source system, two teams on a date: every game that
                        // names it would be unresolved one by one. Refuse the file instead.
                        let system = a.record.sourceSystem.map { "source system '\($0)'" } ?? "every source system"
                        error(
                            path, a.line,
                            "team alias '\(a.record.value)' (\(a.record.kind.rawValue), \(system)) names '\(b.record.teamId)' on line \(b.line) "
                                + "and '\(a.record.teamId)' on line \(a.line), on overlapping dates",
                            fix:
                                "A value names one team on a date: give the rows dates that do not overlap or different source_system values, or remove one"
                        )
                        continue
                    }
                    warnings.append(
                        Diagnostic(
                            .warning, at: SourceLocation(path: path, line: a.line),
                            "team alias '\(a.record.value)' names both '\(b.record.teamId)' (line \(b.line)) and "
                                + "'\(a.record.teamId)' on the same dates",
                            fix: "Give the aliases non-overlapping dates or source systems, or remove one"))
                }
            }
        }
    }

    mutating func warnAmbiguousStadiumAliases(_ aliases: [Lined<StadiumAlias>], path: String) {
        var groups: [String: [Lined<StadiumAlias>]] = [:]
        for item in aliases { groups[ReferenceText.matchKey(item.record.name), default: []].append(item) }
        for (_, group) in groups where group.count > 1 {
            for (i, a) in group.enumerated() {
                for b in group[..<i]
                where a.record.stadiumId != b.record.stadiumId
                    && Self.overlaps(
                        a.record.validFrom, a.record.validUntil, a.record.sourceSystem,
                        b.record.validFrom, b.record.validUntil, b.record.sourceSystem)
                {
                    warnings.append(
                        Diagnostic(
                            .warning, at: SourceLocation(path: path, line: a.line),
                            "stadium alias '\(a.record.name)' names both '\(b.record.stadiumId)' (line \(b.line)) and "
                                + "'\(a.record.stadiumId)' on the same dates",
                            fix: "Give the aliases non-overlapping dates or source systems, or remove one"))
                }
            }
        }
    }

    static func overlaps(
        _ fromA: LocalDate?, _ untilA: LocalDate?, _ systemA: String?,
        _ fromB: LocalDate?, _ untilB: LocalDate?, _ systemB: String?
    ) -> Bool {
        if let systemA, let systemB, systemA != systemB { return false }
        if let untilA, let fromB, untilA < fromB { return false }
        if let untilB, let fromA, untilB < fromA { return false }
        return true
    }
}

/// The ids each file declares (nil when the file could not be read, so references to it are not checked).
private struct KnownIds {
    let sportIds: Set<String>?
    let sportList: String
    let stadiumIds: Set<String>?
    let structureIds: Set<String>?
    let teamIds: Set<String>?
    let structureById: [String: LeagueStructure]
    let teamSport: [String: String]

    init(sports: Parsed<Sport>, stadiums: Parsed<Stadium>, structures: Parsed<LeagueStructure>, teams: Parsed<Team>) {
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

/// The records of one file, every id it declares (also on rejected rows), and whether it could be read at all.
private struct Parsed<Record> {
    var items: [Lined<Record>] = []
    var declared: Set<String> = []
    var isUsable = false
}

/// A record with the line it was read from.
private struct Lined<Record> {
    let line: Int
    let record: Record
}

/// Reads typed fields of rows, collecting one diagnostic per problem.
private struct FieldReader {
    let path: String
    var problems: [Diagnostic] = []
    private var dirtyLines: Set<Int> = []

    init(path: String) { self.path = path }

    mutating func fail(_ row: ReferenceTable.Row, _ message: String, fix: String) {
        problems.append(Diagnostic(.error, at: SourceLocation(path: path, line: row.line), message, fix: fix))
        dirtyLines.insert(row.line)
    }

    func rowIsClean(_ row: ReferenceTable.Row) -> Bool { !dirtyLines.contains(row.line) }

    mutating func slug(_ row: ReferenceTable.Row, _ column: String, what: String) -> String {
        let id = row[column]
        if id.isEmpty {
            fail(row, "\(what): \(column) is empty", fix: "Give every \(what) a lowercase slug id")
        } else if ReferenceText.slug(id) != id {
            fail(
                row, "\(what) id '\(id)' is not a lowercase slug",
                fix: "Use lowercase letters, digits and single dashes, e.g. '\(Slug.make(id))'")
        }
        return id
    }

    mutating func required(_ row: ReferenceTable.Row, _ column: String, owner: String) -> String {
        let value = row[column]
        if value.isEmpty { fail(row, "\(owner): \(column) is empty", fix: "Give it a value") }
        return value
    }

    mutating func double(_ row: ReferenceTable.Row, _ column: String, owner: String) -> Double? {
        let text = row[column]
        guard let value = Double(text), value.isFinite else {
            fail(
                row, text.isEmpty ? "\(owner): \(column) is empty" : "\(owner): \(column) '\(text)' is not a number",
                fix: "Write decimal degrees, e.g. 42.346389")
            return nil
        }
        return value
    }

    mutating func int(_ row: ReferenceTable.Row, _ column: String, owner: String) -> Int? {
        let text = row[column]
        guard let value = Int(text) else {
            fail(row, "\(owner): \(column) '\(text)' is not a whole number", fix: "Write a whole number, e.g. 1")
            return nil
        }
        return value
    }

    /// Empty → `.some(nil)`; a whole number in `range` → its value; anything else → nil after a diagnostic.
    mutating func optionalInt(
        _ row: ReferenceTable.Row, _ column: String, owner: String,
        range: ClosedRange<Int>
    ) -> Int?? {
        let text = row[column]
        if text.isEmpty { return .some(nil) }
        guard let value = Int(text), range.contains(value) else {
            fail(
                row, "\(owner): \(column) '\(text)' is not a whole number in \(range.lowerBound)...\(range.upperBound)",
                fix: "Correct it, or leave it empty when unknown")
            return nil
        }
        return .some(value)
    }

    mutating func instant(_ row: ReferenceTable.Row, _ column: String, owner: String) -> Instant? {
        let text = row[column]
        guard let value = Instant(iso8601: text) else {
            fail(
                row, "\(owner): \(column) '\(text)' is not an ISO-8601 instant",
                fix: "Write it like 2026-06-12T00:00:00Z, and bump it whenever the row changes")
            return nil
        }
        return value
    }

    mutating func date(_ row: ReferenceTable.Row, _ column: String, owner: String) -> LocalDate? {
        let text = row[column]
        if text.isEmpty { return nil }
        guard let value = LocalDate(iso8601: text) else {
            fail(row, "\(owner): \(column) '\(text)' is not a date", fix: "Write it like 2024-12-31, or leave it empty")
            return nil
        }
        return value
    }

    mutating func validity(_ row: ReferenceTable.Row, owner: String) -> (LocalDate?, LocalDate?) {
        let from = date(row, "valid_from", owner: owner)
        let until = date(row, "valid_until", owner: owner)
        if let from, let until, until < from {
            fail(
                row, "\(owner): valid_from \(from) is after valid_until \(until)",
                fix: "Swap or correct the dates (both days are inclusive)")
        }
        return (from, until)
    }
}

/// Remembers the first line of each id and reports repeats.
private struct UniqueIds {
    let what: String
    private var firstLine: [String: Int] = [:]

    init(what: String) { self.what = what }

    mutating func check(_ id: String, row: ReferenceTable.Row, fields: inout FieldReader, same: String? = nil) {
        guard !id.isEmpty else { return }
        if let first = firstLine[id] {
            let detail = same.map { " (\($0))" } ?? ""
            fields.fail(
                row, "duplicate \(what) '\(id)': line \(first) has \(same == nil ? "the same id" : "it too")\(detail)",
                fix: "Keep one row, or change one of them")
        } else {
            firstLine[id] = row.line
        }
    }
}

extension String {
    fileprivate var nilIfEmpty: String? { isEmpty ? nil : self }
}
