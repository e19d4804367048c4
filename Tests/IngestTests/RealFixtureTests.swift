import Foundation
import SportsTimeCore
@testable import SportsTimeIngest
import Testing

/// The real files of `fixtures/scraped/` through the repository's own `pipeline/sources.yaml`:
/// counts match the facts measured on them, and every row is accounted for.
@Suite struct RealFixtureTests {
    static let specText: String = {
        let url = TestSupport.packageRoot.appendingPathComponent("pipeline/sources.yaml")
        return (try? String(contentsOf: url, encoding: .utf8)) ?? ""
    }()

    static func result(_ id: String) throws -> IngestResult {
        try TestSupport.ingest(spec: specText, source: id, root: TestSupport.packageRoot)
    }

    static var sourceIds: [String] {
        ((try? SourceCatalog.load(text: specText, path: "pipeline/sources.yaml")) ?? []).map(\.id)
    }

    @Test func theSpecDeclaresEverySourceOfTheIssue() {
        #expect(
            Self.sourceIds == [
                "mlb-2023-retrosheet", "mlb-2020-retrosheet-original", "mlb-2020-retrosheet-revised",
                "nba-2025-26", "nhl-2025-26", "nhl-2023-24-corrupt", "nfl-nflverse-2021-2022",
                "nfl-nflverse-2023-wk18", "nfl-spreadspoke-2022-2025", "nfl-espn-2022-2023", "mls-2025", "wnba-2023-bbref",
                "ufl-2025-sample", "nba-2026-27", "nhl-2026-27", "nfl-2026", "nwsl-2026", "nwsl-2025", "wnba-2026",
            ])
    }

    @Test(arguments: sourceIds)
    func everyRowIsWrittenRejectedFilteredOrFolded(_ id: String) throws {
        let result = try Self.result(id)
        let c = result.counts
        #expect(c.read == c.written + c.rejected + c.filtered + c.folded)
        #expect(c.written == result.records.count && c.rejected == result.rejects.count)
        #expect(c.read > 0 && !result.exceedsThreshold)
        #expect(Set(result.records.map(\.id)).count == result.records.count)
        for reject in result.rejects {
            #expect(reject.file.hasPrefix("fixtures/scraped/\(id)/") && (reject.line ?? 0) > 0 && !reject.reason.isEmpty)
        }
        for record in result.records {
            #expect(record.id.hasPrefix("\(id):") && record.source == id)
            #expect(record.provenance.hasPrefix("fixtures/scraped/\(id)/"))
            #expect(record.startUTC != nil || record.localTime != nil || record.timeTBD)
        }
    }

    @Test func retrosheetSeasons() throws {
        let season2023 = try Self.result("mlb-2023-retrosheet")
        #expect(season2023.counts.read == 2430 && season2023.records.count == 2430)
        #expect(season2023.records.allSatisfy { $0.timeTBD && $0.dateZone == "venue" && $0.startUTC == nil })
        #expect(season2023.records.filter { $0.gameNumber != nil }.count == 6)
        #expect(season2023.records.filter { $0.dayNight == nil }.count == 3)
        #expect(season2023.records.contains { $0.homeTeam == "TBA" }, "TBA is the Tampa Bay Rays in Retrosheet, not a placeholder")
        let original = try Self.result("mlb-2020-retrosheet-original")
        #expect(original.records.count == 2430)
        let revised = try Self.result("mlb-2020-retrosheet-revised")
        #expect(revised.records.count == 900)
        #expect(revised.records.filter { $0.status == .postponed }.allSatisfy { $0.makeupDate != nil })
        #expect(revised.records.filter { $0.status == .cancelled }.count == 2)
        #expect(revised.records.filter { $0.venue == "Buffalo" }.count == 24)
        #expect(original.source.scope == "mlb-2020" && revised.source.scope == "mlb-2020")
        #expect(original.source.scrapedAt < revised.source.scrapedAt)
    }

    @Test func nbaSeasonUsesTipUTCAndRejectsPlaceholders() throws {
        let nba = try Self.result("nba-2025-26")
        let json = try JSONParser.parseNodes(
            String(
                decoding: try Data(
                    contentsOf: TestSupport.packageRoot
                        .appendingPathComponent("fixtures/scraped/nba-2025-26/nba_2025_26_schedule.json")), as: UTF8.self))
        #expect(json["regular_season_games"]?.text == "1207" && json["preseason_games"]?.text == "71")
        #expect(nba.counts.read == 1207 + 71)
        #expect(nba.records.filter { $0.kind == .preseason }.count == 71)
        #expect(nba.records.filter { $0.kind == .regular }.count + nba.rejects.count == 1207)
        #expect(nba.rejects.count == 7 && nba.rejects.allSatisfy { $0.reason == "blank home team" })
        let phoenixOpener = try #require(nba.records.first { $0.sourceGameId == "0012500001" })
        #expect(phoenixOpener.startUTC == Instant(iso8601: "2025-10-04T02:00:00Z"))
        #expect(phoenixOpener.awayTeam == "PHX (Suns)" && phoenixOpener.venue == "Acrisure Arena")
    }

    @Test func nhlSeasonCountsAndTheCorruptFile() throws {
        let nhl = try Self.result("nhl-2025-26")
        #expect(nhl.records.filter { $0.kind == .regular }.count == 1312)
        #expect(nhl.rejects.count == 7 && nhl.rejects.allSatisfy { $0.reason.contains("'TBD'") })
        let corrupt = try Self.result("nhl-2023-24-corrupt")
        #expect(corrupt.records.count == 1511 && corrupt.records.allSatisfy { $0.venue == "Honda Center" })
        #expect(corrupt.warnings.contains { $0.message.contains("venue 'Honda Center' is given for games of 32 different home teams") })
    }

    @Test func nflSources() throws {
        let spreadspoke = try Self.result("nfl-spreadspoke-2022-2025")
        let season2023 = spreadspoke.records.filter { $0.season == "2023" }
        #expect(season2023.filter { $0.kind == .regular }.count == 272)
        #expect(season2023.filter { $0.kind == .postseason }.count == 13)
        #expect(Set(season2023.compactMap(\.venue)).count == 33)
        #expect(season2023.filter { $0.neutralSite == true }.count == 6)
        let nflverse = try Self.result("nfl-nflverse-2021-2022")
        let superBowl = try #require(nflverse.records.first { $0.sourceGameId == "401326638" })
        #expect(superBowl.neutralSite == true && superBowl.season == "2021" && superBowl.kind == .postseason)
        #expect(superBowl.startUTC == Instant(iso8601: "2022-02-13T23:30:00Z"))
        let espn = try Self.result("nfl-espn-2022-2023")
        #expect(espn.records.count == 540)
        // A Sunday-night game: ESPN's date is the UTC date, so 2024-01-01 01:20 UTC is Dec 31 in Minneapolis.
        let late = try #require(espn.records.first { $0.sourceGameId == "401547637" })
        #expect(late.date == LocalDate(year: 2024, month: 1, day: 1) && late.dateZone == "UTC")
        #expect(late.startUTC == Instant(iso8601: "2024-01-01T01:20:00Z") && late.season == "2023")
    }

    @Test func mlsGamesAreOneRecordPerUID() throws {
        let mls = try Self.result("mls-2025")
        #expect(mls.records.filter { $0.kind == .regular }.count == 510)
        #expect(mls.counts.folded == mls.records.count, "every league game is in both teams' calendars")
        #expect(mls.records.allSatisfy { !$0.homeTeam.hasSuffix("*") && !$0.awayTeam.hasSuffix("*") && $0.venue != nil })
        #expect(mls.rejects.isEmpty)
    }

    @Test func wnbaAndTheHandMadeUFLSample() throws {
        let wnba = try Self.result("wnba-2023-bbref")
        #expect(wnba.records.count == 240 && wnba.records.allSatisfy { $0.venue == nil })
        #expect(wnba.records.filter { $0.status == .final }.count == 219)
        let ufl = try Self.result("ufl-2025-sample")
        #expect(ufl.records.count == 16 && ufl.source.sport == "ufl")
        #expect(ufl.records.allSatisfy { $0.dateZone == "venue" && $0.localTime != nil && $0.venue != nil })
        var homes: [String: Int] = [:]
        for r in ufl.records { homes[r.homeTeam, default: 0] += 1 }
        #expect(homes.count == 8 && homes.values.allSatisfy { $0 == 2 })
    }

    /// The ESPN and NBA sources are written in `pipeline/sources.yaml` as plain `csv-mapping` /
    /// `json-mapping`; they must give exactly what the built-in formats give.
    @Test(arguments: [("nfl-espn-2022-2023", SourceFormat.espnCSV), ("nba-2025-26", SourceFormat.nbaScheduleJSON)])
    func yamlMappingsEqualTheBuiltInFormats(_ id: String, _ format: SourceFormat) throws {
        let configs = try SourceCatalog.load(text: Self.specText, path: "pipeline/sources.yaml")
        var config = try #require(configs.first { $0.id == id })
        #expect(config.format.isGeneric)
        let byYAML = try TestSupport.ingest(config, root: TestSupport.packageRoot)
        config.format = format
        config.mapping = try BuiltInFormats.preset(for: format)
        let builtIn = try TestSupport.ingest(config, root: TestSupport.packageRoot)
        #expect(byYAML.records == builtIn.records)
        #expect(byYAML.rejects == builtIn.rejects)
        #expect(byYAML.records.count > 500)
    }

    @Test func inputFileOrderDoesNotChangeTheOutput() throws {
        let configs = try SourceCatalog.load(text: Self.specText, path: "pipeline/sources.yaml")
        let config = try #require(configs.first { $0.id == "mls-2025" })
        let folder = TestSupport.packageRoot.appendingPathComponent("fixtures/scraped/mls-2025")
        let names = try config.dataFiles(
            in: ArtifactFiles.files(under: folder, suffix: "").map { ArtifactFiles.relativePath(of: $0, to: folder) })
        let files = try names.map {
            LoadedFile(path: "fixtures/scraped/mls-2025/\($0)", name: $0, data: try Data(contentsOf: folder.appendingPathComponent($0)))
        }
        let forward = try Ingester.ingest(config, files: files)
        let backward = try Ingester.ingest(config, files: files.reversed())
        #expect(try forward.gamesData() == backward.gamesData())
        #expect(forward.rejectsData() == backward.rejectsData())
    }
}
