import Foundation
import SportsTimeCore

/// A canonical record the merge can fold: where it lives in the store, what it must check before it
/// goes in, and which fields an override may patch.
public protocol MergeableRecord: CanonicalRecord {
    static var entityKind: EntityKind { get }
    static var storeKeyPath: WritableKeyPath<MergeStore, [String: Self]> { get }

    /// The record with its values checked and put in canonical form (e.g. colours as `#RRGGBB`),
    /// or why it is refused: a bad value, or a reference to a record of an earlier kind that the
    /// store does not hold. `store` holds every kind folded before this one.
    func validated(against store: MergeStore) -> Result<Self, Refusal>

    /// The record to store when it wins over `existing` (default: itself). Games keep every source's id.
    func merged(replacing existing: Self?) -> Self

    /// Whether a losing record would still add something to the stored one (default: no; a game does
    /// when it carries a source id the stored game lacks). Checked before the loser is validated.
    func contributes(to stored: Self) -> Bool

    /// Folds what a losing record still contributes into the stored one (default: nothing;
    /// games take the loser's source id when they lack one for that source).
    mutating func absorb(_ loser: Self)

    /// After the whole kind is folded: references to the same kind that do not resolve
    /// (a league structure's parent), by id. Default: none.
    static func unresolvedSelfReferences(in records: [String: Self]) -> [String: String]

    /// The fields an override may patch, by name.
    static var overrideFields: [String: OverrideField<Self>] { get }
}

/// Why a record was refused; the reason goes to `rejects.jsonl`.
public struct Refusal: Error, Sendable, Hashable {
    public var reason: String
    public init(_ reason: String) { self.reason = reason }
}

extension MergeableRecord {
    public func merged(replacing existing: Self?) -> Self { self }
    public func contributes(to stored: Self) -> Bool { false }
    public mutating func absorb(_ loser: Self) {}
    public static func unresolvedSelfReferences(in records: [String: Self]) -> [String: String] { [:] }

    /// The shared checks every record gets: a usable id and schema version.
    func checkIdentity() -> Refusal? {
        guard let firstByte = id.utf8.first, let lastByte = id.utf8.last else { return Refusal("the record has an empty id") }
        // ASCII at both ends (every real id): its white space is tab to carriage return and the space.
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || (byte >= 0x09 && byte <= 0x0D) }
        if firstByte < 0x80, lastByte < 0x80 {
            if isSpace(firstByte) || isSpace(lastByte) { return Refusal("id '\(id)' has leading or trailing spaces") }
        } else if let first = id.unicodeScalars.first, let last = id.unicodeScalars.last,
            first.properties.isWhitespace || last.properties.isWhitespace
        {
            return Refusal("id '\(id)' has leading or trailing spaces")
        }
        if schemaVersion < 1 { return Refusal("schemaVersion \(schemaVersion) is not a valid version (1 or later)") }
        return nil
    }
}

// MARK: - Sport

extension Sport: MergeableRecord {
    public static var entityKind: EntityKind { .sports }
    public static var storeKeyPath: WritableKeyPath<MergeStore, [String: Sport]> { \.sports }

    public func validated(against store: MergeStore) -> Result<Sport, Refusal> {
        if let refusal = checkIdentity() { return .failure(refusal) }
        if Slug.make(id) != id {
            return .failure(Refusal("sport id '\(id)' is not a lowercase slug (letters, digits and '-', e.g. xfl)"))
        }
        guard let color = ColorHex.normalize(colorHex) else {
            return .failure(Refusal("sport '\(id)': colour '\(colorHex)' is not a hex colour (#RGB, #RRGGBB, RRGGBB or #RRGGBBAA)"))
        }
        for (name, month) in [("seasonStartMonth", seasonStartMonth), ("seasonEndMonth", seasonEndMonth)] where !(1...12).contains(month) {
            return .failure(Refusal("sport '\(id)': \(name) \(month) is not a month (1-12; a season may wrap the year end, e.g. 10 to 6)"))
        }
        if displayName.isWhitespaceOnly { return .failure(Refusal("sport '\(id)' has no displayName")) }
        var sport = self
        sport.colorHex = color
        return .success(sport)
    }

