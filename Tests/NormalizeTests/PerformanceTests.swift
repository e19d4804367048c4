import Foundation
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import SportsTimeCore
import SportsTimeNormalize
import Testing

/// ~10,000 games through normalize. The time bound is checked when `NORMALIZE_BENCH=1`
/// (run it on a release build: `NORMALIZE_BENCH=1 swift test -c release --filter PerformanceTests`).
/// The bound is on this thread's CPU time, which other work on a shared machine does not inflate;
/// the wall time is printed beside it.
@Suite struct PerformanceTests {
    static let zones = ["America/New_York", "America/Chicago", "America/Denver", "America/Los_Angeles", "America/Phoenix"]

    /// 3 sports × 30 teams, each with its own stadium, a renamed stadium alias and two team aliases.
    static func syntheticReference() -> ReferenceData {
        var stadiums: [Stadium] = []
        var teams: [Team] = []
        var teamAliases: [TeamAlias] = []
        var stadiumAliases: [StadiumAlias] = []
        for sport in ["mlb", "nba", "nhl"] {
            for index in 0..<30 {
                let abbreviation = "T\(index)"
                let stadiumId = "\(sport)-arena-\(index)"
                stadiums.append(
                    TestReference.stadium(
                        stadiumId, "\(sport.uppercased()) Arena \(index)", "City \(index)", "ST",
                        zones[index % zones.count]))
                stadiumAliases.append(
                    TestReference.stadiumAlias(
                        stadiumId, "Old \(sport.uppercased()) Arena \(index)",
                        until: "2024-12-31"))
                teams.append(TestReference.team(sport, abbreviation, "City \(index)", "Club \(index)", home: stadiumId))
                teamAliases.append(TestReference.teamAlias("\(sport)-t\(index)", .sourceCode, "SRC\(index)", system: "feed"))
                teamAliases.append(
                    TestReference.teamAlias(
                        "\(sport)-t\(index)", .name, "Former Club \(index)",
                        until: "2024-06-30"))
            }
        }
        return ReferenceData(
            sports: BuiltInSport.allCases.map(\.sport), stadiums: stadiums, teams: teams,
            leagueStructures: [], teamAliases: teamAliases, stadiumAliases: stadiumAliases)
    }

    static func syntheticBatches(gamesPerSport: Int) throws -> [RawBatch] {
        try ["mlb", "nba", "nhl"].map { sport in
            var games: [RawGame] = []
            let first = TestReference.date("2024-04-01")
            for index in 0..<gamesPerSport {
                let home = index % 30
                let away = (index / 30 + home + 1) % 30
                let day = first.adding(days: index / 10)
                let start = Instant(utc: day, hour: 23, minute: 10).adding(seconds: Int64(index % 5) * 3600)
                let homeName = ["SRC\(home)", "City \(home) Club \(home)", "T\(home)"][index % 3]
                let venue =
                    index % 4 == 0
                    ? nil
                    : (index % 4 == 1
                        ? "Old \(sport.uppercased()) Arena \(home)"
                        : "\(sport.uppercased()) Arena \(home)")
                games.append(
                    RawGame(
                        id: "\(sport)-feed:\(index)", source: "\(sport)-feed", sport: sport, season: "2024", kind: .regular,
                        sourceGameId: "\(index)", homeTeam: homeName, awayTeam: "Club \(away)", venue: venue, city: nil,
                        startUTC: start, date: start.utcDate, dateZone: "UTC", localTime: nil, timeTBD: false,
                        gameNumber: nil, status: .scheduled, makeupDate: nil, neutralSite: nil,
                        provenance: "fixtures/scraped/\(sport)-feed/schedule.csv:\(index + 2)"))
            }
            return try RawFixture.batch("\(sport)-feed", system: "feed", sport: sport, games: games)
        }
    }

    @Test func tenThousandGames() throws {
        let reference = Self.syntheticReference()
        let batches = try Self.syntheticBatches(gamesPerSport: 3_400)
        let clock = ContinuousClock()
        let start = clock.now
        let cpuStart = Self.threadCPUSeconds()
        let result = try normalize(batches: batches, reference: reference)
        let cpu = Self.threadCPUSeconds() - cpuStart
        let elapsed = clock.now - start
        let wall = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18

        #expect(result.inputCount == 10_200)
        #expect(result.summary(writtenTo: "out/normalize").contains(" 10,200 games in: "))
        #expect(result.inputCount == result.gameCount + result.rejects.count)
        // Old arena names after 2024-12-31 do not resolve; everything else does.
        #expect(result.gameCount > 9_000)
        #expect(result.unresolved.allSatisfy { $0.field == "venue" && $0.value.hasPrefix("Old ") })
        print(
            "normalize: \(result.inputCount) games in \(String(format: "%.3f", cpu)) s CPU, "
                + "\(String(format: "%.3f", wall)) s wall (\(result.gameCount) written, \(result.rejects.count) rejected)")
        if ProcessInfo.processInfo.environment["NORMALIZE_BENCH"] == "1" {
            #expect(cpu < 0.5, "normalize took \(cpu) s of CPU for \(result.inputCount) games")
        }
    }

    /// CPU time used by the calling thread so far.
    static func threadCPUSeconds() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }
}
