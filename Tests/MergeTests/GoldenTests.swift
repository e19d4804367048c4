import Foundation
import SportsTimeTestSupport
import SportsTimeCore
import Testing
@testable import SportsTimeMerge

/// Golden files: a small NFL week from two systems (a tie on scrape time, a rescrape that drops a
/// game, a conflict, a bad reference, overrides incl. an unmatched one) read from real artifact files,
/// merged, and every output compared byte for byte with `Fixtures/golden-nfl-week1/expected/`.
/// Re-record with `RECORD_GOLDENS=1` (the run then fails on purpose).
@Suite struct GoldenTests {
    static let caseFolder = TestPaths.fixtures.appendingPathComponent("golden-nfl-week1")

    /// The reference data of the case (the shared loader is not part of this stage's tests).
    static var reference: ReferenceData {
        let time = T.instant("2026-01-15T00:00:00Z")
        func stadium(_ id: String, _ name: String, _ city: String, _ region: String, _ lat: Double, _ lon: Double, _ zone: String)
            -> Stadium
        {
            TestRecords.stadium(
                id, name: name, city: city, region: region, latitude: lat, longitude: lon, timeZone: zone, lastModified: time)
        }
        func team(_ id: String, _ market: String, _ name: String, _ stadium: String) -> Team {
            TestRecords.team(id, market: market, name: name, homeStadiumId: stadium, lastModified: time)
        }
        let ufl = Sport(
            id: "ufl", abbreviation: "UFL", displayName: "United Football League", iconName: "football", colorHex: "#0a2240ff",
            seasonStartMonth: 3, seasonEndMonth: 6, isActive: true, isBuiltIn: false, lastModified: time, source: "reference")
        return ReferenceData(
            sports: BuiltInSport.allCases.map(\.sport) + [ufl],
            stadiums: [
                stadium(
                    "arrowhead-stadium", "GEHA Field at Arrowhead Stadium", "Kansas City", "MO", 39.048914, -94.484039, "America/Chicago"),
                stadium("empower-field", "Empower Field at Mile High", "Denver", "CO", 39.743936, -105.020097, "America/Denver"),
                stadium("ford-field", "Ford Field", "Detroit", "MI", 42.340156, -83.045808, "America/Detroit"),
                stadium("highmark-stadium", "Highmark Stadium", "Orchard Park", "NY", 42.773739, -78.786978, "America/New_York"),
                stadium("metlife-stadium", "MetLife Stadium", "East Rutherford", "NJ", 40.813528, -74.074361, "America/New_York"),
                stadium("nissan-stadium", "Nissan Stadium", "Nashville", "TN", 36.166461, -86.771289, "America/Chicago"),
            ],
            teams: [
                team("nfl-buf", "Buffalo", "Bills", "highmark-stadium"), team("nfl-den", "Denver", "Broncos", "empower-field"),
                team("nfl-det", "Detroit", "Lions", "ford-field"), team("nfl-kc", "Kansas City", "Chiefs", "arrowhead-stadium"),
                team("nfl-nyj", "New York", "Jets", "metlife-stadium"), team("nfl-ten", "Tennessee", "Titans", "nissan-stadium"),
            ],
            leagueStructures: [
                LeagueStructure(
                    id: "nfl-afc", sport: "nfl", level: .conference, name: "American Football Conference",
                    abbreviation: "AFC", displayOrder: 1, lastModified: time, source: "reference")
            ],
            teamAliases: [
                TeamAlias(
                    id: "nfl-nyj-name-any-new-york-jets", teamId: "nfl-nyj", kind: .fullName, value: "New York Jets",
                    lastModified: time, source: "reference")
            ],
            stadiumAliases: [
                StadiumAlias(
                    id: "highmark-stadium-bills-stadium", stadiumId: "highmark-stadium", name: "Bills Stadium",
                    validFrom: T.date("2020-01-01"), validUntil: T.date("2021-03-28"), lastModified: time, source: "reference")
            ])
    }

    @Test func nflWeek1() throws {
        let input = Self.caseFolder.appendingPathComponent("input")
        var batches: [RecordBatch<Game>] = []
        var hashes: [String: String] = [:]
        let gamesFolder = input.appendingPathComponent("normalize/games")
        for name in try FileManager.default.contentsOfDirectory(atPath: gamesFolder.path).sorted() where name.hasSuffix(".json") {
            let data = try Data(contentsOf: gamesFolder.appendingPathComponent(name))
            let path = "out/normalize/games/\(name)"
            hashes[path] = ArtifactFiles.sha256(data)
            batches.append(try BatchReader.gameBatchAndMeta(from: data, path: path).batch)
        }
        let overrideData = try Data(contentsOf: input.appendingPathComponent("overrides/nfl-2023.yaml"))
        hashes["fixtures/overrides/nfl-2023.yaml"] = ArtifactFiles.sha256(overrideData)
        let patches = try OverrideParser.parse(files: [("fixtures/overrides/nfl-2023.yaml", String(decoding: overrideData, as: UTF8.self))])
        let mergeInput = MergeInput(reference: Self.reference, gameBatches: batches, overrides: patches)
        let result = try Merger.merge(mergeInput)
        let files = try T.files(
            for: result, input: mergeInput, hashes: hashes,
            settings: mergeInput.settingsMeta { ArtifactFiles.sha256(Data($0.utf8)) })
        try Golden.assertFolderMatches(files.map { ($0.path, $0.data) }, expected: Self.caseFolder.appendingPathComponent("expected"))

        // What the golden files show, asserted so a re-record cannot silently change it.
        let games = result.store.games
        #expect(games["nfl-2023-2023-09-10-nyj-at-det"]?.deprecatedAt == T.instant("2023-09-06T12:00:00Z"))
        #expect(games["nfl-2023-2023-09-10-ten-at-buf"]?.deprecatedAt == nil) // nflverse still lists it
        #expect(games["nfl-2023-2023-09-10-ten-at-buf"]?.stadiumId == "highmark-stadium") // override over the tie winner
        #expect(games["nfl-2023-2023-09-07-det-at-kc"]?.status == .final)
        #expect(games["nfl-2023-2023-09-10-lv-at-den"] == nil)
        #expect(result.rejects.map(\.reason) == ["game 'nfl-2023-2023-09-10-lv-at-den': away team 'nfl-lv' is not a known team"])
        #expect(result.rejects.first?.line != nil)
        #expect(result.overrideOutcomes.map(\.status) == [.applied, .unmatched, .applied])
        #expect(result.store.sports["ufl"]?.colorHex == "#0A2240")
        #expect(result.countsAddUp)
    }
}
