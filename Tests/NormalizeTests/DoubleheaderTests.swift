import SportsTimeCore
import SportsTimeNormalize
import Testing

@Suite struct DoubleheaderTests {
    typealias G = RawFixture

    private func run(_ games: [RawGame], system: String = "retrosheet") throws -> NormalizedBatch {
        let result = try normalize(batches: [try G.batch("test", system: system, games: games)], reference: TestReference.data)
        return result.batches[0]
    }

    @Test func sourceNumbersAreKept() throws {
        let batch = try run([
            G.game("1", home: "BOS", away: "NYA", date: "2023-07-08", gameNumber: 1),
            G.game("2", home: "BOS", away: "NYA", date: "2023-07-08", gameNumber: 2),
            G.game("3", home: "BOS", away: "NYA", date: "2023-07-09", gameNumber: 0),
        ])
        #expect(batch.rejects.isEmpty)
        #expect(
            batch.games.map(\.id) == [
                "mlb-2024-2023-07-08-nyy-at-bos", "mlb-2024-2023-07-08-nyy-at-bos-g2",
                "mlb-2024-2023-07-09-nyy-at-bos",
            ])
        #expect(batch.games.map(\.gameNumber) == [1, 2, nil])
    }

    @Test func unnumberedGamesAreNumberedByStartTimeWhateverTheInputOrder() throws {
        let evening = G.game(
            "1", home: "Red Sox", away: "Yankees", startUTC: "2023-07-08T22:10:00Z", date: "2023-07-08",
            dateZone: "UTC")
        let afternoon = G.game(
            "2", home: "Red Sox", away: "Yankees", startUTC: "2023-07-08T17:05:00Z",
            date: "2023-07-08", dateZone: "UTC")
        for order in [[evening, afternoon], [afternoon, evening]] {
            let batch = try run(order, system: "espn")
            #expect(batch.rejects.isEmpty)
            let byNumber = Dictionary(uniqueKeysWithValues: batch.games.map { ($0.gameNumber ?? 0, $0) })
            #expect(byNumber[1]?.startUTC == TestReference.instant("2023-07-08T17:05:00Z"))
            #expect(byNumber[1]?.id == "mlb-2024-2023-07-08-nyy-at-bos")
            #expect(byNumber[2]?.startUTC == TestReference.instant("2023-07-08T22:10:00Z"))
            #expect(byNumber[2]?.id == "mlb-2024-2023-07-08-nyy-at-bos-g2")
        }
    }

    @Test func aMissingNumberTakesTheFreeOne() throws {
        let batch = try run([
            G.game("1", home: "BOS", away: "NYA", startUTC: "2023-07-08T17:05:00Z", date: "2023-07-08", gameNumber: 2),
            G.game("2", home: "BOS", away: "NYA", startUTC: "2023-07-08T22:10:00Z", date: "2023-07-08"),
        ])
        #expect(batch.games.map(\.gameNumber) == [1, 2])
        #expect(batch.games.first { $0.gameNumber == 1 }?.sourceIds == ["test": "2"])
    }

    @Test func theSameGameListedTwiceIsADuplicateNotADoubleheader() throws {
        let batch = try run([
            G.game("1", home: "BOS", away: "NYA", startUTC: "2023-07-08T17:05:00Z", date: "2023-07-08"),
            G.game("2", home: "BOS", away: "NYA", startUTC: "2023-07-08T17:05:00Z", date: "2023-07-08"),
            G.game("3", home: "BOS", away: "NYA", date: "2023-07-09"),
            G.game("4", home: "BOS", away: "NYA", date: "2023-07-09"),
            G.game("5", home: "BOS", away: "NYA", date: "2023-07-10", gameNumber: 1),
            G.game("6", home: "BOS", away: "NYA", date: "2023-07-10", gameNumber: 1),
        ])
        #expect(
            batch.games.map(\.id) == [
                "mlb-2024-2023-07-08-nyy-at-bos", "mlb-2024-2023-07-09-nyy-at-bos",
                "mlb-2024-2023-07-10-nyy-at-bos",
            ])
        // A lone surviving game is a single game.
        #expect(batch.games.map(\.gameNumber) == [nil, nil, 1])
        #expect(batch.rejects.map(\.recordId) == ["test:2", "test:4", "test:6"])
        #expect(batch.rejects[0].reason.hasPrefix("duplicate of test:1 (fixtures/scraped/test/games.csv:1)"))
        #expect(
            batch.rejects[2].reason
                == "duplicate of test:5 (fixtures/scraped/test/games.csv:5): same canonical id 'mlb-2024-2023-07-10-nyy-at-bos'")
        #expect(batch.games.count + batch.rejects.count == batch.inputCount)
    }

    @Test func swappedHomeIsAnotherPairing() throws {
        let batch = try run([
            G.game("1", home: "BOS", away: "NYA", date: "2023-07-08"),
            G.game("2", home: "NYA", away: "BOS", date: "2023-07-08"),
        ])
        #expect(batch.games.map(\.gameNumber) == [nil, nil])
        #expect(batch.games.count == 2)
    }
}
