import Foundation
import SportsTimeCore

/// One game whose names, stadium and time all resolved, before doubleheader numbering.
///
/// It keeps its raw game's place in the batch and references to its home team and stadium, not copies
/// of them: every copy of a game retained each string of its record, team and stadium.
struct ResolvedGame: Sendable {
    /// The raw game's index in `RawBatch.games`.
    var rawIndex: Int
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
}

/// Normalizes one batch: resolve every record, check the batch's venues, number doubleheaders, make ids.
struct BatchNormalization {
    let batch: RawBatch
    let resolver: AliasResolver
    let options: NormalizeOptions
    private(set) var diagnostics = Diagnostics()
    /// Names that did not resolve in records rejected for it.
    private(set) var misses: [NameMiss] = []
    /// Raw strings seen so far, trimmed and with their match keys: a batch repeats a few dozen names
    /// thousands of times.
    private var names: [String: (text: String, key: String)] = [:]
    /// Team names seen so far, for the sport they were read for, with their trimmed text and match key
    /// and, when their alias bucket has no validity dates, what they resolve to on every date: one
    /// dictionary access per team of a game instead of four.
    private var teamNames: [String: TeamName] = [:]

    /// Venue names seen so far, with their trimmed text and match key and, when the name resolves or
    /// fails to resolve the same way on every date, in every city and for every home team (its bucket has
    /// no validity dates and does not leave it ambiguous), that outcome with its stadium and zone.
    private var venueNames: [String: VenueName] = [:]

    /// What a game's inferred fields are made from (see `makeGame`).
    private struct InferredInputs: Equatable {
        var ingested: [String]?
        var stadiumId: Bool
        var neutralSite: Bool
        var localDate: Bool
    }
    /// The last game's inferred fields, with what they were made from: the games of a batch mostly have
    /// the same (a Retrosheet game's are `kind`, `neutralSite` and `stadiumId`), and then share one array.
    private var lastInferred: (inputs: InferredInputs, fields: [String]?)?
    /// The file of the last reject made (see `reject`).
    private var rejectFile = ""
    /// The last sport found known: a batch has one or a few, and asking the resolver hashes the name.
    private var knownSport: String?

    /// A class: a game reads its memo in place (a struct would be copied out of the dictionary).
    private final class VenueName: Sendable {
        typealias Outcome = (lookup: AliasResolver.Lookup, stadium: AliasResolver.StadiumFacts?)
        let text: String
        let key: String
        /// The lookup and its stadium, when the outcome depends on nothing else.
        let undatedLookup: AliasResolver.Lookup?
        let undatedStadium: AliasResolver.StadiumFacts?
        init(text: String, key: String, undated: Outcome?) {
            self.text = text; self.key = key
            (undatedLookup, undatedStadium) = (undated?.lookup, undated?.stadium)
        }
    }

    private final class TeamName: Sendable {
        typealias Outcome = (lookup: AliasResolver.Lookup, team: AliasResolver.TeamFacts?)
        let text: String
        let key: String
        let sport: String
        /// The lookup and its team, when the outcome is the same on every date.
        let undatedLookup: AliasResolver.Lookup?
        let undatedTeam: AliasResolver.TeamFacts?
        init(text: String, key: String, sport: String, undated: Outcome?) {
            self.text = text; self.key = key; self.sport = sport
            (undatedLookup, undatedTeam) = (undated?.lookup, undated?.team)
        }
    }

    init(batch: RawBatch, resolver: AliasResolver, options: NormalizeOptions) {
        self.batch = batch; self.resolver = resolver; self.options = options
    }

