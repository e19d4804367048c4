import SportsTimeCore
import Testing
@testable import SportsTimeMerge

/// The identity check every game passes before it is merged.
@Suite struct GameIdCheckTests {
    /// An id with white space at either end is refused, ASCII or not; the ASCII check by byte agrees with
    /// the check by Unicode property on every ASCII byte and on ids with other characters at the ends.
    @Test func idsWithWhiteSpaceAtAnEndAreRefused() {
        func refused(_ id: String) -> Bool {
            var game = T.game(date: "2023-04-10", away: "mlb-nyy", home: "mlb-bos", source: "a", lastModified: T.referenceTime)
            game.id = id
            return game.checkIdentity() != nil
        }
        for byte in UInt8(0)..<0x80 {
            let scalar = Unicode.Scalar(byte)
            let isWhite = scalar.properties.isWhitespace
            #expect(refused(String(scalar) + "x") == isWhite, "\(byte)")
            #expect(refused("x" + String(scalar)) == isWhite, "\(byte)")
        }
        for id in ["\u{A0}x", "x\u{2003}", "\u{3000}mlb-1", "mlb-1\u{85}", ""] { #expect(refused(id), "\(id.unicodeScalars.map(\.value))") }
        for id in ["mlb-1", "é", "x\u{301}", "日本", "a b"] { #expect(!refused(id), "\(id)") }
    }
}
