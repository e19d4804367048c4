import Foundation
import SportsTimeCore

// The documented keys of a plan request `fixtures/requests/<id>.yaml` (docs/yaml-reference.md, the editor
// schema pipeline/schemas/request.schema.json). A key added to RequestFile or one of its nested structs
// must be added to its CodingKeys here and documented in its table: the reference tests fail otherwise.

extension RequestFile {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case id, title, sports, firstDate, lastDate, start, end, objective, mustSee, requiredStadiums, homeTeams
        case maxDrivingHoursPerDay, drivingWindow, maxGamesPerDay, restDays, options, travel, search
    }
}

extension RequestFile.PlaceSpec {
    enum CodingKeys: String, CodingKey, CaseIterable { case stadium, city, region, latitude, longitude, name, timeZone }
}

extension RequestFile.MustSeeSpec {
    enum CodingKeys: String, CodingKey, CaseIterable { case game, team, date }
}

extension RequestFile.WindowSpec {
    enum CodingKeys: String, CodingKey, CaseIterable { case from, to }
}

extension RequestFile.TravelSpec {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case baseDriveMinutes, circuity, averageSpeedMph, maxLegKilometres, gameHours, defaultGameHours
        case leaveAfterGameMinutes, arriveBeforeGameMinutes, tbdAssumedStart, assumedStarts, stadiumVisitHours, pairCircuity
    }
}

extension RequestFile.AssumedStartsSpec {
    enum CodingKeys: String, CodingKey, CaseIterable { case day, night, unknown }
}

extension RequestFile.PairSpec {
    enum CodingKeys: String, CodingKey, CaseIterable { case between, circuity }
}

extension RequestFile.SearchSpec {
    enum CodingKeys: String, CodingKey, CaseIterable { case labelBudget, beamWidth, candidatePool, heldKarpLimit }
}

