import Foundation
import SportsTimeCore

/// Every constant of the travel model, each overridable from a request's `travel:` block (or the
/// top-level driving keys). Defaults and their origin are listed in this module's README.
public struct TravelModel: Sendable, Hashable {
    /// Fixed part of every drive (parking, getting out of town): `15 min`.
    public var baseDriveMinutes: Double = 15
    /// Road distance ÷ great-circle distance (median 1.17 over 100+ arena pairs, rounded up to 1.2).
    public var circuity: Double = 1.2
    /// Average door-to-door speed on the road distance.
    public var averageSpeedMph: Double = 67
    /// Legs longer than this great-circle distance are not drivable (a continent, not an ocean).
    public var maxLegKilometres: Double = 6_000
    /// Pairs whose road is much longer than the default circuity says (water barriers).
    public var pairCircuity: [PairCircuity] = PairCircuity.waterBarriers
    /// Hours a game occupies, by sport id.
    public var gameHours: [String: Double] = TravelModel.defaultGameHoursBySport
    /// Hours a game of a sport not in `gameHours` (a dynamic sport) occupies.
    public var defaultGameHours: Double = 3
    /// Leave this long after a game ends.
    public var leaveAfterGameMinutes: Double = 30
    /// Arrive this long before a game starts.
    public var arriveBeforeGameMinutes: Double = 60
    /// Most hours driven on one stadium-local day.
    public var maxDrivingHoursPerDay: Double = 8
    /// Driving happens only between these local wall-clock minutes of the day (09:00–22:00).
    public var drivingWindowStartMinute: Int = 9 * 60
    public var drivingWindowEndMinute: Int = 22 * 60
    /// The local start assumed for a game whose start is not known at all (19:00), for sports without
    /// their own `assumedStarts[sport].unknown`.
    public var tbdAssumedStartMinute: Int = 19 * 60
    /// The local start assumed for a day game of a sport without its own `assumedStarts[sport].day` (13:00).
    public var dayAssumedStartMinute: Int = 13 * 60
    /// The local start assumed for a night game of a sport without its own `assumedStarts[sport].night` (19:00).
    public var nightAssumedStartMinute: Int = 19 * 60
    /// Per-sport assumed local starts, overriding the three defaults above (MLB: day 13:10, night 19:10).
    public var assumedStarts: [String: AssumedStarts] = TravelModel.defaultAssumedStartsBySport
    /// How long a stop at a required stadium without a game takes.
    public var stadiumVisitHours: Double = 1

    public static let defaultGameHoursBySport: [String: Double] = [
        "mlb": 3, "nba": 2.5, "nhl": 2.5, "wnba": 2.5, "nfl": 3.5, "mls": 2, "nwsl": 2,
    ]

    /// The most common published MLB starts: 1:10 PM for day games, 7:10 PM for night games.
    public static let defaultAssumedStartsBySport: [String: AssumedStarts] = [
        "mlb": AssumedStarts(day: 13 * 60 + 10, night: 19 * 60 + 10)
    ]

    public init() {}

    /// The local start (minutes after midnight) the plan assumes for a game of `sport` whose start is
    /// only known as `knowledge`; nil when the start is exact (nothing is assumed).
    public func assumedStartMinute(_ knowledge: StartKnowledge, sport: String) -> Int? {
        let own = assumedStarts[sport]
        switch knowledge {
        case .exact: return nil
        case .day: return own?.day ?? dayAssumedStartMinute
        case .night: return own?.night ?? nightAssumedStartMinute
        case .unknown: return own?.unknown ?? tbdAssumedStartMinute
        }
    }

    /// Hours a game of `sport` occupies.
    public func hours(ofGameIn sport: String) -> Double { gameHours[sport] ?? defaultGameHours }

    /// The drive between two places, or nil when no road joins them (different landmasses, or
    /// farther apart than `maxLegKilometres`). Two places at the same stadium need no drive.
    public func drive(from a: TravelPlace, to b: TravelPlace) -> Drive? {
        if let sa = a.stadiumId, let sb = b.stadiumId, sa == sb { return Drive(kilometres: 0, seconds: 0) }
        let greatCircleKm = GreatCircle.kilometres(from: a.coordinate, to: b.coordinate)
        if greatCircleKm < 0.05 { return Drive(kilometres: 0, seconds: 0) }
        guard a.landmass == b.landmass, greatCircleKm <= maxLegKilometres else { return nil }
        let factor = circuity(between: a, and: b)
        let roadKm = factor * greatCircleKm
        let hours = baseDriveMinutes / 60 + roadKm / GreatCircle.kilometresPerMile / averageSpeedMph
        return Drive(kilometres: roadKm, seconds: Int64((hours * 3600).rounded()))
    }

    /// The circuity for a pair: a matching `pairCircuity` entry, else the default.
    public func circuity(between a: TravelPlace, and b: TravelPlace) -> Double {
        for pair in pairCircuity where pair.matches(a, b) { return pair.circuity }
        return circuity
    }

    /// Whether a drive exists between the places at all, and why not when it does not.
    public func undrivableReason(from a: TravelPlace, to b: TravelPlace) -> String? {
        if drive(from: a, to: b) != nil { return nil }
        if a.landmass != b.landmass {
            return "\(a.name) and \(b.name) are on different landmasses (\(a.landmass), \(b.landmass)): no road joins them"
        }
        let km = GreatCircle.kilometres(from: a.coordinate, to: b.coordinate)
        return "\(a.name) and \(b.name) are \(Format.kilometres(km)) km apart as the crow flies, more than the "
            + "\(Format.kilometres(maxLegKilometres)) km a leg may cover (travel.maxLegKilometres)"
    }

