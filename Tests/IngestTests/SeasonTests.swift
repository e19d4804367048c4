import Testing
@testable import SportsTimeIngest

@Suite struct SeasonTests {
    @Test func declaredLabelsAndRanges() {
        #expect(SeasonRange("2023")?.description == "2023")
        #expect(SeasonRange("2025-26")?.first.label == "2025-26")
        #expect(SeasonRange("2022..2025")?.scopeSuffix == "2022-2025")
        #expect(SeasonRange("2025-27") == nil)
        #expect(SeasonRange("2025..2022") == nil)
        #expect(SeasonRange("2024-25..2025") == nil)
    }

    @Test func rowSeasonsInTheDeclaredStyle() {
        #expect(Season.parse("20252026", split: true)?.label == "2025-26")
        #expect(Season.parse("2025-2026", split: true)?.label == "2025-26")
        #expect(Season.parse("2025/26", split: true)?.label == "2025-26")
        #expect(Season.parse("2026", split: true) == nil)
        #expect(Season.parse("2022", split: false)?.label == "2022")
        #expect(Season.parse("2022.0", split: false)?.label == "2022")
        #expect(Season.parse("22", split: false) == nil)
    }
}
