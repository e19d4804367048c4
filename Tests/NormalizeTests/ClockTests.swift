import Testing
@testable import SportsTimeNormalize

/// A naive local time read byte by byte agrees with the general reader on every clock text.
@Suite struct ClockTests {
    /// The general reader, as `GameSchedule.parseClock` runs it when the byte reader declines.
    static func general(_ text: String) -> (Int, Int)? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard (2...3).contains(parts.count),
            parts.allSatisfy({ (1...2).contains($0.count) && $0.allSatisfy { $0.isASCII && $0.isNumber } }),
            let hour = Int(parts[0]), let minute = Int(parts[1]), (0..<24).contains(hour), (0..<60).contains(minute)
        else { return nil }
        if parts.count == 3 { guard let second = Int(parts[2]), (0..<60).contains(second) else { return nil } }
        return (hour, minute)
    }

    @Test func everyClockTextReadsAsTheGeneralReaderReadsIt() {
        var texts: [String] = []
        for hour in ["0", "00", "7", "07", "19", "23", "24", "99", "a1", ""] {
            for minute in ["00", "5", "05", "59", "60", "x0", ""] {
                texts.append("\(hour):\(minute)")
                for second in ["00", "59", "60", "7", ""] { texts.append("\(hour):\(minute):\(second)") }
            }
        }
        texts += ["19:05 ", " 19:05", "1905", "19-05", "19:05:00:00", "١٩:٠٥"]
        for text in texts {
            let fast = GameSchedule.parseClock(text)
            let slow = Self.general(text)
            #expect(fast?.0 == slow?.0 && fast?.1 == slow?.1, "\(text)")
        }
    }
}
