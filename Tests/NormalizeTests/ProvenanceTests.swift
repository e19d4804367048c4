import Testing
@testable import SportsTimeNormalize

/// A raw record's `file:line` splits at its last colon when a line number (not negative) follows.
@Suite struct ProvenanceTests {
    @Test(arguments: [
        ("fixtures/scraped/x/games.csv:12", "fixtures/scraped/x/games.csv", 12 as Int?),
        ("c:\\data\\x.txt:7", "c:\\data\\x.txt", 7), ("a.csv:007", "a.csv", 7), ("a.csv:-0", "a.csv", 0),
        ("a.csv:+5", "a.csv", 5), ("a.csv", "a.csv", nil), ("a.csv:-5", "a.csv:-5", nil), ("a.csv:12a", "a.csv:12a", nil),
        ("a.csv:", "a.csv:", nil), ("a.csv:99999999999999999999", "a.csv:99999999999999999999", nil),
        ("Zürich.csv:3", "Zürich.csv", 3),
    ])
    func splitsFileAndLine(text: String, file: String, line: Int?) {
        let provenance = Provenance(text)
        #expect(provenance.file == file && provenance.line == line, "\(text)")
    }

    @Test func ordersByFileThenLineAsANumber() {
        #expect(Provenance("a.csv:9") < Provenance("a.csv:10"))
        #expect(Provenance("a.csv:10") < Provenance("b.csv:2"))
        #expect(!(Provenance("a.csv:3") < Provenance("a.csv:3")))
    }
}
