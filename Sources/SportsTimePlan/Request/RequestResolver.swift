import Foundation
import SportsTimeCore

/// Reads a request file: strict YAML first (syntax, types, unknown keys), then meaning against the
/// catalog (unknown sports, teams, stadiums and games, inactive sports, empty windows, bad limits).
/// Every problem is reported with the file's line and column; all problems of a file are reported at once.
public enum RequestResolver {
    /// Reads a request file's bytes: UTF-8 text (UTF-16, UTF-32 and invalid UTF-8 are refused with
    /// `path:1`), then `resolve(text:path:catalog:)`. Pure: no file system.
    public static func resolve(data: Data, path: String, catalog: PlanCatalog) throws -> PlanRequest {
        try resolve(text: TextEncoding.utf8Text(data, path: path), path: path, catalog: catalog)
    }

    public static func resolve(text: String, path: String, catalog: PlanCatalog) throws -> PlanRequest {
        let file = try StrictYAML.decode(RequestFile.self, from: text, path: path)
        var resolver = Resolver(file: file, locator: YAMLLocator(text: text, path: path), catalog: catalog, path: path)
        let request = resolver.run()
        if !resolver.problems.isEmpty {
            let sorted = resolver.problems.sorted { ($0.location ?? SourceLocation(path: "")) < ($1.location ?? SourceLocation(path: "")) }
            throw sorted.count == 1 ? PipelineError.invalidInput(sorted[0]) : PipelineError.invalidInputs(sorted)
        }
        guard let request else {
            throw PipelineError.invalidInput(
                Diagnostic(
                    .error, at: SourceLocation(path: path, line: 1),
                    "the request could not be resolved", fix: "Check the request"))
        }
        return request
    }

    /// What part of the merged store a request can need, read without the store: its sports (and those
    /// of the games it names), its dates widened by `margin` days, and the `<sport>-<season>` prefixes of
    /// the game ids it names. Nil when the request does not even decode: then the caller loads the whole
    /// store, so every message is the one a full store gives.
    public struct Scope: Sendable, Hashable {
        public var sports: Set<String>
        public var first: LocalDate
        public var last: LocalDate
        /// `mlb-2023` for a must-see `mlb-2023-2023-06-02-nyy-at-bos`.
        public var seasonsNamed: Set<String>
    }

    public static func scope(data: Data, path: String, margin: Int = 3) -> Scope? {
        guard let text = try? TextEncoding.utf8Text(data, path: path),
            let file = try? StrictYAML.decode(RequestFile.self, from: text, path: path),
            let first = LocalDate(iso8601: file.firstDate), let last = LocalDate(iso8601: file.lastDate)
        else { return nil }
        var sports = Set(file.sports)
        var seasons: Set<String> = []
        for spec in file.mustSee ?? [] {
            if let id = spec.game {
                let parts = id.split(separator: "-", maxSplits: 2)
                guard parts.count == 3 else { return nil }
                sports.insert(String(parts[0]))
                // The season follows the sport: `2023`, or `2025-26` when the rest starts `26-2026-`.
                let rest = Array(parts[2].utf8)
                let isSplitYear =
                    rest.count > 3 && rest[2] == UInt8(ascii: "-") && rest[0...1].allSatisfy { $0 >= 48 && $0 <= 57 }
                    && rest[3...].prefix(4).count == 4 && rest[3...].prefix(4).allSatisfy { $0 >= 48 && $0 <= 57 }
                seasons.insert("\(parts[0])-\(parts[1])" + (isSplitYear ? "-\(parts[2].prefix(2))" : ""))
            }
            if let team = spec.team { sports.insert(String(team.prefix { $0 != "-" })) }
        }
        for team in file.homeTeams ?? [] { sports.insert(String(team.prefix { $0 != "-" })) }
        return Scope(sports: sports, first: first.adding(days: -margin), last: last.adding(days: margin), seasonsNamed: seasons)
    }

    /// The longest window one request may span: the trip DAG has an arc per reachable pair of games,
    /// so its size grows with the square of the games in the window.
    public static let maxWindowDays = 62
    /// The longest season a `fewestDays` request may search (its trips still span at most `maxWindowDays`).
    public static let maxSeasonDays = 366

    /// Parses `HH:MM` (00:00–24:00) into minutes after midnight.
    static func minutes(of text: String) -> Int? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count == 2, parts[1].count == 2,
            let h = Int(parts[0]), let m = Int(parts[1]), (0...24).contains(h), (0..<60).contains(m),
            h * 60 + m <= 24 * 60
        else { return nil }
        return h * 60 + m
    }
}

private struct Resolver {
    let file: RequestFile
    let locator: YAMLLocator
    let catalog: PlanCatalog
    let path: String
    var problems: [Diagnostic] = []

    init(file: RequestFile, locator: YAMLLocator, catalog: PlanCatalog, path: String) {
        self.file = file; self.locator = locator; self.catalog = catalog; self.path = path
    }

    mutating func problem(_ at: [YAMLLocator.Component], _ message: String, fix: String) {
        problems.append(Diagnostic(.error, at: locator.location(at), message, fix: fix))
    }

