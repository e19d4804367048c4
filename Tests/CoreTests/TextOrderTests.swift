import SportsTimeCore
import struct SportsTimeTestSupport.SplitMix64
import Testing

@Suite("TextOrder")
struct TextOrderTests {
    /// Keys from a few letters (many ties, many shared prefixes, one key the start of another), in
    /// random order, sorted or reversed.
    private static func keys(_ count: Int, alphabet: [String], _ generator: inout SplitMix64) -> [String] {
        (0..<count).map { _ in
            (0..<Int(generator.next() % 5)).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] }.joined()
        }
    }

    /// The positions are those of sorting by `<` on (key, secondary key, position): for ASCII keys
    /// (compared as bytes) and for keys that are not (compared as strings, where `é` written as one
    /// scalar equals `e` and a combining accent, and the Kelvin sign equals `K`).
    @Test func positionsAreThoseOfSortingByTheKeysThenThePosition() {
        var generator = SplitMix64(seed: 11)
        let ascii = ["a", "b", "-", "A", "0", "Z", "~", " "]
        let other = ["a", "e", "é", "e\u{301}", "K", "\u{212A}", "-"]
        for alphabet in [ascii, other] {
            for count in [0, 1, 2, 3, 10, 200] {
                for arrangement in 0..<3 {
                    var keys = Self.keys(count, alphabet: alphabet, &generator)
                    if arrangement == 1 { keys.sort() }
                    if arrangement == 2 { keys.sort(by: >) }
                    let secondary = Self.keys(count, alphabet: alphabet, &generator)
                    #expect(TextOrder.positions(of: keys) == keys.indices.sorted { (keys[$0], $0) < (keys[$1], $1) })
                    #expect(
                        TextOrder.positions(of: keys, then: secondary)
                            == keys.indices.sorted { (keys[$0], secondary[$0], $0) < (keys[$1], secondary[$1], $1) })
                }
            }
        }
    }

    /// Game ids as the stages write them, shuffled: put back in id order.
    @Test func gameIdsComeBackInIdOrder() {
        var generator = SplitMix64(seed: 3)
        let ids = (1...300).map { day in "mlb-2023-2023-\(day % 12 + 1)-\(day % 28 + 1)-bos-at-nyy-\(day)" }.sorted()
        let shuffled = ids.shuffled(using: &generator)
        #expect(TextOrder.positions(of: shuffled).map { shuffled[$0] } == ids)
        #expect(TextOrder.positions(of: ["", "", "a", ""]) == [0, 1, 3, 2])
    }
}
