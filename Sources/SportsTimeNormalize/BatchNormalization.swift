import Foundation
import SportsTimeCore

/// One game whose names, stadium and time all resolved, before doubleheader numbering.
struct ResolvedGame: Sendable {
    var raw: RawGame
    var home: AliasResolver.TeamFacts
    var away: AliasResolver.TeamFacts
    var stadium: AliasResolver.StadiumFacts
    /// Whether the source named the venue (else the stadium is the home team's home).
    var venueGiven: Bool
    var schedule: GameSchedule
    /// The home team's home stadium on the game's local date (`team-homes.csv`, else `Team.homeStadiumId`).
    var homeStadiumId: String
    /// Whether a name used has validity dates, so that resolving on another date could differ.
    var dependsOnDate: Bool

    /// Whether the stadium is a home of the home team on the game's date (its home or an alternate home).
    var isAtHome: Bool { home.isHome(stadium.id, on: schedule.localDate) }
    /// Whether the stadium is a home of the away team on the game's date.
    var isAtAwayTeamsHome: Bool { away.isHome(stadium.id, on: schedule.localDate) }
}

/// Normalizes one batch: resolve every record, check the batch's venues, number doubleheaders, make ids.
struct BatchNormalization {
    let batch: RawBatch
    let resolver: AliasResolver
    let options: NormalizeOptions
    private(set) var diagnostics = Diagnostics()
    /// Names that did not resolve in records rejected for it.
    private(set) var misses: [NameMiss] = []
    private var names = PrintedNames()
    private var teamNames = TeamNames()

    init(batch: RawBatch, resolver: AliasResolver, options: NormalizeOptions) {
        self.batch = batch; self.resolver = resolver; self.options = options
    }

    mutating func run() -> NormalizedBatch {
        let raws = TextOrder.positions(of: batch.games.map(\.id), then: batch.games.map(\.provenance))
            .map { batch.games[$0] }
        var resolved: [ResolvedGame] = []
        var rejects: [Reject] = []
        for raw in raws {
            switch settle(raw) {
            case .resolved(let game):
                resolved.append(game)
            case .failed(let reasons, let misses):
                rejects.append(reject(raw, reasons.joined(separator: "; ")))
                self.misses += misses
            }
        }

        if let refusal = thresholdRefusal(rejects: rejects, of: raws.count) {
            return refused(raws, refusal)
        }
        let check = VenueCheck(games: resolved, resolver: resolver)
        if let refusal = check.refusal(share: options.refusalShare) {
            misses = []
            return refused(raws, refusal)
        }
        if let diagnostic = unresolvedGames(rejects) { diagnostics.emit(diagnostic) }
        for diagnostic in check.warnings() { diagnostics.emit(diagnostic) }
        for diagnostic in inferredNeutralSites(resolved) { diagnostics.emit(diagnostic) }
        for diagnostic in homeGamesAwayFromHome(resolved) { diagnostics.emit(diagnostic) }
        for diagnostic in beforeOpening(resolved) { diagnostics.emit(diagnostic) }
        if let diagnostic = outOfSeason(resolved) { diagnostics.emit(diagnostic) }

        let numbering = DoubleheaderNumbering(games: resolved)
        var games: [Game] = []
        // The place in `resolved` of the game each canonical id was made from first.
        var firstById: [String: Int] = [:]
        firstById.reserveCapacity(resolved.count)
        for (index, game) in resolved.enumerated() {
            if let first = numbering.duplicateOf[index] {
                let original = resolved[first].raw
                rejects.append(
                    reject(
                        game.raw,
                        "duplicate of \(original.id) (\(original.provenance)): same teams, "
                            + "local date and start time, and no game numbers"))
                continue
            }
            let made = makeGame(game, number: numbering.numbers[index])
            if let first = firstById[made.id] {
                let original = resolved[first].raw
                rejects.append(
                    reject(
                        game.raw, "duplicate of \(original.id) (\(original.provenance)): same canonical id '\(made.id)'"))
                continue
            }
            firstById[made.id] = index
            games.append(made)
        }
        return NormalizedBatch(
            path: batch.path, source: batch.source, meta: batch.meta,
            games: TextOrder.positions(of: games.map(\.id)).map { games[$0] }, rejects: rejects.sorted(),
            inputCount: raws.count, refusal: nil)
    }

