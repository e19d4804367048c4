import Foundation
import SportsTimeCore

// The documented keys of `pipeline/sources.yaml` (docs/yaml-reference.md, the editor schema
// pipeline/schemas/sources.yaml.schema.json). A key added to a reader struct in SourcesFile.swift must be
// added to its CodingKeys here and documented in its table: the reference tests fail otherwise.

extension SourcesFile {
    enum CodingKeys: String, CodingKey, CaseIterable { case sources }

    /// The reference of `pipeline/sources.yaml`.
    public static let reference = YAMLFileReference(
        title: "pipeline/sources.yaml",
        files: ["pipeline/sources.yaml"],
        schemaFile: "sources.yaml.schema.json",
        readBy: "`sportstime-ingest` (Sources/SportsTimeIngest/Config/SourcesFile.swift, checked by SourceCatalog)",
        summary:
            "The scraped schedule sources: where each source's files are, their format, how their columns map to games, and how far merge trusts them.",
        root: .record(
            YAMLRecord(
                "sources-file", reader: SourcesFile.self, codingKeys: CodingKeys.self,
                summary: "The file's top level.",
                keys: [
                    .required(
                        "sources", .list(.record(SourceSpec.record)), "The sources, each read from its own folder `fixtures/scraped/<id>/`."
                    )
                ])))
}

extension SourceSpec {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case id, sport, season, system, scope, files, format, mapping, filters, scrapedAt, naiveTimeZone
        case rejectThreshold, priority, trust, placeholderTeams, placeholderStarts, placeholderVenues, expectedGames
        case allowShrink
    }

    static let record = YAMLRecord(
        "source", reader: SourceSpec.self, codingKeys: CodingKeys.self,
        summary: "One scraped source: one folder of files in one format, for one sport and season (or range of seasons).",
        keys: [
            .required(
                "id", .matching("^[a-z0-9][a-z0-9._-]*$", example: "mlb-2023-retrosheet"),
                "Slug, unique; also the folder under `fixtures/scraped/` and under `out/ingest/`."),
            .required("sport", .string, "Sport id (`mlb`, `nfl`, or a dynamic sport such as `ufl` from fixtures/reference/sports.yaml)."),
            .required(
                "season", .matching("^[0-9]{4}((-[0-9]{2})|(\\.\\.[0-9]{4}))?$", example: "2025-26"),
                "`\"2023\"`, `\"2025-26\"`, or a range `\"2022..2025\"` when rows carry their own season (quote it)."),
            .required("system", .string, "The source system (`retrosheet`, `nflverse`, `espn`, ...): names whose aliases apply."),
            .optional(
                "scope", .string, default: "`<sport>-<season>`",
                "The batch scope for soft deletes in merge: a newer batch of the same system and scope soft-deletes the games it no longer lists."
            ),
            .required("files", .list(.string), "Paths or globs under `fixtures/scraped/<id>/`."),
            .required(
                "format", .choice(SourceFormat.allCases.map(\.rawValue)),
                "A built-in format, or `csv-mapping` / `json-mapping` for any CSV or JSON file described by `mapping`."),
            .optional(
                "mapping", .record(MappingSpec.record), default: "the built-in format's preset",
                "Field mapping: required for the generic formats; for built-in formats it overrides the preset per field."),
            .optional(
                "filters", .list(.record(FilterSpec.record)), default: "every row kept",
                "Row filters: a row is kept when every filter passes."),
            .required(
                "scrapedAt", .instant,
                "When the files were scraped (declared, never a file time); becomes the records' `lastModified` downstream."),
            .required(
                "naiveTimeZone", .string,
                "IANA zone (`America/New_York`, `UTC`) of naive dates and times, or `venue` for the stadium's own zone (resolved by normalize)."
            ),
            .required(
                "rejectThreshold", .matching("^[0-9]+(\\.[0-9]+)?%?$", example: "0.5%"),
                "Fraction (`\"0.02\"`, `\"2%\"`) or count (`\"5\"`) of rejected rows above which the source fails (quote it)."),
            .required("priority", .integer(), "Higher is preferred when sources disagree about the same game."),
            .optional(
                "trust", .closedMap(FieldGroup.allCases.map(\.rawValue), .integer()), default: "0 for every group",
                "Per field group, how much merge trusts this source for it: a higher rank wins that part of a game before recency is asked (an official feed over an aggregator for start times)."
            ),
            .optional(
                "placeholderTeams", .list(.string), default: "TBD, TBA, TBC, To Be Determined, To Be Announced (none for Retrosheet)",
                "Team strings (case-insensitive) that mean \"not decided yet\" and make a row a reject; replaces the format's default list. `placeholderTeams: []` when such a string is a real value in this source. Blank teams always do."
            ),
            .optional(
                "placeholderStarts", .list(.string), default: "none",
                "Start or time texts (case-insensitive, as written in the mapped `start` or `time` column) that mean \"not set yet\": such a game keeps its date and its start is unknown, never exact (NFL week 18's one shared kickoff `2027-01-10T18:00:00.000Z`, MLB's `3:33 AM`). `TBD`, `TBA`, `TBC` times always mean it."
            ),
            .optional(
                "placeholderVenues", .list(.string), default: "TBA, TBC, TBD, To Be Announced, To Be Confirmed, To Be Determined",
                "Venue strings (case-insensitive) that mean \"not decided yet\": such a game has no venue; normalize plans it at the home team's home on its date and marks the stadium inferred, so it is shown as \"venue to be confirmed\". `placeholderVenues: []` for none."
            ),
            .optional(
                "expectedGames", .record(ExpectedGamesSpec.record), default: "no games pending",
                "The season's regular-season games per team when the files list fewer on purpose (games decided later, such as the NBA Cup's): merge reports the missing games per team as pending."
            ),
            .optional(
                "allowShrink", .record(AllowShrinkSpec.record), default: "merge fails rather than lose published games",
                "Declares that this source's batch may list fewer games than the store merge published last (a season cut short, a feed that dropped games on purpose), with the reason."
            ),
        ])
}

