import Testing
@testable import SportsTimeNormalize

/// A provenance read from the bytes of ASCII text splits as the general reader splits it.
@Suite struct ProvenanceTests {
    /// The general reader: the last colon by character, the line as `Int(_:)` reads it, kept when not negative.
    static func general(_ text: String) -> (file: String, line: Int?) {
        if let colon = text.lastIndex(of: ":"), let line = Int(text[text.index(after: colon)...]), line >= 0 {
            return (String(text[..<colon]), line)
        }
        return (text, nil)
    }

    @Test func everyProvenanceSplitsAsTheGeneralReaderSplitsIt() {
        var texts: [String] = []
        for file in ["fixtures/scraped/x/games.csv", "a:b.csv", "", "c:\\data\\x.txt", "Zürich.csv", "e\u{301}"] {
            for line in [
                "12", "0", "007", "-0", "-00", "-5", "+5", "+", "-", "", "12a", "1 2", " 12", "9223372036854775807",
                "9223372036854775808", "-9223372036854775808", "99999999999999999999", "١٢",
            ] {
                texts.append("\(file):\(line)")
            }
            texts.append(file)
        }
        texts += [":", "::", "a:\u{301}12", "x:12\u{301}"]
        for text in texts {
            let fast = Provenance(text)
            let slow = Self.general(text)
            #expect(fast.file == slow.file && fast.line == slow.line, "\(text)")
        }
    }
}
