import SportsTimeCore

/// Game numbers for games of the same teams (same home, same away) on the same local date.
///
/// - A number the source gives (1, 2, …) is kept; 0 or less means "single game" (Retrosheet prints 0).
/// - When a pair plays more than once on a date, the games without a number get the lowest numbers
///   not taken, in order of start time (then source id, then record id).
/// - Two unnumbered games of such a group with the same start (or both without one) are one game listed
///   twice: the later is a duplicate, never a second game.
/// - A game alone on its date keeps the source's number, or none.
struct DoubleheaderNumbering {
    /// Game number per index of the input; nil for a single game.
    private(set) var numbers: [Int?]
    /// For a duplicate listing, the index of the game it repeats, per index of the input.
    private(set) var duplicateOf: [Int: Int] = [:]

    /// Games with the same key are the same pairing on the same local date. No string in it: the teams
    /// are compared by identity (the resolver has one `TeamFacts` per team) and the sport and season by
    /// their number in the batch (hashing the strings of each game cost most of the numbering).
    private struct PairingDay: Hashable {
        var season: Int
        var localDate: LocalDate
        var away: ObjectIdentifier
        var home: ObjectIdentifier
    }

    private struct SportSeason: Hashable {
        var sport: String
        var season: String
    }

    /// Numbers `games`, whose records are `raws` (by `ResolvedGame.rawIndex`).
    init(games: [ResolvedGame], of raws: [RawGame]) {
        // Games and records read in place by index (a copy of each would retain every string of it).
        numbers = games.indices.map { Self.sourceNumber(raws[games[$0].rawIndex].gameNumber) }
        // Each pairing day's games as a chain through `following` (its first and last game in `ends`): no
        // array per pairing day, when nearly every one has a single game. Groups are numbered apart from
        // each other, so the order they are met in does not matter.
        var ends: [PairingDay: (first: Int, last: Int)] = [:]
        ends.reserveCapacity(games.count) // one group per game, nearly: sized once, never rehashed
        var following = [Int](repeating: -1, count: games.count)
        var shared: [Int] = []
        // Each sport and season numbered as met; a batch has one or a few, the last one is kept at hand.
        var seasons: [SportSeason: Int] = [:]
        var last: (sportSeason: SportSeason, number: Int)?
        for index in games.indices {
            let record = games[index].rawIndex
            let season: Int
            if let last, last.sportSeason.sport == raws[record].sport, last.sportSeason.season == raws[record].season {
                season = last.number
            } else {
                let sportSeason = SportSeason(sport: raws[record].sport, season: raws[record].season)
                season = seasons[sportSeason, default: seasons.count]
                seasons[sportSeason] = season
                last = (sportSeason, season)
            }
            let key = PairingDay(
                season: season, localDate: games[index].schedule.localDate,
                away: ObjectIdentifier(games[index].away), home: ObjectIdentifier(games[index].home))
            // Added with one lookup (a second only for a pairing day met before, which is rare).
            if let known = ends.updateValue((first: index, last: index), forKey: key) {
                ends[key] = (first: known.first, last: index)
                following[known.last] = index
                if known.first == known.last { shared.append(known.first) }
            }
        }
        for first in shared {
            let members = Array(sequence(first: first) { following[$0] >= 0 ? following[$0] : nil })
            let ordered = members.sorted { Self.order(games[$0], games[$1], raws) }
            var survivors: [Int] = []
            var unnumberedStarts: [Instant?: Int] = [:]
            for index in ordered {
                if numbers[index] == nil {
                    let start = games[index].schedule.startUTC
                    if let first = unnumberedStarts[start] {
                        duplicateOf[index] = first
                        continue
                    }
                    unnumberedStarts[start] = index
                }
                survivors.append(index)
            }
            guard survivors.count > 1 else { continue }
            var taken = Set(survivors.compactMap { numbers[$0] })
            var next = 1
            for index in survivors where numbers[index] == nil {
                while taken.contains(next) { next += 1 }
                numbers[index] = next
                taken.insert(next)
            }
        }
    }

    private static func sourceNumber(_ gameNumber: Int?) -> Int? {
        guard let number = gameNumber, number > 0 else { return nil }
        return number
    }

    /// Start time first (games without one last), then the source's id, then the record id.
    private static func order(_ a: ResolvedGame, _ b: ResolvedGame, _ raws: [RawGame]) -> Bool {
        let aStart = a.schedule.startUTC?.secondsSinceEpoch ?? .max
        let bStart = b.schedule.startUTC?.secondsSinceEpoch ?? .max
        let (aRaw, bRaw) = (a.rawIndex, b.rawIndex)
        return (aStart, raws[aRaw].sourceGameId ?? "", raws[aRaw].id) < (bStart, raws[bRaw].sourceGameId ?? "", raws[bRaw].id)
    }
}