extension PlanRequest {
    /// The reference of a plan request file.
    public static let reference: YAMLFileReference = {
        let time = YAMLValueType.matching("^([01][0-9]|2[0-3]):[0-5][0-9]$", example: "19:00")
        let travel = TravelModel()
        let search = SearchSettings()
        func shown(_ number: Double) -> String {
            number.rounded() == number ? String(Int(number)) : String(number)
        }
        func hhmm(_ minute: Int) -> String { String(format: "`%02d:%02d`", minute / 60, minute % 60) }
        let place = YAMLRecord(
            "place", reader: RequestFile.PlaceSpec.self, codingKeys: RequestFile.PlaceSpec.CodingKeys.self,
            summary:
                "A stadium id (`{stadium: fenway-park}`), a city with an optional region (`{city: Portland, region: OR}`: the centre of its known stadiums), or a point (`{latitude: ..., longitude: ...}`); exactly one of the three forms.",
            keys: [
                .optional("stadium", .string, "A stadium id; its own coordinates and zone."),
                .optional("city", .string, "A city with known stadiums."),
                .optional("region", .string, "The city's region, when the city has stadiums in two."),
                .optional("latitude", .number(minimum: -90, maximum: 90), "With `longitude`: a point."),
                .optional("longitude", .number(minimum: -180, maximum: 180), "With `latitude`: a point."),
                .optional("name", .string, "The place's name shown in the plan."),
                .optional("timeZone", .string, default: "the nearest stadium's", "A point's IANA zone."),
            ])
        let mustSee = YAMLRecord(
            "must-see", reader: RequestFile.MustSeeSpec.self, codingKeys: RequestFile.MustSeeSpec.CodingKeys.self,
            summary: "A game the trip must attend: a game id, or a team and a local date.",
            keys: [
                .optional("game", .string, "A canonical game id (`mlb-2023-2023-06-09-bos-at-nyy`)."),
                .optional("team", .string, "A team id (`mlb-bal`), with `date`: the one game that team plays that local date."),
                .optional("date", .date, "The stadium-local date of the team's game."),
            ])
        let window = YAMLRecord(
            "driving-window", reader: RequestFile.WindowSpec.self, codingKeys: RequestFile.WindowSpec.CodingKeys.self,
            summary:
                "The local wall-clock hours in which driving is allowed (quote the times). Record rules (drivers taking turns at the wheel, every pitch of every game): `maxDrivingHoursPerDay: 24`, `drivingWindow: {from: \"00:00\", to: \"24:00\"}`, `maxGamesPerDay: 2`, and in `travel` `leaveAfterGameMinutes: 0` with the `arriveBeforeGameMinutes` and `gameHours` the rules state.",
            keys: [
                .required("from", time, "The earliest local time driving may start."),
                .required(
                    "to", .matching("^(([01][0-9]|2[0-3]):[0-5][0-9]|24:00)$", example: "22:00"),
                    "The latest local time driving may end; `24:00` with `from: \"00:00\"` allows driving at any hour (relay drivers)."),
            ])
        let assumed = YAMLRecord(
            "assumed-starts", reader: RequestFile.AssumedStartsSpec.self, codingKeys: RequestFile.AssumedStartsSpec.CodingKeys.self,
            summary: "Local starts `HH:MM` assumed for games without a published time; an entry replaces only the fields it gives.",
            keys: [
                .optional("day", time, "The start assumed for a day game."),
                .optional("night", time, "The start assumed for a night game (later than the day start)."),
                .optional("unknown", time, "The start assumed for a game known neither as day nor night."),
            ])
        let pair = YAMLRecord(
            "pair-circuity", reader: RequestFile.PairSpec.self, codingKeys: RequestFile.PairSpec.CodingKeys.self,
            summary: "A circuity that replaces the model's for one pair of places.",
            keys: [
                .required("between", .list(.string), "Two city names or stadium ids."),
                .required("circuity", .number(minimum: 1), "Road distance over great-circle distance for that pair."),
            ])
        let travelRecord = YAMLRecord(
            "travel", reader: RequestFile.TravelSpec.self, codingKeys: RequestFile.TravelSpec.CodingKeys.self,
            summary: "Overrides of the travel model (see Sources/SportsTimePlan/README.md).",
            keys: [
                .optional(
                    "baseDriveMinutes", .number(minimum: 0), default: shown(travel.baseDriveMinutes),
                    "Minutes added to every drive (parking, getting out of town)."),
                .optional("circuity", .number(minimum: 1), default: shown(travel.circuity), "Road distance over great-circle distance."),
                .optional("averageSpeedMph", .number(minimum: 0), default: shown(travel.averageSpeedMph), "Average driving speed."),
                .optional(
                    "maxLegKilometres", .number(minimum: 0), default: shown(travel.maxLegKilometres), "The longest single drive considered."
                ),
                .optional(
                    "gameHours", .map(.number(minimum: 0)),
                    default: TravelModel.defaultGameHoursBySport.sorted { $0.key < $1.key }.map { "\($0.key) \(shown($0.value))" }
                        .joined(separator: ", "),
                    "Hours a game lasts from its start to its end, per sport id (`{mlb: 3, ufl: 3.25}`); others use `defaultGameHours`."),
                .optional(
                    "defaultGameHours", .number(minimum: 0), default: shown(travel.defaultGameHours),
                    "Hours a game of a sport without its own entry lasts."),
                .optional(
                    "leaveAfterGameMinutes", .number(minimum: 0), default: shown(travel.leaveAfterGameMinutes),
                    "Minutes between a game's end and driving off (0: at the final whistle, as the every-pitch rule asks)."),
                .optional(
                    "arriveBeforeGameMinutes", .number(minimum: 0), default: shown(travel.arriveBeforeGameMinutes),
                    "Minutes to arrive before a game starts (the every-pitch rule: in the building before the first pitch)."),
                .optional(
                    "tbdAssumedStart", time, default: hhmm(travel.tbdAssumedStartMinute),
                    "Local start assumed for games whose time is TBD (the same as `assumedStarts.default.unknown`)."),
                .optional(
                    "assumedStarts", .map(.record(assumed)), default: "day 13:00, night 19:00, unknown 19:00; MLB day 13:10, night 19:10",
                    "`default` or a sport id → the local starts assumed for games without a published time; a sport without an entry uses `default`."
                ),
                .optional(
                    "stadiumVisitHours", .number(minimum: 0), default: shown(travel.stadiumVisitHours),
                    "Length of a stop at a required stadium without a game."),
                .optional("pairCircuity", .list(.record(pair)), "Circuities that replace `circuity` for pairs of places."),
            ])
        let searchRecord = YAMLRecord(
            "search", reader: RequestFile.SearchSpec.self, codingKeys: RequestFile.SearchSpec.CodingKeys.self,
            summary: "How hard the search may work.",
            keys: [
                .optional(
                    "labelBudget", .integer(minimum: 1), default: String(search.labelBudget),
                    "Labels the exact most-stadiums search may create; above it the beam result is returned, marked heuristic with its bound."
                ),
                .optional(
                    "beamWidth", .integer(minimum: 1), default: String(search.beamWidth),
                    "Labels kept per game by the beam search that seeds the exact search."),
                .optional(
                    "candidatePool", .integer(minimum: 1), default: "2 × options",
                    "Best trips gathered before the diversity rule picks the options."),
                .optional(
                    "heldKarpLimit", .integer(minimum: 1, maximum: 18), default: String(search.heldKarpLimit),
                    "Stops without a game ordered exactly up to this many; 2-opt + Or-opt above."),
            ])
        return YAMLFileReference(
            title: "fixtures/requests/<id>.yaml",
            files: ["fixtures/requests/*.yaml"],
            schemaFile: "request.schema.json",
            readBy: "`sportstime-plan` (Sources/SportsTimePlan/Request/RequestFile.swift, checked by RequestResolver)",
            summary:
                "One trip request: when, which sports, where from and to, what to optimise; `sportstime-plan` writes `out/plan/<id>.json` from it.",
            root: .record(
                YAMLRecord(
                    "request", reader: RequestFile.self, codingKeys: RequestFile.CodingKeys.self,
                    summary: "The file's top level.",
                    keys: [
                        .required("id", .string, "Must equal the file name without `.yaml`."),
                        .required("title", .string, "Shown at the top of the itinerary."),
                        .required(
                            "sports", .list(.string),
                            "Sport ids, built in (mlb nba nhl nfl mls wnba nwsl) or dynamic (e.g. ufl); each must be active."),
                        .required("firstDate", .date, "The first stadium-local day of the trip."),
                        .required(
                            "lastDate", .date,
                            "The last stadium-local day, on or after `firstDate`; a window spans at most \(RequestResolver.maxWindowDays) days."
                        ),
                        .required(
                            "start", .either([.record(place), .choice(["any"])]),
                            "Where the trip starts; `any` (with `fewestDays`) lets the planner choose: the trip then starts at its first game's stadium, and the plan says which."
                        ),
                        .optional("end", .record(place), default: "open: the trip ends after its last game", "Where the trip ends."),
                        .optional(
                            "objective", .choice(Objective.allCases.map(\.rawValue)), default: "`\(Objective.mostGames.rawValue)`",
                            "What the trip is optimised for: the most games, the most distinct stadiums, the least driving that attends every must-see game, or the fewest days that visit every required stadium at a game (`fewestDays`, with `requiredStadiums`; the dates are the season searched)."
                        ),
                        .optional("mustSee", .list(.record(mustSee)), "Games the trip must attend."),
                        .optional(
                            "requiredStadiums", .either([.choice(["all"]), .list(.string)]),
                            "Stadium ids visited at a game when possible, else as a stop without a game; `all`: every active home stadium of the request's sports (for `fewestDays`)."
                        ),
                        .optional(
                            "homeTeams", .list(.string), default: "every team",
                            "Only games of these home teams (must-see games always count)."),
                        .optional(
                            "maxDrivingHoursPerDay", .number(minimum: 0, maximum: 24), default: shown(travel.maxDrivingHoursPerDay),
                            "Driving hours per stadium-local day."),
                        .optional(
                            "drivingWindow", .record(window),
                            default: "\(hhmm(travel.drivingWindowStartMinute))–\(hhmm(travel.drivingWindowEndMinute)) local",
                            "When driving is allowed."),
                        .optional(
                            "maxGamesPerDay", .integer(minimum: 1, maximum: 4), default: "1",
                            "2 allows doubleheaders or an afternoon and an evening game."),
                        .optional(
                            "restDays", .integer(minimum: 0, maximum: 14), default: "0",
                            "Days with neither a game nor driving between two game days."),
                        .optional(
                            "options", .integer(minimum: 1, maximum: 10), default: "3",
                            "Ranked alternatives that differ in at least two stadiums."),
                        .optional("travel", .record(travelRecord), default: "the built-in travel model", "Overrides of the travel model."),
                        .optional("search", .record(searchRecord), default: "the built-in limits", "How hard the search may work."),
                    ])))
    }()
}