    /// The batch refused as a whole: no games, every record rejected with the refusal's message.
    private mutating func refused(_ raws: [RawGame], _ refusal: Diagnostic) -> NormalizedBatch {
        diagnostics.emit(refusal)
        let reason = "batch refused: \(refusal.message)"
        return NormalizedBatch(
            path: batch.path, source: batch.source, meta: batch.meta, games: [],
            rejects: raws.map { reject($0, reason) }.sorted(), inputCount: raws.count, refusal: refusal)
    }

    // MARK: Resolution

    enum Attempt {
        case resolved(ResolvedGame)
        case failed(reasons: [String], misses: [NameMiss])
    }

    /// Resolves `raw` on its stadium-local date. Names are looked up on the printed date first; when the
    /// local date worked out from the resolved stadium differs and a name used has validity dates, they
    /// are looked up again on that date.
    /// When nothing resolves on the printed date of a UTC or other-zone date, the day before and the day
    /// after are tried, and kept only when the local date they lead to is that same day.
    private mutating func settle(_ raw: RawGame) -> Attempt {
        var date = raw.date
        var attempt = resolve(raw, on: date)
        for _ in 0..<2 {
            guard case .resolved(let game) = attempt, game.dependsOnDate, game.schedule.localDate != date else { break }
            date = game.schedule.localDate
            attempt = resolve(raw, on: date)
        }
        if case .failed = attempt, raw.dateZone != "venue", raw.startUTC != nil || raw.localTime != nil {
            for neighbour in [raw.date.adding(days: -1), raw.date.adding(days: 1)] {
                let shifted = resolve(raw, on: neighbour)
                if case .resolved(let game) = shifted, game.schedule.localDate == neighbour { return shifted }
            }
        }
        return attempt
    }

    /// A name looked up: what it names (nil when nothing usable), why not, and whether the answer could
    /// differ on another date.
    private struct Found<Value> {
        var value: Value?
        var reason: String?
        var miss: NameMiss?
        var isDated = false
    }

    /// Resolves the names, stadium and time of `raw` with aliases valid on `date`.
    private mutating func resolve(_ raw: RawGame, on date: LocalDate) -> Attempt {
        guard resolver.isKnownSport(raw.sport) else {
            return .failed(
                reasons: ["unknown sport '\(raw.sport)' (known: \(resolver.sports.joined(separator: ", ")))"], misses: [])
        }
        let homeTeam = team(raw.homeTeam, role: "home team", of: raw, on: date)
        let awayTeam = team(raw.awayTeam, role: "away team", of: raw, on: date)
        var reasons = [homeTeam.reason, awayTeam.reason].compactMap { $0 }
        var misses = [homeTeam.miss, awayTeam.miss].compactMap { $0 }
        let home = homeTeam.value, away = awayTeam.value
        if let home, let away, home.id == away.id {
            reasons.append("home and away team are both \(home.id)")
        }
        // The home team's home on this date; a team with dated homes makes the outcome depend on the date.
        let homeStadiumId = home?.homeStadiumId(on: date)
        var dependsOnDate = homeTeam.isDated || awayTeam.isDated || home?.hasDatedHomes == true

        var stadium: AliasResolver.StadiumFacts?
        let venue = venue(of: raw, homeStadiumId: homeStadiumId, on: date)
        dependsOnDate = dependsOnDate || venue.isDated
        reasons += [venue.reason].compactMap { $0 }
        misses += [venue.miss].compactMap { $0 }
        // A venue of no name, or a placeholder name, is not given: the game is at the home team's home.
        let venueGiven = venue.value != nil || venue.reason != nil
        if venueGiven {
            stadium = venue.value
        } else if let home, let homeStadiumId {
            stadium = resolver.stadiumFacts(id: homeStadiumId)
            if stadium == nil {
                reasons.append(
                    "home team \(home.id) has home stadium '\(homeStadiumId)' on \(date.iso8601), "
                        + "which the reference does not define")
            }
        }

        var schedule: GameSchedule?
        if let stadium {
            if let zone = stadium.zone {
                switch GameSchedule.make(for: raw, stadiumZone: zone) {
                case .success(let value): schedule = value
                case .failure(let problem): reasons.append(problem.reason)
                }
            } else {
                reasons.append("stadium \(stadium.id) has time zone '\(stadium.timeZoneName)', which is not an IANA zone")
            }
        }

        for index in misses.indices { (misses[index].homeTeamId, misses[index].awayTeamId) = (home?.id, away?.id) }
        guard reasons.isEmpty, let home, let away, let stadium, let schedule else {
            return .failed(reasons: reasons, misses: misses)
        }
        return .resolved(
            ResolvedGame(
                raw: raw, home: home, away: away, stadium: stadium, venueGiven: venueGiven, schedule: schedule,
                homeStadiumId: home.homeStadiumId(on: schedule.localDate), dependsOnDate: dependsOnDate))
    }

