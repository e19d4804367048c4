import Foundation
import SportsTimeCore

/// `pipeline/sources.yaml` as written: a list of sources. Decoded strictly (unknown keys are errors)
/// and then checked by `SourceCatalog.load`, which turns each entry into a `SourceConfig`.
public struct SourcesFile: Decodable, Sendable {
    public var sources: [SourceSpec]
}

/// One source as written in YAML. Property names are the YAML keys.
public struct SourceSpec: Decodable, Sendable {
    /// Slug, unique; also the folder under `fixtures/scraped/` and under `out/ingest/`.
    public var id: String
    /// Sport id (`mlb`, `nfl`, or a dynamic sport such as `ufl`).
    public var sport: String
    /// `2023`, `2025-26`, or a range `2022..2025` when rows carry their own season.
    public var season: String
    /// The source system (`retrosheet`, `nflverse`, `espn`, ...): names whose aliases apply.
    public var system: String
    /// The batch scope for soft deletes in merge; default `<sport>-<season>`.
    public var scope: String?
    /// Paths or globs under `fixtures/scraped/<id>/`.
    public var files: [String]
    /// A built-in format or `csv-mapping` / `json-mapping`.
    public var format: String
    /// Field mapping: required for the generic formats; for built-in formats it overrides the preset per field.
    public var mapping: MappingSpec?
    /// Row filters: a row is kept when every filter passes.
    public var filters: [FilterSpec]?
    /// When the files were scraped (ISO instant); becomes the records' `lastModified` downstream.
    public var scrapedAt: String
    /// IANA zone of naive dates and times, or `venue` for the stadium's own zone (resolved by normalize).
    public var naiveTimeZone: String
    /// Fraction (`0.02`, `2%`) or count (`5`) of rejected rows above which the source fails.
    public var rejectThreshold: String
    /// Higher is preferred when sources disagree about the same game.
    public var priority: Int
    /// Per field group (`date`, `start`, `venue`, `status`, `kind`), how much merge trusts this source
    /// for it: a higher rank wins that part of a game before recency is asked (an official feed over an
    /// aggregator for start times). Missing groups rank 0.
    public var trust: [String: Int]?
    /// Team strings (case-insensitive) that mean "not decided yet"; replaces the format's default list
    /// (TBD, TBA, TBC, To Be Determined, To Be Announced; none for Retrosheet). Blank teams always do.
    public var placeholderTeams: [String]?
    /// Start or time texts (case-insensitive, as written in the mapped column) that mean "not set yet": such
    /// a game keeps its date and has no start (NFL week 18's shared kickoff, MLB's 3:33 AM "TBD").
    public var placeholderStarts: [String]?
    /// Venue texts (case-insensitive) that mean "not decided yet": such a game has no venue; normalize
    /// plans it at the home team's home and marks the stadium as inferred. Default TBA, TBC, TBD, To Be
    /// Announced, To Be Confirmed, To Be Determined.
    public var placeholderVenues: [String]?
    /// How many regular-season games each team plays in the season (`expectedGames: {perTeam: 82, reason:
    /// ...}`), when the file lists fewer on purpose (games decided later): merge reports the difference
    /// per team as pending games.
    public var expectedGames: ExpectedGamesSpec?
    /// Declares that this source's batch may list fewer games than the store merge published last (a
    /// season cut short, a feed that dropped games on purpose), with the reason. Without it merge fails
    /// rather than lose published games silently.
    public var allowShrink: AllowShrinkSpec?
}

/// `allowShrink: {reason: ...}`: why a source's batch may hold fewer games than merge published before.
public struct AllowShrinkSpec: Decodable, Sendable {
    /// One sentence a reviewer can check (carried to merge in the batch meta as `allowShrink`).
    public var reason: String
}

/// `expectedGames: {perTeam: 82, reason: ...}`: the season's regular-season games per team, when the source
/// lists fewer on purpose; merge names the missing ones per team as pending.
public struct ExpectedGamesSpec: Decodable, Sendable {
    /// Regular-season games of each team in the season.
    public var perTeam: Int
    /// Why the file lists fewer (carried to merge in the batch meta).
    public var reason: String
}