    mutating func run() -> PlanRequest? {
        checkIdAndTitle()
        let sports = resolveSports()
        let firstDate = LocalDate(iso8601: file.firstDate)
        let lastDate = LocalDate(iso8601: file.lastDate)
        checkWindow(firstDate, lastDate)
        let travel = resolveTravel()
        let limits = resolveLimits()
        let search = resolveSearch()
        let objective = resolveObjective()
        let end = file.end.flatMap { resolvePlace($0, key: "end") }
        let homeTeams = resolveHomeTeams(sports: sports)
        var required = resolveRequiredStadiums()
        let mustSee = resolveMustSeeGames(sports: sports, firstDate: firstDate, lastDate: lastDate)
        if case .all = file.requiredStadiums, let firstDate, let lastDate {
            required = everyHomeStadium(sports: sports, homeTeams: homeTeams, from: firstDate, through: lastDate)
        }
        checkObjective(objective, required: required)
        let start = resolveStart(objective: objective, required: required)

        guard problems.isEmpty, let firstDate, let lastDate, let start else { return nil }
        var settings = search
        if let pool = search.candidatePool, pool < limits.options { settings.candidatePool = limits.options }
        var request = PlanRequest(
            id: file.id, title: file.title, sports: sports, firstDate: firstDate, lastDate: lastDate, start: start,
            end: end, objective: objective, mustSeeGameIds: mustSee, requiredStadiumIds: required,
            homeTeamIds: homeTeams, maxGamesPerDay: limits.maxGamesPerDay, restDays: limits.restDays,
            optionCount: limits.options, travel: travel, search: settings)
        if case .any = file.start { request.startsAnywhere = true }
        return request
    }

    /// `start`: a place, or `any` for `fewestDays`, whose stand-in place (named only by a plan without a
    /// trip) is the first required stadium; a plan with a trip starts at its first game's stadium.
    mutating func resolveStart(objective: Objective, required: [String]) -> TravelPlace? {
        switch file.start {
        case .place(let spec): return resolvePlace(spec, key: "start")
        case .any:
            guard objective == .fewestDays else {
                problem(
                    ["start"], "start: any is only for objective: \(Objective.fewestDays.rawValue)",
                    fix: "Give a place (start: {stadium: fenway-park}) or set objective: \(Objective.fewestDays.rawValue)")
                return nil
            }
            guard let first = required.sorted().first.flatMap({ catalog.stadium($0) }) else {
                problem(["start"], "start: any needs a required stadium to start near", fix: "List requiredStadiums, or give a start place")
                return nil
            }
            return TravelPlace(stadium: first)
        }
    }

    mutating func checkIdAndTitle() {
        let stem = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
        if file.id != stem {
            problem(
                ["id"], "id '\(Diagnostic.quoted(file.id))' does not match the file name '\(stem).yaml'",
                fix: "Name the file \(file.id).yaml or set id: \(stem)")
        }
        if Slug.make(file.id) != file.id || file.id.isEmpty {
            problem(
                ["id"], "id '\(Diagnostic.quoted(file.id))' is not a lowercase slug",
                fix: "Use letters, digits and '-' only, e.g. \(Slug.make(file.id))")
        }
        if file.title.trimmingCharacters(in: .whitespaces).isEmpty {
            problem(["title"], "title is empty", fix: "Give the trip a title")
        }
    }

    /// The listed sports that exist and are active, each once.
    mutating func resolveSports() -> [String] {
        var sports: [String] = []
        if file.sports.isEmpty { problem(["sports"], "sports is empty", fix: "List at least one sport id, e.g. [mlb]") }
        for (i, id) in file.sports.enumerated() {
            if sports.contains(id) {
                problem(["sports", .index(i)], "sport '\(Diagnostic.quoted(id))' is listed twice", fix: "Remove the duplicate"); continue
            }
            guard let sport = catalog.sport(id) else {
                let known = catalog.sports.filter(\.isActive).map(\.id).joined(separator: ", ")
                problem(["sports", .index(i)], "unknown sport '\(Diagnostic.quoted(id))'", fix: "Use one of: \(known)")
                continue
            }
            if !sport.isActive {
                problem(
                    ["sports", .index(i)], "sport '\(Diagnostic.quoted(id))' is inactive",
                    fix: "Remove it, or mark the sport active in fixtures/reference/sports.yaml")
                continue
            }
            sports.append(id)
        }
        return sports
    }

    /// The dates parse, and the window is not empty nor longer than one request (or season) may span.
    mutating func checkWindow(_ firstDate: LocalDate?, _ lastDate: LocalDate?) {
        if firstDate == nil {
            problem(["firstDate"], "firstDate '\(Diagnostic.quoted(file.firstDate))' is not a date", fix: "Write it as YYYY-MM-DD")
        }
        if lastDate == nil {
            problem(["lastDate"], "lastDate '\(Diagnostic.quoted(file.lastDate))' is not a date", fix: "Write it as YYYY-MM-DD")
        }
        guard let firstDate, let lastDate else { return }
        let days = firstDate.days(until: lastDate) + 1
        if lastDate < firstDate {
            problem(
                ["lastDate"], "the date window is empty: lastDate \(lastDate) is before firstDate \(firstDate)",
                fix: "Set lastDate on or after firstDate")
        } else if file.objective == Objective.fewestDays.rawValue {
            if days > RequestResolver.maxSeasonDays {
                problem(
                    ["lastDate"],
                    "the date window \(firstDate)…\(lastDate) is \(days) days long, "
                        + "more than the \(RequestResolver.maxSeasonDays) days a fewestDays request may search",
                    fix: "Search one season of at most \(RequestResolver.maxSeasonDays) days")
            }
        } else if days > RequestResolver.maxWindowDays {
            problem(
                ["lastDate"],
                "the date window \(firstDate)…\(lastDate) is \(days) days long, "
                    + "more than the \(RequestResolver.maxWindowDays) days one request may span",
                fix: "Split the trip into requests of at most \(RequestResolver.maxWindowDays) days")
        }
    }

