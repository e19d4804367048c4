import Foundation
import SportsTimeCore

/// What a traveller sees change between two versions of a trip plan (a `sportstime.trip-plan`
/// record): per option and branch its games, days, driving miles and hours and score, the games that
/// came and went, the infeasibility and the warnings. Read from the records as JSON, so it follows the
/// plan's fields by name. Pure.
enum PlanHighlights {
    /// The envelope kind whose records are plans.
    static let kind = "sportstime.trip-plan"

    /// Field paths that describe the search, not the trip: hidden unless asked for (`--all`).
    static func isSearchStatistic(_ path: String) -> Bool { path == "search" || path.hasPrefix("search.") }

    static func lines(old: JSONValue?, new: JSONValue?) -> [String] {
        var lines: [String] = []
        let before = old?["infeasibility"]?.stringValue
        let after = new?["infeasibility"]?.stringValue
        if before != after {
            switch (before, after) {
            case (nil, let reason?): lines.append("now infeasible: \(reason)")
            case (_?, nil): lines.append("now feasible")
            case (_, let reason?): lines.append("infeasible for another reason: \(reason)")
            default: break
            }
        }
        lines += trips(old?["options"]?.arrayValue ?? [], new?["options"]?.arrayValue ?? [], name: "option")
        lines += trips(old?["branches"]?.arrayValue ?? [], new?["branches"]?.arrayValue ?? [], name: "branch")
        lines += texts(old?["warnings"]?.arrayValue ?? [], new?["warnings"]?.arrayValue ?? [], name: "warning")
        return lines
    }

    /// One line per trip that changed, then a line per game it gained (`adds`) or lost (`drops`).
    private static func trips(_ old: [JSONValue], _ new: [JSONValue], name: String) -> [String] {
        var lines: [String] = []
        for index in 0..<max(old.count, new.count) {
            let label = "\(name) \(index + 1)"
            switch (index < old.count ? old[index] : nil, index < new.count ? new[index] : nil) {
            case (nil, let trip?):
                lines.append("\(label) added: " + Summary(trip).text)
            case (let trip?, nil):
                lines.append("\(label) removed (was " + Summary(trip).text + ")")
            case (let a?, let b?) where a != b:
                let was = Summary(a), now = Summary(b)
                let gone = a.visits.filter { visit in !b.visits.contains { $0.id == visit.id } }
                let came = b.visits.filter { visit in !a.visits.contains { $0.id == visit.id } }
                if was == now && gone.isEmpty && came.isEmpty {
                    lines.append("\(label): same games, days, driving and score; times or legs changed")
                    continue
                }
                lines.append("\(label): " + was.text(comparedTo: now))
                lines += came.map { "\(label) adds \($0.text)" }
                lines += gone.map { "\(label) drops \($0.text)" }
            default:
                break
            }
        }
        return lines
    }

    private static func texts(_ old: [JSONValue], _ new: [JSONValue], name: String) -> [String] {
        let before = old.compactMap(\.stringValue), after = new.compactMap(\.stringValue)
        return after.filter { !before.contains($0) }.map { "\(name) added: \($0)" }
            + before.filter { !after.contains($0) }.map { "\(name) removed: \($0)" }
    }

    /// The figures a traveller compares two trips by.
    struct Summary: Equatable {
        var games: Int
        var days: Int
        var firstDay: String
        var lastDay: String
        var miles: Int
        var hours: String
        var score: String

        init(_ trip: JSONValue) {
            let score = trip["score"]
            games = trip["visits"]?.arrayValue?.count ?? 0
            let days = trip["days"]?.arrayValue ?? []
            self.days = days.count
            firstDay = days.first?["date"]?.stringValue ?? ""
            lastDay = days.last?["date"]?.stringValue ?? ""
            miles = Int(((score?["drivingKilometres"]?.doubleValue ?? 0) / 1.609344).rounded())
            hours = Self.oneDecimal(score?["drivingHours"]?.doubleValue ?? 0)
            self.score = score?["total"]?.compactText ?? "?"
        }

        static func oneDecimal(_ value: Double) -> String {
            let rounded = (value * 10).rounded() / 10
            return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
        }

        var text: String {
            "\(games) game\(games == 1 ? "" : "s"), \(days) day\(days == 1 ? "" : "s") (\(firstDay) to \(lastDay)), "
                + "\(Format.count(miles)) mi and \(hours) h driving, score \(score)"
        }

        /// `7 → 8 games, 7 days (…), 651 → 700 mi and 10.5 → 11.2 h driving, score 7 → 8`.
        func text(comparedTo new: Summary) -> String {
            func pair<T: Equatable>(_ a: T, _ b: T, _ show: (T) -> String) -> String {
                a == b ? show(a) : "\(show(a)) → \(show(b))"
            }
            let dates =
                firstDay == new.firstDay && lastDay == new.lastDay
                ? "\(firstDay) to \(lastDay)" : "\(firstDay) to \(lastDay) → \(new.firstDay) to \(new.lastDay)"
            return pair(games, new.games) { "\($0)" } + " game\(new.games == 1 && games == 1 ? "" : "s"), "
                + pair(days, new.days) { "\($0)" } + " day\(new.days == 1 && days == 1 ? "" : "s") (\(dates)), "
                + pair(miles, new.miles) { Format.count($0) } + " mi and " + pair(hours, new.hours) { $0 } + " h driving, "
                + "score " + pair(score, new.score) { $0 }
        }
    }

    /// A game of a trip as a traveller reads it.
    struct Visit {
        var id: String
        var text: String
    }
}

private extension JSONValue {
    var visits: [PlanHighlights.Visit] {
        (self["visits"]?.arrayValue ?? []).map { visit in
            let id = visit["gameId"]?.stringValue ?? "?"
            let date = visit["localDate"]?.stringValue ?? ""
            let away = visit["awayTeamName"]?.stringValue ?? visit["awayTeamId"]?.stringValue ?? "?"
            let home = visit["homeTeamName"]?.stringValue ?? visit["homeTeamId"]?.stringValue ?? "?"
            let stadium = visit["stadiumName"]?.stringValue.map { ", \($0)" } ?? ""
            return PlanHighlights.Visit(id: id, text: "\(date) \(away) at \(home)\(stadium) (\(id))")
        }
    }
}
