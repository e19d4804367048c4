import Foundation
import SportsTimeCore
import Testing
@testable import SportsTimeMerge

/// A game of one record is merged without the ranking (`GameFold.mergeOne`); it must give what the full
/// merge gives that record, for every kind of record the store meets.
@Suite struct SingleRecordMergeTests {
    /// Both merges of one record: the games, and the lineage entries' former ids, rows and fields.
    static func expectSame(_ fold: GameFold, _ part: GameFold.Contribution, _ sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        let (fast, fastOrigins) = fold.mergeOne(part)
        let (full, fullOrigins) = fold.merge([part])
        #expect(fast == full, "\(part.game.id)", sourceLocation: sourceLocation)
        #expect(fastOrigins.formerIds == fullOrigins.formerIds, sourceLocation: sourceLocation)
        #expect(fastOrigins.rows.map(\.order) == fullOrigins.rows.map(\.order), sourceLocation: sourceLocation)
        #expect(fastOrigins.fields == fullOrigins.fields, "\(part.game.id)", sourceLocation: sourceLocation)
    }

    static func contributions(_ games: [Game], origin: BatchOrigin, priorities: SourcePriorities) -> [GameFold.Contribution] {
        let records = GameFold.Records(games)
        let shared = GameFold.Origin(origin)
        return games.indices.map {
            GameFold.Contribution(
                records: records, index: $0, origin: shared, order: $0, line: $0 + 9,
                version: priorities.version(of: games[$0]))
        }
    }

    /// Every record of the committed normalized batches (real sources of seven leagues: exact starts,
    /// day/night flags, unknown starts, postponed and neutral-site games, inferred fields).
    @Test func everyCommittedNormalizedRecordMergesAloneAsTheFullMergeMergesIt() throws {
        let folder = TestPaths.packageRoot.appendingPathComponent("out/normalize/games")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".json") }.sorted()
        var checked = 0
        var unknownStarts = 0
        for name in names {
            let data = try Data(contentsOf: folder.appendingPathComponent(name))
            let batch = try BatchReader.gameBatch(from: data, path: "out/normalize/games/\(name)")
            let priorities = SourcePriorities([batch.origin])
            let fold = GameFold(context: MergeStore(), priorities: priorities, mark: nil)
            for part in Self.contributions(batch.records, origin: batch.origin, priorities: priorities) {
                Self.expectSame(fold, part)
                checked += 1
                if part.game.startKnowledge == .unknown { unknownStarts += 1 }
            }
        }
        #expect(checked > 10_000)
        #expect(unknownStarts > 0)
    }

    /// The cases the committed batches may lack: a start instant beside an unknown start, a postponed game
    /// with its makeup date, fields the merged game clears (provenance, inferred, former ids, a
    /// deprecation), a newer schema version.
    @Test func recordsWithEveryFieldTheMergeChangesMergeAloneAsTheFullMergeMergesThem() {
        var unknown = T.game(
            date: "2023-04-10", away: "mlb-nyy", home: "mlb-bos", start: "2023-04-10T23:10:00Z", source: "a",
            lastModified: T.referenceTime)
        unknown.startKnowledge = .unknown
        var postponed = T.game(date: "2023-04-11", away: "mlb-nyy", home: "mlb-bos", source: "a", lastModified: T.referenceTime)
        postponed.status = .postponed
        postponed.makeupDate = T.date("2023-06-01")
        postponed.startKnowledge = .night
        var cleared = T.game(
            date: "2023-04-12", away: "mlb-nyy", home: "mlb-bos", number: 2, start: "2023-04-12T17:05:00Z", source: "a",
            lastModified: T.referenceTime, schemaVersion: 0)
        cleared.provenance = "fixtures/scraped/a/games.csv:7"
        cleared.inferred = ["kind", "neutralSite", "stadiumId"]
        cleared.formerIds = ["mlb-2023-2023-04-13-nyy-at-bos"]
        cleared.deprecatedAt = T.referenceTime
        cleared.neutralSite = true
        let batch = T.batch(source: "a", scrapedAt: T.referenceTime, games: [unknown, postponed, cleared])
        let priorities = SourcePriorities([batch.origin])
        let fold = GameFold(context: MergeStore(), priorities: priorities, mark: nil)
        for part in Self.contributions(batch.records, origin: batch.origin, priorities: priorities) { Self.expectSame(fold, part) }
        #expect(fold.mergeOne(Self.contributions([unknown], origin: batch.origin, priorities: priorities)[0]).0.startUTC == nil)
    }

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