    /// The travel model: the default with the request's driving limit, window and `travel` section.
    mutating func resolveTravel() -> TravelModel {
        var travel = TravelModel()
        if let hours = file.maxDrivingHoursPerDay {
            if hours > 0, hours <= 24 {
                travel.maxDrivingHoursPerDay = hours
            } else {
                problem(["maxDrivingHoursPerDay"], "maxDrivingHoursPerDay \(hours) is not between 0 and 24", fix: "Use e.g. 8")
            }
        }
        if let window = file.drivingWindow {
            let from = RequestResolver.minutes(of: window.from), to = RequestResolver.minutes(of: window.to)
            if from == nil {
                problem(
                    ["drivingWindow", "from"], "'\(Diagnostic.quoted(window.from))' is not a time", fix: "Write it as HH:MM, e.g. \"09:00\""
                )
            }
            if to == nil {
                problem(
                    ["drivingWindow", "to"], "'\(Diagnostic.quoted(window.to))' is not a time", fix: "Write it as HH:MM, e.g. \"22:00\"")
            }
            if let from, let to {
                if from >= to {
                    problem(
                        ["drivingWindow"], "the driving window \(window.from)–\(window.to) is empty",
                        fix: "Make 'from' earlier than 'to' (a window may not cross midnight)")
                } else {
                    travel.drivingWindowStartMinute = from; travel.drivingWindowEndMinute = to
                }
            }
        }
        if let spec = file.travel { applyTravel(spec, to: &travel) }
        return travel
    }

    /// Games per day, rest days and the number of options, with their defaults.
    mutating func resolveLimits() -> (maxGamesPerDay: Int, restDays: Int, options: Int) {
        let maxGamesPerDay = file.maxGamesPerDay ?? 1
        if !(1...4).contains(maxGamesPerDay) {
            problem(
                ["maxGamesPerDay"], "maxGamesPerDay \(maxGamesPerDay) is not between 1 and 4", fix: "Use 1 (default) or 2 for doubleheaders"
            )
        }
        let restDays = file.restDays ?? 0
        if !(0...14).contains(restDays) {
            problem(["restDays"], "restDays \(restDays) is not between 0 and 14", fix: "Use 0 (default) to 14")
        }
        let options = file.options ?? 3
        if !(1...10).contains(options) {
            problem(["options"], "options \(options) is not between 1 and 10", fix: "Use 1 to 10 (default 3)")
        }
        return (maxGamesPerDay, restDays, options)
    }

    /// The `search` section over the default settings.
    mutating func resolveSearch() -> SearchSettings {
        var search = SearchSettings()
        guard let spec = file.search else { return search }
        func setting(_ value: Int?, _ key: String, _ range: ClosedRange<Int>, _ message: String, _ fix: String) -> Int? {
            guard let value else { return nil }
            if range.contains(value) { return value }
            problem(["search", .key(key)], message, fix: fix)
            return nil
        }
        let atLeastOne = 1...Int.max
        if let v = setting(spec.labelBudget, "labelBudget", atLeastOne, "labelBudget must be at least 1", "Use e.g. 1000000") {
            search.labelBudget = v
        }
        if let v = setting(spec.beamWidth, "beamWidth", atLeastOne, "beamWidth must be at least 1", "Use e.g. 48") {
            search.beamWidth = v
        }
        if let v = setting(spec.candidatePool, "candidatePool", atLeastOne, "candidatePool must be at least 1", "Use e.g. 24") {
            search.candidatePool = v
        }
        if let v = setting(spec.heldKarpLimit, "heldKarpLimit", 1...18, "heldKarpLimit must be between 1 and 18", "Use e.g. 15") {
            search.heldKarpLimit = v
        }
        return search
    }

    mutating func resolveObjective() -> Objective {
        guard let text = file.objective else { return .mostGames }
        if let value = Objective(rawValue: text) { return value }
        problem(
            ["objective"], "unknown objective '\(Diagnostic.quoted(text))'",
            fix: "Use one of: \(Objective.allCases.map(\.rawValue).joined(separator: ", "))")
        return .mostGames
    }

