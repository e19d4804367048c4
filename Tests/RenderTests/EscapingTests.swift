@testable import SportsTimeRender
import struct SportsTimeTestSupport.SplitMix64
import Testing

@Suite("Escaping for Markdown and HTML")
struct EscapingTests {
    /// Every ASCII text reads the same by bytes as by characters: the byte path is only faster.
    @Test("Markdown escaping of ASCII text by bytes equals escaping it by characters")
    func markdownBytesEqualCharacters() {
        // Letters, digits, every character Markdown escapes, newlines and plain punctuation, mixed.
        let alphabet = Array("aZ09_\\`*[]<>|#~\r\n .,/-'\"&")
        var generator = SplitMix64(seed: 0x5EED)
        for length in [0, 1, 2, 3, 5, 8, 13, 40] {
            for _ in 0..<300 {
                let text = String((0..<length).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] })
                #expect(Escape.markdown(text) == Escape.markdownCharacters(text), "\(text.debugDescription)")
            }
        }
    }

    @Test("Markdown escaping: word-edge underscores, table pipes, each newline one space, any script")
    func markdownCases() {
        #expect(Escape.markdown("a|b *c* America/New_York _x_") == "a\\|b \\*c\\* America/New_York \\_x\\_")
        #expect(Escape.markdown("line one\r\nline two\nthree\rfour") == "line one line two three four")
        // Not ASCII: by characters, where `é` and `日` are letters, so the underscore between them is inside a word.
        #expect(Escape.markdown("Montréal_é | 東京_日本") == "Montréal_é \\| 東京_日本")
        #expect(Escape.markdown("Québec _x\r\ny") == "Québec \\_x y")
    }

    @Test("HTML escaping: the five characters everywhere, also before a combining mark")
    func html() {
        #expect(Escape.html("<a href=\"x\">&'") == "&lt;a href=&quot;x&quot;&gt;&amp;&#39;")
        #expect(Escape.html("Montréal & Québec") == "Montréal &amp; Québec")
        // `<` followed by U+0301 is one character, but the `<` must still not reach the page raw.
        #expect(Escape.html("<\u{301}script>") == "&lt;\u{301}script&gt;")
    }
}
