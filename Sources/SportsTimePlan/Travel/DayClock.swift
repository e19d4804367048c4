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
    /// Days worked out so far, per zone: a table by day count from its first date (the dates of one plan
    /// lie within weeks of each other, and a drive asks for each of its days), and the rare date more
    /// than `tableSpan` days from it by key.
    private var dayTables: [DayTable] = []
    private var farDays: [Int64: Day] = [:]
    private static let tableSpan = 4096

    private struct DayTable {
        var first: Int64 = 0
        var days: [Day?] = []
    }

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
        dayTables = other.dayTables
        farDays = other.farDays
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
        let number = date.daysSinceEpoch
        if zone < dayTables.count {
            let index = Int(number - dayTables[zone].first)
            if index >= 0, index < dayTables[zone].days.count, let day = dayTables[zone].days[index] { return day }
        }
        let key = Int64(zone) << 40 | (number & 0xFF_FFFF_FFFF)
        if let day = farDays[key] { return day }
        let tz = zones[zone]
        func at(_ date: LocalDate, _ minute: Int) -> Int64 {
            ZonedTime.instant(date: date, hour: minute / 60, minute: minute % 60, in: tz).secondsSinceEpoch
        }
        let day = Day(
            start: at(date, 0), end: at(date.adding(days: 1), 0),
            windowStart: at(date, windowStartMinute), windowEnd: at(date, windowEndMinute))
        if !file(day, zone: zone, number: number) { farDays[key] = day }
        return day
    }

    /// Files a day in its zone's table, grown to reach it; false when it lies too far from the table's
    /// days to be filed there.
    private func file(_ day: Day, zone: Int, number: Int64) -> Bool {
        while dayTables.count <= zone { dayTables.append(DayTable()) }
        if dayTables[zone].days.isEmpty { dayTables[zone].first = number }
        let index = number - dayTables[zone].first
        let count = Int64(dayTables[zone].days.count)
        if index < 0 {
            guard count - index <= Self.tableSpan else { return false }
            dayTables[zone].days.insert(contentsOf: repeatElement(nil, count: Int(-index)), at: 0)
            dayTables[zone].first = number
            dayTables[zone].days[0] = day
        } else {
            guard index < Self.tableSpan else { return false }
            if index >= count { dayTables[zone].days.append(contentsOf: repeatElement(nil, count: Int(index - count + 1))) }
            dayTables[zone].days[Int(index)] = day
        }
        return true
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