    /// The listed home teams that exist and play one of the sports, each once.
    mutating func resolveHomeTeams(sports: [String]) -> [String] {
        var homeTeams: [String] = []
        for (i, id) in (file.homeTeams ?? []).enumerated() {
            guard let team = catalog.team(id) else {
                problem(["homeTeams", .index(i)], "unknown team '\(Diagnostic.quoted(id))'", fix: teamSuggestion(for: id, sports: sports))
                continue
            }
            if !sports.contains(team.sport), catalog.sport(team.sport) != nil {
                problem(
                    ["homeTeams", .index(i)], "team '\(Diagnostic.quoted(id))' plays \(team.sport), which is not in sports",
                    fix: "Add \(team.sport) to sports or remove the team")
                continue
            }
            if homeTeams.contains(id) {
                problem(["homeTeams", .index(i)], "team '\(Diagnostic.quoted(id))' is listed twice", fix: "Remove the duplicate"); continue
            }
            homeTeams.append(id)
        }
        return homeTeams
    }

    /// The listed required stadiums that exist, each once.
    mutating func resolveRequiredStadiums() -> [String] {
        var required: [String] = []
        for (i, id) in (file.requiredStadiums?.ids ?? []).enumerated() {
            guard catalog.stadium(id) != nil else {
                problem(
                    ["requiredStadiums", .index(i)], "unknown stadium '\(Diagnostic.quoted(id))'",
                    fix: suggestion(for: id, in: catalog.stadiums.map(\.id), kind: "stadium id"))
                continue
            }
            if required.contains(id) {
                problem(
                    ["requiredStadiums", .index(i)], "stadium '\(Diagnostic.quoted(id))' is listed twice", fix: "Remove the duplicate");
                continue
            }
            required.append(id)
        }
        return required
    }

    /// The must-see games, resolved and checked, each once.
    mutating func resolveMustSeeGames(sports: [String], firstDate: LocalDate?, lastDate: LocalDate?) -> [String] {
        var mustSee: [String] = []
        for (i, spec) in (file.mustSee ?? []).enumerated() {
            guard let id = resolveMustSee(spec, index: i, sports: sports, firstDate: firstDate, lastDate: lastDate) else { continue }
            if mustSee.contains(id) {
                problem(["mustSee", .index(i)], "game '\(Diagnostic.quoted(id))' is listed twice", fix: "Remove the duplicate"); continue
            }
            mustSee.append(id)
        }
        return mustSee
    }

    /// `requiredStadiums: all`: every stadium hosting a home game of the request's sports (of its home
    /// teams, when given) in the window.
    mutating func everyHomeStadium(sports: [String], homeTeams: [String], from firstDate: LocalDate, through lastDate: LocalDate)
        -> [String]
    {
        let teams = Set(homeTeams)
        var ids = Set<String>()
        for game in catalog.games(from: firstDate, through: lastDate)
        where sports.contains(game.sport) && !game.neutralSite
            && game.status.isPlayable && (teams.isEmpty || teams.contains(game.homeTeamId))
        {
            ids.insert(game.stadiumId)
        }
        if ids.isEmpty {
            problem(
                ["requiredStadiums"],
                "requiredStadiums: all names no stadium: no home games of \(sports.joined(separator: ", ")) in \(firstDate)…\(lastDate)",
                fix: "Widen the dates or list the stadiums")
        }
        return ids.sorted()
    }

    /// What the objective needs of the rest of the request.
    mutating func checkObjective(_ objective: Objective, required: [String]) {
        if objective == .fewestDays, file.requiredStadiums?.isEmpty ?? true {
            problem(["objective"], "objective fewestDays needs requiredStadiums (a list, or all)", fix: "Add requiredStadiums: all")
        }
        if objective == .fewestDays, required.count > 64 {
            problem(
                ["requiredStadiums"], "fewestDays handles at most 64 required stadiums, not \(required.count)", fix: "List fewer stadiums")
        }
        if objective == .leastDriving, (file.mustSee ?? []).isEmpty, file.requiredStadiums?.isEmpty ?? true {
            problem(
                ["objective"], "objective leastDriving needs mustSee games or requiredStadiums (otherwise the best trip is staying home)",
                fix: "Add mustSee games, or use mostGames")
        }
    }

