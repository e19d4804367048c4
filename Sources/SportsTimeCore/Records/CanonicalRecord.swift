import Foundation

/// What every canonical record carries: a stable slug id, when it last changed, its schema version,
/// and where it came from (a source id, `reference`, or `override`).
public protocol CanonicalRecord: Codable, Sendable, Hashable, Identifiable where ID == String {
    var id: String { get }
    var lastModified: Instant { get set }
    var schemaVersion: Int { get set }
    var source: String { get set }
    /// The artifact kind an envelope of these records has.
    static var artifactKind: ArtifactKind { get }
}

/// The seven sports built into every build; more are defined in data.
public enum BuiltInSport: String, CaseIterable, Sendable {
    case mlb, nba, nhl, nfl, mls, wnba, nwsl

    /// The built-in definition. `lastModified` is the date these definitions were last revised,
    /// so a dynamic record with the same id and a newer date can still win a merge.
    public var sport: Sport {
        let (name, icon, color, start, end): (String, String, String, Int, Int) = switch self {
        case .mlb: ("Major League Baseball", "baseball", "#041E42", 3, 10)
        case .nba: ("National Basketball Association", "basketball", "#C9082A", 10, 6)
        case .nhl: ("National Hockey League", "hockey-puck", "#000000", 10, 6)
        case .nfl: ("National Football League", "football", "#013369", 9, 2)
        case .mls: ("Major League Soccer", "soccer-ball", "#001F5B", 2, 12)
        case .wnba: ("Women's National Basketball Association", "basketball", "#FA4D00", 5, 10)
        case .nwsl: ("National Women's Soccer League", "soccer-ball", "#00263A", 3, 11)
        }
        return Sport(id: rawValue, abbreviation: rawValue.uppercased(), displayName: name, iconName: icon,
                     colorHex: color, seasonStartMonth: start, seasonEndMonth: end, isActive: true, isBuiltIn: true,
                     lastModified: Self.definitionsRevised, source: "built-in")
    }

    /// When the built-in definitions last changed.
    public static let definitionsRevised = Instant(utc: LocalDate(year: 2026, month: 1, day: 1)!)
}

/// A sport: built in or dynamic (defined in data, e.g. `xfl`).
public struct Sport: CanonicalRecord {
    public static let artifactKind = ArtifactKind.sports
    public var id: String
    public var abbreviation: String
    public var displayName: String
    public var iconName: String
    /// `#RRGGBB` after normalization (inputs may use `#RGB`, `RRGGBB`, `#RRGGBBAA`).
    public var colorHex: String
    /// 1...12; a season may wrap the year end (NBA 10 → 6).
    public var seasonStartMonth: Int
    public var seasonEndMonth: Int
    public var isActive: Bool
    public var isBuiltIn: Bool
    public var lastModified: Instant
    public var schemaVersion: Int
    public var source: String

    public init(id: String, abbreviation: String, displayName: String, iconName: String, colorHex: String,
                seasonStartMonth: Int, seasonEndMonth: Int, isActive: Bool, isBuiltIn: Bool,
                lastModified: Instant, schemaVersion: Int = 1, source: String) {
        self.id = id; self.abbreviation = abbreviation; self.displayName = displayName; self.iconName = iconName
        self.colorHex = colorHex; self.seasonStartMonth = seasonStartMonth; self.seasonEndMonth = seasonEndMonth
        self.isActive = isActive; self.isBuiltIn = isBuiltIn; self.lastModified = lastModified
        self.schemaVersion = schemaVersion; self.source = source
    }

    /// Whether `month` (1...12) falls in the season, honouring wrap-around.
    public func isInSeason(month: Int) -> Bool {
        seasonStartMonth <= seasonEndMonth
            ? (seasonStartMonth...seasonEndMonth).contains(month)
            : month >= seasonStartMonth || month <= seasonEndMonth
    }
}

/// A venue. Sport-agnostic: one arena may host several sports.
public struct Stadium: CanonicalRecord {
    public static let artifactKind = ArtifactKind.stadiums
    public var id: String
    public var name: String
    public var city: String
    public var region: String
    public var country: String
    public var latitude: Double
    public var longitude: Double
    /// IANA zone, e.g. `America/New_York`.
    public var timeZone: String
    public var capacity: Int?
    public var openedYear: Int?
    public var lastModified: Instant
    public var schemaVersion: Int
    public var source: String

