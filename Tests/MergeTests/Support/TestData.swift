import Foundation
import SportsTimeTestSupport
import SportsTimeCore
@testable import SportsTimeMerge

/// Hand-built values for merge tests.
enum T {
    static func instant(_ text: String) -> Instant {
        guard let value = Instant(iso8601: text) else { preconditionFailure("bad instant \(text) in a test") }
        return value
    }

    static func date(_ text: String) -> LocalDate {
        guard let value = LocalDate(iso8601: text) else { preconditionFailure("bad date \(text) in a test") }
        return value
    }

    static let referenceTime = instant("2026-01-15T00:00:00Z")

    static func stadium(
        _ id: String, zone: String = "America/New_York", lastModified: Instant = referenceTime,
        schemaVersion: Int = 1
    ) -> Stadium {
        TestRecords.stadium(
            id, timeZone: zone, capacity: 40000, openedYear: 2000, lastModified: lastModified, schemaVersion: schemaVersion)
    }

    static func team(
        _ id: String, sport: String? = nil, stadium: String? = nil, lastModified: Instant = referenceTime,
        division: String? = nil
    ) -> Team {
        TestRecords.team(
            id, sport: sport, homeStadiumId: stadium ?? "park-\(id)", divisionId: division, lastModified: lastModified)
    }

    /// Built-in sports, stadiums `park-<team>` and teams for `teams`.
    static func reference(
        teams: [String], extraSports: [Sport] = [], extraStadiums: [Stadium] = [],
        structures: [LeagueStructure] = [], teamAliases: [TeamAlias] = [],
        stadiumAliases: [StadiumAlias] = []
    ) -> ReferenceData {
        ReferenceData(
            sports: BuiltInSport.allCases.map(\.sport) + extraSports,
            stadiums: teams.map { stadium("park-\($0)") } + extraStadiums,
            teams: teams.map { team($0) },
            leagueStructures: structures, teamAliases: teamAliases, stadiumAliases: stadiumAliases)
    }

    static func game(
        sport: String = "mlb", season: String = "2023", date: String, away: String, home: String,
        number: Int? = nil, start: String? = nil, stadium: String? = nil, status: GameStatus = .scheduled,
        source: String, sourceGameId: String? = nil, lastModified: Instant, schemaVersion: Int = 1
    ) -> Game {
        let localDate = T.date(date)
        let id = Game.makeId(
            sport: sport, season: season, localDate: localDate, awayTeamId: away, homeTeamId: home, gameNumber: number)
        return TestRecords.game(
            id: id, sport: sport, season: season, date: localDate, start: start.map(instant), away: away, home: home,
            stadium: stadium ?? "park-\(home)", number: number, status: status,
            sourceIds: [source: sourceGameId ?? "\(source):\(id)"], lastModified: lastModified,
            schemaVersion: schemaVersion, source: source)
    }

    static func batch(
        source: String, system: String? = nil, scope: String = "mlb-2023", scrapedAt: Instant,
        priority: Int = 0, games: [Game], unreadable: [UnreadableRecord] = []
    ) -> RecordBatch<Game> {
        RecordBatch(
            origin: BatchOrigin(
                source: source, system: system ?? source, scope: scope, scrapedAt: scrapedAt,
                priority: priority, path: "out/normalize/games/\(source).json"),
            records: games, unreadable: unreadable)
    }

    /// Every output file, as `MergeOutput.produce` hands them over, sorted by path.
    static func files(
        for result: MergeResult, input: MergeInput, hashes: [String: String], settings: [MetaKey: String]
    ) throws -> [OutputFile] {
        var files: [OutputFile] = []
        try MergeOutput.produce(for: result, input: input, hashes: hashes, settings: settings) { files.append($0) }
        return files.sorted { $0.path < $1.path }
    }

    /// The bytes of every output file, by path.
    static func outputs(_ result: MergeResult, _ input: MergeInput) throws -> [String: Data] {
        let files = try T.files(
            for: result, input: input, hashes: [:],
            settings: input.settingsMeta { "h\($0.count)" })
        return Dictionary(uniqueKeysWithValues: files.map { ($0.path, $0.data) })
    }

    /// The store's own files (entities, games, sync state): what a full and an incremental merge must agree on.
    static func storeFiles(_ result: MergeResult, _ input: MergeInput) throws -> [String: Data] {
        try outputs(result, input).filter { $0.key != "merge-report.json" && $0.key != "rejects.jsonl" }
    }
}

extension MergeResult {
    /// Every kind's counts add up.
    var countsAddUp: Bool {
        EntityKind.foldOrder.allSatisfy { counts($0)?.addsUp ?? false }
    }
}

/// The folder of this test target, for fixtures.
enum TestPaths {
    static let testsFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    static let fixtures = testsFolder.appendingPathComponent("Fixtures")
    static let packageRoot = testsFolder.deletingLastPathComponent().deletingLastPathComponent()
}