    mutating func applyTravel(_ spec: RequestFile.TravelSpec, to travel: inout TravelModel) {
        func positive(_ value: Double?, _ key: String, range: ClosedRange<Double>, _ apply: (Double) -> Void) {
            guard let value else { return }
            if value.isFinite, range.contains(value) {
                apply(value)
            } else {
                problem(
                    ["travel", .key(key)],
                    "travel.\(key) \(value) is outside \(NumberText.decimal(range.lowerBound, places: 2))…\(NumberText.decimal(range.upperBound, places: 2))",
                    fix: "Use a value in that range")
            }
        }
        positive(spec.baseDriveMinutes, "baseDriveMinutes", range: 0...240) { travel.baseDriveMinutes = $0 }
        positive(spec.circuity, "circuity", range: 1...5) { travel.circuity = $0 }
        positive(spec.averageSpeedMph, "averageSpeedMph", range: 5...150) { travel.averageSpeedMph = $0 }
        positive(spec.maxLegKilometres, "maxLegKilometres", range: 1...20_000) { travel.maxLegKilometres = $0 }
        positive(spec.defaultGameHours, "defaultGameHours", range: 0.25...24) { travel.defaultGameHours = $0 }
        positive(spec.leaveAfterGameMinutes, "leaveAfterGameMinutes", range: 0...600) { travel.leaveAfterGameMinutes = $0 }
        positive(spec.arriveBeforeGameMinutes, "arriveBeforeGameMinutes", range: 0...600) { travel.arriveBeforeGameMinutes = $0 }
        positive(spec.stadiumVisitHours, "stadiumVisitHours", range: 0...12) { travel.stadiumVisitHours = $0 }
        if let text = spec.tbdAssumedStart {
            if let minute = RequestResolver.minutes(of: text), minute < 24 * 60 {
                travel.tbdAssumedStartMinute = minute
            } else {
                problem(
                    ["travel", "tbdAssumedStart"], "'\(Diagnostic.quoted(text))' is not a time", fix: "Write it as HH:MM, e.g. \"19:00\"")
            }
        }
        applyAssumedStarts(spec, to: &travel)
        for (sport, hours) in (spec.gameHours ?? [:]).sorted(by: { $0.key < $1.key }) {
            if catalog.sport(sport) == nil {
                problem(
                    ["travel", "gameHours", .key(sport)], "unknown sport '\(Diagnostic.quoted(sport))' in travel.gameHours",
                    fix: "Use one of: \(catalog.sports.map(\.id).joined(separator: ", "))")
            } else if !(hours.isFinite && hours >= 0.25 && hours <= 24) {
                problem(
                    ["travel", "gameHours", .key(sport)], "travel.gameHours.\(sport) \(hours) is outside 0.25…24", fix: "Use hours, e.g. 3")
            } else {
                travel.gameHours[sport] = hours
            }
        }
        for (i, pair) in (spec.pairCircuity ?? []).enumerated() {
            let names = pair.between.map { $0.trimmingCharacters(in: .whitespaces) }
            guard names.count == 2, names.allSatisfy({ !Slug.matchKey($0).isEmpty }) else {
                problem(
                    ["travel", "pairCircuity", .index(i), "between"], "between must list exactly two places (city names or stadium ids)",
                    fix: "Write e.g. between: [Detroit, Cleveland]")
                continue
            }
            for (j, name) in names.enumerated() where !knowsPlace(name) {
                problem(
                    ["travel", "pairCircuity", .index(i), "between", .index(j)], "no stadium or city named '\(Diagnostic.quoted(name))'",
                    fix: "Use a city of a known stadium or a stadium id")
            }
            guard pair.circuity.isFinite, pair.circuity >= 1, pair.circuity <= 10 else {
                problem(
                    ["travel", "pairCircuity", .index(i), "circuity"], "circuity \(pair.circuity) is outside 1…10",
                    fix: "Use road ÷ great-circle distance, e.g. 1.85")
                continue
            }
            let entry = PairCircuity(a: names[0], b: names[1], circuity: pair.circuity)
            travel.pairCircuity.removeAll { $0.key == entry.key }
            travel.pairCircuity.append(entry)
        }
        travel.pairCircuity.sort { $0.key < $1.key }
    }

    /// `travel.assumedStarts`: `default` and sport ids, each with optional `day`, `night` and `unknown`
    /// local starts. `default.unknown` is the same setting as `tbdAssumedStart`; giving both differently is an error.
    mutating func applyAssumedStarts(_ spec: RequestFile.TravelSpec, to travel: inout TravelModel) {
        for (key, entry) in (spec.assumedStarts ?? [:]).sorted(by: { $0.key < $1.key }) {
            let at: [YAMLLocator.Component] = ["travel", "assumedStarts", .key(key)]
            let isDefault = key == "default"
            if !isDefault, catalog.sport(key) == nil {
                problem(
                    at, "unknown sport '\(Diagnostic.quoted(key))' in travel.assumedStarts",
                    fix: "Use default or one of: \(catalog.sports.map(\.id).joined(separator: ", "))")
                continue
            }
            if entry.day == nil, entry.night == nil, entry.unknown == nil {
                problem(
                    at, "travel.assumedStarts.\(key) sets no start", fix: "Give day, night and/or unknown as HH:MM, e.g. {day: \"13:10\"}")
                continue
            }
            func minute(_ text: String?, _ field: String, example: String) -> Int? {
                guard let text else { return nil }
                if let minute = RequestResolver.minutes(of: text), minute < 24 * 60 { return minute }
                problem(
                    at + [.key(field)], "travel.assumedStarts.\(key).\(field) '\(Diagnostic.quoted(text))' is not a time of day",
                    fix: "Write it as HH:MM between 00:00 and 23:59, e.g. \"\(example)\"")
                return nil
            }
            let day = minute(entry.day, "day", example: "13:10")
            let night = minute(entry.night, "night", example: "19:10")
            let unknown = minute(entry.unknown, "unknown", example: "19:00")
            if isDefault {
                if let day { travel.dayAssumedStartMinute = day }
                if let night { travel.nightAssumedStartMinute = night }
                if let unknown {
                    if let text = spec.tbdAssumedStart, let other = RequestResolver.minutes(of: text), other != unknown {
                        problem(
                            at + [.key("unknown")],
                            "travel.assumedStarts.default.unknown \(entry.unknown ?? "") contradicts travel.tbdAssumedStart \(text)",
                            fix: "Keep one of the two (they are the same setting)")
                    }
                    travel.tbdAssumedStartMinute = unknown
                }
            } else {
                var starts = travel.assumedStarts[key] ?? AssumedStarts()
                if let day { starts.day = day }
                if let night { starts.night = night }
                if let unknown { starts.unknown = unknown }
                travel.assumedStarts[key] = starts
            }
        }
        // Day games start before night games, for every entry given (one given alone keeps the other default).
        for key in (spec.assumedStarts ?? [:]).keys.sorted() where key == "default" || travel.assumedStarts[key] != nil {
            let own = key == "default" ? nil : travel.assumedStarts[key]
            let day = own?.day ?? travel.dayAssumedStartMinute, night = own?.night ?? travel.nightAssumedStartMinute
            guard day >= night else { continue }
            problem(
                ["travel", "assumedStarts", .key(key)],
                "travel.assumedStarts.\(key): the night start \(Format.clock(minutes: night)) is not later than the day start \(Format.clock(minutes: day))",
                fix: "Make the night start later than the day start")
        }
    }