    public static var overrideFields: [String: OverrideField<Sport>] {
        [
            "abbreviation": .string(\.abbreviation),
            "displayName": .string(\.displayName),
            "iconName": .string(\.iconName),
            "colorHex": OverrideField(type: .color, keyPath: \.colorHex),
            "seasonStartMonth": OverrideField(type: .month, keyPath: \.seasonStartMonth),
            "seasonEndMonth": OverrideField(type: .month, keyPath: \.seasonEndMonth),
            "isActive": .bool(\.isActive),
        ]
    }
}

// MARK: - Stadium

extension Stadium: MergeableRecord {
    public static var entityKind: EntityKind { .stadiums }
    public static var storeKeyPath: WritableKeyPath<MergeStore, [String: Stadium]> { \.stadiums }

    public func validated(against store: MergeStore) -> Result<Stadium, Refusal> {
        if let refusal = checkIdentity() { return .failure(refusal) }
        if name.isWhitespaceOnly { return .failure(Refusal("stadium '\(id)' has no name")) }
        guard latitude.isFinite, (-90...90).contains(latitude), longitude.isFinite, (-180...180).contains(longitude) else {
            return .failure(Refusal("stadium '\(id)': coordinates \(latitude), \(longitude) are out of range"))
        }
        guard ZonedTime.isValidZone(timeZone) else {
            return .failure(Refusal("stadium '\(id)': time zone '\(timeZone)' is not an IANA zone (e.g. America/New_York)"))
        }
        if let capacity, capacity < 0 { return .failure(Refusal("stadium '\(id)': capacity \(capacity) is negative")) }
        return .success(self)
    }

    public static var overrideFields: [String: OverrideField<Stadium>] {
        [
            "name": .string(\.name),
            "city": .string(\.city),
            "region": .string(\.region),
            "country": .string(\.country),
            "latitude": OverrideField(type: .latitude, keyPath: \.latitude),
            "longitude": OverrideField(type: .longitude, keyPath: \.longitude),
            "timeZone": OverrideField(type: .timeZone, keyPath: \.timeZone),
            "capacity": .optionalInt(\.capacity),
            "openedYear": .optionalInt(\.openedYear),
        ]
    }
}

// MARK: - Team

extension Team: MergeableRecord {
    public static var entityKind: EntityKind { .teams }
    public static var storeKeyPath: WritableKeyPath<MergeStore, [String: Team]> { \.teams }

    public func validated(against store: MergeStore) -> Result<Team, Refusal> {
        if let refusal = checkIdentity() { return .failure(refusal) }
        if name.isWhitespaceOnly { return .failure(Refusal("team '\(id)' has no name")) }
        if !store.sportCatalog.isKnown(sport) {
            return .failure(Refusal("team '\(id)': \(UnknownSport(id: sport, known: store.sportCatalog.knownIds))"))
        }
        if store.stadiums.index(forKey: homeStadiumId) == nil {
            return .failure(Refusal("team '\(id)': home stadium '\(homeStadiumId)' is not a known stadium"))
        }
        return .success(self)
    }

    public static var overrideFields: [String: OverrideField<Team>] {
        [
            "market": .string(\.market),
            "name": .string(\.name),
            "abbreviation": .string(\.abbreviation),
            "homeStadiumId": .string(\.homeStadiumId, references: .stadiums),
            "conferenceId": .optionalString(\.conferenceId),
            "divisionId": .optionalString(\.divisionId),
        ]
    }
}

// MARK: - Game

extension Game: MergeableRecord {
    public static var entityKind: EntityKind { .games }
    public static var storeKeyPath: WritableKeyPath<MergeStore, [String: Game]> { \.games }

