import Foundation
import SportsTimeCore
import SportsTimeTestSupport
@testable import SportsTimePlan

/// Builds `Stadium`, `Team` and `Game` values from the real files in `Fixtures/realdata` (see
/// `Fixtures/SOURCES.md`), so the planner is tested and measured on real geography and schedules.
enum RealData {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures")
    static let realdata = fixtures.appendingPathComponent("realdata")
    static let stamp = Instant(utc: LocalDate(year: 2025, month: 9, day: 1)!)

    /// Everything, loaded once.
    static let shared: PlanCatalog = {
        let venues = Venues.load()
        let games = mlb2023(venues) + nba2025(venues) + nhl2025(venues) + mls2025(venues)
        return PlanCatalog(sports: [], stadiums: venues.stadiums, teams: venues.teams, games: games)
    }()

    static func rows(_ name: String) -> (CSVHeader, [CSVRow]) {
        let data = (try? Data(contentsOf: realdata.appendingPathComponent(name))) ?? Data()
        var rows = CSVReader().read(data).rows
        let header = CSVHeader(rows.removeFirst().fields)
        return (header, rows)
    }

    struct Venues {
        var stadiums: [Stadium] = []
        var teams: [Team] = []
        var stadiumById: [String: Stadium] = [:]
        /// `mlb-bos` → `fenway-park`.
        var homeOf: [String: String] = [:]
        /// `mls` team name slug → team id.
        var teamByName: [String: String] = [:]

        static func load() -> Venues {
            var v = Venues()
            var supplementary: [String: [String]] = [:]
            let (sh, srows) = RealData.rows("supplementary_venues.csv")
            for row in srows { supplementary[Slug.make(sh.value("venue_name", in: row) ?? "")] = row.fields }
            func add(_ name: String, city: String, region: String, country: String, lat: String, lon: String, tz: String) {
                let id = Slug.make(name)
                guard v.stadiumById[id] == nil, let la = Double(lat), let lo = Double(lon), !tz.isEmpty else { return }
                let s = Stadium(
                    id: id, name: name, city: city, region: region, country: country, latitude: la, longitude: lo,
                    timeZone: tz, lastModified: stamp, source: "test")
                v.stadiumById[id] = s
                v.stadiums.append(s)
            }
            for row in srows {
                func f(_ n: String) -> String { sh.value(n, in: row) ?? "" }
                add(
                    f("venue_name"), city: f("city"), region: f("region"), country: f("country"), lat: f("latitude"),
                    lon: f("longitude"), tz: f("tz"))
            }
            let (h, rows) = RealData.rows("current_venues.csv")
            for row in rows {
                func f(_ n: String) -> String { h.value(n, in: row) ?? "" }
                let league = f("league").lowercased(), venue = f("venue_name"), teamName = f("team_name")
                guard !venue.isEmpty else { continue }
                var city = f("city"), region = f("region"), lat = f("latitude"), lon = f("longitude"), tz = f("tz")
                if let s = supplementary[Slug.make(venue)] {
                    if lat.isEmpty { lat = s[sh.column("latitude")!]; lon = s[sh.column("longitude")!] }
                    if city.isEmpty { city = s[sh.column("city")!] }
                    if region.isEmpty { region = s[sh.column("region")!] }
                    if tz.isEmpty { tz = s[sh.column("tz")!] }
                }
                add(venue, city: city, region: region, country: f("country"), lat: lat, lon: lon, tz: tz)
                let abbr = f("team_abbr")
                let teamId = abbr.isEmpty ? "\(league)-\(Slug.make(teamName))" : "\(league)-\(abbr.lowercased())"
                guard v.stadiumById[Slug.make(venue)] != nil, v.homeOf[teamId] == nil else { continue }
                v.homeOf[teamId] = Slug.make(venue)
                v.teamByName[Slug.make(teamName)] = teamId
                let words = teamName.split(separator: " ")
                v.teams.append(
                    Team(
                        id: teamId, sport: league, market: words.dropLast().joined(separator: " "),
                        name: String(words.last ?? ""), abbreviation: abbr.isEmpty ? teamId : abbr,
                        homeStadiumId: Slug.make(venue), lastModified: stamp, source: "test"))
            }
            return v
        }
    }

    static func game(
        _ sport: String, _ season: String, date: LocalDate, start: Instant?, away: String, home: String,
        stadium: String, number: Int? = nil, knowledge: StartKnowledge? = nil
    ) -> Game {
        TestRecords.game(
            sport: sport, season: season, date: date, start: start, startKnowledge: knowledge, away: away, home: home,
            stadium: stadium, number: number, lastModified: stamp)
    }

    // MARK: MLB 2023 (Retrosheet)

    static let retrosheet: [String: String] = [
        "ANA": "LAA", "CHA": "CHW", "CHN": "CHC", "KCA": "KCR", "LAN": "LAD", "NYA": "NYY", "NYN": "NYM",
        "SDN": "SDP", "SFN": "SFG", "SLN": "STL", "TBA": "TBR", "WAS": "WSN",
    ]

