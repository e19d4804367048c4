import Foundation
import SportsTimeCore
import SportsTimeTestSupport
import SportsTimeNormalize

/// A small hand-built reference: enough teams, stadiums and aliases for every rule under test.
enum TestReference {
    static let modified = Instant(utc: LocalDate(year: 2026, month: 1, day: 1)!)

    static func date(_ text: String) -> LocalDate {
        guard let value = LocalDate(iso8601: text) else { preconditionFailure("bad test date \(text)") }
        return value
    }

    static func instant(_ text: String) -> Instant {
        guard let value = Instant(iso8601: text) else { preconditionFailure("bad test instant \(text)") }
        return value
    }

    static func stadium(
        _ id: String, _ name: String, _ city: String, _ region: String, _ zone: String,
        country: String = "US"
    ) -> Stadium {
        TestRecords.stadium(
            id, name: name, city: city, region: region, country: country, latitude: 40, longitude: -75, timeZone: zone,
            lastModified: modified)
    }

    static func team(_ sport: String, _ abbreviation: String, _ market: String, _ name: String, home: String) -> Team {
        TestRecords.team(
            "\(sport)-\(abbreviation.lowercased())", sport: sport, market: market, name: name, abbreviation: abbreviation,
            homeStadiumId: home, lastModified: modified)
    }

    static func teamAlias(
        _ teamId: String, _ kind: TeamAlias.Kind, _ value: String, from: String? = nil,
        until: String? = nil, system: String? = nil
    ) -> TeamAlias {
        let parts = [teamId, kind.rawValue, system ?? "", value, from ?? ""]
        return TeamAlias(
            id: Slug.make(parts.joined(separator: " ")), teamId: teamId, kind: kind, value: value,
            validFrom: from.map(date), validUntil: until.map(date), sourceSystem: system,
            lastModified: modified, source: "reference")
    }

    static func stadiumAlias(
        _ stadiumId: String, _ name: String, from: String? = nil, until: String? = nil,
        system: String? = nil
    ) -> StadiumAlias {
        StadiumAlias(
            id: Slug.make("\(stadiumId) \(name) \(from ?? "")"), stadiumId: stadiumId, name: name,
            validFrom: from.map(date), validUntil: until.map(date), sourceSystem: system,
            lastModified: modified, source: "reference")
    }