    public func validated(against store: MergeStore) -> Result<Game, Refusal> {
        if let refusal = refusal(against: store) { return .failure(refusal) }
        return .success(self)
    }

    /// Why `validated(against:)` refuses the game, or nil: a valid game is the record itself, so the
    /// fold asks this and keeps the record without a copy.
    func refusal(against store: MergeStore) -> Refusal? {
        if let refusal = checkIdentity() { return refusal }
        if !store.sportCatalog.isKnown(sport) {
            return Refusal("game '\(id)': \(UnknownSport(id: sport, known: store.sportCatalog.knownIds))")
        }
        if !Self.isSeason(season) {
            return Refusal("game '\(id)': season '\(season)' is not like 2025 or 2025-26")
        }
        if store.teams.index(forKey: homeTeamId) == nil { return Refusal("game '\(id)': home team '\(homeTeamId)' is not a known team") }
        if store.teams.index(forKey: awayTeamId) == nil { return Refusal("game '\(id)': away team '\(awayTeamId)' is not a known team") }
        if store.stadiums.index(forKey: stadiumId) == nil {
            return Refusal("game '\(id)': stadium '\(stadiumId)' is not a known stadium")
        }
        let expected = Game.makeId(
            sport: sport, season: season, localDate: localDate, awayTeamId: awayTeamId,
            homeTeamId: homeTeamId, gameNumber: gameNumber)
        if expected != id {
            return Refusal("game '\(id)': the id does not match the game's fields (expected '\(expected)')")
        }
        if let gameNumber, gameNumber < 1 { return Refusal("game '\(id)': game number \(gameNumber) is not 1 or more") }
        return nil
    }

    /// `2025` or `2025-26`.
    static func isSeason(_ text: String) -> Bool {
        var count = 0
        for byte in text.utf8 {
            let isDigit = byte >= 48 && byte <= 57
            guard count == 4 ? byte == UInt8(ascii: "-") : isDigit else { return false }
            count += 1
            if count > 7 { return false }
        }
        return count == 4 || count == 7
    }

    public static var overrideFields: [String: OverrideField<Game>] {
        [
            "kind": .choice(\.kind),
            "startUTC": .optionalInstant(\.exactStart),
            "startKnowledge": .choice(\.startFlag),
            "localDate": .date(\.localDate),
            "timeTBD": .bool(\.timeTBD),
            "homeTeamId": .string(\.homeTeamId, references: .teams),
            "awayTeamId": .string(\.awayTeamId, references: .teams),
            "stadiumId": .string(\.statedStadiumId, references: .stadiums),
            "neutralSite": .bool(\.neutralSite),
            "gameNumber": .optionalInt(\.gameNumber),
            "status": .choice(\.status),
            "makeupDate": .optionalDate(\.makeupDate),
            "deprecatedAt": .optionalInstant(\.deprecatedAt),
        ]
    }
}

extension Game {
    /// The start as an override sets it: an instant makes the start exact, null makes it unknown.
    var exactStart: Instant? {
        get { startUTC }
        set {
            startUTC = newValue
            startKnowledge = newValue == nil ? .unknown : .exact
        }
    }

    /// The stadium as an override sets it: stated, so no longer assumed.
    var statedStadiumId: String {
        get { stadiumId }
        set {
            stadiumId = newValue
            venueAssumed = nil
        }
    }

    /// Day, night or unknown as an override sets it (an exact start is cleared).
    var startFlag: StartKnowledge {
        get { startKnowledge }
        set {
            startKnowledge = newValue
            if newValue != .exact { startUTC = nil }
        }
    }
}

// MARK: - LeagueStructure

extension LeagueStructure: MergeableRecord {
    public static var entityKind: EntityKind { .leagueStructures }
    public static var storeKeyPath: WritableKeyPath<MergeStore, [String: LeagueStructure]> { \.leagueStructures }