extension AllowShrinkSpec {
    enum CodingKeys: String, CodingKey, CaseIterable { case reason }

    static let record = YAMLRecord(
        "allow-shrink", reader: AllowShrinkSpec.self, codingKeys: CodingKeys.self,
        summary: "`allowShrink: {reason: ...}`: why a source's batch may hold fewer games than merge published before.",
        keys: [.required("reason", .string, "One sentence a reviewer can check (carried to merge in the batch meta as `allowShrink`).")])
}

extension ExpectedGamesSpec {
    enum CodingKeys: String, CodingKey, CaseIterable { case perTeam, reason }

    static let record = YAMLRecord(
        "expected-games", reader: ExpectedGamesSpec.self, codingKeys: CodingKeys.self,
        summary:
            "`expectedGames: {perTeam: 82, reason: ...}`: the season's regular-season games per team, when the files list fewer on purpose.",
        keys: [
            .required("perTeam", .integer(minimum: 1), "Regular-season games each team plays in the season."),
            .required("reason", .string, "Why the files list fewer (carried to merge in the batch meta as `expectedGames.reason`)."),
        ])
}

extension MappingSpec {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case records, javascriptExport, delimiter, header, skipLines, lookups, fields
    }

    static let record = YAMLRecord(
        "mapping", reader: MappingSpec.self, codingKeys: CodingKeys.self,
        summary:
            "How a generic source maps its rows to games (also the shape of every built-in preset, which a source's `mapping` overrides key by key).",
        keys: [
            .optional(
                "records", .string, default: "the root array",
                "JSON only: key path of the record list (`games`, `gameWeek[*].games`); absent or empty means the root array."),
            .optional(
                "javascriptExport", .string, default: "the file is JSON",
                "JSON only: the file is a JavaScript module and its records are the value of this export (`javascriptExport: GAMES` for `export const GAMES = [...]`), which must be plain JSON; the rest of the module is not read."
            ),
            .optional("delimiter", .string, default: "`,`", "CSV only: one-character field delimiter (`\\t` for tab)."),
            .optional(
                "header", .boolean, default: "`true`",
                "CSV only: whether the first row is a header. `header: false` for a file without one; its columns are then `column1`, `column2`, ..."
            ),
            .optional("skipLines", .integer(minimum: 0), default: "0", "CSV only: rows to skip before the header (a preamble)."),
            .optional(
                "lookups", .list(.record(LookupSpec.record)),
                "Other CSV files of the same source joined by a key, their columns named `<lookup>.<column>`."),
            .optional("fields", .record(FieldsSpec.record), "Field → value rule for each game field."),
        ])
}

