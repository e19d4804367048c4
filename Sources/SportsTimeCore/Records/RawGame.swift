import Foundation

/// One game as a source printed it: raw names kept, times parsed, provenance attached.
/// Written by ingest, read by normalize.
public struct RawGame: Codable, Sendable, Hashable, Identifiable {
    /// `<source>:<sourceGameId>` (or `<source>:<file>:<line>` when the source has no id).
    public var id: String
    /// The source id from `pipeline/sources.yaml`.
    public var source: String
    /// The sport/league id (`mlb`, `nfl`, a dynamic sport).
    public var sport: String
    /// `2023` or `2025-26`.
    public var season: String
    public var kind: GameKind
    /// The source's own id for the game, when it has one.
    public var sourceGameId: String?
    /// Team and venue strings exactly as the source wrote them (trimmed).
    public var homeTeam: String
    public var awayTeam: String
    public var venue: String?
    public var city: String?
    /// The start instant, when the source gives a zone or UTC (or one was declared for naive times).
    public var startUTC: Instant?
    /// The date as the source printed it (with `dateZone` saying whose date: `UTC`, an IANA zone, or `venue`).
    public var date: LocalDate
    public var dateZone: String
    /// Wall-clock time `HH:MM` as printed, when naive and the zone is the venue's.
    public var localTime: String?
    public var timeTBD: Bool
    public var gameNumber: Int?
    public var status: GameStatus
    public var makeupDate: LocalDate?
    /// The source says the game is at a neutral site; nil when the source does not say.
    public var neutralSite: Bool?
    /// `fixtures/scraped/<source>/<file>:<line>`.
    public var provenance: String
    /// `day` or `night` when the source says so (Retrosheet's day/night flag) and gives no time.
    public var dayNight: String?
    /// Fields the source does not state, filled with a default by ingest (`kind` = regular, `status` =
    /// scheduled when the mapping has no such column), sorted; nil when every field is stated.
    public var inferred: [String]?

    public init(
        id: String, source: String, sport: String, season: String, kind: GameKind, sourceGameId: String?,
        homeTeam: String, awayTeam: String, venue: String?, city: String?, startUTC: Instant?,
        date: LocalDate, dateZone: String, localTime: String?, timeTBD: Bool, gameNumber: Int?,
        status: GameStatus, makeupDate: LocalDate?, neutralSite: Bool?, provenance: String,
        dayNight: String? = nil, inferred: [String]? = nil
    ) {
        self.id = id; self.source = source; self.sport = sport; self.season = season; self.kind = kind
        self.sourceGameId = sourceGameId; self.homeTeam = homeTeam; self.awayTeam = awayTeam; self.venue = venue
        self.city = city; self.startUTC = startUTC; self.date = date; self.dateZone = dateZone
        self.localTime = localTime; self.timeTBD = timeTBD; self.gameNumber = gameNumber; self.status = status
        self.makeupDate = makeupDate; self.neutralSite = neutralSite; self.provenance = provenance
        self.dayNight = dayNight; self.inferred = inferred
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
