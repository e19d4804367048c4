import Foundation
import SportsTimeCore

/// The outcome of resolving one raw name.
public enum NameResolution: Hashable, Sendable {
    /// Exactly one canonical id.
    case resolved(String)
    /// Several canonical ids match equally well (sorted); never guessed between.
    case ambiguous([String])
    /// Nothing matches on that date.
    case unresolved

    /// The id when resolved.
    public var id: String? {
        if case .resolved(let id) = self { return id }
        return nil
    }
}

/// Resolves raw team and stadium names to canonical ids, through names valid on the game's date.
///
/// Built once from `ReferenceData`; every name is indexed by `Slug.matchKey`, so a lookup is one
/// dictionary access plus a scan of the few entries that share the key. Names are tried in tiers,
/// and the first tier with a match decides — two different ids in that tier make the name ambiguous:
///
/// 1. aliases of the batch's source system (`retrosheet` `CHN`, `nba-cdn` `PHX (Suns)`), valid on the date;
/// 2. aliases without a source system, valid on the date;
/// 3. the names in the reference records themselves — for teams the abbreviation, the name and the
///    full name (market + name); for stadiums the name. Record names are valid on every date,
///    because sources print today's names on old games (ESPN); a former name is an alias with dates;
/// 4. teams only: the market alone (`Boston`), which is ambiguous when a market has two teams.
///
/// Aliases of another source system are never used. Validity is inclusive at both ends.
public struct AliasResolver: Sendable {
    /// One name that leads to a canonical id.
    struct Entry: Sendable {
        enum Origin: Sendable, Hashable {
            case alias(system: String?)
            case record
            case market
        }

        var targetId: String
        var origin: Origin
        var validFrom: LocalDate?
        var validUntil: LocalDate?
        /// The name as the reference spells it.
        var name: String
        /// The name's match key and words, computed once for lookups and suggestions.
        var prepared: NameSimilarity.Prepared

        init(targetId: String, origin: Origin, validFrom: LocalDate? = nil, validUntil: LocalDate? = nil, name: String) {
            self.targetId = targetId; self.origin = origin; self.validFrom = validFrom; self.validUntil = validUntil
            self.name = name; self.prepared = NameSimilarity.Prepared(name)
        }

        init(_ pending: Pending) {
            self.init(
                targetId: pending.targetId, origin: pending.origin, validFrom: pending.validFrom,
                validUntil: pending.validUntil, name: pending.name)
        }

        var key: String { prepared.keyText }

        /// The tier this entry belongs to for a batch of `system`; nil when it does not apply.
        func tier(for system: String?) -> Int? {
            switch origin {
            case .alias(let own?): return own == system ? 0 : nil
            case .alias(nil): return 1
            case .record: return 2
            case .market: return 3
            }
        }

        func isValid(on date: LocalDate) -> Bool {
            (validFrom.map { $0 <= date } ?? true) && (validUntil.map { date <= $0 } ?? true)
        }
    }

    /// An entry before its name is prepared: the reference's ~2,000 names are prepared at once, on all cores.
    struct Pending: Sendable {
        var targetId: String
        var origin: Entry.Origin
        var validFrom: LocalDate? = nil
        var validUntil: LocalDate? = nil
        var name: String
    }

    /// The entries that share one match key, and whether any of them has validity dates (when none
    /// has, the outcome is the same on every date).
    struct Bucket: Sendable {
        var entries: [Entry] = []
        var isDated = false
        mutating func add(_ entry: Entry) {
            entries.append(entry)
            isDated = isDated || entry.validFrom != nil || entry.validUntil != nil
        }
    }

    /// A resolution and whether it could differ on another date.
    struct Lookup: Sendable {
        var resolution: NameResolution
        var isDated: Bool
    }

    /// What a game needs of a team: its id and its homes.
    struct TeamFacts: Sendable {
        let id: String
        let homeStadiumId: String
        /// Its dated homes (`team-homes.csv`), in `TeamHomeSpell.precedes` order; empty when it has none.
        let spells: [TeamHomeSpell]
        /// Its alternate homes (`team-homes.csv` rows with role `alternate`): also homes on their dates.
        var alternates: [TeamHomeSpell] = []