    public init(id: String, name: String, city: String, region: String, country: String,
                latitude: Double, longitude: Double, timeZone: String, capacity: Int? = nil, openedYear: Int? = nil,
                lastModified: Instant, schemaVersion: Int = 1, source: String) {
        self.id = id; self.name = name; self.city = city; self.region = region; self.country = country
        self.latitude = latitude.rounded(toPlaces: 6); self.longitude = longitude.rounded(toPlaces: 6)
        self.timeZone = timeZone; self.capacity = capacity; self.openedYear = openedYear
        self.lastModified = lastModified; self.schemaVersion = schemaVersion; self.source = source
    }

    public var coordinate: Coordinate { Coordinate(latitude: latitude, longitude: longitude) }
}

/// A team of one sport.
public struct Team: CanonicalRecord {
    public static let artifactKind = ArtifactKind.teams
    public var id: String
    public var sport: String
    public var market: String
    public var name: String
    public var abbreviation: String
    public var homeStadiumId: String
    public var conferenceId: String?
    public var divisionId: String?
    public var lastModified: Instant
    public var schemaVersion: Int
    public var source: String

    public init(id: String, sport: String, market: String, name: String, abbreviation: String,
                homeStadiumId: String, conferenceId: String? = nil, divisionId: String? = nil,
                lastModified: Instant, schemaVersion: Int = 1, source: String) {
        self.id = id; self.sport = sport; self.market = market; self.name = name; self.abbreviation = abbreviation
        self.homeStadiumId = homeStadiumId; self.conferenceId = conferenceId; self.divisionId = divisionId
        self.lastModified = lastModified; self.schemaVersion = schemaVersion; self.source = source
    }

    /// `Boston Red Sox`.
    public var fullName: String { market.isEmpty ? name : "\(market) \(name)" }
}

public enum GameKind: String, Codable, Sendable, CaseIterable {
    case preseason, regular, postseason, exhibition
}

public enum GameStatus: String, Codable, Sendable, CaseIterable {
    case scheduled, postponed, cancelled, final
}

/// One game, with an id that two sources of the same game agree on:
/// `<sport>-<season>-<localdate>-<away>-at-<home>[-g<n>]`.
public struct Game: CanonicalRecord {
    public static let artifactKind = ArtifactKind.games
    public var id: String
    public var sport: String
    /// `2025` or `2025-26`.
    public var season: String
    public var kind: GameKind
    /// Start in UTC; nil when only the date is known.
    public var startUTC: Instant?
    /// The calendar date at the stadium.
    public var localDate: LocalDate
    public var timeTBD: Bool
    public var homeTeamId: String
    public var awayTeamId: String
    public var stadiumId: String
    public var neutralSite: Bool
    /// 1 or 2 for doubleheaders; nil for a single game.
    public var gameNumber: Int?
    public var status: GameStatus
    public var makeupDate: LocalDate?
    /// Each source's own id for this game, keyed by source id.
    public var sourceIds: [String: String]
    /// Soft delete: set when a newer batch of the same source and scope no longer lists the game.
    public var deprecatedAt: Instant?
    public var lastModified: Instant
    public var schemaVersion: Int
    public var source: String

    public init(id: String, sport: String, season: String, kind: GameKind, startUTC: Instant?, localDate: LocalDate,
                timeTBD: Bool, homeTeamId: String, awayTeamId: String, stadiumId: String, neutralSite: Bool,
                gameNumber: Int?, status: GameStatus, makeupDate: LocalDate? = nil, sourceIds: [String: String],
                deprecatedAt: Instant? = nil, lastModified: Instant, schemaVersion: Int = 1, source: String) {
        self.id = id; self.sport = sport; self.season = season; self.kind = kind; self.startUTC = startUTC
        self.localDate = localDate; self.timeTBD = timeTBD; self.homeTeamId = homeTeamId
        self.awayTeamId = awayTeamId; self.stadiumId = stadiumId; self.neutralSite = neutralSite
        self.gameNumber = gameNumber; self.status = status; self.makeupDate = makeupDate
        self.sourceIds = sourceIds; self.deprecatedAt = deprecatedAt; self.lastModified = lastModified
        self.schemaVersion = schemaVersion; self.source = source
    }

