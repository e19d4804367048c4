import Foundation
import SportsTimeCore
import Testing
@testable import SportsTimeRunner

/// `sportstime explain` on the committed merge outputs.
@Suite struct ExplainTests {
    let explainer = RecordExplainer(root: TestRepository.packageRoot)

    @Test func aGameFedByThreeNFLSourcesShowsEveryRowAndWhereEachPartCameFrom() throws {
        let text = try explainer.explain("nfl-2022-2022-09-08-buf-at-lar")
        #expect(text.hasPrefix("game nfl-2022-2022-09-08-buf-at-lar\n"))
        #expect(text.contains("rows (3), oldest first:"))
        for source in ["nfl-nflverse-2021-2022", "nfl-espn-2022-2023", "nfl-spreadspoke-2022-2025"] {
            #expect(text.contains("] \(source)"), "row of \(source)")
        }
        for file in [
            "fixtures/scraped/nfl-nflverse-2021-2022/games_slice_2021post_2022wk1-3.csv:",
            "fixtures/scraped/nfl-espn-2022-2023/games.csv:",
            "fixtures/scraped/nfl-spreadspoke-2022-2025/spreadspoke_scores.csv:",
        ] {
            #expect(text.contains("row   \(file)"), "\(file)")
        }
        for group in FieldGroup.allCases { #expect(text.contains("\n  \(group.rawValue) "), "field \(group.rawValue)") }
        #expect(text.contains("start   2022-09-09T00:20:00Z (exact)"))
    }

    @Test func aFormerIdFindsTheGameItBecame() throws {
        let text = try explainer.explain("nfl-2023-2024-01-07-hou-at-ind")
        #expect(text.hasPrefix("game nfl-2023-2024-01-06-hou-at-ind (asked as nfl-2023-2024-01-07-hou-at-ind, a former id)"))
        #expect(text.contains("date    2024-01-06  <- [0] nfl-nflverse-2023-wk18: trusted source for date (rank 2)"))
        #expect(text.contains("conflict dateMoved"))
    }

    @Test func teamsAndStadiumsShowTheirReferenceLines() throws {
        let text = try explainer.explain("mlb-bos")
        #expect(text.hasPrefix("team mlb-bos\n"))
        #expect(text.contains("fixtures/reference/teams.csv:"))
        #expect(text.contains("fixtures/reference/team-aliases.csv:"))
        let stadium = try explainer.explain("fenway-park")
        #expect(stadium.contains("fixtures/reference/stadiums.csv:") && stadium.contains("fixtures/reference/teams.csv:"))
    }

    @Test func anUnknownIdIsALocatedInputError() throws {
        do {
            _ = try explainer.explain("nfl-2023-2099-01-01-xxx-at-yyy")
            Issue.record("expected an error")
        } catch let error as PipelineError {
            #expect(error.exitCode == 2)
            #expect(
                error.description.hasPrefix("out/merge: error: no merged game, team or stadium has the id 'nfl-2023-2099-01-01-xxx-at-yyy'")
            )
        }
    }
}
