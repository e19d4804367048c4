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

    /// Games with the same key are the same pairing on the same local date.
    private struct PairingDay: Hashable {
        var sport: String
        var season: String
        var localDate: LocalDate
        var awayTeamId: String
        var homeTeamId: String

        init(_ game: ResolvedGame) {
            (sport, season, localDate) = (game.raw.sport, game.raw.season, game.schedule.localDate)
            (awayTeamId, homeTeamId) = (game.away.id, game.home.id)
        }
    }

    init(games: [ResolvedGame]) {
        numbers = games.map { game in game.raw.gameNumber.flatMap { $0 > 0 ? $0 : nil } }
        let pairingDays = Dictionary(grouping: games.indices) { PairingDay(games[$0]) }
        for members in pairingDays.values where members.count > 1 {
            let ordered = members.sorted { Self.order(games[$0], games[$1]) }
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

    /// Start time first (games without one last), then the source's id, then the record id.
    private static func order(_ a: ResolvedGame, _ b: ResolvedGame) -> Bool {
        let aStart = a.schedule.startUTC?.secondsSinceEpoch ?? .max
        let bStart = b.schedule.startUTC?.secondsSinceEpoch ?? .max
        return (aStart, a.raw.sourceGameId ?? "", a.raw.id) < (bStart, b.raw.sourceGameId ?? "", b.raw.id)
    }
}
