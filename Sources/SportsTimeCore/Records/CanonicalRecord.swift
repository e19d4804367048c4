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
        let (name, icon, color, start, end): (String, String, String, Int, Int) =
            switch self {
            case .mlb: ("Major League Baseball", "baseball", "#041E42", 3, 10)
            case .nba: ("National Basketball Association", "basketball", "#C9082A", 10, 6)
            case .nhl: ("National Hockey League", "hockey-puck", "#000000", 10, 6)
            case .nfl: ("National Football League", "football", "#013369", 9, 2)
            case .mls: ("Major League Soccer", "soccer-ball", "#001F5B", 2, 12)
            case .wnba: ("Women's National Basketball Association", "basketball", "#FA4D00", 5, 10)
            case .nwsl: ("National Women's Soccer League", "soccer-ball", "#00263A", 3, 11)
            }
        return Sport(
            id: rawValue, abbreviation: rawValue.uppercased(), displayName: name, iconName: icon,
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
    /// How many days apart two sources may date one game of this sport and still be matched as the same
    /// game (same home and away team); nil = `Sport.defaultMatchWindowDays`.
    public var matchWindowDays: Int?
    public var lastModified: Instant
    public var schemaVersion: Int
    public var source: String

    /// Two sources' dates of one game may differ by up to this many days unless the sport says otherwise.
    public static let defaultMatchWindowDays = 3

    public init(
        id: String, abbreviation: String, displayName: String, iconName: String, colorHex: String,
        seasonStartMonth: Int, seasonEndMonth: Int, isActive: Bool, isBuiltIn: Bool,
        matchWindowDays: Int? = nil, lastModified: Instant, schemaVersion: Int = 1, source: String
    ) {
        self.id = id; self.abbreviation = abbreviation; self.displayName = displayName; self.iconName = iconName
        self.colorHex = colorHex; self.seasonStartMonth = seasonStartMonth; self.seasonEndMonth = seasonEndMonth
        self.isActive = isActive; self.isBuiltIn = isBuiltIn; self.matchWindowDays = matchWindowDays
        self.lastModified = lastModified; self.schemaVersion = schemaVersion; self.source = source
    }

    /// The first and last day a game of `season` (`2023`, `2025-26`) may fall on: the season's months
    /// (wrapping into the next year when they wrap), widened by `graceDays` on both sides for preseason
    /// and late postseason games. Nil when the season label is not like 2025 or 2025-26.
    public func seasonWindow(_ season: String, graceDays: Int = 45) -> ClosedRange<LocalDate>? {
        guard let startYear = Int(season.prefix(4)), season.count == 4 || season.count == 7 else { return nil }
        let wraps = seasonStartMonth > seasonEndMonth
        let endYear = wraps ? startYear + 1 : startYear
        guard let first = LocalDate(year: startYear, month: seasonStartMonth, day: 1),
            let nextMonth = LocalDate(
                year: seasonEndMonth == 12 ? endYear + 1 : endYear,
                month: seasonEndMonth == 12 ? 1 : seasonEndMonth + 1, day: 1)
        else { return nil }
        return first.adding(days: -graceDays)...nextMonth.adding(days: graceDays - 1)
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

    public init(
        id: String, name: String, city: String, region: String, country: String,
        latitude: Double, longitude: Double, timeZone: String, capacity: Int? = nil, openedYear: Int? = nil,
        lastModified: Instant, schemaVersion: Int = 1, source: String
    ) {
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

    public init(
        id: String, sport: String, market: String, name: String, abbreviation: String,
        homeStadiumId: String, conferenceId: String? = nil, divisionId: String? = nil,
        lastModified: Instant, schemaVersion: Int = 1, source: String
    ) {
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

/// What is known of a game's start: the exact instant, only that it is a day or a night game (Retrosheet's
/// day/night flag), or nothing (the planner then assumes a per-sport start; see `TravelModel`).
public enum StartKnowledge: String, Codable, Sendable, CaseIterable, Comparable {
    case unknown, day, night, exact

    /// How much it tells: unknown < day/night < exact.
    public var precision: Int {
        switch self {
        case .unknown: 0
        case .day, .night: 1
        case .exact: 2
        }
    }

    public static func < (a: Self, b: Self) -> Bool { a.precision < b.precision }
}

/// One game, with an id that two sources of the same game agree on:
/// `<sport>-<season>-<localdate>-<away>-at-<home>[-g<n>]`.
public struct Game: CanonicalRecord {
    public static let artifactKind = ArtifactKind.games
    // Stored properties are declared widest first, so the struct packs into 232 bytes instead of 296
    // (the merge holds every game of every batch at once).
    public var id: String
    public var sport: String
    /// `2025` or `2025-26`.
    public var season: String
    public var homeTeamId: String
    public var awayTeamId: String
    public var stadiumId: String
    public var source: String
    /// Normalized batches: the source row (`file:line`) the record came from. Nil in the merged store,
    /// where the lineage files (`out/merge/lineage/`) keep every row of every game.
    public var provenance: String?
    /// Each source's own id for this game, keyed by source id.
    public var sourceIds: [String: String]
    /// Merged store: every other id the game had (another source's date for it, an earlier run's),
    /// sorted, so requests, overrides and diffs that name an old id still find it. Nil when none.
    public var formerIds: [String]?
    /// Normalized batches: fields the source did not state and normalize filled in (`stadiumId` from the
    /// home team's home, `status` from the score columns, `kind` by default), sorted. A merge never lets
    /// an inferred value replace a stated one. Nil when every field was stated, and in the merged store.
    public var inferred: [InferredField]?
    public var lastModified: Instant
    public var schemaVersion: Int
    /// Start in UTC; set exactly when `startKnowledge` is `exact`.
    public var startUTC: Instant?
    /// The calendar date at the stadium.
    public var localDate: LocalDate
    public var makeupDate: LocalDate?
    /// Soft delete: set when a newer batch of the same source and scope no longer lists the game.
    public var deprecatedAt: Instant?
    /// 1 or 2 for doubleheaders; nil for a single game.
    public var gameNumber: Int?
    public var kind: GameKind
    /// Exact, day, night or unknown.
    public var startKnowledge: StartKnowledge
    public var neutralSite: Bool
    public var status: GameStatus
    /// True when the source named a placeholder venue ("TBA", `placeholderVenues`) and no source states the
    /// venue: the game is planned at the home team's home on its date and plans say "venue to be confirmed".
    /// Nil when a venue is stated, or when a source without venues placed the game at the home team's home.
    public var venueAssumed: Bool?
}

// The initializers live in an extension so that the struct keeps its memberwise initializer: the public
// one hands every member to it at once, where assigning 22 members one by one built the 232-byte value
// in a temporary and copied it (an outlined copy of every string of every game made).
extension Game {
    public init(
        id: String, sport: String, season: String, kind: GameKind, startUTC: Instant?, localDate: LocalDate,
        startKnowledge: StartKnowledge, homeTeamId: String, awayTeamId: String, stadiumId: String,
        neutralSite: Bool, gameNumber: Int?, status: GameStatus, makeupDate: LocalDate? = nil,
        sourceIds: [String: String], deprecatedAt: Instant? = nil, formerIds: [String]? = nil,
        provenance: String? = nil, inferred: [InferredField]? = nil, venueAssumed: Bool? = nil, lastModified: Instant,
        schemaVersion: Int = ArtifactKind.games.currentVersion, source: String
    ) {
        self.init(
            id: id, sport: sport, season: season, homeTeamId: homeTeamId, awayTeamId: awayTeamId,
            stadiumId: stadiumId, source: source, provenance: provenance, sourceIds: sourceIds, formerIds: formerIds,
            inferred: inferred, lastModified: lastModified, schemaVersion: schemaVersion,
            startUTC: startKnowledge == .exact ? startUTC : nil, localDate: localDate, makeupDate: makeupDate,
            deprecatedAt: deprecatedAt, gameNumber: gameNumber, kind: kind,
            startKnowledge: startUTC == nil && startKnowledge == .exact ? .unknown : startKnowledge,
            neutralSite: neutralSite, status: status, venueAssumed: venueAssumed == true ? true : nil)
    }

    /// A game whose start is either exact (`timeTBD` false, with `startUTC`) or unknown.
    public init(
        id: String, sport: String, season: String, kind: GameKind, startUTC: Instant?, localDate: LocalDate,
        timeTBD: Bool, homeTeamId: String, awayTeamId: String, stadiumId: String, neutralSite: Bool,
        gameNumber: Int?, status: GameStatus, makeupDate: LocalDate? = nil, sourceIds: [String: String],
        deprecatedAt: Instant? = nil, lastModified: Instant,
        schemaVersion: Int = ArtifactKind.games.currentVersion, source: String
    ) {
        self.init(
            id: id, sport: sport, season: season, kind: kind, startUTC: startUTC, localDate: localDate,
            startKnowledge: timeTBD || startUTC == nil ? .unknown : .exact, homeTeamId: homeTeamId,
            awayTeamId: awayTeamId, stadiumId: stadiumId, neutralSite: neutralSite, gameNumber: gameNumber,
            status: status, makeupDate: makeupDate, sourceIds: sourceIds, deprecatedAt: deprecatedAt,
            lastModified: lastModified, schemaVersion: schemaVersion, source: source)
    }

    /// Whether the exact start is not known (a day/night flag is not an exact start).
    public var timeTBD: Bool {
        get { startKnowledge != .exact || startUTC == nil }
        set { startKnowledge = newValue ? .unknown : (startUTC == nil ? .unknown : .exact) }
    }

    /// Whether `field` was filled in by normalize rather than stated by the source.
    public func isInferred(_ field: InferredField) -> Bool { inferred?.contains(field) ?? false }

    private enum CodingKeys: String, CodingKey {
        case id, sport, season, kind, startUTC, localDate, startKnowledge, homeTeamId, awayTeamId, stadiumId,
            neutralSite, gameNumber, status, makeupDate, sourceIds, deprecatedAt, formerIds, provenance, inferred,
            lastModified, schemaVersion, source, venueAssumed
        /// Version 1's yes/no start flag, read only.
        case timeTBD
    }

    /// Reads version 2, and version 1 records (`timeTBD` instead of `startKnowledge`).
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(String.self, forKey: .id)
        sport = try c.decode(String.self, forKey: .sport)
        season = try c.decode(String.self, forKey: .season)
        kind = try c.decode(GameKind.self, forKey: .kind)
        startUTC = try c.decodeIfPresent(Instant.self, forKey: .startUTC)
        localDate = try c.decode(LocalDate.self, forKey: .localDate)
        if let knowledge = try c.decodeIfPresent(StartKnowledge.self, forKey: .startKnowledge) {
            startKnowledge = knowledge
        } else {
            let tbd = try c.decode(Bool.self, forKey: .timeTBD)
            startKnowledge = tbd || startUTC == nil ? .unknown : .exact
        }
        if startKnowledge != .exact { startUTC = nil }
        if startUTC == nil, startKnowledge == .exact { startKnowledge = .unknown }
        homeTeamId = try c.decode(String.self, forKey: .homeTeamId)
        awayTeamId = try c.decode(String.self, forKey: .awayTeamId)
        stadiumId = try c.decode(String.self, forKey: .stadiumId)
        neutralSite = try c.decode(Bool.self, forKey: .neutralSite)
        gameNumber = try c.decodeIfPresent(Int.self, forKey: .gameNumber)
        status = try c.decode(GameStatus.self, forKey: .status)
        makeupDate = try c.decodeIfPresent(LocalDate.self, forKey: .makeupDate)
        sourceIds = try c.decode([String: String].self, forKey: .sourceIds)
        deprecatedAt = try c.decodeIfPresent(Instant.self, forKey: .deprecatedAt)
        formerIds = try c.decodeIfPresent([String].self, forKey: .formerIds)
        provenance = try c.decodeIfPresent(String.self, forKey: .provenance)
        inferred = try c.decodeIfPresent([InferredField].self, forKey: .inferred)
        lastModified = try c.decode(Instant.self, forKey: .lastModified)
        schemaVersion = try c.decode(Int.self, forKey: .schemaVersion)
        source = try c.decode(String.self, forKey: .source)
        venueAssumed = try c.decodeIfPresent(Bool.self, forKey: .venueAssumed)
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(sport, forKey: .sport)
        try c.encode(season, forKey: .season)
        try c.encode(kind, forKey: .kind)
        try c.encodeIfPresent(startUTC, forKey: .startUTC)
        try c.encode(localDate, forKey: .localDate)
        try c.encode(startKnowledge, forKey: .startKnowledge)
        try c.encode(homeTeamId, forKey: .homeTeamId)
        try c.encode(awayTeamId, forKey: .awayTeamId)
        try c.encode(stadiumId, forKey: .stadiumId)
        try c.encode(neutralSite, forKey: .neutralSite)
        try c.encodeIfPresent(gameNumber, forKey: .gameNumber)
        try c.encode(status, forKey: .status)
        try c.encodeIfPresent(makeupDate, forKey: .makeupDate)
        try c.encode(sourceIds, forKey: .sourceIds)
        try c.encodeIfPresent(deprecatedAt, forKey: .deprecatedAt)
        if let formerIds, !formerIds.isEmpty { try c.encode(formerIds, forKey: .formerIds) }
        try c.encodeIfPresent(provenance, forKey: .provenance)
        if let inferred, !inferred.isEmpty { try c.encode(inferred, forKey: .inferred) }
        try c.encode(lastModified, forKey: .lastModified)
        try c.encode(schemaVersion, forKey: .schemaVersion)
        try c.encode(source, forKey: .source)
        try c.encodeIfPresent(venueAssumed, forKey: .venueAssumed)
    }

    /// The canonical id for a game. Team ids are used without their sport prefix when they carry one.
    public static func makeId(
        sport: String, season: String, localDate: LocalDate, awayTeamId: String,
        homeTeamId: String, gameNumber: Int?
    ) -> String {
        if let fast = asciiId(
            sport: sport, season: season, localDate: localDate, awayTeamId: awayTeamId,
            homeTeamId: homeTeamId, gameNumber: gameNumber)
        {
            return fast
        }
        func short(_ team: String) -> String {
            team.hasPrefix(sport + "-") ? String(team.dropFirst(sport.count + 1)) : team
        }
        // Appended piece by piece into one buffer (interpolation grows its storage several times).
        let away = short(awayTeamId), home = short(homeTeamId)
        var id = ""
        id.reserveCapacity(sport.utf8.count + season.utf8.count + away.utf8.count + home.utf8.count + 24)
        id += sport; id += "-"; id += season; id += "-"; id += localDate.iso8601; id += "-"
        id += away; id += "-at-"; id += home
        if let gameNumber, gameNumber > 1 { id += "-g"; id += String(gameNumber) }
        return id
    }

    /// `makeId` built byte by byte when every part is ASCII (every real id; for ASCII, a prefix of
    /// characters is a prefix of bytes) and the year has four digits; nil otherwise. The parts are read
    /// in place and the id is written into its own storage once.
    private static func asciiId(
        sport: String, season: String, localDate: LocalDate, awayTeamId: String,
        homeTeamId: String, gameNumber: Int?
    ) -> String? {
        guard (1...9999).contains(localDate.year) else { return nil }
        typealias Bytes = UnsafeBufferPointer<UInt8>
        func build(_ sport: Bytes, _ season: Bytes, _ awayTeam: Bytes, _ homeTeam: Bytes) -> String? {
            func isASCII(_ bytes: Bytes) -> Bool { bytes.allSatisfy { $0 < 0x80 } }
            guard isASCII(sport), isASCII(season), isASCII(awayTeam), isASCII(homeTeam) else { return nil }
            func short(_ team: Bytes) -> Bytes {
                guard team.count > sport.count, team[sport.count] == UInt8(ascii: "-"),
                    team.prefix(sport.count).elementsEqual(sport)
                else { return team }
                return Bytes(rebasing: team[(sport.count + 1)...])
            }
            let away = short(awayTeam), home = short(homeTeam)
            let number = gameNumber.flatMap { $0 > 1 ? $0 : nil }
            let capacity = sport.count + season.count + away.count + home.count + 19 + (number == nil ? 0 : 22)
            return String(unsafeUninitializedCapacity: capacity) { out in
                var at = 0
                func put(_ bytes: Bytes) {
                    for byte in bytes { out[at] = byte; at += 1 }
                }
                func put(_ byte: UInt8) { out[at] = byte; at += 1 }
                func digits(_ value: Int, _ width: Int) {
                    var divisor = 1
                    for _ in 1..<width { divisor *= 10 }
                    while divisor > 0 { put(UInt8(truncatingIfNeeded: 0x30 + value / divisor % 10)); divisor /= 10 }
                }
                put(sport); put(UInt8(ascii: "-"))
                put(season); put(UInt8(ascii: "-"))
                digits(localDate.year, 4); put(UInt8(ascii: "-"))
                digits(localDate.month, 2); put(UInt8(ascii: "-"))
                digits(localDate.day, 2); put(UInt8(ascii: "-"))
                put(away)
                put(UInt8(ascii: "-")); put(UInt8(ascii: "a")); put(UInt8(ascii: "t")); put(UInt8(ascii: "-"))
                put(home)
                if let number {
                    put(UInt8(ascii: "-")); put(UInt8(ascii: "g"))
                    var width = 1, rest = number / 10
                    while rest > 0 { width += 1; rest /= 10 }
                    digits(number, width)
                }
                return at
            }
        }
        let built = sport.utf8.withContiguousStorageIfAvailable { sportBytes in
            season.utf8.withContiguousStorageIfAvailable { seasonBytes in
                awayTeamId.utf8.withContiguousStorageIfAvailable { awayBytes in
                    homeTeamId.utf8.withContiguousStorageIfAvailable { homeBytes in
                        build(sportBytes, seasonBytes, awayBytes, homeBytes)
                    }
                }
            }
        }
        // nil at any level: a part without contiguous UTF-8, or not ASCII (`makeId` then builds it as text).
        return built.flatMap { $0 }.flatMap { $0 }.flatMap { $0 }.flatMap { $0 }
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

    public init(
        id: String, sport: String, level: Level, name: String, abbreviation: String? = nil,
        parentId: String? = nil, displayOrder: Int, lastModified: Instant, schemaVersion: Int = 1, source: String
    ) {
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

    public init(
        id: String, teamId: String, kind: Kind, value: String, validFrom: LocalDate? = nil,
        validUntil: LocalDate? = nil, sourceSystem: String? = nil, lastModified: Instant,
        schemaVersion: Int = 1, source: String
    ) {
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

    public init(
        id: String, stadiumId: String, name: String, validFrom: LocalDate? = nil, validUntil: LocalDate? = nil,
        sourceSystem: String? = nil, lastModified: Instant, schemaVersion: Int = 1, source: String
    ) {
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