        /// Whether the team has dated homes, so that its home can differ between dates.
        var hasDatedHomes: Bool { !spells.isEmpty }

        /// The home on `date`: the dated home that contains it, else `homeStadiumId` (as
        /// `AliasResolver.homeStadiumId(of:on:)`).
        func homeStadiumId(on date: LocalDate) -> String {
            for spell in spells where spell.isValid(on: date) { return spell.stadiumId }
            return homeStadiumId
        }

        /// Whether `stadiumId` is a home of the team on `date`: its home then, or an alternate home then.
        func isHome(_ stadiumId: String, on date: LocalDate) -> Bool {
            homeStadiumId(on: date) == stadiumId || alternates.contains { $0.stadiumId == stadiumId && $0.isValid(on: date) }
        }
    }

    /// What a game needs of a stadium, with its zone looked up once.
    struct StadiumFacts: Sendable {
        let id: String
        let name: String
        /// The zone as the reference spells it.
        let timeZoneName: String
        let openedYear: Int?
        /// The IANA zone; nil when `timeZoneName` is not one.
        let zone: TimeZone?
    }

    /// Sport → match key → entries.
    private let teamIndex: [String: [String: Bucket]]
    /// Match key → entries.
    private let stadiumIndex: [String: Bucket]
    /// Every team entry per sport, for suggestions.
    let teamEntriesBySport: [String: [Entry]]
    /// Every stadium entry, for suggestions.
    let stadiumEntries: [Entry]
    private let stadiumsById: [String: Stadium]
    /// Team id → its dated homes (`ReferenceData.teamHomes`), in `TeamHomeSpell.precedes` order.
    private let homeSpellsByTeam: [String: [TeamHomeSpell]]
    /// Sport → stadium id → ids of the teams of that sport whose home it is on some date: by `homeStadiumId`
    /// or by a dated home (sorted). Which of them it is home to on a date is `homeTeams(of:sport:on:)`.
    private let homeCandidatesByStadium: [String: [String: [String]]]
    private let knownSports: Set<String>
    private let sportsById: [String: Sport]
    private let teamFactsById: [String: TeamFacts]
    private let stadiumFactsById: [String: StadiumFacts]