    func knowsPlace(_ name: String) -> Bool {
        let key = Slug.matchKey(name)
        return catalog.stadiums.contains { Slug.matchKey($0.city) == key || Slug.matchKey($0.id) == key }
    }

    mutating func resolvePlace(_ spec: RequestFile.PlaceSpec, key: String) -> TravelPlace? {
        let forms = [spec.stadium != nil, spec.city != nil, spec.latitude != nil || spec.longitude != nil].filter { $0 }.count
        guard forms == 1 else {
            problem(
                [.key(key)], "\(key) must give exactly one of: stadium, city, or latitude and longitude",
                fix: "Write e.g. \(key): {stadium: fenway-park} or \(key): {city: Boston}")
            return nil
        }
        if spec.region != nil, spec.city == nil {
            problem([.key(key), "region"], "region only goes with city", fix: "Remove region or add city")
        }
        if let id = spec.stadium {
            if spec.timeZone != nil {
                problem(
                    [.key(key), "timeZone"], "timeZone only goes with latitude and longitude", fix: "Remove it: a stadium has its own zone")
            }
            guard let stadium = catalog.stadium(id) else {
                problem(
                    [.key(key), "stadium"], "unknown stadium '\(Diagnostic.quoted(id))'",
                    fix: suggestion(for: id, in: catalog.stadiums.map(\.id), kind: "stadium id"))
                return nil
            }
            guard ZonedTime.isValidZone(stadium.timeZone) else {
                problem(
                    [.key(key), "stadium"], "stadium '\(Diagnostic.quoted(id))' has an unknown time zone '\(stadium.timeZone)'",
                    fix: "Fix the stadium's time_zone in fixtures/reference/stadiums.csv")
                return nil
            }
            var place = TravelPlace(stadium: stadium)
            if let name = spec.name { place.name = name }
            return place
        }
        if let city = spec.city {
            if spec.timeZone != nil {
                problem(
                    [.key(key), "timeZone"], "timeZone only goes with latitude and longitude",
                    fix: "Remove it: a city takes its stadiums' zone")
            }
            let cityKey = Slug.matchKey(city)
            var matches = catalog.stadiums.filter { Slug.matchKey($0.city) == cityKey && ZonedTime.isValidZone($0.timeZone) }
            if let region = spec.region {
                matches = matches.filter { Slug.matchKey($0.region) == Slug.matchKey(region) }
            }
            guard !matches.isEmpty else {
                let cities = Array(Set(catalog.stadiums.map(\.city))).sorted()
                problem(
                    [.key(key), "city"], "no stadium in a city named '\(Diagnostic.quoted(city))'\(spec.region.map { " (\($0))" } ?? "")",
                    fix: suggestion(for: city, in: cities, kind: "city") + "; or give latitude, longitude and timeZone")
                return nil
            }
            let regions = Array(Set(matches.map { "\($0.region)|\($0.country)" })).sorted()
            if regions.count > 1 {
                problem(
                    [.key(key), "city"],
                    "city '\(Diagnostic.quoted(city))' is ambiguous (\(regions.map { $0.replacingOccurrences(of: "|", with: ", ") }.joined(separator: "; ")))",
                    fix: "Add region: to say which")
                return nil
            }
            let lat = matches.map(\.latitude).reduce(0, +) / Double(matches.count)
            let lon = matches.map(\.longitude).reduce(0, +) / Double(matches.count)
            let first = matches[0]
            let name = spec.name ?? (first.region.isEmpty ? first.city : "\(first.city), \(first.region)")
            return TravelPlace(
                name: name, stadiumId: nil, city: first.city,
                coordinate: Coordinate(latitude: lat.rounded(toPlaces: 6), longitude: lon.rounded(toPlaces: 6)),
                timeZone: first.timeZone)
        }
        guard let lat = spec.latitude, let lon = spec.longitude else {
            problem([.key(key)], "\(key) needs both latitude and longitude", fix: "Add the missing one")
            return nil
        }
        let coordinate = Coordinate(latitude: lat, longitude: lon)
        guard coordinate.isPlausible else {
            problem(
                [.key(key), "latitude"], "\(lat), \(lon) is not a place on earth",
                fix: "Use decimal degrees, latitude −90…90, longitude −180…180")
            return nil
        }
        let zone: String
        if let given = spec.timeZone {
            guard ZonedTime.isValidZone(given) else {
                problem(
                    [.key(key), "timeZone"], "unknown time zone '\(Diagnostic.quoted(given))'",
                    fix: "Use an IANA zone such as America/New_York")
                return nil
            }
            zone = given
        } else {
            let nearest = catalog.stadiums.filter { ZonedTime.isValidZone($0.timeZone) }.min {
                (GreatCircle.kilometres(from: $0.coordinate, to: coordinate), $0.id) < (
                    GreatCircle.kilometres(from: $1.coordinate, to: coordinate), $1.id
                )
            }
            guard let nearest else {
                problem([.key(key)], "no stadium is known to take a time zone from", fix: "Add timeZone: to \(key)")
                return nil
            }
            zone = nearest.timeZone
        }
        let name = spec.name ?? "\(NumberText.decimal(lat, places: 4)), \(NumberText.decimal(lon, places: 4))"
        return TravelPlace(name: name, stadiumId: nil, city: spec.name ?? "", coordinate: coordinate, timeZone: zone)
    }