    /// The constants in effect, by the names a request uses to override them.
    public var constants: [String: Double] {
        var out: [String: Double] = [
            "baseDriveMinutes": baseDriveMinutes,
            "circuity": circuity,
            "averageSpeedMph": averageSpeedMph,
            "maxLegKilometres": maxLegKilometres,
            "defaultGameHours": defaultGameHours,
            "leaveAfterGameMinutes": leaveAfterGameMinutes,
            "arriveBeforeGameMinutes": arriveBeforeGameMinutes,
            "maxDrivingHoursPerDay": maxDrivingHoursPerDay,
            "drivingWindowStartHour": Double(drivingWindowStartMinute) / 60,
            "drivingWindowEndHour": Double(drivingWindowEndMinute) / 60,
            "tbdAssumedStartHour": Double(tbdAssumedStartMinute) / 60,
            "assumedStartHour.default.day": Double(dayAssumedStartMinute) / 60,
            "assumedStartHour.default.night": Double(nightAssumedStartMinute) / 60,
            "stadiumVisitHours": stadiumVisitHours,
        ]
        for (sport, hours) in gameHours { out["gameHours.\(sport)"] = hours }
        for pair in pairCircuity { out["pairCircuity.\(pair.key)"] = pair.circuity }
        for (sport, starts) in assumedStarts {
            if let day = starts.day { out["assumedStartHour.\(sport).day"] = Double(day) / 60 }
            if let night = starts.night { out["assumedStartHour.\(sport).night"] = Double(night) / 60 }
            if let unknown = starts.unknown { out["assumedStartHour.\(sport).unknown"] = Double(unknown) / 60 }
        }
        return out.mapValues { $0.rounded(toPlaces: 6) }
    }

    var maxDrivingSecondsPerDay: Int64 { Int64((maxDrivingHoursPerDay * 3600).rounded()) }
    var leaveAfterSeconds: Int64 { Int64((leaveAfterGameMinutes * 60).rounded()) }
    var arriveBeforeSeconds: Int64 { Int64((arriveBeforeGameMinutes * 60).rounded()) }
    var stadiumVisitSeconds: Int64 { Int64((stadiumVisitHours * 3600).rounded()) }
    func gameSeconds(_ sport: String) -> Int64 { Int64((hours(ofGameIn: sport) * 3600).rounded()) }
}

/// One sport's assumed local starts (minutes after midnight) for games whose exact start is not
/// published; a nil entry falls back to the travel model's default for that kind of game.
public struct AssumedStarts: Sendable, Hashable {
    public var day: Int?
    public var night: Int?
    public var unknown: Int?
}

/// A drive: road kilometres and whole seconds at the wheel.
public struct Drive: Sendable, Hashable {
    public var kilometres: Double
    public var seconds: Int64
    public var hours: Double { Double(seconds) / 3600 }
}

/// A place the travel model can measure: a stadium, a city, or a point.
public struct TravelPlace: Sendable, Hashable {
    public var name: String
    public var stadiumId: String?
    public var city: String
    public var coordinate: Coordinate
    /// IANA zone.
    public var timeZone: String
    public var landmass: String
    /// Keys a `pairCircuity` entry can name this place by: its city and its stadium id (match keys).
    let matchKeys: [String]

    public init(name: String, stadiumId: String?, city: String, coordinate: Coordinate, timeZone: String) {
        self.name = name; self.stadiumId = stadiumId; self.city = city; self.coordinate = coordinate
        self.timeZone = timeZone; self.landmass = Landmass.of(zone: timeZone)
        self.matchKeys = ([Slug.matchKey(city)] + (stadiumId.map { [Slug.matchKey($0)] } ?? [])).filter { !$0.isEmpty }
    }

    public init(stadium: Stadium) {
        self.init(
            name: stadium.name, stadiumId: stadium.id, city: stadium.city, coordinate: stadium.coordinate,
            timeZone: stadium.timeZone)
    }
}

/// A pair of places (each a city name or stadium id) with its own road circuity.
public struct PairCircuity: Sendable, Hashable {
    public let a: String
    public let b: String
    public var circuity: Double
    private let keyA: String
    private let keyB: String

    public init(a: String, b: String, circuity: Double) {
        self.a = a; self.b = b; self.circuity = circuity
        self.keyA = Slug.matchKey(a); self.keyB = Slug.matchKey(b)
    }

    /// Lake Erie and the Niagara crossing: the roads go around the water.
    public static let waterBarriers = [
        PairCircuity(a: "Cleveland", b: "Detroit", circuity: 1.85),
        PairCircuity(a: "Buffalo", b: "Toronto", circuity: 1.69),
    ]

    /// `cleveland|detroit`: both names as match keys, sorted.
    public var key: String { [keyA, keyB].sorted().joined(separator: "|") }

    func matches(_ x: TravelPlace, _ y: TravelPlace) -> Bool {
        let ka = keyA, kb = keyB
        let xk = x.matchKeys, yk = y.matchKeys
        return (xk.contains(ka) && yk.contains(kb)) || (xk.contains(kb) && yk.contains(ka))
    }
}