    public init(reference: ReferenceData) {
        var teamsById: [String: Team] = [:]
        for team in reference.teams { teamsById[team.id] = team }
        var stadiumsById: [String: Stadium] = [:]
        for stadium in reference.stadiums { stadiumsById[stadium.id] = stadium }

        var teamEntries: [Pending] = []
        var teamSports: [String] = []
        func addTeam(_ entry: Pending, sport: String) {
            teamEntries.append(entry); teamSports.append(sport)
        }
        var homes: [String: [String: Set<String>]] = [:]
        for team in reference.teams.sorted(by: { $0.id < $1.id }) {
            addTeam(Pending(targetId: team.id, origin: .record, name: team.abbreviation), sport: team.sport)
            addTeam(Pending(targetId: team.id, origin: .record, name: team.name), sport: team.sport)
            addTeam(Pending(targetId: team.id, origin: .record, name: team.fullName), sport: team.sport)
            if !team.market.isEmpty {
                addTeam(Pending(targetId: team.id, origin: .market, name: team.market), sport: team.sport)
            }
            homes[team.sport, default: [:]][team.homeStadiumId, default: []].insert(team.id)
        }
        var spells: [String: [TeamHomeSpell]] = [:]
        for spell in reference.teamHomes.sorted(by: TeamHomeSpell.precedes) where spell.role == .home {
            guard let team = teamsById[spell.teamId] else { continue }
            spells[team.id, default: []].append(spell)
            homes[team.sport, default: [:]][spell.stadiumId, default: []].insert(team.id)
        }
        for alias in reference.teamAliases.sorted(by: { $0.id < $1.id }) {
            guard let team = teamsById[alias.teamId] else { continue }
            addTeam(
                Pending(
                    targetId: team.id, origin: .alias(system: alias.sourceSystem.map { $0.lowercased() }),
                    validFrom: alias.validFrom, validUntil: alias.validUntil, name: alias.value), sport: team.sport)
        }

        var stadiumPending: [Pending] = []
        for stadium in reference.stadiums.sorted(by: { $0.id < $1.id }) {
            stadiumPending.append(Pending(targetId: stadium.id, origin: .record, name: stadium.name))
        }
        for alias in reference.stadiumAliases.sorted(by: { $0.id < $1.id }) where stadiumsById[alias.stadiumId] != nil {
            stadiumPending.append(
                Pending(
                    targetId: alias.stadiumId,
                    origin: .alias(system: alias.sourceSystem.map { $0.lowercased() }),
                    validFrom: alias.validFrom, validUntil: alias.validUntil, name: alias.name))
        }

        // Every name prepared (its match key and words) on all cores, in the order listed.
        let prepared = (teamEntries + stadiumPending).parallelMapInRuns(minimumRun: 128) { Entry($0) }
        let stadiumEntries = Array(prepared[teamEntries.count...])
        var teamIndex: [String: [String: Bucket]] = [:]
        var bySport: [String: [Entry]] = [:]
        for (entry, sport) in zip(prepared[..<teamEntries.count], teamSports) where !entry.key.isEmpty {
            teamIndex[sport, default: [:]][entry.key, default: Bucket()].add(entry)
            bySport[sport, default: []].append(entry)
        }
        var stadiumIndex: [String: Bucket] = [:]
        for entry in stadiumEntries where !entry.key.isEmpty {
            stadiumIndex[entry.key, default: Bucket()].add(entry)
        }
        var zones: [String: TimeZone] = [:]
        for stadium in reference.stadiums where ZonedTime.isValidZone(stadium.timeZone) {
            zones[stadium.id] = ZonedTime.zone(stadium.timeZone)
        }

        var sportsById: [String: Sport] = [:]
        for sport in reference.sports { sportsById[sport.id] = sport }
        self.teamIndex = teamIndex; self.stadiumIndex = stadiumIndex
        self.teamEntriesBySport = bySport; self.stadiumEntries = stadiumEntries
        self.stadiumsById = stadiumsById
        self.homeSpellsByTeam = spells
        self.homeCandidatesByStadium = homes.mapValues { $0.mapValues { $0.sorted() } }
        self.knownSports = Set(reference.sports.map(\.id)); self.sportsById = sportsById
        self.stadiumFactsById = stadiumsById.mapValues { stadium in
            StadiumFacts(
                id: stadium.id, name: stadium.name, timeZoneName: stadium.timeZone, openedYear: stadium.openedYear,
                zone: zones[stadium.id])
        }
        var alternates: [String: [TeamHomeSpell]] = [:]
        for spell in reference.teamHomes.sorted(by: TeamHomeSpell.precedes) where spell.role == .alternate {
            alternates[spell.teamId, default: []].append(spell)
        }
        self.teamFactsById = teamsById.mapValues { team in
            TeamFacts(
                id: team.id, homeStadiumId: team.homeStadiumId, spells: spells[team.id] ?? [],
                alternates: alternates[team.id] ?? [])
        }
    }

    /// The sport with this id (built in or dynamic).
    public func sport(id: String) -> Sport? { sportsById[id] }

    // MARK: Lookups

    /// What a game needs of the team with this id.
    func teamFacts(id: String) -> TeamFacts? { teamFactsById[id] }

    /// What a game needs of the stadium with this id.
    func stadiumFacts(id: String) -> StadiumFacts? { stadiumFactsById[id] }

    /// Whether the reference defines this sport (built in or dynamic).
    public func isKnownSport(_ sport: String) -> Bool { knownSports.contains(sport) }

    /// The sports the reference defines, sorted.
    public var sports: [String] { knownSports.sorted() }

