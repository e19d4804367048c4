import Foundation

/// The names teams and stadiums went by on a date, from the dated aliases: a 2019 game is the Oakland Raiders
/// at Oakland Coliseum, a January 2025 game is at the Wells Fargo Center, today's games carry today's names.
///
/// A former name is an alias with no source system (a real name, not one source's spelling) that ended
/// (`validUntil` set) and whose validity contains the date: for a team a `fullName` alias, for a stadium any
/// name alias. When several hold, the one that began last wins (the name in force then); when none does, the
/// record's own name: a spelling valid from some date on (`Inter.co Stadium` from 2026) is not a name change.
public struct NamesOnDate: Sendable {
    private let teamNames: [String: [Dated]]
    private let stadiumNames: [String: [Dated]]

    private struct Dated: Sendable {
        let name: String
        let from: LocalDate?
        let until: LocalDate?

        func holds(on date: LocalDate) -> Bool {
            (from.map { $0 <= date } ?? true) && (until.map { date <= $0 } ?? true)
        }
    }

    public init(teamAliases: [TeamAlias], stadiumAliases: [StadiumAlias]) {
        var teams: [String: [Dated]] = [:]
        for alias in teamAliases
        where alias.kind == .fullName && alias.sourceSystem == nil && alias.validUntil != nil {
            teams[alias.teamId, default: []].append(Dated(name: alias.value, from: alias.validFrom, until: alias.validUntil))
        }
        var stadiums: [String: [Dated]] = [:]
        for alias in stadiumAliases where alias.sourceSystem == nil && alias.validUntil != nil {
            stadiums[alias.stadiumId, default: []].append(Dated(name: alias.name, from: alias.validFrom, until: alias.validUntil))
        }
        teamNames = teams
        stadiumNames = stadiums
    }

    /// The team's full name on `date`.
    public func name(of team: Team, on date: LocalDate) -> String {
        Self.latest(teamNames[team.id], on: date) ?? team.fullName
    }

    /// The stadium's name on `date`.
    public func name(of stadium: Stadium, on date: LocalDate) -> String {
        Self.latest(stadiumNames[stadium.id], on: date) ?? stadium.name
    }

    /// Of the names that hold on `date`, the one that began last (an open start begins first); ties by name.
    private static func latest(_ names: [Dated]?, on date: LocalDate) -> String? {
        var best: Dated?
        for candidate in names ?? [] where candidate.holds(on: date) {
            guard let current = best else {
                best = candidate
                continue
            }
            switch (current.from, candidate.from) {
            case (nil, .some): best = candidate
            case let (a?, b?) where b > a || (b == a && candidate.name < current.name): best = candidate
            case (nil, nil) where candidate.name < current.name: best = candidate
            default: break
            }
        }
        return best?.name
    }
}
