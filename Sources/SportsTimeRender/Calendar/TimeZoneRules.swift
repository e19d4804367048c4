import Foundation
import SportsTimeCore

/// One `STANDARD` or `DAYLIGHT` observance of a `VTIMEZONE`: from `onset` (wall clock in the old
/// offset) the zone is `offsetTo` seconds east of UTC and called `name`.
struct ZoneObservance: Sendable, Hashable {
    var isDaylight: Bool
    var onset: Instant
    var offsetFrom: Int
    var offsetTo: Int
    var name: String

    /// `20251102T020000`: the onset as local time in the offset before the change (RFC 5545 §3.6.5).
    var localOnset: String { ICalendarFormat.localDateTime(onset.adding(seconds: Int64(offsetFrom))) }
}

/// Reads a zone's transitions from tzdata (through Foundation) for a range of years.
enum TimeZoneRules {
    /// The observances needed to convert any time in `years`: the one in force on January 1 of the
    /// first year, then one per transition until the end of the last year. A zone without transitions
    /// in that time gets a single `STANDARD` observance.
    static func observances(of zone: TimeZone, years: ClosedRange<Int>) -> [ZoneObservance] {
        guard let firstDay = LocalDate(year: years.lowerBound, month: 1, day: 1),
            let endDay = LocalDate(year: years.upperBound + 1, month: 1, day: 1)
        else { return [] }
        let rangeStart = Instant(utc: firstDay).adding(seconds: -14 * 3600)
        let rangeEnd = Instant(utc: endDay).adding(seconds: 14 * 3600)

        func observance(at transition: Instant) -> ZoneObservance {
            let before = ZonedTime.offset(of: transition.adding(seconds: -1), in: zone)
            let after = ZonedTime.offset(of: transition, in: zone)
            return ZoneObservance(
                isDaylight: zone.isDaylightSavingTime(for: transition.date), onset: transition,
                offsetFrom: before, offsetTo: after, name: ZoneAbbreviations.abbreviation(zone: zone.identifier, at: transition))
        }

        // Walk transitions from two years before the range; keep the last one before it and all inside it.
        var cursor = rangeStart.adding(seconds: -2 * 366 * 86_400).date
        var previous: Instant? = nil
        var inside: [Instant] = []
        while let next = zone.nextDaylightSavingTimeTransition(after: cursor) {
            let instant = Instant(next)
            guard instant < rangeEnd else { break }
            if instant < rangeStart { previous = instant } else { inside.append(instant) }
            cursor = next
            if inside.count > 64 { break }
        }
        var result: [ZoneObservance] = []
        if let previous {
            result.append(observance(at: previous))
        } else {
            // No change in the two years before: whatever is in force at the start has been for a while.
            let offset = ZonedTime.offset(of: rangeStart, in: zone)
            result.append(
                ZoneObservance(
                    isDaylight: zone.isDaylightSavingTime(for: rangeStart.date),
                    onset: Instant(secondsSinceEpoch: -Int64(offset)), offsetFrom: offset, offsetTo: offset,
                    name: ZoneAbbreviations.abbreviation(zone: zone.identifier, at: rangeStart)))
        }
        result += inside.map(observance(at:))
        return result
    }
}

/// Date and time forms used in iCalendar values.
enum ICalendarFormat {
    /// `20251101T190000` (the instant's UTC fields; callers shift to local first).
    static func localDateTime(_ instant: Instant) -> String {
        let s = instant.utcSecondOfDay
        return basicDate(instant.utcDate) + "T" + two(s / 3600) + two(s / 60 % 60) + two(s % 60)
    }

    /// `20251101T170000Z`.
    static func utcDateTime(_ instant: Instant) -> String { localDateTime(instant) + "Z" }

    /// `20251101`.
    static func basicDate(_ date: LocalDate) -> String { date.iso8601.replacingOccurrences(of: "-", with: "") }

    /// `-0500`, `+0530`.
    static func offset(_ seconds: Int) -> String {
        let sign = seconds < 0 ? "-" : "+"
        let magnitude = abs(seconds)
        var text = sign + two(magnitude / 3600) + two(magnitude / 60 % 60)
        if magnitude % 60 != 0 { text += two(magnitude % 60) }
        return text
    }

    private static func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
}
