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
        identifier.contains("/") && zone(identifier) != nil || identifier == "UTC"
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

    /// The zone's common abbreviation at `instant` (`EDT`, `CET`, `AEDT`), from the zone's standard offset,
    /// region and whether daylight time is in effect; falls back to `UTC±hh:mm`.
    /// (Foundation on Linux answers `GMT-4`, so the names are kept here.)
    public static func abbreviation(of zone: TimeZone, at instant: Instant) -> String {
        let date = instant.date
        let isDaylight = zone.isDaylightSavingTime(for: date)
        let standardOffset = zone.secondsFromGMT(for: date) - Int(zone.daylightSavingTimeOffset(for: date))
        let identifier = zone.identifier
        let pair: (String, String)? = switch identifier {
        case "Europe/London": ("GMT", "BST")
        case "Europe/Dublin": ("GMT", "IST")
        case "Europe/Lisbon": ("WET", "WEST")
        case "America/Phoenix": ("MST", "MST")
        case "America/Puerto_Rico": ("AST", "AST")
        case "America/Sao_Paulo": ("BRT", "BRST")
        case "America/Mexico_City", "America/Monterrey": ("CST", "CDT")
        case "Asia/Dubai": ("GST", "GST")
        case "Asia/Tokyo": ("JST", "JDT")
        case "Asia/Macau", "Asia/Shanghai", "Asia/Hong_Kong": ("CST", "CST")
        case "Australia/Melbourne", "Australia/Sydney": ("AEST", "AEDT")
        case "Pacific/Honolulu": ("HST", "HST")
        default:
            if identifier.hasPrefix("America/") {
                switch standardOffset / 3600 {
                case -4: ("AST", "ADT")
                case -5: ("EST", "EDT")
                case -6: ("CST", "CDT")
                case -7: ("MST", "MDT")
                case -8: ("PST", "PDT")
                case -9: ("AKST", "AKDT")
                default: nil
                }
            } else if identifier.hasPrefix("Europe/") {
                switch standardOffset / 3600 {
                case 1: ("CET", "CEST")
                case 2: ("EET", "EEST")
                default: nil
                }
            } else if identifier == "UTC" || identifier == "Etc/UTC" {
                ("UTC", "UTC")
            } else {
                nil
            }
        }
        if let pair { return isDaylight ? pair.1 : pair.0 }
        if let name = cache.shortName(of: zone, daylight: isDaylight) { return name }
        let offset = offset(of: instant, in: zone)
        let sign = offset < 0 ? "-" : "+"
        let magnitude = abs(offset)
        return "UTC\(sign)\(pad2(magnitude / 3600)):\(pad2(magnitude / 60 % 60))"
    }
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

    private var shortNames: [String: String?] = [:]

    /// The zone's US English short name (`EST`, `EDT`, `MST`), or nil when there is only a `GMT±h` form.
    func shortName(of zone: TimeZone, daylight: Bool) -> String? {
        let key = "\(zone.identifier)|\(daylight)"
        lock.lock(); defer { lock.unlock() }
        if let cached = shortNames[key] { return cached }
        let name = zone.localizedName(for: daylight ? .shortDaylightSaving : .shortStandard, locale: Locale(identifier: "en_US"))
        let usable = name.flatMap { $0.count >= 2 && $0.allSatisfy { $0.isASCII && $0.isUppercase } ? $0 : nil }
        shortNames[key] = .some(usable)
        return usable
    }
}