/// How a generic source maps its rows to games (also the shape of every built-in preset).
public struct MappingSpec: Decodable, Sendable {
    /// JSON: key path of the record list (`games`, `gameWeek[*].games`); absent or empty = the root array.
    public var records: String?
    /// JSON: the file is a JavaScript module and the records are the JSON value of this export
    /// (`export const GAMES = [...]`); the rest of the file is ignored.
    public var javascriptExport: String?
    /// CSV: one-character field delimiter (default `,`; `\t` for tab).
    public var delimiter: String?
    /// CSV: whether the first row is a header (default true). Without one, columns are `column1`...
    public var header: Bool?
    /// CSV: rows to skip before the header (a preamble).
    public var skipLines: Int?
    /// Other CSV files of the same source joined by a key, their columns named `<lookup>.<column>`.
    public var lookups: [LookupSpec]?
    /// Field → value rule.
    public var fields: FieldsSpec?

    /// `self` with every key that `override` sets replaced (fields one by one).
    func overlaid(by override: MappingSpec?) -> MappingSpec {
        guard let override else { return self }
        var result = self
        if let v = override.records { result.records = v }
        if let v = override.javascriptExport { result.javascriptExport = v }
        if let v = override.delimiter { result.delimiter = v }
        if let v = override.header { result.header = v }
        if let v = override.skipLines { result.skipLines = v }
        if let v = override.lookups { result.lookups = v }
        if let v = override.fields { result.fields = (result.fields ?? FieldsSpec()).overlaid(by: v) }
        return result
    }
}

/// A CSV file joined to each row: `match` (a column of the row) equals `key` (a column of the lookup file).
public struct LookupSpec: Decodable, Sendable {
    /// Prefix of its columns in the mapping: `<name>.<column>`.
    public var name: String
    /// Path under the source's folder.
    public var file: String
    /// Key column in the lookup file.
    public var key: String
    /// Column of the main rows whose value is looked up.
    public var match: String
    /// When true, a missing lookup file is not an error (its columns are then empty).
    public var optional: Bool?
}

/// The game fields a mapping can fill. Each is a `ValueSpec`.
public struct FieldsSpec: Decodable, Sendable {
    /// The source's own game id (absent or empty: an id is derived from date, teams and game number).
    public var id: ValueSpec?
    public var homeTeam: ValueSpec?
    public var awayTeam: ValueSpec?
    public var venue: ValueSpec?
    public var city: ValueSpec?
    /// A start instant (with a zone or offset), or a naive date-time read in the field's zone.
    public var start: ValueSpec?
    /// A calendar date (in the field's `zone`, else the source's `naiveTimeZone`).
    public var date: ValueSpec?
    /// A wall-clock time combined with `date`.
    public var time: ValueSpec?
    /// Whether the time is not decided (true/false).
    public var timeTBD: ValueSpec?
    /// The row's season (`2023`, `2025-26`, `20252026`); default: the source's season.
    public var season: ValueSpec?
    /// preseason, regular, postseason, exhibition (default regular).
    public var kind: ValueSpec?
    /// scheduled, postponed, cancelled, final (default scheduled).
    public var status: ValueSpec?
    public var makeupDate: ValueSpec?
    /// Doubleheader game number (0 or empty: a single game).
    public var gameNumber: ValueSpec?
    /// true/false.
    public var neutralSite: ValueSpec?
    /// day or night.
    public var dayNight: ValueSpec?
    /// The final score of each side (whole numbers), read only to check the status against them: a
    /// `final` game without scores, or with 0–0 in a sport where a game cannot end 0–0, is a reject; a
    /// `scheduled` game with both scores is a reject too.
    public var homeScore: ValueSpec?
    public var awayScore: ValueSpec?

    public init() {}

