import SportsTimeCore
import SportsTimeTestSupport
import Testing

@Suite struct EditDistanceTests {
    @Test func knownDistances() {
        #expect(EditDistance.between(Array("kitten".utf8), Array("sitting".utf8)) == 3)
        #expect(EditDistance.between(Array("".utf8), Array("abc".utf8)) == 3)
        #expect(EditDistance.between(Array("reson".utf8), Array("reason".utf8)) == 1)
        // A swap of neighbours: two edits, or one with transpositions.
        #expect(EditDistance.between(Array("nyk-at-bos".utf8), Array("nky-at-bos".utf8)) == 2)
        #expect(EditDistance.between(Array("nyk-at-bos".utf8), Array("nky-at-bos".utf8), transpositions: true) == 1)
    }

    /// Against the full-matrix definitions, on random short words over a small alphabet.
    @Test func equalsTheFullMatrixDefinition() {
        func reference(_ a: [UInt8], _ b: [UInt8], transpositions: Bool) -> Int {
            var d = Array(repeating: Array(repeating: 0, count: b.count + 1), count: a.count + 1)
            for i in 0...a.count { d[i][0] = i }
            for j in 0...b.count { d[0][j] = j }
            if a.isEmpty || b.isEmpty { return d[a.count][b.count] }
            for i in 1...a.count {
                for j in 1...b.count {
                    d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
                    if transpositions, i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                        d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
                    }
                }
            }
            return d[a.count][b.count]
        }
        var random = SplitMix64(seed: 2026)
        for _ in 0..<2_000 {
            let a = (0..<Int.random(in: 0...7, using: &random)).map { _ in UInt8.random(in: 97...99, using: &random) }
            let b = (0..<Int.random(in: 0...7, using: &random)).map { _ in UInt8.random(in: 97...99, using: &random) }
            for transpositions in [false, true] {
                #expect(
                    EditDistance.between(a, b, transpositions: transpositions) == reference(a, b, transpositions: transpositions),
                    "\(a) \(b) \(transpositions)")
            }
        }
    }
}