extension LookupSpec {
    enum CodingKeys: String, CodingKey, CaseIterable { case name, file, key, match, optional }

    static let record = YAMLRecord(
        "lookup", reader: LookupSpec.self, codingKeys: CodingKeys.self,
        summary: "A CSV file joined to each row: `match` (a column of the row) equals `key` (a column of the lookup file).",
        keys: [
            .required("name", .string, "Prefix of its columns in the mapping: `<name>.<column>`."),
            .required("file", .string, "Path under the source's folder."),
            .required("key", .string, "Key column in the lookup file."),
            .required("match", .string, "Column of the main rows whose value is looked up."),
            .optional(
                "optional", .boolean, default: "`false`", "When true, a missing lookup file is not an error (its columns are then empty)."),
        ])
}

extension FieldsSpec {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case id, homeTeam, awayTeam, venue, city, start, date, time, timeTBD, season, kind, status, makeupDate
        case gameNumber, neutralSite, dayNight, homeScore, awayScore
    }

    static let record: YAMLRecord = {
        let value = YAMLValueType.either([.string, .record(ValueSpec.record)])
        func field(_ name: String, _ description: String, default defaultValue: String? = nil) -> YAMLKey {
            .optional(name, value, default: defaultValue, description + " A column name, or a value rule.")
        }
        return YAMLRecord(
            "fields", reader: FieldsSpec.self, codingKeys: CodingKeys.self,
            summary: "The game fields a mapping can fill, each a column name or a value rule.",
            keys: [
                field("id", "The source's own game id.", default: "an id derived from date, teams and game number"),
                field("homeTeam", "The home team as the source names it."),
                field("awayTeam", "The away team as the source names it."),
                field("venue", "The stadium as the source names it."),
                field("city", "The venue's city."),
                field("start", "A start instant (with a zone or offset), or a naive date-time read in the field's zone."),
                field("date", "A calendar date (in the field's `zone`, else the source's `naiveTimeZone`)."),
                field("time", "A wall-clock time combined with `date`."),
                field("timeTBD", "Whether the time is not decided (true/false)."),
                field("season", "The row's season (`2023`, `2025-26`, `20252026`).", default: "the source's season"),
                field("kind", "One of \(GameKind.allCases.map(\.rawValue).joined(separator: ", ")).", default: "regular"),
                field("status", "One of \(GameStatus.allCases.map(\.rawValue).joined(separator: ", ")).", default: "scheduled"),
                field("makeupDate", "The date a postponed game is made up."),
                field("gameNumber", "Doubleheader game number (0 or empty: a single game)."),
                field("neutralSite", "Whether the game is at a neutral site (true/false)."),
                field("dayNight", "`day` or `night` (a start known only as that)."),
                field(
                    "homeScore",
                    "The home side's final score (whole number), read only to check the status: a `final` game without scores, or 0–0 where a game cannot end 0–0, is a reject; so is a `scheduled` game with both scores."
                ),
                field("awayScore", "The away side's final score (whole number), read only to check the status like `homeScore`."),
            ])
    }()
}