    /// The team `printed` names for `raw` (as its `role`, `home team` or `away team`).
    private mutating func team(_ printed: String, role: String, of raw: RawGame, on date: LocalDate) -> Found<
        AliasResolver.TeamFacts
    > {
        let (name, key, lookup, team) = teamNames.look(
            up: printed, sport: raw.sport, on: date, names: &names, resolver: resolver, system: batch.system)
        guard !key.isEmpty else {
            return Found(reason: name.isEmpty ? "\(role) is blank" : "\(role) is a placeholder ('\(name)')")
        }
        switch lookup.resolution {
        case .resolved:
            return Found(value: team, isDated: lookup.isDated)
        case .ambiguous(let ids):
            return Found(
                reason: "ambiguous \(role) '\(name)' (\(ids.joined(separator: ", ")))",
                miss: miss(raw, .team, name, ids, role: role), isDated: lookup.isDated)
        case .unresolved where Self.isPlaceholder(key):
            return Found(reason: "\(role) is a placeholder ('\(name)')", isDated: lookup.isDated)
        case .unresolved:
            return Found(
                reason: "unresolved \(role) '\(name)'", miss: miss(raw, .team, name, [], role: role), isDated: lookup.isDated)
        }
    }

    /// The stadium `raw`'s venue names; no value and no reason when it names none (no venue, a blank one
    /// or a placeholder). When several stadiums share the name, the one in `raw.city` wins, else the
    /// home team's home on the date.
    private mutating func venue(of raw: RawGame, homeStadiumId: String?, on date: LocalDate) -> Found<
        AliasResolver.StadiumFacts
    > {
        guard let printed = raw.venue else { return Found() }
        let (name, key) = names.clean(printed)
        guard !key.isEmpty else { return Found() }
        let lookup = resolver.lookUpStadium(
            key: key, cityKey: raw.city.map { names.clean($0).key }, system: batch.system, on: date,
            homeStadiumId: homeStadiumId)
        switch lookup.resolution {
        case .resolved(let id):
            return Found(value: resolver.stadiumFacts(id: id), isDated: lookup.isDated)
        case .ambiguous(let ids):
            return Found(
                reason: "ambiguous venue '\(name)' (\(ids.joined(separator: ", ")))", miss: miss(raw, .venue, name, ids),
                isDated: lookup.isDated)
        case .unresolved where Self.isPlaceholder(key):
            return Found(isDated: lookup.isDated)
        case .unresolved:
            return Found(reason: "unresolved venue '\(name)'", miss: miss(raw, .venue, name, []), isDated: lookup.isDated)
        }
    }

    private func miss(_ raw: RawGame, _ field: NameMiss.Field, _ value: String, _ candidates: [String], role: String? = nil)
        -> NameMiss
    {
        NameMiss(
            source: batch.source, system: batch.system, sport: raw.sport, field: field, value: value,
            provenance: raw.provenance, candidates: candidates, role: role, sourceGameId: raw.sourceGameId, date: raw.date)
    }

    /// `TBD`, `TBA` and `TBC` (as match keys) stand for a name the source does not know yet; so does a
    /// name with no letter or digit at all (blank, `()`), checked by the callers.
    ///
    /// Only a name that resolves to nothing is taken as a placeholder: Retrosheet's `TBA` is Tampa Bay.
    static func isPlaceholder(_ key: String) -> Bool {
        ["tbd", "tba", "tbc"].contains(key)
    }

    // MARK: Plausibility

