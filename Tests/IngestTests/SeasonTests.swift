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

    /// The usual spellings are read from their bytes; each answer must be the general reading's, so the
    /// shapes it takes (and their near misses) are pinned here with what the general rules give.
    @Test func plainSpellingsReadAsTheGeneralRulesDo() {
        let split: [(String, String?)] = [
            ("2025-26", "2025-26"), ("2025/26", "2025-26"), ("2025-2026", "2025-26"), ("2025/2026", "2025-26"),
            ("20252026", "2025-26"), ("1999-00", "1999-00"), ("1999-2000", "1999-00"),
            ("2025-27", nil), ("2025-2027", nil), ("20252027", nil), ("1849-50", nil), ("1849-1850", nil),
            ("2200-01", "2200-01"), ("2201-02", nil), ("2025x26", nil), ("2025-2x", nil), ("2025-+7", nil),
            // Not in a plain shape: the general rules (trimming, empty parts between separators).
            (" 2025-26 ", "2025-26"), ("2025--26", "2025-26"), ("-2025-26", "2025-26"), ("2025-26-", "2025-26"),
            ("2025.0", nil), ("2025", nil),
        ]
        for (text, label) in split { #expect(Season.parse(text, split: true)?.label == label, "\(text)") }
        let single: [(String, String?)] = [
            ("2023", "2023"), ("2023.0", "2023"), ("1850", "1850"), ("2200", "2200"), ("1849", nil), ("2201", nil),
            ("2023.5", nil), ("202x", nil), (" 2023 ", "2023"), ("2023.0 ", "2023"), ("2023-24", nil), ("+202", nil),
        ]
        for (text, label) in single { #expect(Season.parse(text, split: false)?.label == label, "\(text)") }
    }
}