    mutating func run() -> NormalizedBatch {
        // Read in id order through sorted positions: the batch's games are not copied into a second array.
        let input = batch.games
        let order = TextOrder.positions(of: input.map(\.id), then: input.map(\.provenance))
        var resolved: [ResolvedGame] = []
        resolved.reserveCapacity(input.count)
        var rejects: [Reject] = []
        // Records are passed by index and read field by field in place: a copy of one (an argument
        // `input[index]` is one) would retain each of its strings and release them again.
        for index in order {
            switch settle(index) {
            case .resolved(let game):
                resolved.append(game)
            case .failed(let reasons, let misses):
                rejects.append(reject(index, reasons.joined(separator: "; ")))
                self.misses += misses
            }
        }

        if let refusal = thresholdRefusal(rejects: rejects, of: input.count) {
            diagnostics.emit(refusal)
            let reason = "batch refused: \(refusal.message)"
            return NormalizedBatch(
                path: batch.path, source: batch.source, meta: batch.meta, games: [],
                rejects: order.map { reject($0, reason) }.sorted(),
                inputCount: input.count, refusal: refusal)
        }

        let check = VenueCheck(games: resolved, of: input, resolver: resolver)
        if let refusal = check.refusal(of: batch, share: options.refusalShare) {
            diagnostics.emit(refusal)
            let reason = "batch refused: \(refusal.message)"
            misses = []
            return NormalizedBatch(
                path: batch.path, source: batch.source, meta: batch.meta, games: [],
                rejects: order.map { reject($0, reason) }.sorted(),
                inputCount: input.count, refusal: refusal)
        }
        for diagnostic in check.warnings() { diagnostics.emit(diagnostic) }

        for diagnostic in inferredNeutralSites(resolved) { diagnostics.emit(diagnostic) }
        for diagnostic in homeGamesAwayFromHome(resolved) { diagnostics.emit(diagnostic) }
        for diagnostic in beforeOpening(resolved) { diagnostics.emit(diagnostic) }
        if let diagnostic = outOfSeason(resolved) { diagnostics.emit(diagnostic) }
        let numbering = DoubleheaderNumbering(games: resolved, of: input)
        var games: [Game] = []
        games.reserveCapacity(resolved.count)
        // Each made game's place in `resolved`.
        var madeFrom: [Int] = []
        madeFrom.reserveCapacity(resolved.count)
        for index in resolved.indices {
            if let first = numbering.duplicateOf[index] {
                let original = resolved[first].rawIndex
                rejects.append(
                    reject(
                        resolved[index].rawIndex,
                        "duplicate of \(input[original].id) (\(input[original].provenance)): same teams, "
                            + "local date and start time, and no game numbers"))
                continue
            }
            games.append(makeGame(resolved[index], number: numbering.numbers[index]))
            madeFrom.append(index)
        }
        // Sorted by id through sorted indices (the same comparisons in the same order as sorting the
        // games), then put in place without a copy of any game. A repeated canonical id keeps its first
        // game (by place in `resolved`); in ASCII ids (every real one) repeats are neighbours in that
        // order, so no dictionary of ids is needed to find them.
        let ids = games.map(\.id)
        var byId = TextOrder.positions(of: ids)
        let repeats = ids.allSatisfy(\.isAllASCII) ? repeatsByNeighbours(ids, sorted: byId) : repeatsByLookup(ids)
        if !repeats.isEmpty {
            for (repeated, first) in repeats {
                let original = resolved[madeFrom[first]].rawIndex
                rejects.append(
                    reject(
                        resolved[madeFrom[repeated]].rawIndex,
                        "duplicate of \(input[original].id) (\(input[original].provenance)): "
                            + "same canonical id '\(ids[repeated])'"))
            }
            let dropped = Set(repeats.map(\.repeated))
            let kept = games.indices.filter { !dropped.contains($0) }
            games = kept.map { games[$0] }
            byId = TextOrder.positions(of: kept.map { ids[$0] })
        }
        games.permute(to: byId)
        return NormalizedBatch(
            path: batch.path, source: batch.source, meta: batch.meta,
            games: games, rejects: rejects.sorted(),
            inputCount: input.count, refusal: nil)
    }