    /// What refuses the batch when more of its rows failed to resolve than the source's `rejectThreshold`
    /// allows (batch meta, from `pipeline/sources.yaml`): a new feed whose team names no alias knows, or a
    /// reference change that lost a whole source. A warning like the venue check's refusal — the run goes
    /// on, every row is in rejects.jsonl, the names are in unresolved.json with suggestions, and merge
    /// keeps what the source published before — located at the first rejected row.
    private func thresholdRefusal(rejects: [Reject], of count: Int) -> Diagnostic? {
        guard let text = batch.meta[.rejectThreshold], let threshold = RejectThreshold(text),
            threshold.isExceeded(rejected: rejects.count, candidates: count), let first = rejects.min()
        else { return nil }
        var byReason: [String: Int] = [:]
        for reject in rejects { byReason[reject.reason, default: 0] += 1 }
        let top = byReason.sorted { ($1.value, $0.key) < ($0.value, $1.key) }.prefix(3)
            .map { "\($0.key) (\(NumberText.grouped($0.value))×)" }.joined(separator: "; ")
        return Diagnostic(
            .warning, at: SourceLocation(path: first.file, line: first.line),
            "\(NumberText.grouped(rejects.count)) of \(NumberText.grouped(count)) games of source '\(batch.source)' "
                + "did not resolve, more than its rejectThreshold (\(threshold)); the batch is refused: \(top)",
            fix: "Add the names as aliases of system '\(batch.system)' in fixtures/reference/team-aliases.csv or "
                + "stadium-aliases.csv (out/normalize/unresolved.json lists each with suggestions), or map them in "
                + "pipeline/sources.yaml; raise rejectThreshold if these rows are expected")
    }

    /// One warning naming the games that did not resolve in a batch that is still published (within its
    /// `rejectThreshold`): they are in rejects.jsonl and their names in unresolved.json, and said here, so a
    /// game never leaves quietly. At most five are named, then a count.
    private func unresolvedGames(_ rejects: [Reject]) -> Diagnostic? {
        guard let first = rejects.min() else { return nil }
        let named = rejects.sorted().prefix(5).map { "\($0.raw ?? $0.recordId ?? "?") (\($0.reason))" }
        let more = rejects.count > named.count ? "; and \(NumberText.grouped(rejects.count - named.count)) more" : ""
        return Diagnostic(
            .warning, at: SourceLocation(path: first.file, line: first.line),
            "\(NumberText.grouped(rejects.count)) game\(rejects.count == 1 ? "" : "s") of source '\(batch.source)' did not resolve and "
                + "\(rejects.count == 1 ? "is" : "are") not published: \(named.joined(separator: "; "))\(more)",
            fix: "Add the names as aliases of system '\(batch.system)' in fixtures/reference/team-aliases.csv or "
                + "stadium-aliases.csv (out/normalize/unresolved.json lists each with suggestions); if a row is not a "
                + "game of the league (an exhibition against a club from abroad), nothing is needed")
    }

    /// One warning for the batch's games whose local date cannot belong to their season: outside the
    /// sport's season months for that season, widened by 45 days each side (spring training, a late World
    /// Series). They are kept (the date may be right and the season label wrong), but counted and located.
    private func outOfSeason(_ games: [ResolvedGame]) -> Diagnostic? {
        // A batch has one or a few sports and seasons: each window is worked out once.
        var windows: [SportSeason: ClosedRange<LocalDate>?] = [:]
        let outside = games.indices.filter { index in
            let raw = games[index].raw
            let key = SportSeason(sport: raw.sport, season: raw.season)
            if windows[key] == nil { windows[key] = resolver.sport(id: raw.sport)?.seasonWindow(raw.season) }
            guard let window = windows[key]! else { return false }
            return !window.contains(games[index].schedule.localDate)
        }
        guard let index = outside.min(by: { Provenance(games[$0].raw.provenance) < Provenance(games[$1].raw.provenance) }),
            let window = windows[SportSeason(sport: games[index].raw.sport, season: games[index].raw.season)]!
        else { return nil }
        let first = games[index], raw = first.raw
        return Diagnostic(
            .warning, at: Provenance(raw.provenance).location,
            "\(outside.count) game\(outside.count == 1 ? " is" : "s are") dated outside their season (e.g. \(raw.awayTeam) at "
                + "\(raw.homeTeam) on \(first.schedule.localDate.iso8601), season \(raw.season): \(window.lowerBound.iso8601) to "
                + "\(window.upperBound.iso8601), the \(raw.sport) season months widened by 45 days); they are kept",
            fix: "Fix the rows' dates, or the source's season in pipeline/sources.yaml")
    }

    private struct SportSeason: Hashable {
        var sport: String
        var season: String
    }

    /// Regular-season and postseason games at a venue the source named that is no home of the home team on
    /// the game's date (its home or an alternate) nor any team's home, whose source flag is `neutral`, grouped
    /// by home team and venue (each group sorted by row), groups in key order.
    private func awayFromAnyHome(_ games: [ResolvedGame], neutral: Bool?) -> [[ResolvedGame]] {
        let away = games.filter { game in
            game.raw.neutralSite == neutral && game.venueGiven && !game.isAtHome
                && (game.raw.kind == .regular || game.raw.kind == .postseason)
                && resolver.homeTeams(of: game.stadium.id, sport: game.raw.sport, on: game.schedule.localDate).isEmpty
        }
        return Self.groups(away) { "\($0.home.id)\u{1F}\($0.stadium.id)" }
    }

