import Foundation
import SportsTimeCore

/// The built-in formats' mappings. They are written in the same YAML a source would use with
/// `csv-mapping` / `json-mapping`, and decoded by the same strict decoder: a built-in format is a
/// named preset plus, for a few, a table reader that understands the file's structure (Retrosheet's
/// notes, iCalendar events, Basketball-Reference section rows).
public enum BuiltInFormats {
    /// The preset mapping of a built-in format; an empty mapping for the generic ones.
    public static func preset(for format: SourceFormat) throws -> MappingSpec {
        guard let text = presetYAML[format] else { return MappingSpec() }
        return try StrictYAML.decode(MappingSpec.self, from: text, path: "built-in preset \(format.rawValue)")
    }

    /// The YAML of each preset, for documentation and tests.
    public static let presetYAML: [SourceFormat: String] = [
        .retrosheet: """
        # Columns come from RetrosheetTable (12 quoted columns + status/makeupDate/playedAt read from the notes).
        fields:
          date: {from: date, layout: yyyyMMdd}
          gameNumber: gameNumber
          awayTeam: visitor
          homeTeam: home
          venue: {from: playedAt}
          dayNight: {from: dayNight, values: {d: day, n: night}}
          status: status
          makeupDate: {from: makeupDate, layout: yyyy-MM-dd}
          season: {from: date, match: '^([0-9]{4})'}
        """,
        .nbaScheduleCSV: nbaFields,
        .nbaScheduleJSON: "records: games\n" + nbaFields,
        .nhlScheduleCSV: """
        # game_date is the local date, game_time the UTC instant; teams by abbreviation.
        fields:
          id: game_id
          season: season_full
          kind: {from: game_type, values: {PR: preseason, R: regular, P: postseason, A: exhibition,
                                           "1": preseason, "2": regular, "3": postseason, "4": exhibition}}
          date: {from: game_date, layout: yyyy-MM-dd, zone: venue}
          start: {from: game_time, layout: iso8601}
          homeTeam: home_team_abbr
          awayTeam: away_team_abbr
          venue: venue
          status: {from: game_state, values: {OFF: final, FINAL: final, FUT: scheduled, PRE: scheduled,
                                              LIVE: scheduled, CRIT: scheduled, PPD: postponed, CNCL: cancelled},
                   default: scheduled}
        """,
        .bbrefCSV: """
        # Basketball-Reference schedule export. Dates like 'Fri May 19 2023'; start times, when the
        # export has them, are Eastern; no venue unless an Arena column exists.
        fields:
          date: {from: Date, layout: ["EEE MMM d yyyy", "EEE, MMM d, yyyy", "yyyy-MM-dd"]}
          time: {from: ["Start (ET)", "Start", "Time"], optional: true, layout: ["h:mma", "h:mm a", "H:mm"],
                 zone: America/New_York}
          awayTeam: Visitor/Neutral
          homeTeam: Home/Neutral
          venue: {from: Arena, optional: true}
          status: {from: PTS, ifPresent: final, ifEmpty: scheduled}
          # The visitor's points come first, the home team's second: the status is checked against them.
          awayScore: {from: PTS, optional: true}
          homeScore: {from: PTS.2, optional: true}
          kind: {from: section, values: {Playoffs: postseason, Play-In Tournament: postseason}, default: regular}
        """,
        .nflverseCSV: """
        # gameday + gametime are US/Eastern wall-clock: declare naiveTimeZone America/New_York.
        fields:
          id: {from: [espn, game_id]}
          season: season
          kind: {from: game_type, values: {REG: regular, WC: postseason, DIV: postseason, CON: postseason,
                                           SB: postseason, PRE: preseason}}
          date: {from: gameday, layout: yyyy-MM-dd}
          time: {from: gametime, layout: ["HH:mm", "HH:mm:ss"]}
          awayTeam: away_team
          homeTeam: home_team
          venue: stadium
          neutralSite: {from: location, values: {Neutral: "true", Home: "false"}}
          status: {from: home_score, ifPresent: final, ifEmpty: scheduled}
          homeScore: home_score
          awayScore: away_score
        """,
        .spreadspokeCSV: """
        # Dates only (M/D/YYYY); full team names; schedule_playoff TRUE/FALSE.
        fields:
          season: schedule_season
          kind: {from: schedule_playoff, values: {"TRUE": postseason, "FALSE": regular}}
          date: {from: schedule_date, layout: ["M/d/yyyy", "yyyy-MM-dd"]}
          homeTeam: team_home
          awayTeam: team_away
          venue: stadium
          neutralSite: stadium_neutral
          status: {from: score_home, ifPresent: final, ifEmpty: scheduled}
          homeScore: score_home
          awayScore: score_away
        """,
        .espnCSV: espnYAML,
        .ical: """
        # Columns come from ICalendarTable (one row per VEVENT).
        fields:
          id: uid
          homeTeam: home
          awayTeam: away
          venue: venue
          city: city
          start: {from: start, layout: iso8601}
          date: {from: date, layout: yyyy-MM-dd}
          time: {from: time, layout: "HH:mm"}
          status: status
        """,
    ]

    private static let nbaFields = """
        # The league feed: use tip_utc (tip_et always says -05:00, even in daylight time).
        fields:
          id: game_id
          kind: {from: season_type, values: {Preseason: preseason, Regular Season: regular, Playoffs: postseason,
                                             Play-In: postseason, PlayIn: postseason, All-Star: exhibition}}
          start: {from: tip_utc, layout: iso8601}
          timeTBD: is_tbd
          homeTeam: home_team
          awayTeam: away_team
          venue: venue
          city: city
        """

    private static let espnYAML = """
        # ESPN-style games table: date is the UTC date, utc_time the UTC time; nicknames for teams.
        # Season and kind come from season_dates.csv beside it when present.
        lookups:
          - {name: seasonDates, file: season_dates.csv, key: date, match: date, optional: true}
        fields:
          id: game_id
          date: {from: date, layout: yyyy-MM-dd, zone: UTC}
          time: {from: utc_time, layout: ["HH:mm", "HH:mm:ss"], zone: UTC}
          homeTeam: home_team_name
          awayTeam: away_team_name
          venue: venue_name
          season: {from: seasonDates.season_year, optional: true}
          kind: {from: seasonDates.season_type, optional: true,
                 values: {Regular Season: regular, Post Season: postseason, Preseason: preseason}}
        """
}