    /// Each game whose id an earlier game (by place) has, with that earlier game: ids compared with their
    /// neighbours in `sorted` order (ASCII ids, where equal text is equal bytes).
    private func repeatsByNeighbours(_ ids: [String], sorted: [Int]) -> [(repeated: Int, first: Int)] {
        var repeats: [(repeated: Int, first: Int)] = []
        var runStart = 0
        while runStart < sorted.count {
            var runEnd = runStart + 1
            while runEnd < sorted.count, ids[sorted[runEnd]] == ids[sorted[runStart]] { runEnd += 1 }
            if runEnd - runStart > 1 {
                let run = sorted[runStart..<runEnd]
                let first = run.min()!
                for member in run where member != first { repeats.append((member, first)) }
            }
            runStart = runEnd
        }
        return repeats
    }

    /// `repeatsByNeighbours` for any ids, through a dictionary (text equality is canonical equivalence).
    private func repeatsByLookup(_ ids: [String]) -> [(repeated: Int, first: Int)] {
        var repeats: [(repeated: Int, first: Int)] = []
        var firstById: [String: Int] = [:]
        firstById.reserveCapacity(ids.count)
        for (index, id) in ids.enumerated() {
            if let first = firstById.updateValue(index, forKey: id) {
                firstById[id] = first
                repeats.append((index, first))
            }
        }
        return repeats
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
    private mutating func settle(_ index: Int) -> Attempt {
        let raws = batch.games
        var date = raws[index].date
        var attempt = resolve(index, on: date)
        for _ in 0..<2 {
            guard case .resolved(let game) = attempt, game.dependsOnDate, game.schedule.localDate != date else { break }
            date = game.schedule.localDate
            attempt = resolve(index, on: date)
        }
        if case .failed = attempt, raws[index].dateZone != "venue", raws[index].startUTC != nil || raws[index].localTime != nil {
            for neighbour in [raws[index].date.adding(days: -1), raws[index].date.adding(days: 1)] {
                let shifted = resolve(index, on: neighbour)
                if case .resolved(let game) = shifted, game.schedule.localDate == neighbour { return shifted }
            }
        }
        return attempt
    }

    /// Resolves names, stadium and time of the batch's raw game at `index` with aliases valid on `date`.
    private mutating func resolve(_ index: Int, on date: LocalDate) -> Attempt {
        // The record is read field by field in place (see `run`).
        let raws = batch.games
        var reasons: [String] = []
        var misses: [NameMiss] = []
        var dependsOnDate = false
        if raws[index].sport != knownSport {
            guard resolver.isKnownSport(raws[index].sport) else {
                return .failed(
                    reasons: ["unknown sport '\(raws[index].sport)' (known: \(resolver.sports.joined(separator: ", ")))"],
                    misses: [])
            }
            knownSport = raws[index].sport
        }

        func miss(_ field: NameMiss.Field, _ value: String, _ candidates: [String], role: String? = nil) -> NameMiss {
            NameMiss(
                source: batch.source, system: batch.system, sport: raws[index].sport, field: field, value: value,
                provenance: raws[index].provenance, candidates: candidates, role: role,
                sourceGameId: raws[index].sourceGameId, date: raws[index].date)
        }

        /// The team `printed` names (from its name's memo when the outcome is undated); nil, with the
        /// reason noted, when it names none the reference defines.
        func team(_ printed: String, role: String) -> AliasResolver.TeamFacts? {
            let known = teamName(printed, sport: raws[index].sport, on: date)
            let (name, key) = (known.text, known.key)
            if key.isEmpty {
                reasons.append(name.isEmpty ? "\(role) is blank" : "\(role) is a placeholder ('\(name)')")
                return nil
            }
            let lookup =
                known.undatedLookup
                ?? resolver.lookUpTeam(key: key, sport: raws[index].sport, system: batch.system, on: date)
            dependsOnDate = dependsOnDate || lookup.isDated
            switch lookup.resolution {
            case .resolved(let id):
                return known.undatedLookup != nil ? known.undatedTeam : resolver.teamFacts(id: id)
            case .ambiguous(let ids):
                reasons.append("ambiguous \(role) '\(name)' (\(ids.joined(separator: ", ")))")
                misses.append(miss(.team, name, ids, role: role))
            case .unresolved where Self.isPlaceholder(key):
                reasons.append("\(role) is a placeholder ('\(name)')")
            case .unresolved:
                reasons.append("unresolved \(role) '\(name)'")
                misses.append(miss(.team, name, [], role: role))
            }
            return nil
        }

        let home = team(raws[index].homeTeam, role: "home team")
        let away = team(raws[index].awayTeam, role: "away team")
        let homeTeamId = home?.id, awayTeamId = away?.id

        if let homeTeamId, let awayTeamId, homeTeamId == awayTeamId {
            reasons.append("home and away team are both \(homeTeamId)")
        }
        // The home team's home on this date; a team with dated homes makes the outcome depend on the date.
        let homeStadiumId = home.map { $0.homeStadiumId(on: date) }
        if let home, home.hasDatedHomes { dependsOnDate = true }

        var stadium: AliasResolver.StadiumFacts?
        // A record without a venue (most of Retrosheet's) needs no memo.
        let venueName = raws[index].venue.map { self.venueName($0, on: date) }
        var venueGiven = !(venueName?.key.isEmpty ?? true)
        if let venueName, venueGiven {
            let (venue, venueKey) = (venueName.text, venueName.key)
            let lookup: AliasResolver.Lookup
            if let undated = venueName.undatedLookup {
                lookup = undated
            } else {
                let city = raws[index].city.map { clean($0).key }
                lookup = resolver.lookUpStadium(
                    key: venueKey, cityKey: city, system: batch.system, on: date,
                    homeStadiumId: homeStadiumId)
            }
            dependsOnDate = dependsOnDate || lookup.isDated
            switch lookup.resolution {
            case .resolved(let id):
                stadium = venueName.undatedLookup != nil ? venueName.undatedStadium : resolver.stadiumFacts(id: id)
            case .ambiguous(let ids):
                reasons.append("ambiguous venue '\(venue)' (\(ids.joined(separator: ", ")))")
                misses.append(miss(.venue, venue, ids))
            case .unresolved where Self.isPlaceholder(venueKey):
                venueGiven = false
            case .unresolved:
                reasons.append("unresolved venue '\(venue)'")
                misses.append(miss(.venue, venue, []))
            }
        }
        if !venueGiven, let home, let homeStadiumId {
            // An undated home is the team's own stadium, looked up once with the team.
            stadium = home.hasDatedHomes ? resolver.stadiumFacts(id: homeStadiumId) : home.homeStadium
            if stadium == nil {
                reasons.append(
                    "home team \(home.id) has home stadium '\(homeStadiumId)' on \(date.iso8601), "
                        + "which the reference does not define")
            }
        }

        var schedule: GameSchedule?
        if let stadium {
            if let zone = stadium.zone {
                let made = GameSchedule.make(
                    date: raws[index].date, dateZone: raws[index].dateZone, startUTC: raws[index].startUTC,
                    localTime: raws[index].localTime, timeTBD: raws[index].timeTBD, stadiumZone: zone)
                switch made {
                case .success(let value): schedule = value
                case .failure(let problem): reasons.append(problem.reason)
                }
            } else {
                reasons.append("stadium \(stadium.id) has time zone '\(stadium.timeZoneName)', which is not an IANA zone")
            }
        }

        for miss in misses.indices { (misses[miss].homeTeamId, misses[miss].awayTeamId) = (homeTeamId, awayTeamId) }
        guard reasons.isEmpty, let home, let away, let stadium, let schedule else {
            return .failed(reasons: reasons, misses: misses)
        }
        return .resolved(
            ResolvedGame(
                rawIndex: index, home: home, away: away, stadium: stadium,
                venueGiven: venueGiven, schedule: schedule,
                homeStadiumId: home.homeStadiumId(on: schedule.localDate),
                dependsOnDate: dependsOnDate))
    }

    // MARK: Plausibility

    /// What refuses the batch when more of its rows failed to resolve than the source's `rejectThreshold`
    /// allows (batch meta, from `pipeline/sources.yaml`): a new feed whose team names no alias knows, or a
    /// reference change that lost a whole source. A warning like the venue check's refusal — the run goes
    /// on, every row is in rejects.jsonl, the names are in unresolved.json with suggestions, and merge
    /// keeps what the source published before — located at the first rejected row.
    private func thresholdRefusal(rejects: [Reject], of count: Int) -> Diagnostic? {
        guard let text = batch.meta[BatchMetaKey.rejectThreshold], let threshold = RejectThreshold(text),
            threshold.isExceeded(rejected: rejects.count, candidates: count), let first = rejects.min()
        else { return nil }
        var byReason: [String: Int] = [:]
        for reject in rejects { byReason[reject.reason, default: 0] += 1 }
        let top = byReason.sorted { ($1.value, $0.key) < ($0.value, $1.key) }.prefix(3)
            .map { "\($0.key) (\($0.value.grouped)×)" }.joined(separator: "; ")
        return Diagnostic(
            .warning, at: SourceLocation(path: first.file, line: first.line),
            "\(rejects.count.grouped) of \(count.grouped) games of source '\(batch.source)' did not resolve, more than its "
                + "rejectThreshold (\(threshold)); the batch is refused: \(top)",
            fix: "Add the names as aliases of system '\(batch.system)' in fixtures/reference/team-aliases.csv or "
                + "stadium-aliases.csv (out/normalize/unresolved.json lists each with suggestions), or map them in "
                + "pipeline/sources.yaml; raise rejectThreshold if these rows are expected")
    }

    /// One warning for the batch's games whose local date cannot belong to their season: outside the
    /// sport's season months for that season, widened by 45 days each side (spring training, a late World
    /// Series). They are kept (the date may be right and the season label wrong), but counted and located.
    private func outOfSeason(_ games: [ResolvedGame]) -> Diagnostic? {
        let raws = batch.games
        // The games outside by index, with their window.
        var outside: [(index: Int, window: ClosedRange<LocalDate>)] = []
        // One window per sport and season label (a batch has one or a few); the last one asked is kept at
        // hand. Games are read in place (a copy of each would retain every string of it).
        var windows: [String: ClosedRange<LocalDate>?] = [:]
        var last: (sport: String, season: String, window: ClosedRange<LocalDate>?)?
        for index in games.indices {
            let window: ClosedRange<LocalDate>?
            let record = games[index].rawIndex
            if let last, last.sport == raws[record].sport, last.season == raws[record].season {
                window = last.window
            } else {
                let sport = raws[record].sport, season = raws[record].season
                let key = sport + "\u{1F}" + season
                if let known = windows[key] {
                    window = known
                } else {
                    window = resolver.sport(id: sport)?.seasonWindow(season)
                    windows[key] = window
                }
                last = (sport, season, window)
            }
            guard let window, !window.contains(games[index].schedule.localDate) else { continue }
            outside.append((index, window))
        }
        guard
            let (index, window) = outside.min(by: {
                Provenance(raws[games[$0.index].rawIndex].provenance) < Provenance(raws[games[$1.index].rawIndex].provenance)
            })
        else { return nil }
        let first = games[index], raw = raws[first.rawIndex]
        return Diagnostic(
            .warning, at: Provenance(raw.provenance).location,
            "\(outside.count) game\(outside.count == 1 ? " is" : "s are") dated outside their season (e.g. \(raw.awayTeam) at "
                + "\(raw.homeTeam) on \(first.schedule.localDate.iso8601), season \(raw.season): \(window.lowerBound.iso8601) to "
                + "\(window.upperBound.iso8601), the \(raw.sport) season months widened by 45 days); they are kept",
            fix: "Fix the rows' dates, or the source's season in pipeline/sources.yaml")
    }

    /// Regular-season and postseason games at a venue the source named that is neither the home team's
    /// home on the game's date nor any team's, whose source flag is `neutral`, grouped by home team and
    /// venue (each group sorted by row), groups in key order.
    private func awayFromAnyHome(_ games: [ResolvedGame], neutral: Bool?) -> [[ResolvedGame]] {
        let raws = batch.games
        var groups: [String: [ResolvedGame]] = [:]
        // Games read in place; only the few that are grouped are copied.
        for index in games.indices
        where raws[games[index].rawIndex].neutralSite == neutral && games[index].venueGiven
            && games[index].stadium.id != games[index].homeStadiumId
            && (raws[games[index].rawIndex].kind == .regular || raws[games[index].rawIndex].kind == .postseason)
            && resolver.homeTeams(
                of: games[index].stadium.id, sport: raws[games[index].rawIndex].sport, on: games[index].schedule.localDate
            ).isEmpty
        {
            groups["\(games[index].home.id)\u{1F}\(games[index].stadium.id)", default: []].append(games[index])
        }
        return groups.keys.sorted().map { key in
            groups[key]!.sorted { Provenance(raws[$0.rawIndex].provenance) < Provenance(raws[$1.rawIndex].provenance) }
        }
    }

    /// One warning per home team and venue for games the source does not flag as neutral, at a venue that
    /// is neither the home team's home on the date nor any team's: stored as neutral sites, which is right
    /// for London or Mexico City and wrong when the reference misses a team's new or temporary home.
    private func inferredNeutralSites(_ games: [ResolvedGame]) -> [Diagnostic] {
        awayFromAnyHome(games, neutral: nil).map { members in
            let first = members[0]
            return Diagnostic(
                .warning, at: Provenance(batch.games[first.rawIndex].provenance).location,
                "\(members.count) \(first.home.id) home game\(members.count == 1 ? "" : "s") (\(Self.span(members))) at \(first.stadium.id), "
                    + "which is not its home then (\(first.homeStadiumId)) and which the source does not flag as neutral; "
                    + "stored as neutral-site game\(members.count == 1 ? "" : "s")",
                fix: "If it is the team's new or temporary home, add a dated row to fixtures/reference/team-homes.csv; "
                    + "for a one-off neutral site nothing is needed")
        }
    }

    /// One warning per home team and venue for games the source says are *not* neutral, at a venue that
    /// is neither the home team's home on the date nor any team's: a home game somewhere the team did not
    /// play (a stadium name a source applies to the wrong years), or a home the reference lacks.
    private func homeGamesAwayFromHome(_ games: [ResolvedGame]) -> [Diagnostic] {
        awayFromAnyHome(games, neutral: false).map { members in
            let first = members[0]
            return Diagnostic(
                .warning, at: Provenance(batch.games[first.rawIndex].provenance).location,
                "\(members.count) \(first.home.id) home game\(members.count == 1 ? "" : "s") (\(Self.span(members))) at \(first.stadium.id), "
                    + "which the source says \(members.count == 1 ? "is" : "are") not neutral, but which is not the team's home then "
                    + "(\(first.homeStadiumId)) nor any team's; kept at that venue",
                fix: "If the team played there, add a dated row to fixtures/reference/team-homes.csv; if the source names the "
                    + "wrong stadium, give the name validity dates in fixtures/reference/stadium-aliases.csv or fix the games with overrides"
            )
        }
    }

    /// One warning per stadium for games dated before the year it opened (`opened_year` in
    /// `stadiums.csv`): a name that also belonged to an older building, resolved without validity dates.
    private func beforeOpening(_ games: [ResolvedGame]) -> [Diagnostic] {
        var groups: [String: [ResolvedGame]] = [:]
        for index in games.indices
        where games[index].stadium.openedYear.map({ games[index].schedule.localDate.year < $0 }) == true {
            groups[games[index].stadium.id, default: []].append(games[index])
        }
        return groups.keys.sorted().map { id in
            let members = groups[id]!.sorted {
                Provenance(batch.games[$0.rawIndex].provenance) < Provenance(batch.games[$1.rawIndex].provenance)
            }
            let first = members[0]
            let venue = batch.games[first.rawIndex].venue.map { " as '\($0)'" } ?? " (the home team's home)"
            return Diagnostic(
                .warning, at: Provenance(batch.games[first.rawIndex].provenance).location,
                "\(members.count) game\(members.count == 1 ? " is" : "s are") at \(id)\(venue) (\(Self.span(members))), "
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

    /// `TBD`, `TBA` and `TBC` (as match keys) stand for a name the source does not know yet; so does a
    /// name with no letter or digit at all (blank, `()`), checked by the callers.
    ///
    /// Only a name that resolves to nothing is taken as a placeholder: Retrosheet's `TBA` is Tampa Bay.
    static func isPlaceholder(_ key: String) -> Bool {
        ["tbd", "tba", "tbc"].contains(key)
    }

    /// A printed team name of `sport`: trimmed, its match key, and what it resolves to when that is the
    /// same on every date; worked out once per distinct name (and again when the sport differs).
    private mutating func teamName(_ printed: String, sport: String, on date: LocalDate) -> TeamName {
        if let known = teamNames[printed], known.sport == sport { return known }
        let (text, key) = clean(printed)
        var undated: TeamName.Outcome?
        if !key.isEmpty {
            let lookup = resolver.lookUpTeam(key: key, sport: sport, system: batch.system, on: date)
            if !lookup.isDated { undated = (lookup, lookup.resolution.id.flatMap(resolver.teamFacts(id:))) }
        }
        let made = TeamName(text: text, key: key, sport: sport, undated: undated)
        teamNames[printed] = made
        return made
    }

    /// A printed venue name: trimmed, its match key, and its outcome when that depends on nothing else
    /// (see `venueNames`); worked out once per distinct name.
    private mutating func venueName(_ printed: String, on date: LocalDate) -> VenueName {
        if let known = venueNames[printed] { return known }
        let (text, key) = clean(printed)
        var undated: VenueName.Outcome?
        if !key.isEmpty {
            // Without a city or a home team: only an ambiguous outcome uses them, and that one is not kept.
            let lookup = resolver.lookUpStadium(key: key, cityKey: nil, system: batch.system, on: date, homeStadiumId: nil)
            if !lookup.isDated, lookup.resolution.ambiguousIds == nil {
                undated = (lookup, lookup.resolution.id.flatMap(resolver.stadiumFacts(id:)))
            }
        }
        let made = VenueName(text: text, key: key, undated: undated)
        venueNames[printed] = made
        return made
    }

    /// A raw string trimmed, and its match key; worked out once per distinct string.
    private mutating func clean(_ printed: String) -> (text: String, key: String) {
        if let known = names[printed] { return known }
        let text = printed.hasPlainASCIIEnds ? printed : printed.trimmingCharacters(in: .whitespacesAndNewlines)
        let made = (text, Slug.matchKey(text))
        names[printed] = made
        return made
    }

    // MARK: Output

    /// The canonical game. Neutral site: the source's flag when it gives one; otherwise the game is
    /// neutral when its stadium is not the home team's home on the game's date and is no home of any team
    /// of the sport on that date (London, Mexico City, Field of Dreams), and not neutral when it is some
    /// other team's home (that case is flagged by `VenueCheck`). What the source did not state is listed
    /// in `inferred`: the stadium (from the home team), the neutral flag (worked out as above), the local
    /// date (a date printed in another zone with no time, `GameSchedule.dateIsApproximate`), and the
    /// status or kind ingest defaulted.
    private mutating func makeGame(_ game: ResolvedGame, number: Int?) -> Game {
        // The record is read field by field in place (see `run`).
        let raws = batch.games, index = game.rawIndex
        let neutral =
            raws[index].neutralSite
            ?? (game.stadium.id != game.homeStadiumId
                && resolver.homeTeams(of: game.stadium.id, sport: raws[index].sport, on: game.schedule.localDate).isEmpty)
        let id = Game.makeId(
            sport: raws[index].sport, season: raws[index].season, localDate: game.schedule.localDate,
            awayTeamId: game.away.id, homeTeamId: game.home.id, gameNumber: number)
        let inputs = InferredInputs(
            ingested: raws[index].inferred, stadiumId: !game.venueGiven, neutralSite: raws[index].neutralSite == nil,
            localDate: game.schedule.dateIsApproximate)
        let inferred: [String]?
        if let last = lastInferred, last.inputs == inputs {
            inferred = last.fields
        } else {
            inferred = Self.inferred(
                inputs.ingested, stadiumId: inputs.stadiumId, neutralSite: inputs.neutralSite, localDate: inputs.localDate)
            lastInferred = (inputs, inferred)
        }
        return Game(
            id: id, sport: raws[index].sport, season: raws[index].season, kind: raws[index].kind,
            startUTC: game.schedule.startUTC, localDate: game.schedule.localDate,
            startKnowledge: game.schedule.knowledge(dayNight: raws[index].dayNight),
            homeTeamId: game.home.id, awayTeamId: game.away.id, stadiumId: game.stadium.id,
            neutralSite: neutral, gameNumber: number, status: raws[index].status, makeupDate: raws[index].makeupDate,
            sourceIds: raws[index].sourceGameId.map { [batch.source: $0] } ?? [:], provenance: raws[index].provenance,
            inferred: inferred, lastModified: batch.scrapedAt, source: batch.source)
    }

    /// The fields ingest filled in (`ingested`) with those normalize filled in (the flags), sorted without
    /// repeats; nil when none.
    static func inferred(_ ingested: [String]?, stadiumId: Bool, neutralSite: Bool, localDate: Bool) -> [String]? {
        let ingested = sortedWithoutRepeats(ingested ?? [])
        guard stadiumId || neutralSite || localDate else { return ingested.isEmpty ? nil : ingested }
        // Made in one array sized once: ingest's fields, then normalize's each put in its place (the list
        // is not sorted again).
        var fields: [String] = []
        fields.reserveCapacity(ingested.count + 3)
        fields += ingested
        func add(_ field: String) {
            let place = fields.firstIndex { $0 >= field } ?? fields.endIndex
            if place == fields.endIndex || fields[place] != field { fields.insert(field, at: place) }
        }
        if stadiumId { add("stadiumId") }
        if neutralSite { add("neutralSite") }
        if localDate { add("localDate") }
        return fields
    }

    /// `texts` end to end, their bytes copied once into a string of their size (appended one by one, or
    /// interpolated, each piece cost several times as much).
    private static func concatenated(_ texts: [String]) -> String {
        let count = texts.reduce(0) { $0 + $1.utf8.count }
        return String(unsafeUninitializedCapacity: count) { buffer in
            var at = 0
            for var text in texts {
                text.withUTF8 { bytes in
                    guard let base = bytes.baseAddress else { return }
                    (buffer.baseAddress! + at).initialize(from: base, count: bytes.count)
                    at += bytes.count
                }
            }
            return at
        }
    }

    /// `fields` sorted, each once (the first of equal ones kept). Ingest writes its inferred fields so:
    /// they are taken as they are once checked.
    private static func sortedWithoutRepeats(_ fields: [String]) -> [String] {
        if zip(fields, fields.dropFirst()).allSatisfy({ $0 < $1 }) { return fields }
        var unique: [String] = []
        for field in fields where !unique.contains(field) { unique.append(field) }
        return unique.sorted()
    }

    private mutating func reject(_ index: Int, _ reason: String) -> Reject {
        // The record is read field by field in place (see `run`).
        let raws = batch.games
        var provenance = Provenance(raws[index].provenance)
        // The rows of a batch share a file or a few: each reject of the last one's file holds that same
        // string, and sorting rejects then finds files equal without reading them.
        if provenance.file == rejectFile { provenance.file = rejectFile } else { rejectFile = provenance.file }
        // `2024-05-01 NYA at BOS (Fenway Park)`.
        let (date, away, home) = (raws[index].date.iso8601, raws[index].awayTeam, raws[index].homeTeam)
        let summary =
            if let venue = raws[index].venue, !venue.isEmpty {
                Self.concatenated([date, " ", away, " at ", home, " (", venue, ")"])
            } else {
                Self.concatenated([date, " ", away, " at ", home])
            }
        return Reject(
            file: provenance.file, line: provenance.line, reason: reason, raw: summary, recordId: raws[index].id)
    }
}