    func overlaid(by o: FieldsSpec) -> FieldsSpec {
        var r = self
        r.id = o.id ?? id; r.homeTeam = o.homeTeam ?? homeTeam; r.awayTeam = o.awayTeam ?? awayTeam
        r.venue = o.venue ?? venue; r.city = o.city ?? city; r.start = o.start ?? start; r.date = o.date ?? date
        r.time = o.time ?? time; r.timeTBD = o.timeTBD ?? timeTBD; r.season = o.season ?? season
        r.kind = o.kind ?? kind; r.status = o.status ?? status; r.makeupDate = o.makeupDate ?? makeupDate
        r.gameNumber = o.gameNumber ?? gameNumber; r.neutralSite = o.neutralSite ?? neutralSite
        r.dayNight = o.dayNight ?? dayNight
        r.homeScore = o.homeScore ?? homeScore; r.awayScore = o.awayScore ?? awayScore
        return r
    }

    /// The fields in a fixed order, with their names (for checks and messages).
    var all: [(name: String, spec: ValueSpec?)] {
        [
            ("id", id), ("homeTeam", homeTeam), ("awayTeam", awayTeam), ("venue", venue), ("city", city),
            ("start", start), ("date", date), ("time", time), ("timeTBD", timeTBD), ("season", season),
            ("kind", kind), ("status", status), ("makeupDate", makeupDate), ("gameNumber", gameNumber),
            ("neutralSite", neutralSite), ("dayNight", dayNight), ("homeScore", homeScore), ("awayScore", awayScore),
        ]
    }
}

/// How one field gets its value from a row. In YAML either a column name (`home_team`) or a mapping:
///
/// - `from`: a column (CSV header name, JSON key path, `<lookup>.<column>`), or a list: first non-empty wins
/// - `constant`: a fixed value instead of `from`
/// - `match`: a regular expression; its first capture group (else the whole match) is the value
/// - `ifPresent` / `ifEmpty`: replace a non-empty / empty value
/// - `values`: a value map (exact, then case-insensitive); `default` for values the map lacks or empty values
/// - `layout`: date/time layouts tried in order (`yyyy-MM-dd`, `M/d/yyyy`, `EEE MMM d yyyy`, `h:mma`,
///   `iso8601`, `epoch`, `epochMillis`)
/// - `zone`: IANA zone, `UTC` or `venue` for this field's naive dates and times
/// - `optional`: the column may be missing from a file's header
/// - `expr`: a value computed from several columns (`MappingExpression`), instead of `from`
/// - `cases`: conditions tried in order, the first that holds gives the value (else `default`), instead of `from`
public struct ValueSpec: Decodable, Sendable {
    /// A column (CSV header name, JSON key path, `<lookup>.<column>`), or a list: the first non-empty wins.
    public var from: ColumnList?
    /// A fixed value instead of `from`.
    public var constant: String?
    /// A regular expression; its first capture group (else the whole match) is the value.
    public var match: String?
    /// Replaces a non-empty value.
    public var ifPresent: String?
    /// Replaces an empty value.
    public var ifEmpty: String?
    /// A value map (exact, then case-insensitive).
    public var values: [String: String]?
    /// The value when the map lacks a value, the value is empty, or no case holds.
    public var `default`: String?
    /// Date/time layouts tried in order (`yyyy-MM-dd`, `M/d/yyyy`, `h:mma`, `iso8601`, `epoch`, ...).
    public var layout: ColumnList?
    /// IANA zone, `UTC` or `venue` for this field's naive dates and times.
    public var zone: String?
    /// The column may be missing from a file's header.
    public var optional: Bool?
    /// An expression whose result is the value, instead of `from`: columns, quoted texts, numbers,
    /// `== != < <= > >= + -`, `and or not`, `in [..]`, parentheses and the functions `month() day()
    /// year() weekday() hour() lower() upper() trim() empty() contains() if()`
    /// (`if(doubleheader == 'S', 2, 1)`; see `MappingExpression`).
    public var expr: String?
    /// Conditions tried in order, instead of `from`: the `value` of the first whose `when` holds is
    /// the field's value; when none holds, `default` (or no value).
    public var cases: [CaseSpec]?

