import Foundation

/// Conversions between instants and wall-clock times in IANA zones.
///
/// `TimeZone` lookups are cached per identifier; offsets come from tzdata, so DST is right.
public enum ZonedTime {
    private static let cache = ZoneCache()

    /// The zone for an IANA identifier, or nil when tzdata does not know it.
    public static func zone(_ identifier: String) -> TimeZone? { cache.zone(identifier) }

    /// Whether `identifier` is a real IANA zone (`Europe/Frankfurt` is not).
    public static func isValidZone(_ identifier: String) -> Bool {
        // The slash looked for byte by byte (Foundation's `contains` cost thousands of instructions a call). Only
        // a slash with combining marks on it counts here and not there, and tzdata names are ASCII.
        identifier.utf8.contains(UInt8(ascii: "/")) && zone(identifier) != nil || identifier == "UTC"
    }

    /// Seconds east of UTC in `zone` at `instant`.
    public static func offset(of instant: Instant, in zone: TimeZone) -> Int {
        zone.secondsFromGMT(for: instant.date)
    }

    /// The wall-clock date in `zone` at `instant`.
    public static func localDate(of instant: Instant, in zone: TimeZone) -> LocalDate {
        instant.adding(seconds: Int64(offset(of: instant, in: zone))).utcDate
    }

    /// Seconds after local midnight in `zone` at `instant`.
    public static func localSecondOfDay(of instant: Instant, in zone: TimeZone) -> Int {
        instant.adding(seconds: Int64(offset(of: instant, in: zone))).utcSecondOfDay
    }

    /// The instant at which the wall clock in `zone` reads `date hour:minute`.
    ///
    /// In a DST gap the later offset is used; in an overlap the earlier (daylight) reading wins,
    /// which is what a printed schedule means.
    public static func instant(date: LocalDate, hour: Int, minute: Int, second: Int = 0, in zone: TimeZone) -> Instant {
        let naive = Instant(utc: date, hour: hour, minute: minute, second: second)
        // Two passes converge for every real zone transition.
        let first = naive.adding(seconds: Int64(-zone.secondsFromGMT(for: naive.date)))
        let second = naive.adding(seconds: Int64(-zone.secondsFromGMT(for: first.date)))
        if second == first { return first }
        let third = naive.adding(seconds: Int64(-zone.secondsFromGMT(for: second.date)))
        return min(second, third)
    }

    // Zone abbreviations (`EDT`) come from `ZoneAbbreviations.abbreviation(zone:at:)`.
}

private final class ZoneCache: @unchecked Sendable {
    private let lock = NSLock()
    private var zones: [String: TimeZone?] = [:]

    func zone(_ identifier: String) -> TimeZone? {
        lock.lock(); defer { lock.unlock() }
        if let cached = zones[identifier] { return cached }
        let zone = TimeZone(identifier: identifier)
        zones[identifier] = .some(zone)
        return zone
    }
}
