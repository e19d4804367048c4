import SportsTimeCore

/// One builder per record type: a test names the fields it checks and gets plain defaults for the rest.
public enum TestRecords {
    /// The `lastModified` of a record a test does not date.
    public static let stamp = Instant(iso8601: "2026-01-15T00:00:00Z")!

    /// A game; its id is `Game.makeId` of its sport, season (default: the date's year), date, teams and
    /// number, and its start is exact when it has one (else unknown) unless `startKnowledge` says otherwise.
    public static func game(
        id: String? = nil, sport: String = "mlb", season: String? = nil, kind: GameKind = .regular, date: LocalDate,
        start: Instant? = nil, startKnowledge: StartKnowledge? = nil, away: String, home: String, stadium: String,
        neutralSite: Bool = false, number: Int? = nil, status: GameStatus = .scheduled, makeupDate: LocalDate? = nil,
        sourceIds: [String: String] = [:], deprecatedAt: Instant? = nil, formerIds: [String]? = nil,
        provenance: String? = nil, inferred: [InferredField]? = nil, lastModified: Instant = stamp,
        schemaVersion: Int = ArtifactKind.games.currentVersion, source: String = "test"
    ) -> Game {
        let season = season ?? String(date.year)
        return Game(
            id: id
                ?? Game.makeId(sport: sport, season: season, localDate: date, awayTeamId: away, homeTeamId: home, gameNumber: number),
            sport: sport, season: season, kind: kind, startUTC: start, localDate: date,
            startKnowledge: startKnowledge ?? (start == nil ? .unknown : .exact), homeTeamId: home, awayTeamId: away,
            stadiumId: stadium, neutralSite: neutralSite, gameNumber: number, status: status, makeupDate: makeupDate,
            sourceIds: sourceIds, deprecatedAt: deprecatedAt, formerIds: formerIds, provenance: provenance,
            inferred: inferred, lastModified: lastModified, schemaVersion: schemaVersion, source: source)
    }

    /// A stadium; its name is its id's words capitalized (`park-mlb-bos` → `Park Mlb Bos`) unless given.
    public static func stadium(
        _ id: String, name: String? = nil, city: String = "City", region: String = "NY", country: String = "US",
        latitude: Double = 40.5, longitude: Double = -73.5, timeZone: String = "America/New_York",
        capacity: Int? = nil, openedYear: Int? = nil, lastModified: Instant = stamp, schemaVersion: Int = 1,
        source: String = "reference"
    ) -> Stadium {
        Stadium(
            id: id, name: name ?? id.split(separator: "-").map { $0.capitalized }.joined(separator: " "), city: city,
            region: region, country: country, latitude: latitude, longitude: longitude, timeZone: timeZone,
            capacity: capacity, openedYear: openedYear, lastModified: lastModified, schemaVersion: schemaVersion,
            source: source)
    }

    /// A team; its sport is its id's prefix (`mlb-bos` → `mlb`), its abbreviation its id's last part upper-cased.
    public static func team(
        _ id: String, sport: String? = nil, market: String = "Market", name: String? = nil, abbreviation: String? = nil,
        homeStadiumId: String, divisionId: String? = nil, lastModified: Instant = stamp, source: String = "reference"
    ) -> Team {
        Team(
            id: id, sport: sport ?? String(id.prefix { $0 != "-" }), market: market, name: name ?? id.uppercased(),
            abbreviation: abbreviation ?? String(id.split(separator: "-").last ?? "").uppercased(),
            homeStadiumId: homeStadiumId, divisionId: divisionId, lastModified: lastModified, source: source)
    }
}