extension ValueSpec {
    static let record = YAMLRecord(
        "value", reader: ValueSpec.self,
        decodedKeys: Mirror(reflecting: ValueSpec()).children.compactMap(\.label),
        summary: "How one field gets its value from a row, when a column name alone is not enough.",
        keys: [
            .optional(
                "from", .either([.string, .list(.string)]),
                "A column (CSV header name, JSON key path, `<lookup>.<column>`), or a list: the first non-empty wins."),
            .optional("constant", .string, "A fixed value instead of `from`."),
            .optional("match", .string, "A regular expression; its first capture group (else the whole match) is the value."),
            .optional("ifPresent", .string, "Replaces a non-empty value."),
            .optional("ifEmpty", .string, "Replaces an empty value."),
            .optional("values", .map(.string), "A value map (exact, then case-insensitive)."),
            .optional("default", .string, "The value for values the `values` map lacks, or for empty values."),
            .optional(
                "layout", .either([.string, .list(.string)]),
                "Date/time layouts tried in order (`yyyy-MM-dd`, `M/d/yyyy`, `EEE MMM d yyyy`, `h:mma`, `iso8601`, `epoch`, `epochMillis`)."
            ),
            .optional(
                "zone", .string, default: "the source's `naiveTimeZone`",
                "IANA zone, `UTC` or `venue` for this field's naive dates and times."),
            .optional("optional", .boolean, default: "`false`", "The column may be missing from a file's header."),
            .optional(
                "expr", .string,
                "An expression computed from the row, instead of `from`: columns (`week`, `lookup.column`, `` `Game Day` ``), quoted texts, numbers, `+ -`, comparisons `== != < <= > >=`, `in [..]`, `and or not`, and the functions `month day year weekday hour` (of a date/time column, optional layout: `month(gameday, 'M/d/yyyy')`; `weekday` is 1 = Monday … 7 = Sunday), `lower upper trim empty contains if`."
            ),
            .optional(
                "cases", .list(.record(CaseSpec.record)),
                "Conditions tried in order, instead of `from`: the first whose `when` holds gives the value; none: `default`."),
        ])
}

extension CaseSpec {
    enum CodingKeys: String, CodingKey, CaseIterable { case when, value }

    static let record = YAMLRecord(
        "case", reader: CaseSpec.self, codingKeys: CodingKeys.self,
        summary: "One condition of a derived field and the value it gives.",
        keys: [
            .required("when", .string, "A condition in the `expr` language (`week <= 5 and month(gameday) in [1, 2]`)."),
            .required("value", .string, "The field's value when the condition holds (then mapped through `values` like a column's)."),
        ])
}

extension FilterSpec {
    enum CodingKeys: String, CodingKey, CaseIterable { case column, equals, notEquals, `in`, notIn, range, matches, empty }

    static let record = YAMLRecord(
        "filter", reader: FilterSpec.self, codingKeys: CodingKeys.self,
        summary: "A row filter on one column; exactly one operator is given.",
        keys: [
            .required("column", .string, "The column tested (as in `mapping.fields`)."),
            .optional("equals", .string, "The value must equal this."),
            .optional("notEquals", .string, "The value must not equal this."),
            .optional("in", .list(.string), "The value must be one of these."),
            .optional("notIn", .list(.string), "The value must be none of these."),
            .optional("range", .record(RangeSpec.record), "Inclusive bounds, numeric when both sides are numbers, else compared as text."),
            .optional("matches", .string, "A regular expression the value must contain a match of."),
            .optional("empty", .boolean, "`true`: the value must be empty; `false`: it must not be."),
        ])
}

extension RangeSpec {
    enum CodingKeys: String, CodingKey, CaseIterable { case from, to }

    static let record = YAMLRecord(
        "range", reader: RangeSpec.self, codingKeys: CodingKeys.self,
        summary: "Inclusive bounds; either may be absent.",
        keys: [
            .optional("from", .string, default: "no lower bound", "The lowest value kept."),
            .optional("to", .string, default: "no upper bound", "The highest value kept."),
        ])
}
