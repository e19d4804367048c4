import Foundation
import SportsTimeCore

/// What the planner warns of, on a plan or one option; `text` is the sentence the plan carries.
enum PlanWarning {
    case notPlayableLeftOut(games: Int)
    case noUsableLocation(games: Int, example: String)
    case noGamesOfSport(String, first: LocalDate, last: LocalDate)
    case mustSeeBranches
    /// Fewer distinct options than asked for: `exist` when the exact pool held every trip.
    case fewDistinctTrips(found: Int, asked: Int, exist: Bool, among: Int)
    case notLaidOut(trips: Int)
    case stopsOrderedHeuristically(heldKarpLimit: Int)
    case tieBreakUnproven(stadiums: Int64, labelBudget: Int)
    case exactSearchStopped(labelBudget: Int, beamWidth: Int, found: Double, bound: Double)
    case windowNotLaidOut(days: Int, first: LocalDate, atLeast: Int)
    case fewestDaysUnproven(best: Int, atLeast: Int, labelBudget: Int)
    /// `start: any`: where the planner started the trip.
    case startChosen(stadium: String, game: String)
    /// Option: differs from a better option in fewer than 2 stadiums.
    case similarOption(rank: Int, stadiums: Int, among: Int, avoided: [String])
    /// Option: required stadiums visited without a game.
    case visitedWithoutGame(stadiums: [String], visitHours: Double)

    var text: String {
        switch self {
        case .startChosen(let stadium, let game):
            return "start: any — the trip starts at \(stadium), at its first game (\(game)); the days and the bound are over every start"
        case .notPlayableLeftOut(let n):
            return "\(n) postponed or cancelled game\(n == 1 ? " was" : "s were") left out of the window"
        case .noUsableLocation(let n, let example):
            return "\(n) game\(n == 1 ? "" : "s") at a stadium without a usable location left out (e.g. \(example))"
        case .noGamesOfSport(let sport, let first, let last):
            return "no \(sport) games in the window \(first)…\(last)"
        case .mustSeeBranches:
            return "no trip attends every must-see game; branches lists the best trip for each compatible set"
        case .fewDistinctTrips(let found, let asked, let exist, let among):
            let scope = exist ? "exist" : "were found among the \(among) best"
            return "only \(found) distinct trip\(found == 1 ? "" : "s") \(scope); \(asked) were asked for"
        case .notLaidOut(let n):
            return "\(n) trip\(n == 1 ? "" : "s") found by the search could not be laid out in time and were left out"
        case .stopsOrderedHeuristically(let limit):
            return "stops were ordered heuristically (more than \(limit) stops, or no single gap held them)"
        case .tieBreakUnproven(let stadiums, let budget):
            return "the most stadiums (\(stadiums)) is proven, but the tie-break search stopped at its budget of "
                + "\(NumberText.grouped(budget)) labels: the driving of the options is the least found, not proven least"
        case .exactSearchStopped(let budget, let width, let found, let bound):
            let ratio = bound > 0 ? found / bound : 1
            return "the exact search stopped at its budget of \(NumberText.grouped(budget)) labels; "
                + "the options come from a beam search (width \(width)) and target-first passes and may not be optimal: best found "
                + "\(NumberText.decimal(found, places: 0)) stadiums, proven upper bound \(NumberText.decimal(bound, places: 0)) (ratio \(NumberText.decimal(ratio, places: 3)))"
        case .windowNotLaidOut(let days, let first, let lower):
            return "the window the search found (\(days) days from \(first)) could not be laid out with a game at every "
                + "required stadium; at least \(lower) days are needed"
        case .fewestDaysUnproven(let best, let lower, let budget):
            return "the fewest days are not proven: best found \(best), at least \(lower) (the label budget of "
                + "\(NumberText.grouped(budget)) ran out before every shorter window was refuted)"
        case .similarOption(let rank, let d, let among, let avoided):
            let avoidedText = avoided.isEmpty ? "" : ", nor the best trips avoiding \(avoided.joined(separator: ", ")),"
            return "differs from option \(rank) in only \(d) stadium\(d == 1 ? "" : "s"): no trip among the "
                + "\(among) best\(avoidedText) differs from every better option in at least 2"
        case .visitedWithoutGame(let stopped, let hours):
            return "required stadium\(stopped.count == 1 ? "" : "s") \(stopped.joined(separator: ", ")) visited without a game "
                + "(a \(Format.hours(hours)) h stop)"
        }
    }
}
