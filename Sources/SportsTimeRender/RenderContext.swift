import Foundation
import SportsTimeCore

/// The canonical records render looks things up in: sports (colours, names), stadiums (region and
/// country for addresses), and each game's `lastModified` (the calendar's DTSTAMP).
public struct RenderCatalog: Sendable {
    public private(set) var sportsById: [String: Sport]
    public private(set) var stadiumsById: [String: Stadium]
    /// The same stadiums in id order (the order `PlanText.overnight` breaks distance ties in).
    public private(set) var stadiumsInIdOrder: [Stadium]
    public private(set) var gameLastModified: [String: Instant]

    /// Sports from the merged store win over the built-in definitions of the same id.
    public init(sports: [Sport], stadiums: [Stadium], gameLastModified: [String: Instant] = [:]) {
        var sportsById: [String: Sport] = [:]
        for sport in BuiltInSport.allCases.map(\.sport) { sportsById[sport.id] = sport }
        for sport in sports { sportsById[sport.id] = sport }
        self.sportsById = sportsById
        self.stadiumsById = Dictionary(stadiums.map { ($0.id, $0) }, uniquingKeysWith: { a, b in a.id <= b.id ? b : a })
        self.stadiumsInIdOrder = stadiumsById.values.sorted { $0.id < $1.id }
        self.gameLastModified = gameLastModified
    }

    public func sport(_ id: String) -> Sport? { sportsById[id] }

    /// `NBA`; the id upper-cased for a sport nobody defined.
    public func abbreviation(ofSport id: String) -> String { sportsById[id]?.abbreviation ?? id.uppercased() }

    /// The sport's colour as `#RRGGBB`, or a neutral grey for an unknown sport or a malformed colour.
    public func color(ofSport id: String) -> String {
        guard let hex = sportsById[id]?.colorHex, let normalized = RenderCatalog.normalizedColor(hex) else {
            return RenderCatalog.fallbackColor
        }
        return normalized
    }

    public static let fallbackColor = "#5B6573"

    /// `#RGB`, `#RRGGBB`, `RRGGBB`, `#RRGGBBAA` → `#RRGGBB` (upper case); nil for anything else.
    public static func normalizedColor(_ text: String) -> String? {
        var hex = text.hasPrefix("#") ? String(text.dropFirst()) : text
        guard hex.allSatisfy(\.isHexDigit) else { return nil }
        switch hex.count {
        case 3: hex = hex.map { "\($0)\($0)" }.joined()
        case 6: break
        case 8: hex = String(hex.prefix(6))
        default: return nil
        }
        return "#" + hex.uppercased()
    }

    /// `Boston, MA` or `Montréal, QC, Canada`; the visit's city when the stadium is unknown.
    public func place(of visit: GameVisit) -> String {
        guard let stadium = stadiumsById[visit.stadiumId] else { return visit.city }
        var parts = [stadium.city.isEmpty ? visit.city : stadium.city]
        if !stadium.region.isEmpty { parts.append(stadium.region) }
        if !stadium.country.isEmpty && !RenderCatalog.homeCountries.contains(stadium.country) {
            parts.append(stadium.country)
        }
        return parts.filter { !$0.isEmpty }.joined(separator: ", ")
    }

    /// Countries not spelled out in addresses (the pipeline's home market).
    static let homeCountries: Set<String> = ["USA", "US", "United States", "United States of America"]
}

/// Paper size the HTML asks for; both sizes' `@page` rules are always in the stylesheet.
public enum PaperSize: String, Sendable, CaseIterable {
    case letter, a4
}

/// Everything a renderer needs besides the plan.
public struct RenderContext: Sendable {
    public var catalog: RenderCatalog
    public var baseMap: BaseMap
    public var paper: PaperSize = .letter
}
