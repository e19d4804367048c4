import Foundation

/// Zone abbreviations (`EDT`, `BST`, `AEDT`) read from the system's tzdata files, the same on Linux
/// and macOS. Foundation on Linux answers `GMT-4` for `TimeZone.abbreviation(for:)`, which
/// `ZonedTime.abbreviation` then turns into `UTC-04:00`; this reads the names tzdata itself uses.
///
/// Zones whose tzdata name is numeric (`+04` for Asia/Dubai) and zones without a readable file give
/// nil, so callers fall back to `ZonedTime.abbreviation`.
public enum ZoneAbbreviations {
    private static let cache = TZifCache()

    /// The abbreviation in effect in `zone` at `instant`, or nil when tzdata has no alphabetic name.
    public static func abbreviation(zone identifier: String, at instant: Instant) -> String? {
        guard let file = cache.file(identifier) else { return nil }
        let name = file.abbreviation(at: instant.secondsSinceEpoch, identifier: identifier)
        guard let name, name.first?.isLetter == true else { return nil }
        return name
    }

    /// `ZoneAbbreviations` when tzdata has a name, else `ZonedTime.abbreviation` (`UTC+04:00`).
    public static func display(zone identifier: String, at instant: Instant) -> String {
        if let name = abbreviation(zone: identifier, at: instant) { return name }
        guard let zone = ZonedTime.zone(identifier) else { return identifier }
        return ZonedTime.abbreviation(of: zone, at: instant)
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
           let end = bytes[(p + 1)...].firstIndex(of: 0x0A) {
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
            while lo < hi {  // the last transition at or before `time`
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

private final class TZifCache: @unchecked Sendable {
    private let lock = NSLock()
    private var files: [String: TZifFile?] = [:]
    private static let directories = ["/usr/share/zoneinfo", "/var/db/timezone/zoneinfo", "/usr/lib/zoneinfo"]

    func file(_ identifier: String) -> TZifFile? {
        lock.lock(); defer { lock.unlock() }
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
