import Foundation

/// The one place that names a zone at an instant (`EDT`, `BST`, `AEDT`): the plan's
/// `timeZoneAbbreviation`, the planner's log lines and the iCalendar `TZNAME`s all come from here.
///
/// Order of sources, documented because outputs depend on it:
/// 1. the system's tzdata file (`/usr/share/zoneinfo/<zone>`, TZif, RFC 8536) when it gives an
///    alphabetic name — the same on Linux and macOS, and right for historical instants too.
///    (Foundation on Linux answers `GMT-4` for `TimeZone.abbreviation(for:)`, so it is not used.)
/// 2. tzdata gives only a numeric name (`+04` for Asia/Dubai, `-03` for America/Sao_Paulo): the
///    common name from `namedZones` if the zone is listed there (`GST`, `BRT`), else `UTC±hh:mm`.
/// 3. no readable tzdata file (e.g. a slim container without the tzdata package, where Foundation
///    still knows the zone from ICU): `namedZones`, then a guess from the region and standard offset
///    (`America/*` at -5 → `EST`/`EDT`, `Europe/*` at +1 → `CET`/`CEST`), then `UTC±hh:mm`.
/// An identifier neither tzdata nor Foundation knows is returned unchanged.
public enum ZoneAbbreviations {
    private static let cache = TZifCache()

    /// The abbreviation in effect in the zone `identifier` at `instant`.
    public static func abbreviation(zone identifier: String, at instant: Instant) -> String {
        let file = cache.file(identifier)
        if let name = file?.abbreviation(at: instant.secondsSinceEpoch, identifier: identifier),
            name.first?.isLetter == true
        {
            return name
        }
        return fallback(zone: identifier, at: instant, guessFromRegion: file == nil)
    }

    /// Steps 2 and 3: the name when tzdata has none (or no file), without reading tzdata.
    static func fallback(zone identifier: String, at instant: Instant, guessFromRegion: Bool) -> String {
        guard let zone = ZonedTime.zone(identifier) else { return identifier }
        let date = instant.date
        let isDaylight = zone.isDaylightSavingTime(for: date)
        let pair = namedZones[identifier] ?? (guessFromRegion ? regionalGuess(zone, at: date) : nil)
        if let pair { return isDaylight ? pair.daylight : pair.standard }
        let offset = ZonedTime.offset(of: instant, in: zone)
        let sign = offset < 0 ? "-" : "+"
        let magnitude = abs(offset)
        return "UTC\(sign)\(pad2(magnitude / 3600)):\(pad2(magnitude / 60 % 60))"
    }

    /// Common names for zones where tzdata has only a numeric one, and for the zones the reference
    /// data uses whose names a region/offset guess would get wrong when tzdata is missing.
    static let namedZones: [String: (standard: String, daylight: String)] = [
        "Europe/London": ("GMT", "BST"),
        "Europe/Dublin": ("GMT", "IST"),
        "Europe/Lisbon": ("WET", "WEST"),
        "America/Phoenix": ("MST", "MST"),
        "America/Puerto_Rico": ("AST", "AST"),
        "America/Sao_Paulo": ("BRT", "BRST"),
        "America/Mexico_City": ("CST", "CDT"),
        "America/Monterrey": ("CST", "CDT"),
        "Asia/Dubai": ("GST", "GST"),
        "Asia/Tokyo": ("JST", "JDT"),
        "Asia/Macau": ("CST", "CST"),
        "Asia/Shanghai": ("CST", "CST"),
        "Asia/Hong_Kong": ("HKT", "HKST"),
        "Australia/Melbourne": ("AEST", "AEDT"),
        "Australia/Sydney": ("AEST", "AEDT"),
        "Pacific/Honolulu": ("HST", "HST"),
        "UTC": ("UTC", "UTC"),
        "Etc/UTC": ("UTC", "UTC"),
    ]

    /// North American and European names from the standard offset; only used without tzdata.
    private static func regionalGuess(_ zone: TimeZone, at date: Date) -> (standard: String, daylight: String)? {
        let standardOffset = zone.secondsFromGMT(for: date) - Int(zone.daylightSavingTimeOffset(for: date))
        let identifier = zone.identifier
        if identifier.hasPrefix("America/") {
            switch standardOffset / 3600 {
            case -4: return ("AST", "ADT")
            case -5: return ("EST", "EDT")
            case -6: return ("CST", "CDT")
            case -7: return ("MST", "MDT")
            case -8: return ("PST", "PDT")
            case -9: return ("AKST", "AKDT")
            default: return nil
            }
        }
        if identifier.hasPrefix("Europe/") {
            switch standardOffset / 3600 {
            case 1: return ("CET", "CEST")
            case 2: return ("EET", "EEST")
            default: return nil
            }
        }
        return nil
    }
}

/// The parts of a TZif file (RFC 8536) needed for names: transitions, types, and the footer rule.
struct TZifFile {
    var transitions: [Int64] = []
    var transitionTypes: [Int] = []
    var types: [(offset: Int, isDST: Bool, name: String)] = []
    /// The POSIX TZ footer's standard and daylight names (`EST`, `EDT`), for times after the last transition.
    var footerStandard: String?
    var footerDaylight: String?