    static let data = ReferenceData(
        sports: BuiltInSport.allCases.map(\.sport),
        stadiums: [
            stadium("fenway-park", "Fenway Park", "Boston", "MA", "America/New_York"),
            stadium("yankee-stadium", "Yankee Stadium", "Bronx", "NY", "America/New_York"),
            stadium("wrigley-field", "Wrigley Field", "Chicago", "IL", "America/Chicago"),
            stadium("tropicana-field", "Tropicana Field", "St. Petersburg", "FL", "America/New_York"),
            stadium("progressive-field", "Progressive Field", "Cleveland", "OH", "America/New_York"),
            stadium("dodger-stadium", "Dodger Stadium", "Los Angeles", "CA", "America/Los_Angeles"),
            stadium("oracle-park", "Oracle Park", "San Francisco", "CA", "America/Los_Angeles"),
            stadium("oakland-coliseum", "Oakland Coliseum", "Oakland", "CA", "America/Los_Angeles"),
            stadium("sutter-health-park", "Sutter Health Park", "West Sacramento", "CA", "America/Los_Angeles"),
            stadium("london-stadium", "London Stadium", "London", "England", "Europe/London", country: "GB"),
            stadium("sofi-stadium", "SoFi Stadium", "Inglewood", "CA", "America/Los_Angeles"),
            stadium("highmark-stadium", "Highmark Stadium", "Orchard Park", "NY", "America/New_York"),
            stadium("metlife-stadium", "MetLife Stadium", "East Rutherford", "NJ", "America/New_York"),
            stadium("memorial-stadium-lincoln", "Memorial Stadium", "Lincoln", "NE", "America/Chicago"),
            stadium("memorial-stadium-champaign", "Memorial Stadium", "Champaign", "IL", "America/Chicago"),
            stadium("lenovo-center", "Lenovo Center", "Raleigh", "NC", "America/New_York"),
            stadium("honda-center", "Honda Center", "Anaheim", "CA", "America/Los_Angeles"),
            stadium("amerant-bank-arena", "Amerant Bank Arena", "Sunrise", "FL", "America/New_York"),
            stadium("rogers-place", "Rogers Place", "Edmonton", "AB", "America/Edmonton", country: "CA"),
            stadium("crypto-com-arena", "Crypto.com Arena", "Los Angeles", "CA", "America/Los_Angeles"),
            stadium("mullett-arena", "Mullett Arena", "Tempe", "AZ", "America/Phoenix"),
            stadium("delta-center", "Delta Center", "Salt Lake City", "UT", "America/Denver"),
            stadium("footprint-center", "Footprint Center", "Phoenix", "AZ", "America/Phoenix"),
            stadium("bad-zone-arena", "Bad Zone Arena", "Frankfurt", "HE", "Europe/Frankfurt", country: "DE"),
        ],
        teams: [
            team("mlb", "BOS", "Boston", "Red Sox", home: "fenway-park"),
            team("mlb", "NYY", "New York", "Yankees", home: "yankee-stadium"),
            team("mlb", "CHC", "Chicago", "Cubs", home: "wrigley-field"),
            team("mlb", "TB", "Tampa Bay", "Rays", home: "tropicana-field"),
            team("mlb", "CLE", "Cleveland", "Guardians", home: "progressive-field"),
            team("mlb", "LAD", "Los Angeles", "Dodgers", home: "dodger-stadium"),
            team("mlb", "SF", "San Francisco", "Giants", home: "oracle-park"),
            // A relocation: two team records, each with its own home; dated aliases say which is meant.
            team("mlb", "OAK", "Oakland", "Athletics", home: "oakland-coliseum"),
            team("mlb", "ATH", "", "Athletics", home: "sutter-health-park"),
            team("nfl", "BUF", "Buffalo", "Bills", home: "highmark-stadium"),
            team("nfl", "LAR", "Los Angeles", "Rams", home: "sofi-stadium"),
            team("nfl", "LAC", "Los Angeles", "Chargers", home: "sofi-stadium"),
            team("nfl", "NYG", "New York", "Giants", home: "metlife-stadium"),
            team("nfl", "NYJ", "New York", "Jets", home: "metlife-stadium"),
            team("nhl", "ANA", "Anaheim", "Ducks", home: "honda-center"),
            team("nhl", "FLA", "Florida", "Panthers", home: "amerant-bank-arena"),
            team("nhl", "EDM", "Edmonton", "Oilers", home: "rogers-place"),
            team("nhl", "CAR", "Carolina", "Hurricanes", home: "lenovo-center"),
            team("nhl", "LAK", "Los Angeles", "Kings", home: "crypto-com-arena"),
            team("nhl", "ARI", "Arizona", "Coyotes", home: "mullett-arena"),
            team("nhl", "UTA", "Utah", "Mammoth", home: "delta-center"),
            team("nhl", "FRA", "Frankfurt", "Test Club", home: "bad-zone-arena"),
            team("nba", "PHX", "Phoenix", "Suns", home: "footprint-center"),
            team("nba", "LAL", "Los Angeles", "Lakers", home: "crypto-com-arena"),
        ],
        leagueStructures: [],
        teamAliases: [
            teamAlias("mlb-chc", .sourceCode, "CHN", system: "retrosheet"),
            teamAlias("mlb-nyy", .sourceCode, "NYA", system: "retrosheet"),
            teamAlias("mlb-lad", .sourceCode, "LAN", system: "retrosheet"),
            teamAlias("mlb-tb", .sourceCode, "TBA", system: "retrosheet"),
            teamAlias("mlb-cle", .fullName, "Cleveland Indians", until: "2021-11-18"),
            teamAlias("mlb-cle", .name, "Indians", until: "2021-11-18"),
            teamAlias("mlb-oak", .name, "Athletics", until: "2024-09-29"),
            teamAlias("mlb-ath", .name, "Athletics", from: "2025-01-01"),
            teamAlias("mlb-ath", .fullName, "Sacramento Athletics", from: "2025-01-01"),
            teamAlias("nfl-lar", .sourceCode, "LA", system: "nflverse"),
            teamAlias("nba-phx", .sourceCode, "PHX (Suns)", system: "nba-cdn"),
            teamAlias("nhl-ari", .fullName, "Arizona Coyotes", until: "2024-04-17"),
            teamAlias("nhl-uta", .fullName, "Utah Hockey Club", from: "2024-04-18", until: "2025-05-07"),
        ],
        stadiumAliases: [
            stadiumAlias("lenovo-center", "PNC Arena", until: "2025-02-28"),
            stadiumAlias("progressive-field", "Jacobs Field", until: "2007-12-31"),
            stadiumAlias("oakland-coliseum", "O.co Coliseum", system: "espn"),
        ])
}

/// Hand-built raw games and batches.
enum RawFixture {
    static func game(
        _ id: String, source: String = "test", sport: String = "mlb", season: String = "2024",
        kind: GameKind = .regular, sourceGameId: String? = nil, home: String, away: String,
        venue: String? = nil, city: String? = nil, startUTC: String? = nil, date: String,
        dateZone: String = "venue", localTime: String? = nil, timeTBD: Bool = false,
        gameNumber: Int? = nil, status: GameStatus = .scheduled, makeupDate: String? = nil,
        neutral: Bool? = nil, line: Int? = nil
    ) -> RawGame {
        RawGame(
            id: "\(source):\(id)", source: source, sport: sport, season: season, kind: kind,
            sourceGameId: sourceGameId ?? id, homeTeam: home, awayTeam: away, venue: venue, city: city,
            startUTC: startUTC.map(TestReference.instant), date: TestReference.date(date), dateZone: dateZone,
            localTime: localTime, timeTBD: timeTBD, gameNumber: gameNumber, status: status,
            makeupDate: makeupDate.map(TestReference.date), neutralSite: neutral,
            provenance: "fixtures/scraped/\(source)/games.csv:\(line ?? (Int(id.filter(\.isNumber)) ?? 1))")
    }

    static func batch(
        _ source: String, system: String, sport: String = "mlb", season: String = "2024",
        scrapedAt: String = "2026-01-15T12:00:00Z", games: [RawGame]
    ) throws -> RawBatch {
        try RawBatch(
            path: "out/ingest/\(source)/games.json",
            meta: [
                .source: source, .system: system, .sport: sport, .season: season,
                .scope: "\(sport)-\(season)", .scrapedAt: scrapedAt, .priority: "10",
            ],
            games: games)
    }
}
