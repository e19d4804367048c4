import Foundation
import SportsTimeCore
import SportsTimeTestSupport
@testable import SportsTimeMerge

/// Turns the real Retrosheet schedule fixtures into canonical games the way normalize would, with test
/// ids: team `mlb-<code>` (Retrosheet code lowercased), stadium `park-<home code>`. Test-only; the real
/// ingest → normalize path is checked end to end by integration.
enum RetrosheetFixture {
    static let folder = TestPaths.fixtures.appendingPathComponent("retrosheet")

    /// The 30 Retrosheet team codes of 2020–2023, as test team ids.
    static let teamIds: [String] = [
        "ANA", "ARI", "ATL", "BAL", "BOS", "CHA", "CHN", "CIN", "CLE", "COL", "DET", "HOU",
        "KCA", "LAN", "MIA", "MIL", "MIN", "NYA", "NYN", "OAK", "PHI", "PIT", "SDN", "SEA",
        "SFN", "SLN", "TBA", "TEX", "TOR", "WAS",
    ].map { "mlb-\($0.lowercased())" }

    static var reference: ReferenceData { T.reference(teams: teamIds) }

    /// The games of one schedule file, from `source`, scraped at `scrapedAt`.
    static func games(file: String, source: String, scrapedAt: Instant) throws -> [Game] {
        let data = try Data(contentsOf: folder.appendingPathComponent(file))
        var games: [Game] = []
        for row in CSVReader().read(data).rows {
            let f = row.fields
            guard f.count == 12, let date = LocalDate(iso8601: f[0]), let number = Int(f[1]) else {
                throw CocoaError(.fileReadCorruptFile, userInfo: [NSLocalizedDescriptionKey: "\(file):\(row.line): not a schedule row"])
            }
            let away = "mlb-\(f[3].lowercased())", home = "mlb-\(f[6].lowercased())"
            let gameNumber: Int? = number == 0 ? nil : number
            let id = Game.makeId(
                sport: "mlb", season: String(date.year), localDate: date, awayTeamId: away,
                homeTeamId: home, gameNumber: gameNumber)
            let postponed = !f[10].isEmpty && !f[11].isEmpty
            games.append(
                TestRecords.game(
                    id: id, date: date, away: away, home: home, stadium: "park-\(home)", number: gameNumber,
                    status: postponed ? .postponed : .scheduled, makeupDate: postponed ? LocalDate(iso8601: f[11]) : nil,
                    sourceIds: [source: "\(f[0])-\(f[3])-\(f[6])-\(f[1])"], lastModified: scrapedAt, source: source))
        }
        return games
    }

    /// The original (2,430 games) and COVID-revised (900 games) 2020 schedules as two batches of one
    /// system and scope, the revised one scraped later.
    static func season2020() throws -> [RecordBatch<Game>] {
        let original = T.instant("2020-03-01T00:00:00Z"), revised = T.instant("2020-07-10T00:00:00Z")
        return [
            T.batch(
                source: "retrosheet-2020-original", system: "retrosheet", scope: "mlb-2020", scrapedAt: original,
                games: try games(file: "2020ORIG.TXT", source: "retrosheet-2020-original", scrapedAt: original)),
            T.batch(
                source: "retrosheet-2020-revised", system: "retrosheet", scope: "mlb-2020", scrapedAt: revised,
                games: try games(file: "2020REV.TXT", source: "retrosheet-2020-revised", scrapedAt: revised)),
        ]
    }
}