    static func mlb2023(_ venues: Venues) -> [Game] {
        let data = (try? Data(contentsOf: realdata.appendingPathComponent("2023SKED.TXT"))) ?? Data()
        var games: [Game] = []
        for row in CSVReader().read(data).rows where row.fields.count >= 12 {
            let f = row.fields
            guard let date = LocalDate(iso8601: f[0]), f[10].isEmpty else { continue } // skip postponed
            func team(_ code: String) -> String { "mlb-" + (retrosheet[code] ?? code).lowercased() }
            let away = team(f[3]), home = team(f[6])
            var stadium = venues.homeOf[home] ?? ""
            switch home {
            case "mlb-oak": stadium = "oakland-coliseum"
            case "mlb-tbr": stadium = "tropicana-field"
            case "mlb-chw": stadium = "guaranteed-rate-field"
            default: break
            }
            if date.iso8601 == "2023-06-24" || date.iso8601 == "2023-06-25", home == "mlb-stl" { stadium = "london-stadium" }
            if date.iso8601 == "2023-04-29" || date.iso8601 == "2023-04-30", home == "mlb-sdp" { stadium = "estadio-alfredo-harp-helu" }
            guard venues.stadiumById[stadium] != nil else { continue }
            let number = Int(f[1]).flatMap { $0 > 0 ? $0 : nil }
            // Retrosheet's day/night flag: the only start-time knowledge the schedule gives.
            let knowledge: StartKnowledge =
                switch f[9].lowercased() {
                case "d": .day;
                case "n": .night;
                default: .unknown
                }
            games.append(
                game(
                    "mlb", "2023", date: date, start: nil, away: away, home: home, stadium: stadium, number: number,
                    knowledge: knowledge))
        }
        return games
    }

    // MARK: NBA 2025-26

    static func nba2025(_ venues: Venues) -> [Game] {
        let (h, rows) = RealData.rows("nba_2025_26_schedule.csv")
        var games: [Game] = []
        for row in rows {
            func f(_ n: String) -> String { h.value(n, in: row) ?? "" }
            let awayText = f("away_team"), homeText = f("home_team")
            guard awayText.count >= 3, homeText.count >= 3, let tip = Instant(iso8601: f("tip_utc")) else { continue }
            let away = "nba-" + awayText.prefix(3).lowercased(), home = "nba-" + homeText.prefix(3).lowercased()
            var stadium = Slug.make(f("venue"))
            if venues.stadiumById[stadium] == nil { stadium = venues.homeOf[home] ?? "" }
            guard let s = venues.stadiumById[stadium], let zone = ZonedTime.zone(s.timeZone) else { continue }
            let date = ZonedTime.localDate(of: tip, in: zone)
            var g = game("nba", "2025-26", date: date, start: tip, away: away, home: home, stadium: stadium)
            if f("season_type") == "Preseason" { g.kind = .preseason }
            games.append(g)
        }
        return games
    }

    // MARK: NHL 2025-26

    static func nhl2025(_ venues: Venues) -> [Game] {
        let (h, rows) = RealData.rows("nhl_schedule_2026.csv")
        var games: [Game] = []
        for row in rows where h.value("game_type", in: row) == "R" {
            func f(_ n: String) -> String { h.value(n, in: row) ?? "" }
            guard let date = LocalDate(iso8601: f("game_date")), let start = Instant(iso8601: f("game_time")) else { continue }
            let away = "nhl-" + f("away_team_abbr").lowercased(), home = "nhl-" + f("home_team_abbr").lowercased()
            var stadium = Slug.make(f("venue"))
            if venues.stadiumById[stadium] == nil { stadium = venues.homeOf[home] ?? "" }
            guard venues.stadiumById[stadium] != nil else { continue }
            games.append(game("nhl", "2025-26", date: date, start: start, away: away, home: home, stadium: stadium))
        }
        return games
    }

    // MARK: MLS 2025 (iCalendar)

    static func mls2025(_ venues: Venues) -> [Game] {
        let dir = realdata.appendingPathComponent("mls-ical-2025")
        let files = ((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []).filter { $0.hasSuffix(".ics") }.sorted()
        var byUID: [String: Game] = [:]
        for name in files {
            let text = (try? String(contentsOf: dir.appendingPathComponent(name), encoding: .utf8)) ?? ""
            // Unfold continuation lines, then read events.
            let lines = text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\n ", with: "")
                .split(separator: "\n").map(String.init)
            var event: [String: String] = [:]
            for line in lines {
                if line == "BEGIN:VEVENT" { event = [:]; continue }
                if line == "END:VEVENT" {
                    defer { event = [:] }
                    guard let uid = event["UID"], byUID[uid] == nil, (event["DESCRIPTION"] ?? "").hasPrefix("MLS - Regular Season"),
                        let summary = event["SUMMARY"], let start = Instant(iso8601: event["DTSTART"] ?? "")
                    else { continue }
                    let parts = summary.replacingOccurrences(of: "*", with: "").components(separatedBy: " vs. ")
                    guard parts.count == 2, let home = venues.teamByName[Slug.make(parts[0])],
                        let away = venues.teamByName[Slug.make(parts[1])]
                    else { continue }
                    let venueName = (event["LOCATION"] ?? "").components(separatedBy: "\\,").first ?? ""
                    var stadium = Slug.make(venueName)
                    if venues.stadiumById[stadium] == nil { stadium = venues.homeOf[home] ?? "" }
                    guard let s = venues.stadiumById[stadium], let zone = ZonedTime.zone(s.timeZone) else { continue }
                    byUID[uid] = game(
                        "mls", "2025", date: ZonedTime.localDate(of: start, in: zone), start: start,
                        away: away, home: home, stadium: stadium)
                    continue
                }
                if let colon = line.firstIndex(of: ":") {
                    event[String(line[..<colon])] = String(line[line.index(after: colon)...])
                }
            }
        }
        return byUID.keys.sorted().map { byUID[$0]! }
    }
}