    init?(data: Data) {
        let bytes = [UInt8](data)
        guard bytes.count >= 44, bytes[0] == 0x54, bytes[1] == 0x5A, bytes[2] == 0x69, bytes[3] == 0x66 else { return nil }
        func be32(_ i: Int) -> Int64 {
            Int64(Int32(bitPattern: UInt32(bytes[i]) << 24 | UInt32(bytes[i + 1]) << 16 | UInt32(bytes[i + 2]) << 8 | UInt32(bytes[i + 3])))
        }
        func be64(_ i: Int) -> Int64 {
            var v: UInt64 = 0
            for k in 0..<8 { v = v << 8 | UInt64(bytes[i + k]) }
            return Int64(bitPattern: v)
        }
        func counts(_ at: Int) -> (isut: Int, isstd: Int, leap: Int, time: Int, type: Int, char: Int) {
            (Int(be32(at + 20)), Int(be32(at + 24)), Int(be32(at + 28)), Int(be32(at + 32)), Int(be32(at + 36)), Int(be32(at + 40)))
        }
        let version = bytes[4]
        var header = 0
        var timeSize = 4
        var c = counts(0)
        if version >= 0x32 {
            // Skip the version-1 block; read the 64-bit block after it.
            let v1 = 44 + c.time * 4 + c.time + c.type * 6 + c.char + c.leap * 8 + c.isstd + c.isut
            guard bytes.count >= v1 + 44 else { return nil }
            header = v1
            timeSize = 8
            c = counts(header)
        }
        var p = header + 44
        let needed = c.time * timeSize + c.time + c.type * 6 + c.char + c.leap * (timeSize + 4) + c.isstd + c.isut
        guard bytes.count >= p + needed else { return nil }
        for i in 0..<c.time { transitions.append(timeSize == 8 ? be64(p + i * 8) : be32(p + i * 4)) }
        p += c.time * timeSize
        for i in 0..<c.time { transitionTypes.append(Int(bytes[p + i])) }
        p += c.time
        let typesAt = p
        p += c.type * 6
        let chars = Array(bytes[p..<(p + c.char)])
        for i in 0..<c.type {
            let at = typesAt + i * 6
            let offset = Int(be32(at))
            let isDST = bytes[at + 4] != 0
            let index = Int(bytes[at + 5])
            var end = index
            while end < chars.count, chars[end] != 0 { end += 1 }
            types.append((offset, isDST, index < chars.count ? String(decoding: chars[index..<end], as: UTF8.self) : ""))
        }
        p += c.char + c.leap * (timeSize + 4) + c.isstd + c.isut
        if timeSize == 8, p < bytes.count, bytes[p] == 0x0A,
            let end = bytes[(p + 1)...].firstIndex(of: 0x0A)
        {
            let rule = String(decoding: bytes[(p + 1)..<end], as: UTF8.self)
            (footerStandard, footerDaylight) = Self.names(inPOSIXRule: rule)
        }
    }

    /// `EST5EDT,M3.2.0,M11.1.0` → (`EST`, `EDT`); `<+04>-4` → (`+04`, nil).
    static func names(inPOSIXRule rule: String) -> (String?, String?) {
        var scalars = Substring(rule)
        func name() -> String? {
            if scalars.first == "<" {
                guard let close = scalars.firstIndex(of: ">") else { return nil }
                let value = String(scalars[scalars.index(after: scalars.startIndex)..<close])
                scalars = scalars[scalars.index(after: close)...]
                return value
            }
            let letters = scalars.prefix { $0.isLetter }
            guard letters.count >= 3 else { return nil }
            scalars = scalars.dropFirst(letters.count)
            return String(letters)
        }
        let standard = name()
        scalars = scalars.drop { "+-0123456789:".contains($0) }
        let daylight = scalars.isEmpty || scalars.first == "," ? nil : name()
        return (standard, daylight)
    }

    func abbreviation(at time: Int64, identifier: String) -> String? {
        if let last = transitions.last, time < last, let first = transitions.first, time >= first {
            var lo = 0, hi = transitions.count - 1
            while lo < hi { // the last transition at or before `time`
                let mid = (lo + hi + 1) / 2
                if transitions[mid] <= time { lo = mid } else { hi = mid - 1 }
            }
            let type = transitionTypes[lo]
            return type < types.count ? types[type].name : nil
        }
        if footerStandard != nil || footerDaylight != nil {
            let isDST = ZonedTime.zone(identifier)?.isDaylightSavingTime(for: Date(timeIntervalSince1970: TimeInterval(time))) ?? false
            return isDST ? (footerDaylight ?? footerStandard) : footerStandard
        }
        if let lastType = transitionTypes.last, lastType < types.count { return types[lastType].name }
        return types.first?.name
    }
}

private final class TZifCache: Sendable {
    private let files = Locked<[String: TZifFile?]>([:])
    private static let directories = ["/usr/share/zoneinfo", "/var/db/timezone/zoneinfo", "/usr/lib/zoneinfo"]

    func file(_ identifier: String) -> TZifFile? {
        files.withLock { files in
            if let cached = files[identifier] { return cached }
            var parsed: TZifFile?
            if !identifier.contains(".."), !identifier.hasPrefix("/") {
                for directory in Self.directories {
                    if let data = FileManager.default.contents(atPath: "\(directory)/\(identifier)"), let file = TZifFile(data: data) {
                        parsed = file
                        break
                    }
                }
            }
            files[identifier] = .some(parsed)
            return parsed
        }
    }
}