    mutating func resolveMustSee(
        _ spec: RequestFile.MustSeeSpec, index i: Int, sports: [String],
        firstDate: LocalDate?, lastDate: LocalDate?
    ) -> String? {
        let at: [YAMLLocator.Component] = ["mustSee", .index(i)]
        if let id = spec.game {
            guard spec.team == nil, spec.date == nil else {
                problem(at, "a must-see entry gives either game, or team and date", fix: "Remove team/date, or remove game")
                return nil
            }
            guard let game = catalog.game(id) else {
                problem(at + ["game"], "unknown game '\(Diagnostic.quoted(id))'", fix: gameSuggestion(for: id))
                return nil
            }
            return check(game, at: at + ["game"], sports: sports, firstDate: firstDate, lastDate: lastDate)
        }
        guard let teamId = spec.team, let dateText = spec.date else {
            problem(
                at, "a must-see entry needs game, or team and date",
                fix: "Write e.g. {game: mlb-2023-2023-06-02-nyy-at-bos} or {team: mlb-bos, date: 2023-06-02}")
            return nil
        }
        guard let team = catalog.team(teamId) else {
            problem(at + ["team"], "unknown team '\(Diagnostic.quoted(teamId))'", fix: teamSuggestion(for: teamId, sports: sports))
            return nil
        }
        guard let date = LocalDate(iso8601: dateText) else {
            problem(at + ["date"], "'\(Diagnostic.quoted(dateText))' is not a date", fix: "Write it as YYYY-MM-DD")
            return nil
        }
        let games = catalog.games(from: date, through: date).filter {
            ($0.homeTeamId == teamId || $0.awayTeamId == teamId) && $0.status.isPlayable
        }
        guard !games.isEmpty else {
            let around = catalog.games(from: date.adding(days: -3), through: date.adding(days: 3))
                .filter { ($0.homeTeamId == teamId || $0.awayTeamId == teamId) && $0.status.isPlayable }
                .map(\.localDate.iso8601)
            let hint =
                around.isEmpty
                ? "Pick a date \(team.fullName) play on" : "\(team.fullName) play on \(Array(Set(around)).sorted().joined(separator: ", "))"
            problem(at + ["date"], "\(teamId) has no game on \(date)", fix: hint)
            return nil
        }
        guard games.count == 1 else {
            problem(
                at + ["date"], "\(teamId) plays \(games.count) games on \(date) (\(games.map(\.id).joined(separator: ", ")))",
                fix: "Name one by game id")
            return nil
        }
        return check(games[0], at: at + ["date"], sports: sports, firstDate: firstDate, lastDate: lastDate)
    }

    mutating func check(_ game: Game, at: [YAMLLocator.Component], sports: [String], firstDate: LocalDate?, lastDate: LocalDate?) -> String?
    {
        if catalog.sport(game.sport)?.isActive == false {
            problem(at, "game '\(game.id)' is \(game.sport), an inactive sport", fix: "Remove it, or mark the sport active")
            return nil
        }
        if !sports.contains(game.sport) {
            problem(at, "game '\(game.id)' is \(game.sport), which is not in sports", fix: "Add \(game.sport) to sports")
            return nil
        }
        if !game.status.isPlayable {
            let makeup = game.makeupDate.map { " (made up on \($0))" } ?? ""
            problem(at, "game '\(game.id)' was \(game.status.rawValue)\(makeup)", fix: "Choose a game that is played")
            return nil
        }
        // An empty window (lastDate before firstDate) is reported on its own; a range of it would trap.
        if let firstDate, let lastDate, firstDate <= lastDate, !(firstDate...lastDate).contains(game.localDate) {
            problem(
                at, "game '\(game.id)' is on \(game.localDate), outside the window \(firstDate)…\(lastDate)",
                fix: "Widen the window or drop the game")
            return nil
        }
        guard let stadium = catalog.stadium(game.stadiumId), ZonedTime.isValidZone(stadium.timeZone) else {
            problem(
                at, "game '\(game.id)' is at stadium '\(game.stadiumId)', which has no usable location",
                fix: "Fix the stadium in the reference data")
            return nil
        }
        return game.id
    }