    /// `games` grouped by `key`, groups in key order, each sorted by row.
    private static func groups(_ games: [ResolvedGame], by key: (ResolvedGame) -> String) -> [[ResolvedGame]] {
        Dictionary(grouping: games, by: key).sorted { $0.key < $1.key }.map { group in
            group.value.sorted { Provenance($0.raw.provenance) < Provenance($1.raw.provenance) }
        }
    }

    /// One warning per home team and venue for games the source does not flag as neutral, at a venue that
    /// is neither the home team's home on the date nor any team's: stored as neutral sites, which is right
    /// for London or Mexico City and wrong when the reference misses a team's new or temporary home.
    private func inferredNeutralSites(_ games: [ResolvedGame]) -> [Diagnostic] {
        awayFromAnyHome(games, neutral: nil).map { members in
            let first = members[0]
            return Diagnostic(
                .warning, at: Provenance(first.raw.provenance).location,
                "\(members.count) \(first.home.id) home game\(members.count == 1 ? "" : "s") (\(Self.span(members))) at \(first.stadium.id), "
                    + "which is not its home then (\(first.homeStadiumId)) and which the source does not flag as neutral; "
                    + "stored as neutral-site game\(members.count == 1 ? "" : "s")",
                fix: "If it is the team's new or temporary home, add a dated home row to fixtures/reference/team-homes.csv "
                    + "(an alternate row for a second home); for a one-off neutral site nothing is needed")
        }
    }

    /// One warning per home team and venue for games the source says are *not* neutral, at a venue that
    /// is no home of the home team on the date nor any team's: stored as neutral sites (the rule of
    /// docs/design.md §4), which is wrong when the source applies a stadium name to the wrong years or the
    /// reference lacks a home.
    private func homeGamesAwayFromHome(_ games: [ResolvedGame]) -> [Diagnostic] {
        awayFromAnyHome(games, neutral: false).map { members in
            let first = members[0]
            return Diagnostic(
                .warning, at: Provenance(first.raw.provenance).location,
                "\(members.count) \(first.home.id) home game\(members.count == 1 ? "" : "s") (\(Self.span(members))) at \(first.stadium.id), "
                    + "which the source says \(members.count == 1 ? "is" : "are") not neutral, but which is not the team's home then "
                    + "(\(first.homeStadiumId)) nor any team's; stored as neutral-site game\(members.count == 1 ? "" : "s")",
                fix: "If the team played there, add a dated row to fixtures/reference/team-homes.csv (home, or alternate for a "
                    + "second home); if the source names the wrong stadium, give the name validity dates in "
                    + "fixtures/reference/stadium-aliases.csv or fix the games with overrides"
            )
        }
    }

    /// One warning per stadium for games dated before the year it opened (`opened_year` in
    /// `stadiums.csv`): a name that also belonged to an older building, resolved without validity dates.
    private func beforeOpening(_ games: [ResolvedGame]) -> [Diagnostic] {
        let early = games.filter { game in game.stadium.openedYear.map { game.schedule.localDate.year < $0 } == true }
        return Self.groups(early, by: \.stadium.id).map { members in
            let first = members[0]
            let venue = first.raw.venue.map { " as '\($0)'" } ?? " (the home team's home)"
            return Diagnostic(
                .warning, at: Provenance(first.raw.provenance).location,
                "\(members.count) game\(members.count == 1 ? " is" : "s are") at \(first.stadium.id)\(venue) (\(Self.span(members))), "
                    + "before it opened in \(first.stadium.openedYear!); kept at that venue",
                fix: "If the name belonged to an earlier building, add that stadium and give the name validity dates in "
                    + "fixtures/reference/stadium-aliases.csv (or a dated home in team-homes.csv); if the opening year is wrong, fix stadiums.csv"
            )
        }
    }

    /// `2017-09-17` or `2017-09-17 to 2017-12-31`.
    private static func span(_ games: [ResolvedGame]) -> String {
        let dates = games.map(\.schedule.localDate)
        return dates.min()! == dates.max()! ? dates.min()!.iso8601 : "\(dates.min()!.iso8601) to \(dates.max()!.iso8601)"
    }

    // MARK: Output

