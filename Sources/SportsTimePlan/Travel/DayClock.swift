import Foundation
import SportsTimeCore

/// Stadium-local days and driving windows as instants, cached per zone and date.
///
/// One clock serves one planning call (it is not shared between threads). Times are whole seconds
/// since the epoch, as in `Instant`.
final class DayClock {
    struct Day {
        /// Local midnight at the start and end of the date.
        var start: Int64
        var end: Int64
        /// The driving window on that date.
        var windowStart: Int64
        var windowEnd: Int64
    }

    let windowStartMinute: Int
    let windowEndMinute: Int
    private(set) var zones: [TimeZone] = []
    private(set) var zoneIds: [String] = []
    private var zoneIndex: [String: Int] = [:]
    private var days: [Int64: Day] = [:]

    init(model: TravelModel) {
        windowStartMinute = model.drivingWindowStartMinute
        windowEndMinute = model.drivingWindowEndMinute
    }

    /// A clock with the same zones and a copy of `other`'s memo of days, to be used on another thread.
    init(copying other: DayClock) {
        windowStartMinute = other.windowStartMinute
        windowEndMinute = other.windowEndMinute
        zones = other.zones
        zoneIds = other.zoneIds
        zoneIndex = other.zoneIndex
        days = other.days
    }

    /// The index of a zone (registering it); nil when tzdata does not know the identifier.
    func zone(_ identifier: String) -> Int? {
        if let index = zoneIndex[identifier] { return index }
        guard let zone = ZonedTime.zone(identifier) else { return nil }
        zones.append(zone); zoneIds.append(identifier)
        zoneIndex[identifier] = zones.count - 1
        return zones.count - 1
    }

    func day(_ zone: Int, _ date: LocalDate) -> Day {
        let key = Int64(zone) << 40 | (date.daysSinceEpoch & 0xFF_FFFF_FFFF)
        if let day = days[key] { return day }
        let tz = zones[zone]
        func at(_ date: LocalDate, _ minute: Int) -> Int64 {
            ZonedTime.instant(date: date, hour: minute / 60, minute: minute % 60, in: tz).secondsSinceEpoch
        }
        let day = Day(
            start: at(date, 0), end: at(date.adding(days: 1), 0),
            windowStart: at(date, windowStartMinute), windowEnd: at(date, windowEndMinute))
        days[key] = day
        return day
    }

    /// The local date in `zone` at `time`.
    func localDate(_ time: Int64, zone: Int) -> LocalDate {
        ZonedTime.localDate(of: Instant(secondsSinceEpoch: time), in: zones[zone])
    }

    /// The instant of a local wall-clock minute on a date.
    func instant(_ date: LocalDate, minute: Int, zone: Int) -> Int64 {
        ZonedTime.instant(date: date, hour: minute / 60, minute: minute % 60, in: zones[zone]).secondsSinceEpoch
    }

    /// `2023-06-02 10:00 EDT`.
    func localText(_ time: Int64, zone: Int) -> String {
        let instant = Instant(secondsSinceEpoch: time)
        let tz = zones[zone]
        let date = ZonedTime.localDate(of: instant, in: tz)
        let second = ZonedTime.localSecondOfDay(of: instant, in: tz)
        return "\(date.iso8601) \(Format.clock(minutes: second / 60)) \(ZoneAbbreviations.abbreviation(zone: zoneIds[zone], at: instant))"
    }

    /// `19:05`.
    func localClock(_ time: Int64, zone: Int) -> String {
        Format.clock(minutes: ZonedTime.localSecondOfDay(of: Instant(secondsSinceEpoch: time), in: zones[zone]) / 60)
    }

    func abbreviation(_ time: Int64, zone: Int) -> String {
        ZoneAbbreviations.abbreviation(zone: zoneIds[zone], at: Instant(secondsSinceEpoch: time))
    }
}
