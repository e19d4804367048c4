import Foundation
import SportsTimeCore

/// Locale-free, deterministic text for numbers, durations, distances, dates and times.
///
/// Nothing here reads the user's locale or the clock: the same value always prints the same way.
enum Format {
    static let kilometresPerMile = GreatCircle.kilometresPerMile

    static func miles(fromKilometres kilometres: Double) -> Int {
        Int((kilometres / kilometresPerMile).rounded())
    }

    /// `380 mi (612 km)`.
    static func distance(kilometres: Double) -> String {
        "\(NumberText.grouped(miles(fromKilometres: kilometres))) mi (\(NumberText.grouped(Int(kilometres.rounded()))) km)"
    }

    /// Hours as `7 h 40 min`, `45 min`, `3 h`, `0 min`.
    static func duration(hours: Double) -> String {
        let minutes = Int((hours * 60).rounded())
        if minutes < 60 { return "\(minutes) min" }
        let rest = minutes % 60
        return rest == 0 ? "\(minutes / 60) h" : "\(minutes / 60) h \(rest) min"
    }

    static let weekdayNames = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
    static let monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    static func weekday(_ date: LocalDate) -> String { weekdayNames[date.isoWeekday - 1] }

    /// `Sat, Nov 1, 2025`.
    static func longDate(_ date: LocalDate) -> String {
        "\(weekday(date)), \(monthNames[date.month - 1]) \(date.day), \(date.year)"
    }

    /// `Sat, Nov 1`.
    static func shortDate(_ date: LocalDate) -> String {
        "\(weekday(date)), \(monthNames[date.month - 1]) \(date.day)"
    }

    /// `Nov 1–7, 2025`, `Oct 30 – Nov 2, 2025`, `Dec 30, 2025 – Jan 2, 2026`, `Nov 8, 2025`.
    static func dateRange(_ first: LocalDate, _ last: LocalDate) -> String {
        let firstMonth = monthNames[first.month - 1], lastMonth = monthNames[last.month - 1]
        if first == last { return "\(firstMonth) \(first.day), \(first.year)" }
        if first.year != last.year {
            return "\(firstMonth) \(first.day), \(first.year) – \(lastMonth) \(last.day), \(last.year)"
        }
        if first.month != last.month {
            return "\(firstMonth) \(first.day) – \(lastMonth) \(last.day), \(last.year)"
        }
        return "\(firstMonth) \(first.day)–\(last.day), \(last.year)"
    }

    /// `19:05` → `7:05 PM`; text that is not `HH:MM` is returned as it is.
    static func clock(_ text: String) -> String {
        let parts = text.split(separator: ":")
        guard parts.count >= 2, let hour = Int(parts[0]), let minute = Int(parts[1]),
            (0..<24).contains(hour), (0..<60).contains(minute)
        else { return text }
        let suffix = hour < 12 ? "AM" : "PM"
        let twelve = hour % 12 == 0 ? 12 : hour % 12
        return "\(twelve):\(minute < 10 ? "0" : "")\(minute) \(suffix)"
    }

    /// A game's local start: `7:05 PM EDT`; when only a day/night flag is published
    /// `1:10 PM EDT (assumed: day game, exact time not published)`; when nothing is
    /// `time to be announced (planned for 7:00 PM EDT)` (`time to be announced` for plans that do not say what
    /// they assumed).
    static func gameTime(_ visit: GameVisit) -> String {
        switch visit.knowledge {
        case .exact:
            guard let time = visit.localTime else { return "time to be announced" }
            return "\(clock(time)) \(visit.timeZoneAbbreviation)"
        case .day, .night:
            let kind = "\(visit.knowledge.rawValue) game"
            guard let assumed = assumedTime(visit) else { return "time to be announced (\(kind))" }
            return "\(assumed) (assumed: \(kind), exact time not published)"
        case .unknown:
            return assumedTime(visit).map { "time to be announced (planned for \($0))" } ?? "time to be announced"
        }
    }

    /// The start the plan assumed for a game without a published time, `1:10 PM EDT`; nil when none.
    static func assumedTime(_ visit: GameVisit) -> String? {
        guard visit.knowledge != .exact, let time = visit.assumedLocalTime else { return nil }
        return "\(clock(time)) \(visit.timeZoneAbbreviation)"
    }

    /// What a drive's times rest on when a game next to it has no published start:
    /// `planned around an assumed 1:10 PM CDT day-game start at Wrigley Field`; nil when nothing is assumed.
    static func assumedStartNote(_ leg: DriveLeg, visits: [GameVisit]) -> String? {
        let phrases: [String] = (leg.assumedStartGameIds ?? []).compactMap { id in
            guard let visit = visits.first(where: { $0.gameId == id }), visit.knowledge != .exact else { return nil }
            let at = assumedTime(visit).map { "an assumed \($0)" } ?? "an assumed"
            switch visit.knowledge {
            case .day, .night: return "\(at) \(visit.knowledge.rawValue)-game start at \(visit.stadiumName)"
            default: return "\(at) start at \(visit.stadiumName) (time to be announced)"
            }
        }
        return phrases.isEmpty ? nil : "planned around " + list(phrases)
    }

    /// A leg's local wall-clock text (`2025-11-02 11:00 EST`) shown relative to `day`:
    /// `11:00 AM EST` on the same day, `Mon, Nov 3, 1:15 AM EST` otherwise. Unparseable text is kept.
    static func legTime(_ text: String, on day: LocalDate?) -> String {
        let parts = text.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, let date = LocalDate(iso8601: parts[0]) else { return text }
        let zone = parts.count == 3 ? " " + parts[2] : ""
        let time = clock(String(parts[1])) + zone
        return date == day ? time : "\(shortDate(date)), \(time)"
    }

    /// `mostStadiums` → `most distinct stadiums`.
    static func objective(_ objective: Objective) -> String {
        switch objective {
        case .mostGames: return "most games"
        case .mostStadiums: return "most distinct stadiums"
        case .leastDriving: return "least driving"
        case .fewestDays: return "fewest days"
        }
    }

    /// `NBA, NHL`, using the sports' abbreviations when known.
    static func sports(_ ids: [String], catalog: RenderCatalog) -> String {
        ids.map { catalog.abbreviation(ofSport: $0) }.joined(separator: ", ")
    }

    /// `A, B and C`.
    static func list(_ items: [String]) -> String {
        switch items.count {
        case 0: return ""
        case 1: return items[0]
        default: return items.dropLast().joined(separator: ", ") + " and " + items[items.count - 1]
        }
    }

    /// `1 game`, `2 games`.
    static func count(_ value: Int, _ singular: String, _ plural: String? = nil) -> String {
        "\(value) \(value == 1 ? singular : (plural ?? singular + "s"))"
    }
}