    /// The canonical game. Neutral site (docs/design.md §4): neutral when the source says so, and when the
    /// stadium is no home of either team on the game's date (London, Mexico City, a Super Bowl, a game moved
    /// by a snowstorm: its home and alternate homes, `team-homes.csv`), whatever the source says; a game at
    /// the away team's home only stays a home game (flagged by `VenueCheck`). What the source did not state is listed
    /// in `inferred`: the stadium (from the home team), the neutral flag (worked out as above), the local
    /// date (a date printed in another zone with no time, `GameSchedule.dateIsApproximate`), and the
    /// status or kind ingest defaulted.
    private func makeGame(_ game: ResolvedGame, number: Int?) -> Game {
        let raw = game.raw
        let neutral = raw.neutralSite == true || (!game.isAtHome && !game.isAtAwayTeamsHome)
        return Game(
            id: Game.makeId(
                sport: raw.sport, season: raw.season, localDate: game.schedule.localDate,
                awayTeamId: game.away.id, homeTeamId: game.home.id, gameNumber: number),
            sport: raw.sport, season: raw.season, kind: raw.kind,
            startUTC: game.schedule.startUTC, localDate: game.schedule.localDate,
            startKnowledge: game.schedule.knowledge(dayNight: raw.dayNight),
            homeTeamId: game.home.id, awayTeamId: game.away.id, stadiumId: game.stadium.id,
            neutralSite: neutral, gameNumber: number, status: raw.status, makeupDate: raw.makeupDate,
            sourceIds: raw.sourceGameId.map { [batch.source: $0] } ?? [:], provenance: raw.provenance,
            inferred: Self.inferred(
                raw.inferred, stadiumId: !game.venueGiven, neutralSite: raw.neutralSite == nil,
                localDate: game.schedule.dateIsApproximate),
            venueAssumed: raw.inferred?.contains(.venue) == true,
            lastModified: batch.scrapedAt, source: batch.source)
    }

    /// The fields ingest filled in (`ingested`) with those normalize filled in (the flags), sorted without
    /// repeats; nil when none.
    static func inferred(_ ingested: [InferredField]?, stadiumId: Bool, neutralSite: Bool, localDate: Bool) -> [InferredField]? {
        var fields = Set(ingested ?? [])
        if stadiumId { fields.insert(.stadiumId) }
        if neutralSite { fields.insert(.neutralSite) }
        if localDate { fields.insert(.localDate) }
        return fields.isEmpty ? nil : fields.sorted()
    }

    /// The record rejected for `reason`, summarized as `2024-05-01 NYA at BOS (Fenway Park)`.
    private func reject(_ raw: RawGame, _ reason: String) -> Reject {
        let provenance = Provenance(raw.provenance)
        var summary = "\(raw.date.iso8601) \(raw.awayTeam) at \(raw.homeTeam)"
        if let venue = raw.venue, !venue.isEmpty { summary += " (\(venue))" }
        return Reject(file: provenance.file, line: provenance.line, reason: reason, raw: summary, recordId: raw.id)
    }
}

/// Team names looked up for a batch: each printed name once per sport, and again on each date only when
/// an alias it matches has validity dates. A batch repeats a few dozen team names thousands of times.
private struct TeamNames {
    typealias Answer = (text: String, key: String, lookup: AliasResolver.Lookup, team: AliasResolver.TeamFacts?)
    private struct Name: Hashable {
        var printed: String
        var sport: String
    }
    private var undated: [Name: Answer] = [:]

    mutating func look(
        up printed: String, sport: String, on date: LocalDate, names: inout PrintedNames, resolver: AliasResolver,
        system: String
    ) -> Answer {
        let name = Name(printed: printed, sport: sport)
        if let known = undated[name] { return known }
        let (text, key) = names.clean(printed)
        let lookup = resolver.lookUpTeam(key: key, sport: sport, system: system, on: date)
        let answer = (text, key, lookup, lookup.resolution.id.flatMap(resolver.teamFacts(id:)))
        if !lookup.isDated { undated[name] = answer }
        return answer
    }
}

/// Printed names trimmed, with their match keys, worked out once per distinct string: a batch repeats a
/// few dozen names thousands of times, and a match key folds case, accents and punctuation.
private struct PrintedNames {
    private var known: [String: (text: String, key: String)] = [:]

    mutating func clean(_ printed: String) -> (text: String, key: String) {
        if let cleaned = known[printed] { return cleaned }
        let text = printed.trimmingCharacters(in: .whitespacesAndNewlines)
        let cleaned = (text, Slug.matchKey(text))
        known[printed] = cleaned
        return cleaned
    }
}