    /// The team's home stadium on `date`: its dated home (`team-homes.csv`) that contains the date, else
    /// `team.homeStadiumId`. The same answer as `ReferenceData.homeStadiumId(of:on:)`, from an index.
    public func homeStadiumId(of team: Team, on date: LocalDate) -> String {
        guard let spells = homeSpellsByTeam[team.id] else { return team.homeStadiumId }
        for spell in spells where spell.isValid(on: date) { return spell.stadiumId }
        return team.homeStadiumId
    }

    /// Whether the team has dated homes, so that its home can differ between dates.
    public func hasDatedHomes(_ teamId: String) -> Bool { homeSpellsByTeam[teamId] != nil }

    /// Ids of the teams of `sport` whose home on `date` is `stadiumId`, sorted.
    public func homeTeams(of stadiumId: String, sport: String, on date: LocalDate) -> [String] {
        guard let candidates = homeCandidatesByStadium[sport]?[stadiumId] else { return [] }
        return candidates.filter { teamFactsById[$0]?.homeStadiumId(on: date) == stadiumId }
    }

    // MARK: Resolution

    /// Resolves a raw team name of `sport`, as printed by a source of `system`, on `date`.
    public func resolveTeam(_ name: String, sport: String, system: String?, on date: LocalDate) -> NameResolution {
        lookUpTeam(key: Slug.matchKey(name), sport: sport, system: system?.lowercased(), on: date).resolution
    }

    /// As `resolveTeam(_:sport:system:on:)` with the name's match key already computed.
    func lookUpTeam(key: String, sport: String, system: String?, on date: LocalDate) -> Lookup {
        guard !key.isEmpty, let bucket = teamIndex[sport]?[key] else { return Lookup(resolution: .unresolved, isDated: false) }
        return Lookup(resolution: Self.pick(bucket.entries, system: system, on: date), isDated: bucket.isDated)
    }

    /// Resolves a raw venue name on `date`. When several stadiums share the name, the one in `city`
    /// wins, else the one that is `homeStadiumId` (the home team's home on `date`); otherwise the name is ambiguous.
    public func resolveStadium(
        _ name: String, city: String?, system: String?, on date: LocalDate,
        homeStadiumId: String? = nil
    ) -> NameResolution {
        lookUpStadium(
            key: Slug.matchKey(name), cityKey: city.map(Slug.matchKey), system: system?.lowercased(),
            on: date, homeStadiumId: homeStadiumId
        ).resolution
    }

    /// As `resolveStadium(_:city:system:on:homeStadiumId:)` with match keys already computed.
    func lookUpStadium(
        key: String, cityKey: String?, system: String?, on date: LocalDate,
        homeStadiumId: String?
    ) -> Lookup {
        guard !key.isEmpty, let bucket = stadiumIndex[key] else { return Lookup(resolution: .unresolved, isDated: false) }
        var lookup = Lookup(resolution: Self.pick(bucket.entries, system: system, on: date), isDated: bucket.isDated)
        guard case .ambiguous(let ids) = lookup.resolution else { return lookup }
        if let cityKey, !cityKey.isEmpty {
            let inCity = ids.filter { stadiumsById[$0].map { Slug.matchKey($0.city) == cityKey } ?? false }
            if inCity.count == 1 {
                lookup.resolution = .resolved(inCity[0])
                return lookup
            }
        }
        if let homeStadiumId, ids.contains(homeStadiumId) { lookup.resolution = .resolved(homeStadiumId) }
        return lookup
    }

    /// The first tier (see the type's documentation) with entries valid on `date` decides.
    private static func pick(_ entries: [Entry], system: String?, on date: LocalDate) -> NameResolution {
        var bestTier = Int.max
        var ids: [String] = []
        for entry in entries {
            guard let tier = entry.tier(for: system), tier <= bestTier, entry.isValid(on: date) else { continue }
            if tier < bestTier {
                bestTier = tier
                ids = [entry.targetId]
            } else if !ids.contains(entry.targetId) {
                ids.append(entry.targetId)
            }
        }
        switch ids.count {
        case 0: return .unresolved
        case 1: return .resolved(ids[0])
        default: return .ambiguous(ids.sorted())
        }
    }
}
