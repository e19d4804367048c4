import Foundation
import SportsTimeCore

/// The formats a source can declare.
public enum SourceFormat: String, CaseIterable, Sendable {
    case retrosheet
    case nbaScheduleCSV = "nba-schedule-csv"
    case nbaScheduleJSON = "nba-schedule-json"
    case nhlScheduleCSV = "nhl-schedule-csv"
    case bbrefCSV = "bbref-csv"
    case nflverseCSV = "nflverse-csv"
    case spreadspokeCSV = "spreadspoke-csv"
    case espnCSV = "espn-csv"
    case ical
    case csvMapping = "csv-mapping"
    case jsonMapping = "json-mapping"

    /// How files of this format become rows.
    var tableKind: TableKind {
        switch self {
        case .retrosheet: return .retrosheet
        case .ical: return .ical
        case .bbrefCSV: return .bbref
        case .nbaScheduleJSON, .jsonMapping: return .json
        case .nbaScheduleCSV, .nhlScheduleCSV, .nflverseCSV, .spreadspokeCSV, .espnCSV, .csvMapping: return .csv
        }
    }

    /// Team strings that mean "not decided yet" unless a source lists its own.
    var defaultPlaceholderTeams: [String] {
        self == .retrosheet ? [] : ["TBD", "TBA", "TBC", "To Be Determined", "To Be Announced"]
    }

    /// Venue strings that mean "not decided yet" unless a source lists its own.
    static let defaultPlaceholderVenues = ["TBA", "TBC", "TBD", "To Be Announced", "To Be Confirmed", "To Be Determined"]

    /// Whether the mapping must come from the source (no preset).
    var isGeneric: Bool { self == .csvMapping || self == .jsonMapping }
}

/// The zone naive dates and times are read in.
public enum NaiveZone: Hashable, Sendable, CustomStringConvertible {
    /// The stadium's own zone, resolved later by normalize.
    case venue
    /// A fixed IANA zone (or `UTC`).
    case zone(String)

    public init?(_ text: String) {
        let t = text.trimmed
        if t == "venue" { self = .venue; return }
        guard ZonedTime.isValidZone(t) else { return nil }
        self = .zone(t)
    }

    /// What `RawGame.dateZone` says for dates in this zone.
    public var description: String {
        switch self {
        case .venue: return "venue"
        case .zone(let id): return id
        }
    }

    var timeZone: TimeZone? {
        if case .zone(let id) = self { return ZonedTime.zone(id) }
        return nil
    }
}

/// One source, checked: everything a reader needs, with the effective mapping (preset + overrides).
public struct SourceConfig: Sendable {
    public var id: String
    public var sport: String
    public var seasons: SeasonRange
    public var system: String
    public var scope: String
    public var files: [String]
    public var format: SourceFormat
    public var mapping: MappingSpec
    public var filters: [FilterSpec]
    public var scrapedAt: Instant
    public var naiveTimeZone: NaiveZone
    public var rejectThreshold: RejectThreshold
    public var priority: Int
    /// Per field group, how much merge trusts this source for it (`trust:` in sources.yaml).
    public var trust: [FieldGroup: Int]
    /// Team strings that mean "not decided yet" (besides blank ones): the source's `placeholderTeams`,
    /// else the format's default (`TBD`, `TBA`, `TBC`, `To Be Determined`, `To Be Announced`; none for
    /// Retrosheet, where `TBA` is the Tampa Bay Rays).
    public var placeholderTeams: [String]
    /// Where the source is declared (for messages).
    public var location: SourceLocation
    /// Where each expression of the mapping starts in the spec (`fields.kind.cases[0].when` →
    /// `pipeline/sources.yaml:40:18`), for messages about a column a file lacks.
    public var expressionStarts: [String: SourceLocation] = [:]
    /// The declared reason this source's batch may hold fewer games than merge published (`allowShrink`).
    public var allowShrinkReason: String?
    /// Start or time texts that mean "not set yet" (`placeholderStarts`), lower-cased.
    public var placeholderStarts: Set<String> = []
    /// Venue texts that mean "not decided yet" (`placeholderVenues`, else the default list), lower-cased.
    public var placeholderVenues: Set<String> = Set(SourceFormat.defaultPlaceholderVenues.map { $0.lowercased() })
    /// The season's regular-season games per team and why the files list fewer (`expectedGames`).
    public var expectedGames: (perTeam: Int, reason: String)?

    /// The folder of the source's files, relative to the scraped root.
    public var folder: String { id }

    /// Envelope meta for `out/ingest/<source>/games.json`.
    public var meta: [MetaKey: String] {
        var meta: [MetaKey: String] = [
            .source: id, .system: system, .sport: sport, .season: seasons.description, .scope: scope,
            .scrapedAt: scrapedAt.iso8601, .priority: String(priority),
        ]
        for (group, rank) in trust { meta[.trust(group)] = String(rank) }
        if let allowShrinkReason { meta[.allowShrink] = allowShrinkReason }
        meta[.rejectThreshold] = rejectThreshold.metaValue
        if let expectedGames {
            meta[.expectedGamesPerTeam] = String(expectedGames.perTeam)
            meta[.expectedGamesReason] = expectedGames.reason
        }
        return meta
    }

    /// The data files among `listing` (paths relative to the source folder) matched by `files`, sorted.
    /// Throws when a pattern matches nothing.
    public func dataFiles(in listing: [String]) throws -> [String] {
        var matched = Set<String>()
        var problems: [Diagnostic] = []
        for pattern in files {
            let hits = listing.filter { Glob.matches(pattern, $0) }
            if hits.isEmpty {
                problems.append(
                    Diagnostic(
                        .error, at: location,
                        "source '\(id)': no file matches '\(pattern)' in its folder '\(folder)/'",
                        fix: "Copy the file there or fix the pattern"))
            }
            matched.formUnion(hits)
        }
        if !problems.isEmpty { throw PipelineError.invalidInputs(problems) }
        return matched.sorted()
    }

    /// The lookup files the mapping joins (relative to the source folder), with whether each may be missing.
    public var lookupFiles: [(file: String, optional: Bool)] {
        (mapping.lookups ?? []).map { ($0.file, $0.optional ?? false) }
    }
}
