import Foundation
import SportsTimeCore
@testable import SportsTimeIngest
import Testing

/// `pipeline/sources.yaml` is decoded strictly and every problem names its YAML line.
@Suite struct ConfigTests {
    static let valid = """
        sources:
          - id: a
            sport: mlb
            season: "2023"
            system: retrosheet
            files: [2023SKED.TXT]
            format: retrosheet
            scrapedAt: "2023-03-01T00:00:00Z"
            naiveTimeZone: venue
            rejectThreshold: "1%"
            priority: 5
        """

    /// The problems of loading `text` (all its sources, or those in `only`).
    func problems(_ text: String, only: Set<String>? = nil) -> [Diagnostic] {
        do {
            _ = try SourceCatalog.load(text: text, path: "pipeline/sources.yaml", only: only)
            return []
        } catch let error as PipelineError {
            #expect(error.exitCode == 2)
            return error.diagnostics
        } catch {
            Issue.record("unexpected error \(error)")
            return []
        }
    }

    @Test func validSourceLoadsWithDefaults() throws {
        let config = try #require(try SourceCatalog.load(text: Self.valid, path: "s.yaml").first)
        #expect(config.scope == "mlb-2023")
        #expect(config.rejectThreshold == .fraction(0.01))
        #expect(config.naiveTimeZone == .venue)
        #expect(config.placeholderTeams.isEmpty)
        #expect(
            config.meta == [
                .source: "a", .system: "retrosheet", .sport: "mlb", .season: "2023", .scope: "mlb-2023",
                .scrapedAt: "2023-03-01T00:00:00Z", .priority: "5", .rejectThreshold: "0.01",
            ])
        #expect(RejectThreshold(config.meta[.rejectThreshold]!) == config.rejectThreshold)
        #expect(RejectThreshold(RejectThreshold.count(5).metaValue) == .count(5))
        #expect(RejectThreshold(RejectThreshold.fraction(0).metaValue) == .fraction(0))
        #expect(config.location.line == 2)
    }

    /// An ingest of some sources decodes and checks only their entries: another entry's bad settings
    /// neither cost it nor stop it (that source's own stage reports them), and a chosen entry's problems
    /// and location are those of the whole spec.
    @Test func chosenSourcesAreDecodedAloneAndLocatedInTheWholeSpec() throws {
        let broken = Self.valid.replacingOccurrences(of: "format: retrosheet", with: "format: retrosheeet")
            .replacingOccurrences(of: "files: [2023SKED.TXT]", with: "files: [2023SKED.TXT]\n    colour: red")
        let b = Self.valid.replacingOccurrences(of: "sources:\n", with: "").replacingOccurrences(of: "id: a", with: "id: b")
        let text = broken + "\n" + b
        let chosen = try SourceCatalog.load(text: text, path: "s.yaml", only: ["b"])
        #expect(chosen.configs.map(\.id) == ["b"] && chosen.declared == ["a", "b"])
        #expect(chosen.configs.first?.location.line == 13)
        let whole = problems(text).map(\.description)
        #expect(whole.count == 1 && whole[0].contains("colour"))
        #expect(problems(text, only: ["a"]).map(\.description) == whole)
        let typo = Self.valid.replacingOccurrences(of: "format: retrosheet", with: "format: retrosheeet") + "\n" + b
        #expect(try SourceCatalog.load(text: typo, path: "s.yaml", only: ["b"]).configs.count == 1)
        let typoProblems = problems(typo).map(\.description)
        #expect(typoProblems.count == 1 && typoProblems[0].hasPrefix("pipeline/sources.yaml:7:"))
        #expect(problems(typo, only: ["a"]).map(\.description) == typoProblems)
        // An entry without a readable id is always decoded, so its problem is reported.
        #expect(throws: PipelineError.self) {
            let unnamed = Self.valid.replacingOccurrences(of: "id: a", with: "id: [a]").replacingOccurrences(of: "sources:\n", with: "")
            _ = try SourceCatalog.load(text: "sources:\n" + b + "\n" + unnamed, path: "s.yaml", only: ["b"])
        }
    }

    @Test func allowShrinkReasonTravelsInTheBatchMeta() throws {
        let text = Self.valid + "\n    allowShrink: {reason: \"The league cancelled the last two weeks.\"}"
        let config = try #require(try SourceCatalog.load(text: text, path: "s.yaml").first)
        #expect(config.allowShrinkReason == "The league cancelled the last two weeks.")
        #expect(config.meta[.allowShrink] == "The league cancelled the last two weeks.")
        let empty = problems(Self.valid + "\n    allowShrink: {reason: \" \"}")
        #expect(
            empty.map(\.description) == [
                "pipeline/sources.yaml:12:27: error: source 'a': allowShrink.reason is empty. Say why the source may list fewer games than merge published (or remove allowShrink)."
            ])
        #expect(problems(Self.valid + "\n    allowShrink: {because: x}").first?.message.contains("missing key 'reason'") == true)
    }

    @Test func unknownKeyIsAnErrorWithItsLine() {
        let found = problems(Self.valid + "\n    colour: red")
        #expect(found.count == 1)
        #expect(found.first?.location?.line == 12)
        #expect(found.first?.message.contains("unknown key 'colour'") == true)
    }

    @Test func badValuesAreAllReportedWithTheirLines() {
        let text = Self.valid
            .replacingOccurrences(of: "season: \"2023\"", with: "season: \"2023-25\"")
            .replacingOccurrences(of: "naiveTimeZone: venue", with: "naiveTimeZone: Europe/Frankfurt")
            .replacingOccurrences(of: "rejectThreshold: \"1%\"", with: "rejectThreshold: lots")
            .replacingOccurrences(of: "format: retrosheet", with: "format: excel")
            .replacingOccurrences(of: "scrapedAt: \"2023-03-01T00:00:00Z\"", with: "scrapedAt: yesterday")
        let found = problems(text)
        #expect(found.map { $0.location?.line ?? 0 } == [4, 7, 8, 9, 10])
        #expect(found.allSatisfy { $0.description.hasPrefix("pipeline/sources.yaml:") })
    }

    @Test func duplicateIdsAndMissingMappings() {
        let generic = Self.valid.replacingOccurrences(of: "format: retrosheet", with: "format: csv-mapping")
        #expect(problems(generic).contains { $0.message.contains("needs a mapping") })
        let twice = Self.valid + "\n" + Self.valid.replacingOccurrences(of: "sources:\n", with: "")
        #expect(problems(twice).contains { $0.message.contains("declared twice") })
    }

    @Test func seasonRangeNeedsARowSeason() {
        let text = Self.valid.replacingOccurrences(of: "\"2023\"", with: "2022..2023")
            .replacingOccurrences(of: "format: retrosheet", with: "format: bbref-csv")
        #expect(problems(text).contains { $0.message.contains("is a range but the rows' season is not mapped") })
    }

    @Test func mappingChecksFieldsLayoutsAndFilters() {
        let text = """
            sources:
              - id: b
                sport: xfl
                season: "2025"
                system: x
                files: [a.csv]
                format: csv-mapping
                scrapedAt: "2025-01-01T00:00:00Z"
                naiveTimeZone: UTC
                rejectThreshold: "0"
                priority: 1
                filters:
                  - {column: c, equals: "1", notEquals: "2"}
                mapping:
                  records: games
                  fields:
                    homeTeam: {from: h, constant: X}
                    date: {from: d, layout: "yyyy-QQ"}
                    kind: {from: k, values: {A: playoffs}}
                    venue: {from: v, layout: yyyy}
            """
        let messages = problems(text).map(\.message)
        #expect(messages.contains { $0.contains("no awayTeam") })
        #expect(messages.contains { $0.contains("fields.homeTeam needs exactly one of from, constant, expr and cases") })
        #expect(messages.contains { $0.contains("'QQ' in layout") })
        #expect(messages.contains { $0.contains("maps to 'playoffs'") })
        #expect(messages.contains { $0.contains("only start, date, time and makeupDate read layouts") })
        #expect(messages.contains { $0.contains("mapping.records applies to JSON sources only") })
        #expect(messages.contains { $0.contains("needs exactly one of equals") })
    }

    @Test(arguments: SourceFormat.allCases.filter { !$0.isGeneric })
    func everyBuiltInPresetDecodesStrictlyAndPassesTheChecks(_ format: SourceFormat) throws {
        let preset = try BuiltInFormats.preset(for: format)
        #expect(MappingCheck.problems(in: preset, format: format, filters: []).map(\.message) == [])
    }

    @Test func quotedKeysThatLookLikeNumbersOrBooleansAreFound() throws {
        let text =
            Self.valid.replacingOccurrences(of: "format: retrosheet", with: "format: csv-mapping") + """

                    mapping:
                      fields:
                        date: d
                        homeTeam: h
                        awayTeam: a
                        kind: {from: k, values: {"1": preseason, "TRUE": postseason, yes: regular}}
                """
        let config = try #require(try SourceCatalog.load(text: text, path: "s.yaml").first)
        #expect(config.mapping.fields?.kind?.values == ["1": "preseason", "TRUE": "postseason", "yes": "regular"])
    }

    @Test func thresholds() {
        #expect(RejectThreshold("5") == .count(5))
        #expect(RejectThreshold("0.02") == .fraction(0.02))
        #expect(RejectThreshold("2%") == .fraction(0.02))
        #expect(RejectThreshold("1.5") == nil)
        #expect(RejectThreshold("-1") == nil)
        #expect(RejectThreshold.count(2).isExceeded(rejected: 3, candidates: 100))
        #expect(!RejectThreshold.count(2).isExceeded(rejected: 2, candidates: 100))
        #expect(RejectThreshold.fraction(0.01).isExceeded(rejected: 2, candidates: 100))
        #expect(!RejectThreshold.fraction(0.01).isExceeded(rejected: 1, candidates: 100))
    }
}
