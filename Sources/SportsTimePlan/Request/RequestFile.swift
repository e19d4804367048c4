import Foundation

/// The YAML shape of `fixtures/requests/<id>.yaml`, decoded strictly (unknown keys are errors).
/// Meaning is checked afterwards by `RequestResolver`. The format is documented in
/// `fixtures/requests/README.md`.
struct RequestFile: Decodable {
    var id: String
    var title: String
    var sports: [String]
    var firstDate: String
    var lastDate: String
    var start: StartSpec
    var end: PlaceSpec?
    var objective: String?
    var mustSee: [MustSeeSpec]?
    /// Stadiums to visit: a list of stadium ids, or `all` (every stadium hosting a home game of the
    /// request's sports — of its home teams when `homeTeams` is given — in its dates; neutral sites aside).
    var requiredStadiums: RequiredStadiumsSpec?
    var homeTeams: [String]?
    var maxDrivingHoursPerDay: Double?
    var drivingWindow: WindowSpec?
    var maxGamesPerDay: Int?
    var restDays: Int?
    var options: Int?
    var travel: TravelSpec?
    var search: SearchSpec?

    /// `requiredStadiums`: a list of stadium ids, or the word `all`.
    enum RequiredStadiumsSpec: Decodable {
        case list([String])
        case all

        init(from decoder: Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let list = try? container.decode([String].self) { self = .list(list); return }
            if let word = try? container.decode(String.self), word == "all" { self = .all; return }
            throw DecodingError.typeMismatch(
                [String].self,
                DecodingError.Context(
                    codingPath: decoder.codingPath, debugDescription: "requiredStadiums must be a list of stadium ids or the word all"))
        }

        var ids: [String] { if case .list(let ids) = self { return ids } else { return [] } }
        var isEmpty: Bool { if case .list(let ids) = self { return ids.isEmpty } else { return false } }
    }

    /// `start`: a place, or the word `any` (the planner picks where the trip starts).
    enum StartSpec: Decodable {
        case place(PlaceSpec)
        case any

        init(from decoder: Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let word = try? container.decode(String.self) {
                guard word == "any" else {
                    throw DecodingError.typeMismatch(
                        PlaceSpec.self,
                        DecodingError.Context(
                            codingPath: decoder.codingPath, debugDescription: "start must be a place (a mapping) or the word any"))
                }
                self = .any
                return
            }
            self = .place(try container.decode(PlaceSpec.self))
        }
    }

    /// A stadium id, a city (with an optional region), or a point.
    struct PlaceSpec: Decodable {
        var stadium: String?
        var city: String?
        var region: String?
        var latitude: Double?
        var longitude: Double?
        var name: String?
        var timeZone: String?
    }

    /// A game id, or a team and a local date.
    struct MustSeeSpec: Decodable {
        var game: String?
        var team: String?
        var date: String?
    }

    /// Local wall-clock times `HH:MM`.
    struct WindowSpec: Decodable {
        var from: String
        var to: String
    }

    struct TravelSpec: Decodable {
        var baseDriveMinutes: Double?
        var circuity: Double?
        var averageSpeedMph: Double?
        var maxLegKilometres: Double?
        var gameHours: [String: Double]?
        var defaultGameHours: Double?
        var leaveAfterGameMinutes: Double?
        var arriveBeforeGameMinutes: Double?
        var tbdAssumedStart: String?
        /// `default` or a sport id → assumed local starts `HH:MM` for games without a published time.
        var assumedStarts: [String: AssumedStartsSpec]?
        var stadiumVisitHours: Double?
        var pairCircuity: [PairSpec]?
    }

    /// Local wall-clock times `HH:MM`, each optional.
    struct AssumedStartsSpec: Decodable {
        var day: String?
        var night: String?
        var unknown: String?
    }

    struct PairSpec: Decodable {
        /// Two city names or stadium ids.
        var between: [String]
        var circuity: Double
    }

    struct SearchSpec: Decodable {
        var labelBudget: Int?
        var beamWidth: Int?
        var candidatePool: Int?
        var heldKarpLimit: Int?
    }
}
