import Foundation
import SportsTimeCore

/// When a game starts (UTC) and on which calendar day at its stadium.
struct GameSchedule: Hashable, Sendable {
    var startUTC: Instant?
    var localDate: LocalDate
    var timeTBD: Bool
    /// Whether the local date is the printed date of another zone, with no time to place it: a UTC
    /// date (ESPN's) is the stadium's date for an afternoon game and the day after for an evening game
    /// in the Americas. Merge lets any source that states the day at the stadium decide over it.
    var dateIsApproximate = false

    /// Exact with a start; else the source's day/night flag; else unknown.
    func knowledge(dayNight: String?) -> StartKnowledge {
        if startUTC != nil, !timeTBD { return .exact }
        switch dayNight {
        case "day": return .day
        case "night": return .night
        default: return .unknown
        }
    }

    /// What a raw record's `dateZone` says about its `date` and `localTime`.
    enum DateZone: Hashable, Sendable {
        case venue
        case utc
        case zone(TimeZone)

        /// Whether a date printed in this zone can be another day at a stadium in `stadiumZone`: their
        /// offsets from UTC differ at noon of `date` (`venue` never does).
        func differs(from stadiumZone: TimeZone, on date: LocalDate) -> Bool {
            let noon = Instant(utc: date, hour: 12, minute: 0)
            switch self {
            case .venue: return false
            case .utc: return ZonedTime.offset(of: noon, in: stadiumZone) != 0
            case .zone(let zone): return ZonedTime.offset(of: noon, in: zone) != ZonedTime.offset(of: noon, in: stadiumZone)
            }
        }

        init?(_ text: String) {
            switch text {
            case "venue": self = .venue
            case "UTC", "utc", "Z", "Etc/UTC": self = .utc
            default:
                guard ZonedTime.isValidZone(text), let zone = ZonedTime.zone(text) else { return nil }
                self = .zone(zone)
            }
        }
    }

    /// Works out the start instant and the stadium-local date of a raw record (its `date`, `dateZone`,
    /// `startUTC`, `localTime` and `timeTBD`) at a stadium in `stadiumZone`:
    ///
    /// - a start instant from the source wins: the local date is its date in the stadium's zone;
    /// - a naive `localTime` is read in `dateZone` (the stadium's zone for `venue`) to make the instant;
    /// - with no time at all the printed date is the local date, whatever `dateZone` says, since a date
    ///   alone cannot be shifted between zones;
    /// - a game whose time is TBD keeps no start instant (a placeholder time is not a start), and its
    ///   local date is the printed date when that date is the venue's, else the placeholder's local date.
    ///
    /// - Returns: the schedule, or the reason it cannot be worked out.
    static func make(for raw: RawGame, stadiumZone: TimeZone) -> Result<GameSchedule, ScheduleProblem> {
        let date = raw.date
        guard let dateZone = DateZone(raw.dateZone) else { return .failure(.unknownDateZone(raw.dateZone)) }
        var start = raw.startUTC
        if start == nil, let text = raw.localTime {
            guard let (hour, minute) = parseClock(text) else { return .failure(.badLocalTime(text)) }
            switch dateZone {
            case .venue: start = ZonedTime.instant(date: date, hour: hour, minute: minute, in: stadiumZone)
            case .utc: start = Instant(utc: date, hour: hour, minute: minute)
            case .zone(let zone): start = ZonedTime.instant(date: date, hour: hour, minute: minute, in: zone)
            }
        }
        if raw.timeTBD {
            var local = date
            if dateZone != .venue, let start { local = ZonedTime.localDate(of: start, in: stadiumZone) }
            return .success(
                GameSchedule(
                    startUTC: nil, localDate: local, timeTBD: true,
                    dateIsApproximate: dateZone.differs(from: stadiumZone, on: date)))
        }
        guard let start else {
            return .success(
                GameSchedule(
                    startUTC: nil, localDate: date, timeTBD: true,
                    dateIsApproximate: dateZone.differs(from: stadiumZone, on: date)))
        }
        return .success(
            GameSchedule(
                startUTC: start, localDate: ZonedTime.localDate(of: start, in: stadiumZone),
                timeTBD: false))
    }

    /// `HH:MM` or `HH:MM:SS` (seconds ignored), 24-hour clock; one-digit fields are read too.
    static func parseClock(_ text: String) -> (Int, Int)? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard (2...3).contains(parts.count),
            parts.allSatisfy({ (1...2).contains($0.count) && $0.allSatisfy { $0.isASCII && $0.isNumber } }),
            let hour = Int(parts[0]), let minute = Int(parts[1]),
            (0..<24).contains(hour), (0..<60).contains(minute)
        else { return nil }
        if parts.count == 3 { guard let second = Int(parts[2]), (0..<60).contains(second) else { return nil } }
        return (hour, minute)
    }
}

/// Why a raw game's time could not be placed.
enum ScheduleProblem: Error, Hashable, Sendable {
    case unknownDateZone(String)
    case badLocalTime(String)

    var reason: String {
        switch self {
        case .unknownDateZone(let text): "dateZone '\(text)' is not 'venue', 'UTC' or an IANA zone"
        case .badLocalTime(let text): "local time '\(text)' is not HH:MM"
        }
    }
}