    public init(from: [String]? = nil, constant: String? = nil) {
        self.from = from.map(ColumnList.init)
        self.constant = constant
    }

    private enum Keys: String, CodingKey {
        case from, constant, match, ifPresent, ifEmpty, values, `default`, layout, zone, optional, expr, cases
    }

    public init(from decoder: Decoder) throws {
        if let single = try? decoder.singleValueContainer(), let name = try? single.decode(String.self) {
            self.from = ColumnList([name])
            return
        }
        let c = try decoder.container(keyedBy: Keys.self)
        from = try c.decodeIfPresent(ColumnList.self, forKey: .from)
        constant = try c.decodeIfPresent(String.self, forKey: .constant)
        match = try c.decodeIfPresent(String.self, forKey: .match)
        ifPresent = try c.decodeIfPresent(String.self, forKey: .ifPresent)
        ifEmpty = try c.decodeIfPresent(String.self, forKey: .ifEmpty)
        values = try c.decodeIfPresent([String: String].self, forKey: .values)
        self.default = try c.decodeIfPresent(String.self, forKey: .default)
        layout = try c.decodeIfPresent(ColumnList.self, forKey: .layout)
        zone = try c.decodeIfPresent(String.self, forKey: .zone)
        optional = try c.decodeIfPresent(Bool.self, forKey: .optional)
        expr = try c.decodeIfPresent(String.self, forKey: .expr)
        cases = try c.decodeIfPresent([CaseSpec].self, forKey: .cases)
    }

    /// The columns the field's expressions read (JSON sources read exactly the columns a mapping names).
    var expressionColumns: [String] {
        let texts = [expr].compactMap { $0 } + (cases ?? []).map(\.when)
        return texts.flatMap { (try? MappingExpression.parse($0))?.columns.map(\.name) ?? [] }
    }

    /// How many of `from`, `constant`, `expr`, `cases` are given (a field needs exactly one).
    var valueSourceCount: Int {
        [from != nil, constant != nil, expr != nil, cases != nil].filter { $0 }.count
    }
}

/// One case of a derived field: `{when: "week <= 5 and month(gameday) in [1, 2]", value: postseason}`.
public struct CaseSpec: Decodable, Sendable {
    /// A condition over the row's columns (see `MappingExpression`).
    public var when: String
    /// The field's value when the condition holds.
    public var value: String
}

/// One string or a list of strings.
public struct ColumnList: Decodable, Sendable, Hashable {
    public var names: [String]
    public init(_ names: [String]) { self.names = names }
    public init(from decoder: Decoder) throws {
        let c = try decoder.singleValueContainer()
        if let one = try? c.decode(String.self) { names = [one] } else { names = try c.decode([String].self) }
    }
}

/// A row filter on one column. Exactly one operator is given.
public struct FilterSpec: Decodable, Sendable {
    public var column: String
    public var equals: String?
    public var notEquals: String?
    public var `in`: [String]?
    public var notIn: [String]?
    /// Inclusive bounds, numeric when both sides are numbers, else compared as text.
    public var range: RangeSpec?
    /// A regular expression the value must contain a match of.
    public var matches: String?
    /// true: the value must be empty; false: it must not be.
    public var empty: Bool?
}

extension FilterSpec {
    /// The filter's test as written, for `filtered.jsonl` and the preview: `in [a, b]`, `range 2022..2025`.
    var conditionText: String {
        func quoted(_ list: [String]) -> String { "[" + list.map { "'\($0)'" }.joined(separator: ", ") + "]" }
        if let v = equals { return "equals '\(v)'" }
        if let v = notEquals { return "notEquals '\(v)'" }
        if let v = self.in { return "in \(quoted(v))" }
        if let v = notIn { return "notIn \(quoted(v))" }
        if let r = range { return "range \(r.from ?? "")..\(r.to ?? "")" }
        if let p = matches { return "matches '\(p)'" }
        return "empty \(empty ?? true)"
    }
}

/// Inclusive bounds; either may be absent.
public struct RangeSpec: Decodable, Sendable {
    public var from: String?
    public var to: String?
}