    /// The canonical id for a game. Team ids are used without their sport prefix when they carry one.
    public static func makeId(sport: String, season: String, localDate: LocalDate, awayTeamId: String,
                              homeTeamId: String, gameNumber: Int?) -> String {
        func short(_ team: String) -> String {
            team.hasPrefix(sport + "-") ? String(team.dropFirst(sport.count + 1)) : team
        }
        var id = "\(sport)-\(season)-\(localDate.iso8601)-\(short(awayTeamId))-at-\(short(homeTeamId))"
        if let gameNumber, gameNumber > 1 { id += "-g\(gameNumber)" }
        return id
    }
}

/// A league, conference or division.
public struct LeagueStructure: CanonicalRecord {
    public static let artifactKind = ArtifactKind.leagueStructures
    public enum Level: String, Codable, Sendable { case league, conference, division }
    public var id: String
    public var sport: String
    public var level: Level
    public var name: String
    public var abbreviation: String?
    public var parentId: String?
    public var displayOrder: Int
    public var lastModified: Instant
    public var schemaVersion: Int
    public var source: String

    public init(id: String, sport: String, level: Level, name: String, abbreviation: String? = nil,
                parentId: String? = nil, displayOrder: Int, lastModified: Instant, schemaVersion: Int = 1, source: String) {
        self.id = id; self.sport = sport; self.level = level; self.name = name; self.abbreviation = abbreviation
        self.parentId = parentId; self.displayOrder = displayOrder; self.lastModified = lastModified
        self.schemaVersion = schemaVersion; self.source = source
    }
}

/// Another name for a team, valid in a date range, optionally only in one source system.
public struct TeamAlias: CanonicalRecord {
    public static let artifactKind = ArtifactKind.teamAliases
    public enum Kind: String, Codable, Sendable, CaseIterable { case abbreviation, name, fullName, sourceCode }
    public var id: String
    public var teamId: String
    public var kind: Kind
    public var value: String
    /// First day the alias applies (inclusive); nil = always before.
    public var validFrom: LocalDate?
    /// Last day the alias applies (inclusive); nil = still valid.
    public var validUntil: LocalDate?
    /// e.g. `retrosheet`; nil = any source.
    public var sourceSystem: String?
    public var lastModified: Instant
    public var schemaVersion: Int
    public var source: String

    public init(id: String, teamId: String, kind: Kind, value: String, validFrom: LocalDate? = nil,
                validUntil: LocalDate? = nil, sourceSystem: String? = nil, lastModified: Instant,
                schemaVersion: Int = 1, source: String) {
        self.id = id; self.teamId = teamId; self.kind = kind; self.value = value; self.validFrom = validFrom
        self.validUntil = validUntil; self.sourceSystem = sourceSystem; self.lastModified = lastModified
        self.schemaVersion = schemaVersion; self.source = source
    }

    public func isValid(on date: LocalDate) -> Bool {
        (validFrom.map { $0 <= date } ?? true) && (validUntil.map { date <= $0 } ?? true)
    }
}

/// A former or other name of a stadium, valid in a date range.
public struct StadiumAlias: CanonicalRecord {
    public static let artifactKind = ArtifactKind.stadiumAliases
    public var id: String
    public var stadiumId: String
    public var name: String
    public var validFrom: LocalDate?
    public var validUntil: LocalDate?
    public var sourceSystem: String?
    public var lastModified: Instant
    public var schemaVersion: Int
    public var source: String

    public init(id: String, stadiumId: String, name: String, validFrom: LocalDate? = nil, validUntil: LocalDate? = nil,
                sourceSystem: String? = nil, lastModified: Instant, schemaVersion: Int = 1, source: String) {
        self.id = id; self.stadiumId = stadiumId; self.name = name; self.validFrom = validFrom
        self.validUntil = validUntil; self.sourceSystem = sourceSystem; self.lastModified = lastModified
        self.schemaVersion = schemaVersion; self.source = source
    }

    public func isValid(on date: LocalDate) -> Bool {
        (validFrom.map { $0 <= date } ?? true) && (validUntil.map { date <= $0 } ?? true)
    }
}

/// The merge's high-water mark and counts for one entity kind.
public struct SyncState: Codable, Sendable, Hashable, Identifiable {
    /// The entity kind, e.g. `games`.
    public var id: String
    /// The newest `lastModified` merged so far; nil when nothing was merged.
    public var highWater: Instant?
    public var recordCount: Int
    public init(id: String, highWater: Instant?, recordCount: Int) {
        self.id = id; self.highWater = highWater; self.recordCount = recordCount
    }
}
