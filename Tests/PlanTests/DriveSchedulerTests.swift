import Foundation
import Testing
import SportsTimeCore
@testable import SportsTimePlan

@Suite struct DriveSchedulerTests {
    let clock = DayClock(model: TravelModel())
    var scheduler: DriveScheduler { DriveScheduler(clock: clock, capSeconds: 8 * 3600) }
    func at(_ text: String) -> Int64 { Instant(iso8601: text)!.secondsSinceEpoch }
    func d(_ text: String) -> LocalDate { LocalDate(iso8601: text)! }

    @Test func aLongDriveIsSpreadOverDaysAtTheDailyCap() throws {
        let ny = try #require(clock.zone("America/New_York"))
        // 10 h from 09:00 EDT: 8 h the first day (09–17), 2 h the next morning (09–11).
        let r = try #require(
            scheduler.schedule(
                seconds: 10 * 3600, zone: ny, earliest: at("2023-06-05T13:00:00Z"),
                earliestDate: d("2023-06-05"), carry: nil, deadline: nil, target: nil,
                recordSegments: true))
        #expect(r.segments.map(\.date) == [d("2023-06-05"), d("2023-06-06")])
        #expect(r.segments.map { $0.end - $0.start } == [8 * 3600, 2 * 3600])
        #expect(r.arrive == at("2023-06-06T15:00:00Z"))
    }

    @Test func hoursAlreadyDrivenThatDayCount() throws {
        let ny = try #require(clock.zone("America/New_York"))
        let r = try #require(
            scheduler.schedule(
                seconds: 4 * 3600, zone: ny, earliest: at("2023-06-05T20:00:00Z"),
                earliestDate: d("2023-06-05"),
                carry: DriveScheduler.Carry(date: d("2023-06-05"), seconds: 5 * 3600),
                deadline: nil, target: nil, recordSegments: true))
        #expect(r.segments.map { $0.end - $0.start } == [3 * 3600, 3600])
        #expect(r.onCarryDate == 3 * 3600)
    }

    @Test func drivingStaysInsideTheWindow() throws {
        let ny = try #require(clock.zone("America/New_York"))
        // Leaving at 20:30 EDT: 1.5 h until 22:00, the rest from 09:00 the next day.
        let r = try #require(
            scheduler.schedule(
                seconds: 3 * 3600, zone: ny, earliest: at("2023-06-06T00:30:00Z"),
                earliestDate: d("2023-06-05"), carry: nil, deadline: nil, target: nil,
                recordSegments: true))
        #expect(r.segments.first?.end == at("2023-06-06T02:00:00Z"))
        #expect(r.segments.last?.start == at("2023-06-06T13:00:00Z"))
        // Leaving after the window: nothing that day.
        let late = try #require(
            scheduler.schedule(
                seconds: 3600, zone: ny, earliest: at("2023-06-06T03:00:00Z"),
                earliestDate: d("2023-06-05"), carry: nil, deadline: nil, target: nil))
        #expect(late.depart == at("2023-06-06T13:00:00Z"))
    }

    @Test func theWindowIsLocalWallClockAcrossDaylightSavingChanges() throws {
        let ny = try #require(clock.zone("America/New_York"))
        let day = clock.day(ny, d("2023-03-12")) // clocks go forward at 02:00
        #expect(day.end - day.start == 23 * 3600)
        #expect(day.windowStart == at("2023-03-12T13:00:00Z")) // 09:00 EDT
        #expect(day.windowEnd - day.windowStart == 13 * 3600)
        let before = clock.day(ny, d("2023-03-11"))
        #expect(before.windowStart == at("2023-03-11T14:00:00Z")) // 09:00 EST
    }

    @Test func daysAreCountedInTheOriginZoneAndTheTargetDayInTheDestinationZone() throws {
        let chicago = try #require(clock.zone("America/Chicago"))
        let ny = try #require(clock.zone("America/New_York"))
        // From Chicago after 21:00 CDT: driving ends at 22:00 CDT, i.e. 23:00 EDT — still June 5 in New York,
        // and the next morning's driving (09:00 CDT = 10:00 EDT) falls on June 6 in New York.
        let target = clock.day(ny, d("2023-06-06"))
        let r = try #require(
            scheduler.schedule(
                seconds: 3 * 3600, zone: chicago, earliest: at("2023-06-06T02:00:00Z"),
                earliestDate: d("2023-06-05"), carry: nil, deadline: nil,
                target: (target.start, target.end), recordSegments: true))
        #expect(r.segments.map(\.date) == [d("2023-06-05"), d("2023-06-06")])
        #expect(r.onTargetDay == 2 * 3600)
        #expect(clock.localText(r.arrive, zone: ny) == "2023-06-06 12:00 EDT")
    }

    @Test func aDeadlineThatCannotBeMetFails() throws {
        let ny = try #require(clock.zone("America/New_York"))
        #expect(
            scheduler.schedule(
                seconds: 9 * 3600, zone: ny, earliest: at("2023-06-05T13:00:00Z"), earliestDate: d("2023-06-05"),
                carry: nil, deadline: at("2023-06-05T23:00:00Z"), target: nil) == nil)
        #expect(
            scheduler.schedule(
                seconds: 8 * 3600, zone: ny, earliest: at("2023-06-05T13:00:00Z"), earliestDate: d("2023-06-05"),
                carry: nil, deadline: at("2023-06-05T21:00:00Z"), target: nil) != nil)
    }

    @Test func theRestRuleKeepsDaysBetweenGamesFree() throws {
        let ny = try #require(clock.zone("America/New_York"))
        // Games on the 5th and the 8th, one rest day needed: of the 6th and 7th only one may have driving.
        let rest = DriveScheduler.RestRule(lastGameDate: d("2023-06-05"), nextGameDate: d("2023-06-08"), usableDays: 1)
        let r = try #require(
            scheduler.schedule(
                seconds: 12 * 3600, zone: ny, earliest: at("2023-06-06T03:00:00Z"),
                earliestDate: d("2023-06-05"), carry: nil, deadline: at("2023-06-08T22:00:00Z"),
                target: nil, rest: rest, recordSegments: true))
        #expect(r.segments.map(\.date) == [d("2023-06-06"), d("2023-06-08")])
        let none = DriveScheduler.RestRule(lastGameDate: d("2023-06-05"), nextGameDate: d("2023-06-08"), usableDays: 0)
        #expect(
            scheduler.schedule(
                seconds: 12 * 3600, zone: ny, earliest: at("2023-06-06T03:00:00Z"), earliestDate: d("2023-06-05"),
                carry: nil, deadline: at("2023-06-08T22:00:00Z"), target: nil, rest: none) == nil)
    }

    @Test func theLatestScheduleEndsAtTheDeadline() throws {
        let ny = try #require(clock.zone("America/New_York"))
        let r = try #require(
            scheduler.scheduleLatest(
                seconds: 10 * 3600, zone: ny, notBefore: at("2023-06-04T13:00:00Z"),
                deadline: at("2023-06-06T22:00:00Z"), target: nil))
        #expect(r.arrive == at("2023-06-06T22:00:00Z"))
        #expect(r.segments.map { $0.end - $0.start } == [2 * 3600, 8 * 3600])
        #expect(
            scheduler.scheduleLatest(
                seconds: 30 * 3600, zone: ny, notBefore: at("2023-06-05T13:00:00Z"),
                deadline: at("2023-06-06T22:00:00Z"), target: nil) == nil)
    }
}