    /// What to say for an unknown game id. Games within a day of the id's date are ranked by how many of
    /// its two teams they share (either side), then by being on that very date, then by edit distance:
    /// `mia-at-bos` suggests `bos-at-mia` or another Heat or Celtics game that day before a string-alike
    /// `mem-at-por`. When no nearby game shares a team although both teams are known, the game is missing
    /// from the merged games (dropped upstream), and the fix says where to look instead of guessing.
    func gameSuggestion(for id: String) -> String {
        guard let parsed = Self.parseGameId(id) else {
            return suggestion(for: id, in: [], kind: "game id")
        }
        let nearby = catalog.games(from: parsed.date.adding(days: -1), through: parsed.date.adding(days: 1))
            .filter { $0.sport == parsed.sport }
        let teams = Set([parsed.away, parsed.home])
        let ranked = nearby.map { game -> (shared: Int, offDate: Int, distance: Int, id: String) in
            let shared = teams.intersection([game.homeTeamId, game.awayTeamId]).count
            return (shared, game.localDate == parsed.date ? 0 : 1, Suggest.distance(id.lowercased(), game.id), game.id)
        }.filter { $0.shared > 0 }.sorted { ($1.shared, $0.offDate, $0.distance, $0.id) < ($0.shared, $1.offDate, $1.distance, $1.id) }
        if let best = ranked.first {
            let close = ranked.filter { $0.shared == best.shared && $0.offDate == best.offDate }.prefix(3)
            return "Did you mean \(close.map(\.id).joined(separator: ", "))?"
        }
        if catalog.team(parsed.away) != nil, catalog.team(parsed.home) != nil {
            return "No game of \(parsed.away) or \(parsed.home) is within a day of \(parsed.date) in the merged games; "
                + "if it should be there, look for it in out/normalize/rejects.jsonl and out/normalize/unresolved.json"
        }
        return suggestion(for: id, in: nearby.map(\.id), kind: "game id")
    }

    /// The sport, date and teams of an id shaped `<sport>-<season>-<date>-<away>-at-<home>[-g<n>]`.
    static func parseGameId(_ id: String) -> (sport: String, date: LocalDate, away: String, home: String)? {
        let parts = id.lowercased().split(separator: "-").map(String.init)
        guard parts.count >= 6 else { return nil }
        for i in 1..<(parts.count - 2) {
            guard let date = LocalDate(iso8601: parts[i...(i + 2)].joined(separator: "-")) else { continue }
            var rest = Array(parts[(i + 3)...])
            if let last = rest.last, last.count > 1, last.hasPrefix("g"), Int(last.dropFirst()) != nil { rest.removeLast() }
            guard let at = rest.firstIndex(of: "at"), at > 0, at < rest.count - 1 else { return nil }
            let sport = parts[0]
            return (
                sport, date, "\(sport)-" + rest[..<at].joined(separator: "-"),
                "\(sport)-" + rest[(at + 1)...].joined(separator: "-")
            )
        }
        return nil
    }

    /// Close team ids; without one, the teams of the request's sports when they are few enough to list.
    func teamSuggestion(for value: String, sports: [String]) -> String {
        let text = suggestion(for: value, in: catalog.teams.map(\.id), kind: "team id")
        guard Suggest.closest(to: value, in: catalog.teams.map(\.id), count: 1).isEmpty else { return text }
        let teams = catalog.teams.filter { sports.contains($0.sport) }.map(\.id)
        guard !teams.isEmpty, teams.count <= 40 else { return text }
        return "Use a team id of \(sports.joined(separator: ", ")): \(teams.joined(separator: ", "))"
    }

    func suggestion(for value: String, in candidates: [String], kind: String) -> String {
        let close = Suggest.closest(to: value, in: candidates, count: 3)
        return close.isEmpty ? "Use a known \(kind)" : "Did you mean \(close.joined(separator: ", "))?"
    }
}

extension GameStatus {
    /// Scheduled or played: a game one can (or could) attend on its date.
    var isPlayable: Bool { self == .scheduled || self == .final }
}

/// Close matches for a mistyped id or name: the candidates at the smallest edit distance
/// (a swap of two neighbouring letters counts as one edit).
enum Suggest {
    static func closest(to value: String, in candidates: [String], count: Int) -> [String] {
        let target = value.lowercased()
        let limit = max(2, target.count / 3)
        let scored = candidates.map { candidate -> (Int, String) in
            let c = candidate.lowercased()
            // A fragment of a longer id (`fenway` for `fenway-park`) counts as one edit away, and so does
            // an id with a word added (`ufl-stl-battlehawks` for `ufl-stl`).
            let fragment = (target.count >= 4 && c.contains(target)) || (c.count >= 4 && target.hasPrefix(c + "-")) ? 1 : Int.max
            // The distance is at least the difference in length: past the limit it is not worth computing
            // (a megabyte-long id against every stadium would take minutes).
            if abs(target.utf8.count - c.utf8.count) > limit { return (fragment, candidate) }
            return (min(distance(target, c), fragment), candidate)
        }
        guard let best = scored.map(\.0).min(), best <= limit else { return [] }
        return scored.filter { $0.0 == best }.map(\.1).sorted().prefix(count).map { $0 }
    }

    /// Optimal string alignment distance.
    static func distance(_ a: String, _ b: String) -> Int {
        EditDistance.between(Array(a.utf8), Array(b.utf8), transpositions: true)
    }
}
