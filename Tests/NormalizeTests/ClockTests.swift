import Testing
@testable import SportsTimeNormalize

/// A naive local time: `HH:MM` or `HH:MM:SS` on a 24-hour clock, fields of one or two ASCII digits.
@Suite struct ClockTests {
    @Test(arguments: [
        ("19:05", 19, 5), ("7:05", 7, 5), ("07:5", 7, 5), ("00:00", 0, 0), ("23:59:59", 23, 59), ("12:30:00", 12, 30),
    ])
    func readsAClock(text: String, hour: Int, minute: Int) {
        let clock = GameSchedule.parseClock(text)
        #expect(clock?.0 == hour && clock?.1 == minute, "\(text)")
    }

    @Test(arguments: [
        "24:00", "12:60", "12:00:60", "1905", "19-05", "19:05 ", " 19:05", "19:05:00:00", "019:05", "19:", ":05", "",
        "١٩:٠٥", "a1:00",
    ])
    func refusesAnythingElse(text: String) {
        #expect(GameSchedule.parseClock(text) == nil, "\(text)")
    }
}
