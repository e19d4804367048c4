import Foundation

/// A stretch of dates on which a team's home stadium is not its `Team.homeStadiumId`: the Athletics at Oakland
/// Coliseum until 2024, the Blue Jays in Buffalo and Dunedin in 2020–21, the Rays at Steinbrenner Field in 2025.
/// One row of `fixtures/reference/team-homes.csv`; outside every `home` spell of a team, `Team.homeStadiumId` applies.
/// An `alternate` spell is a second home on its dates (Toronto's second arena, a World Cup-summer displacement,
/// the Spurs in Austin): games there are home games, not neutral; a game without a venue is still placed at the home.
public struct TeamHomeSpell: Codable, Sendable, Hashable {
    public enum Role: String, Codable, Sendable, CaseIterable {
        /// The team's one home on these dates.
        case home
        /// Also a home on these dates, besides the home.
        case alternate
    }

    public var teamId: String
    public var stadiumId: String
    public var role: Role
    /// First day (inclusive); nil = open (since before any data).
    public var validFrom: LocalDate?
    /// Last day (inclusive); nil = open (still the home).
    public var validUntil: LocalDate?
    public var lastModified: Instant
    /// Where the dates come from.
    public var note: String

    public init(
        teamId: String, stadiumId: String, role: Role = .home, validFrom: LocalDate? = nil, validUntil: LocalDate? = nil,
        lastModified: Instant, note: String = ""
    ) {
        self.teamId = teamId; self.stadiumId = stadiumId; self.role = role; self.validFrom = validFrom; self.validUntil = validUntil
        self.lastModified = lastModified; self.note = note
    }

    /// Whether `date` is inside the spell (both ends inclusive).
    public func isValid(on date: LocalDate) -> Bool {
        (validFrom.map { $0 <= date } ?? true) && (validUntil.map { date <= $0 } ?? true)
    }

    /// Whether the two spells share at least one day.
    public func overlaps(_ other: TeamHomeSpell) -> Bool {
        if let validUntil, let otherFrom = other.validFrom, validUntil < otherFrom { return false }
        if let otherUntil = other.validUntil, let validFrom, otherUntil < validFrom { return false }
        return true
    }

    /// `2021-04-08...2021-05-24`, with `…` for an open end.
    public var rangeDescription: String {
        "\(validFrom?.iso8601 ?? "…")...\(validUntil?.iso8601 ?? "…")"
    }

    /// The order of `ReferenceData.teamHomes`: by team, then by first day (an open start first).
    public static func precedes(_ a: TeamHomeSpell, _ b: TeamHomeSpell) -> Bool {
        if a.teamId != b.teamId { return a.teamId < b.teamId }
        switch (a.validFrom, b.validFrom) {
        case (nil, nil): return a.stadiumId < b.stadiumId
        case (nil, _): return true
        case (_, nil): return false
        case let (x?, y?): return x != y ? x < y : a.stadiumId < b.stadiumId
        }
    }
}