    public func validated(against store: MergeStore) -> Result<LeagueStructure, Refusal> {
        if let refusal = checkIdentity() { return .failure(refusal) }
        if !store.sportCatalog.isKnown(sport) {
            return .failure(Refusal("league structure '\(id)': \(UnknownSport(id: sport, known: store.sportCatalog.knownIds))"))
        }
        if parentId == id { return .failure(Refusal("league structure '\(id)' is its own parent")) }
        return .success(self)
    }

    /// Parents are league structures too, so they are checked once the whole kind is folded (records are
    /// folded by id, and a parent's id need not sort first). A structure whose parent is missing is
    /// refused, and so, in turn, are its children.
    public static func unresolvedSelfReferences(in records: [String: LeagueStructure]) -> [String: String] {
        var refused: [String: String] = [:]
        var changed = true
        while changed {
            changed = false
            for (id, structure) in records where refused[id] == nil {
                guard let parent = structure.parentId else { continue }
                if records[parent] == nil {
                    refused[id] = "league structure '\(id)': parent '\(parent)' is not a known league structure"
                    changed = true
                } else if refused[parent] != nil {
                    refused[id] = "league structure '\(id)': parent '\(parent)' was refused"
                    changed = true
                }
            }
        }
        return refused
    }

    public static var overrideFields: [String: OverrideField<LeagueStructure>] {
        [
            "name": .string(\.name),
            "abbreviation": .optionalString(\.abbreviation),
            "parentId": .optionalString(\.parentId, references: .leagueStructures),
            "displayOrder": .int(\.displayOrder),
            "level": .choice(\.level),
        ]
    }
}

// MARK: - Aliases

extension TeamAlias: MergeableRecord {
    public static var entityKind: EntityKind { .teamAliases }
    public static var storeKeyPath: WritableKeyPath<MergeStore, [String: TeamAlias]> { \.teamAliases }

    public func validated(against store: MergeStore) -> Result<TeamAlias, Refusal> {
        if let refusal = checkIdentity() { return .failure(refusal) }
        if value.isWhitespaceOnly { return .failure(Refusal("team alias '\(id)' has an empty value")) }
        if store.teams.index(forKey: teamId) == nil { return .failure(Refusal("team alias '\(id)': team '\(teamId)' is not a known team")) }
        if let validFrom, let validUntil, validUntil < validFrom {
            return .failure(Refusal("team alias '\(id)': validUntil \(validUntil) is before validFrom \(validFrom)"))
        }
        return .success(self)
    }

    public static var overrideFields: [String: OverrideField<TeamAlias>] {
        [
            "value": .string(\.value),
            "validFrom": .optionalDate(\.validFrom),
            "validUntil": .optionalDate(\.validUntil),
            "sourceSystem": .optionalString(\.sourceSystem),
        ]
    }
}

extension StadiumAlias: MergeableRecord {
    public static var entityKind: EntityKind { .stadiumAliases }
    public static var storeKeyPath: WritableKeyPath<MergeStore, [String: StadiumAlias]> { \.stadiumAliases }

    public func validated(against store: MergeStore) -> Result<StadiumAlias, Refusal> {
        if let refusal = checkIdentity() { return .failure(refusal) }
        if name.isWhitespaceOnly { return .failure(Refusal("stadium alias '\(id)' has an empty name")) }
        if store.stadiums.index(forKey: stadiumId) == nil {
            return .failure(Refusal("stadium alias '\(id)': stadium '\(stadiumId)' is not a known stadium"))
        }
        if let validFrom, let validUntil, validUntil < validFrom {
            return .failure(Refusal("stadium alias '\(id)': validUntil \(validUntil) is before validFrom \(validFrom)"))
        }
        return .success(self)
    }

    public static var overrideFields: [String: OverrideField<StadiumAlias>] {
        [
            "name": .string(\.name),
            "validFrom": .optionalDate(\.validFrom),
            "validUntil": .optionalDate(\.validUntil),
            "sourceSystem": .optionalString(\.sourceSystem),
        ]
    }
}
