import Foundation

/// One game as a source printed it: raw names kept, times parsed, provenance attached.
/// Written by ingest, read by normalize.
public struct RawGame: Codable, Sendable, Hashable, Identifiable {
    // Stored properties are declared widest first, so the struct packs tighter (every game of a source
    // is held at once, and copied whole when it is handed on).
    /// `<source>:<sourceGameId>` (or `<source>:<file>:<line>` when the source has no id).
    public var id: String
    /// The source id from `pipeline/sources.yaml`.
    public var source: String
    /// The sport/league id (`mlb`, `nfl`, a dynamic sport).
    public var sport: String
    /// `2023` or `2025-26`.
    public var season: String
    /// Team and venue strings exactly as the source wrote them (trimmed).
    public var homeTeam: String
    public var awayTeam: String
    /// Whose date `date` is: `UTC`, an IANA zone, or `venue`.
    public var dateZone: String
    /// `fixtures/scraped/<source>/<file>:<line>`.
    public var provenance: String
    /// The source's own id for the game, when it has one.
    public var sourceGameId: String?
    public var venue: String?
    public var city: String?
    /// Wall-clock time `HH:MM` as printed, when naive and the zone is the venue's.
    public var localTime: String?
    /// `day` or `night` when the source says so (Retrosheet's day/night flag) and gives no time.
    public var dayNight: String?
    /// Fields the source does not state, filled with a default by ingest (`kind` = regular, `status` =
    /// scheduled when the mapping has no such column), sorted; nil when every field is stated.
    public var inferred: [InferredField]?
    /// The start instant, when the source gives a zone or UTC (or one was declared for naive times).
    public var startUTC: Instant?
    /// The date as the source printed it (in `dateZone`).
    public var date: LocalDate
    public var makeupDate: LocalDate?
    public var gameNumber: Int?
    public var kind: GameKind
    public var status: GameStatus
    public var timeTBD: Bool
    /// The source says the game is at a neutral site; nil when the source does not say.
    public var neutralSite: Bool?
}

// The initializer lives in an extension so that the struct keeps its memberwise initializer, which the
// public one hands every member to at once (assigned one by one, the value was built in a temporary and
// copied: a retain of every string of every game).
extension RawGame {
    public init(
        id: String, source: String, sport: String, season: String, kind: GameKind, sourceGameId: String?,
        homeTeam: String, awayTeam: String, venue: String?, city: String?, startUTC: Instant?,
        date: LocalDate, dateZone: String, localTime: String?, timeTBD: Bool, gameNumber: Int?,
        status: GameStatus, makeupDate: LocalDate?, neutralSite: Bool?, provenance: String,
        dayNight: String? = nil, inferred: [InferredField]? = nil
    ) {
        self.init(
            id: id, source: source, sport: sport, season: season, homeTeam: homeTeam, awayTeam: awayTeam,
            dateZone: dateZone, provenance: provenance, sourceGameId: sourceGameId, venue: venue, city: city,
            localTime: localTime, dayNight: dayNight, inferred: inferred, startUTC: startUTC, date: date,
            makeupDate: makeupDate, gameNumber: gameNumber, kind: kind, status: status, timeTBD: timeTBD,
            neutralSite: neutralSite)
    }
}

/// A name that normalize could not resolve, with where it was seen and the closest known names.
public struct UnresolvedName: Codable, Sendable, Hashable, Identifiable {
    /// `<source>:<team|venue>:<value>`.
    public var id: String
    public var source: String
    public var sport: String
    /// `team` or `venue`.
    public var field: String
    public var value: String
    /// Up to 10 provenances (`file:line`) where it was seen, sorted.
    public var seenAt: [String]
    public var occurrences: Int
    public var suggestions: [String]
    public init(
        id: String, source: String, sport: String, field: String, value: String, seenAt: [String],
        occurrences: Int, suggestions: [String]
    ) {
        self.id = id; self.source = source; self.sport = sport; self.field = field; self.value = value
        self.seenAt = seenAt; self.occurrences = occurrences; self.suggestions = suggestions
    }
}
