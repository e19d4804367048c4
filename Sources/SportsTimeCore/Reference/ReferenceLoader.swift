import Foundation

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
///
/// One file per kind reads it and checks what it refers to (`ReferenceSports.swift`, `ReferenceStadiums.swift`,
/// `ReferenceTeams.swift`, `ReferenceLeagueStructures.swift`, `ReferenceTeamAliases.swift`,
/// `ReferenceStadiumAliases.swift`, `ReferenceTeamHomes.swift`), the CSV files over one row-reading helper
/// (`ReferenceRows`); `ReferenceParser` runs them in order and checks references across files.
public enum ReferenceLoader {
    /// The files of a reference directory, in the order they are read. All are required except
    /// `team-homes.csv`.
    public static let fileNames = [
        "sports.yaml", "stadiums.csv", "teams.csv", "league-structures.csv",
        "team-aliases.csv", "stadium-aliases.csv", "team-homes.csv",
    ]

    /// The `source` of every record loaded from reference data.
    public static let recordSource = "reference"

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
            let kind: InputLimits.Kind = name.hasSuffix(".yaml") ? .yaml : .reference
            if let data = try InputFiles.readIfPresent(url, path: displayPath + "/" + name, kind: kind) { contents[name] = data }
        }
        return try parse(files: contents, displayPath: displayPath, diagnostics: &diagnostics)
    }

    /// Checks reference files given as bytes keyed by file name (a missing key is a missing file).
    public static func parse(
        files: [String: Data], displayPath: String,
        diagnostics: inout Diagnostics
    ) throws -> ReferenceData {
        var parser = ReferenceParser(displayPath: displayPath)
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
        Slug.make(joining: [teamId, kind.rawValue, sourceSystem ?? "", value, validFrom?.iso8601 ?? ""])
    }

    /// The id of a stadium alias: the slug of `stadium_id-source_system-name-valid_from`.
    public static func stadiumAliasId(
        stadiumId: String, sourceSystem: String?, name: String,
        validFrom: LocalDate?
    ) -> String {
        Slug.make(joining: [stadiumId, sourceSystem ?? "", name, validFrom?.iso8601 ?? ""])
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
