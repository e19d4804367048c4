import Foundation
import SportsTimeCore

/// Spreads one drive over stadium-local days: only inside the driving window, at most the daily cap
/// per day (counting what was already driven that day), as early as possible.
///
/// The days and window are those of the zone the drive leaves from (the driver's clock is set at the
/// start of the leg). A rest rule can forbid driving on some days between two game days: then the
/// drive skips to the next game's date once the allowed in-between days are used.
struct DriveScheduler {
    let clock: DayClock
    let capSeconds: Int64

    /// Hours already driven on one date, carried into the next leg.
    struct Carry: Hashable {
        var date: LocalDate
        var seconds: Int64
    }

    /// At most `usableDays` dates strictly between `lastGameDate` and `nextGameDate` may have driving.
    struct RestRule {
        var lastGameDate: LocalDate
        var nextGameDate: LocalDate
        var usableDays: Int
    }

    struct Segment: Hashable {
        /// The date in the origin zone.
        var date: LocalDate
        var start: Int64
        var end: Int64
    }

    struct Result {
        var depart: Int64
        var arrive: Int64
        /// Seconds driven inside `[target.start, target.end)` (the next game's local date).
        var onTargetDay: Int64
        /// Seconds driven on the origin date of `carry` (0 without a carry).
        var onCarryDate: Int64
        var segments: [Segment]
    }

    /// Schedules `seconds` of driving leaving no earlier than `earliest` (whose origin-local date is
    /// `earliestDate`), arriving no later than `deadline`. Returns nil when the deadline cannot be met.
    func schedule(
        seconds: Int64, zone: Int, earliest: Int64, earliestDate: LocalDate, carry: Carry?,
        deadline: Int64?, target: (start: Int64, end: Int64)?, rest: RestRule? = nil,
        recordSegments: Bool = false
    ) -> Result? {
        if seconds == 0 {
            if let deadline, earliest > deadline { return nil }
            return Result(depart: earliest, arrive: earliest, onTargetDay: 0, onCarryDate: 0, segments: [])
        }
        var remaining = seconds
        var date = earliestDate
        var time = earliest
        var used = (carry?.date == date) ? carry!.seconds : 0
        var depart: Int64 = -1
        var onTarget: Int64 = 0
        var onCarry: Int64 = 0
        var segments: [Segment] = []
        var betweenUsed = 0
        // Enough days for any drive that can still meet a deadline; a guard against endless loops.
        var guardDays = Int(seconds / max(1, min(capSeconds, 3600))) + 400
        while remaining > 0 {
            guardDays -= 1
            if guardDays < 0 { return nil }
            let day = clock.day(zone, date)
            if let deadline, day.windowStart > deadline || time > deadline { return nil }
            let start = max(time, day.windowStart)
            var capacity = min(day.windowEnd - start, capSeconds - used)
            if let rest, date > rest.lastGameDate, date < rest.nextGameDate {
                if betweenUsed >= rest.usableDays { capacity = 0 }
            }
            if capacity > 0 {
                let amount = min(remaining, capacity)
                if depart < 0 { depart = start }
                let end = start + amount
                if let deadline, end > deadline { return nil }
                if let rest, date > rest.lastGameDate, date < rest.nextGameDate { betweenUsed += 1 }
                if let target { onTarget += max(0, min(end, target.end) - max(start, target.start)) }
                if let carry, carry.date == date { onCarry += amount }
                if recordSegments { segments.append(Segment(date: date, start: start, end: end)) }
                remaining -= amount
                time = end
                used += amount
                if remaining == 0 { break }
            }
            // Next day (or straight to the next game's date when the rest rule allows no more days).
            var next = date.adding(days: 1)
            if let rest, next > rest.lastGameDate, next < rest.nextGameDate, betweenUsed >= rest.usableDays {
                next = rest.nextGameDate
            }
            date = next
            time = clock.day(zone, date).windowStart
            used = (carry?.date == date) ? carry!.seconds : 0
        }
        return Result(depart: depart, arrive: time, onTargetDay: onTarget, onCarryDate: onCarry, segments: segments)
    }
}

extension DriveScheduler {
    /// Schedules `seconds` of driving as late as possible: arriving by `deadline`, never before
    /// `notBefore`, with nothing else driven on those days (used for the first leg of a trip, so the
    /// trip does not start days early). Returns nil when it does not fit.
    func scheduleLatest(
        seconds: Int64, zone: Int, notBefore: Int64, deadline: Int64,
        target: (start: Int64, end: Int64)?
    ) -> Result? {
        if seconds == 0 { return Result(depart: deadline, arrive: deadline, onTargetDay: 0, onCarryDate: 0, segments: []) }
        var remaining = seconds
        var date = clock.localDate(deadline, zone: zone)
        var time = deadline
        var segments: [Segment] = []
        var guardDays = Int(seconds / max(1, min(capSeconds, 3600))) + 400
        while remaining > 0 {
            guardDays -= 1
            if guardDays < 0 { return nil }
            let day = clock.day(zone, date)
            if day.windowEnd <= notBefore && time <= notBefore { return nil }
            let end = min(time, day.windowEnd)
            let start = max(day.windowStart, notBefore)
            let capacity = min(end - start, capSeconds)
            if capacity > 0 {
                let amount = min(remaining, capacity)
                segments.append(Segment(date: date, start: end - amount, end: end))
                remaining -= amount
            }
            if remaining == 0 { break }
            if start <= notBefore && day.windowStart <= notBefore { return nil }
            date = date.adding(days: -1)
            time = clock.day(zone, date).windowEnd
        }
        segments.reverse()
        var onTarget: Int64 = 0
        if let target {
            for s in segments { onTarget += max(0, min(s.end, target.end) - max(s.start, target.start)) }
        }
        return Result(
            depart: segments.first?.start ?? deadline, arrive: segments.last?.end ?? deadline,
            onTargetDay: onTarget, onCarryDate: 0, segments: segments)
    }
}
