import Foundation
import SportsTimeCore
@testable import SportsTimeIngest
import Testing

/// The derived-field expression language: parsing (precedence, strictness), evaluation, and how a
/// mapping uses it (located errors in sources.yaml, rejects for rows it cannot evaluate).
@Suite struct ExpressionTests {
    /// Evaluates `text` on a row given as column → value.
    func eval(_ text: String, _ row: [String: String] = [:], zone: String? = nil) throws -> MappingExpression.Value {
        let e = try MappingExpression.parse(text)
        let context = MappingExpression.Context(zone: zone.flatMap(ZonedTime.zone))
        return try e.evaluate(context) { row[e.columns[$0].name] }
    }

    func syntaxError(_ text: String) -> MappingExpression.SyntaxError? {
        do { _ = try MappingExpression.parse(text); return nil } catch let e as MappingExpression.SyntaxError { return e } catch {
            return nil
        }
    }

    @Test func precedenceAndBeforeOrNotBindsTighterThanAnd() throws {
        // and binds tighter than or: true or (false and false) = true; (true or false) and false would be false.
        #expect(try eval("a == 1 or a == 2 and a == 3", ["a": "1"]) == .bool(true))
        #expect(try eval("(a == 1 or a == 2) and a == 3", ["a": "1"]) == .bool(false))
        // not binds looser than a comparison and tighter than and.
        #expect(try eval("not a == 1 and b == 2", ["a": "5", "b": "2"]) == .bool(true))
        #expect(try eval("not (a == 1 and b == 2)", ["a": "1", "b": "2"]) == .bool(false))
        // + and - bind tighter than comparisons, left to right.
        #expect(try eval("10 - 3 - 2 == 5") == .bool(true))
        #expect(try eval("year(d) - 1", ["d": "2023-01-15"]) == .number(2022))
    }

    @Test func theIssuesExampleSeasonTypeFromWeekAndMonth() throws {
        let rule = "week <= 5 and month(gameday) in [1, 2]"
        #expect(try eval(rule, ["week": "1", "gameday": "2023-01-14"]) == .bool(true))
        #expect(try eval(rule, ["week": "18", "gameday": "2023-01-08"]) == .bool(false))
        #expect(try eval(rule, ["week": "1", "gameday": "2022-09-11"]) == .bool(false))
        #expect(try eval(rule, ["week": "5", "gameday": "2/12/2023"]) == .bool(true))
    }

    @Test func comparisonsAreNumericWhenEitherSideIsANumberElseText() throws {
        #expect(try eval("week == 5", ["week": "05"]) == .bool(true)) // numeric
        #expect(try eval("week == '5'", ["week": "05"]) == .bool(false)) // text
        #expect(try eval("week == 5", ["week": "WC"]) == .bool(false)) // not a number: not equal
        #expect(try eval("week != 5", ["week": "WC"]) == .bool(true))
        #expect(try eval("week in [19, 20]", ["week": "20"]) == .bool(true))
        #expect(try eval("game_type not in ['REG']", ["game_type": "WC"]) == .bool(true))
        #expect(try eval("lower(t) == 'wc'", ["t": " WC "]) == .bool(true))
        #expect(try eval("d >= '2024-01-01'", ["d": "2024-02-01"]) == .bool(true))
        // Ordering a text that is not a number against a number is an error, not a silent false.
        #expect(throws: MappingExpression.EvaluationError(message: "week 'Wildcard' is not a number")) {
            try eval("week <= 5", ["week": "Wildcard"])
        }
        // ... and `and` stops early, so a guard protects it.
        #expect(try eval("week != 'Wildcard' and week <= 5", ["week": "Wildcard"]) == .bool(false))
    }

    @Test func dateFunctions() throws {
        let row = ["d": "2023-03-30", "t": "7:05 PM", "i": "2022-09-09T00:20:00Z", "r": "20220604"]
        #expect(try eval("month(d)", row) == .number(3))
        #expect(try eval("day(d)", row) == .number(30))
        #expect(try eval("weekday(d)", row) == .number(4)) // Thursday, ISO 1 = Monday
        #expect(try eval("weekday(r)", row) == .number(6)) // yyyyMMdd by default: a Saturday
        #expect(try eval("hour(t, 'h:mm a')", row) == .number(19))
        // An instant is read on the source zone's wall clock: 00:20Z is 20:20 the day before in New York.
        #expect(try eval("hour(i)", row, zone: "America/New_York") == .number(20))
        #expect(try eval("day(i)", row, zone: "America/New_York") == .number(8))
        #expect(try eval("hour(i)", row) == .number(0))
        #expect(throws: MappingExpression.EvaluationError(message: "month(): d '2023-13-45' does not fit the layouts yyyy-MM-dd")) {
            try eval("month(d, 'yyyy-MM-dd')", ["d": "2023-13-45"])
        }
        #expect(throws: MappingExpression.EvaluationError(message: "month(): d is empty")) { try eval("month(d)", [:]) }
    }

    @Test func valuesAndFunctions() throws {
        #expect(try eval("if(dh == 'S', 2, 1)", ["dh": "S"]).fieldText == "2")
        #expect(try eval("if(dh == 'S', 2, 1)", ["dh": ""]).fieldText == "1")
        #expect(try eval("site == 'N'", ["site": "N"]).fieldText == "true")
        #expect(try eval("empty(notes)", ["notes": "  "]) == .bool(true))
        #expect(try eval("contains(upper(notes), 'POSTPONED')", ["notes": "Postponed (rain)"]) == .bool(true))
        #expect(try eval("trim(`Game Day`)", ["Game Day": " Sat "]) == .text("Sat"))
        #expect(try eval("seasonDates.week + 0.5", ["seasonDates.week": "3"]).fieldText == "3.5")
        #expect(try eval("-2 < x", ["x": "-1"]) == .bool(true))
        #expect(try eval("'it\\'s' == x", ["x": "it's"]) == .bool(true))
    }

    @Test func columnsAreListedInOrderWithOffsets() throws {
        let e = try MappingExpression.parse("week <= 5 and month(gameday) in [1, 2] and week > 0")
        #expect(e.columns.map(\.name) == ["week", "gameday"])
        #expect(e.columns.map(\.offset) == [0, 20])
        #expect(e.type == .condition)
    }

    @Test func strictSyntaxErrorsSayWhereAndWhatToDo() {
        let unknownFunction = syntaxError("mnth(gameday) == 1")
        #expect(unknownFunction?.message == "unknown function 'mnth'")
        #expect(unknownFunction?.offset == 0)
        #expect(unknownFunction?.fix.hasPrefix("Did you mean month()?") == true)
        #expect(syntaxError("week = 5")?.message == "unknown operator '='")
        #expect(syntaxError("week = 5")?.fix == "Write ==")
        #expect(syntaxError("a == 1 && b == 2")?.offset == 7)
        #expect(syntaxError("a < b < c")?.message.hasPrefix("comparisons cannot be chained") == true)
        #expect(syntaxError("week and month(d) == 1")?.message == "'and' joins conditions, but this side is a text")
        #expect(syntaxError("(week == 1")?.message.hasPrefix("expected ')'") == true)
        #expect(syntaxError("week in 1, 2")?.message.hasPrefix("'in' needs a list in brackets") == true)
        #expect(syntaxError("month()")?.message == "month() takes 1 or more arguments, not 0")
        #expect(syntaxError("month(d, yyyy)")?.message == "month(): the arguments after the first are layouts in quotes")
        #expect(syntaxError("hour(t, 'yyyy-MM-dd')")?.message == "hour(): layout 'yyyy-MM-dd' has no hour")
        #expect(syntaxError("if(a, 1, 2)")?.message.hasPrefix("if(): the first argument must be a condition") == true)
        #expect(syntaxError("'open")?.message == "a quoted text is not closed")
        #expect(syntaxError("a == 1 b")?.message == "unexpected 'b' after a complete expression")
        #expect(syntaxError("week # 5")?.offset == 5)
    }

    // MARK: - In a mapping

    static let rows = """
        week,gameday,kick,home,away
        1,2023-01-14,1/14/2023,BUF,MIA
        18,2023-01-08,1/8/2023,BUF,NE
        1,2022-09-11,9/11/2022,ATL,NO
        1,2022-09-11,TBD,KC,LV
        """

    static func spec(kind: String) -> String {
        TestSupport.csvSpec(
            """
            fields:
              date: {from: gameday, layout: yyyy-MM-dd}
              homeTeam: home
              awayTeam: away
            \(kind)
            """, season: "2022")
    }

    @Test func casesDeriveTheKindAndARowThatCannotBeEvaluatedIsARejectWithItsReason() throws {
        let spec = Self.spec(
            kind: """
                  kind:
                    cases:
                      - {when: "week <= 5 and month(kick, 'M/d/yyyy') in [1, 2]", value: postseason}
                    default: regular
                """)
        let result = try TestSupport.ingest(spec: spec, files: ["g.csv": Data(Self.rows.utf8)])
        #expect(result.records.map(\.id) == ["test:2022-09-11-no-at-atl", "test:2023-01-08-ne-at-buf", "test:2023-01-14-mia-at-buf"])
        #expect(result.records.map(\.kind) == [.regular, .regular, .postseason])
        #expect(result.records.allSatisfy { $0.inferred == [.status] }) // a derived kind is stated, not inferred
        #expect(
            result.rejects == [
                Reject(
                    file: "fixtures/scraped/test/g.csv", line: 5,
                    reason:
                        "fields.kind.cases[0].when: month(): kick 'TBD' does not fit the layouts M/d/yyyy (in 'week <= 5 and month(kick, 'M/d/yyyy') in [1, 2]')",
                    raw: "1,2022-09-11,TBD,KC,LV")
            ])
        #expect(result.counts.balances && result.counts.read == 4)
    }

    @Test func anUnknownColumnIsLocatedInTheSpecWithTheFilesColumnsAndTheNearestSpelling() throws {
        let spec = Self.spec(
            kind: """
                  kind:
                    cases:
                      - {when: "wek <= 5", value: postseason}
                """)
        do {
            _ = try TestSupport.ingest(spec: spec, files: ["g.csv": Data(Self.rows.utf8)])
            Issue.record("expected an error")
        } catch let error as PipelineError {
            let text = error.diagnostics.map(\.description).joined(separator: "\n")
            let line = spec.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.contains("wek <= 5") }! + 1
            let lineText = String(spec.split(separator: "\n", omittingEmptySubsequences: false)[line - 1])
            let column = try #require(lineText.range(of: "wek")).lowerBound.utf16Offset(in: lineText) + 1
            #expect(
                text.hasPrefix(
                    "sources.yaml:\(line):\(column): error: source 'test': fields.kind.cases[0].when reads column 'wek', which fixtures/scraped/test/g.csv does not have (columns: week, gameday, kick, home, away)"
                ), "\(text)")
            #expect(text.contains("Did you mean week?"))
            #expect(error.exitCode == 2)
        }
    }

    /// Also in a sources.yaml saved with CRLF line ends: the same line and column.
    @Test(arguments: ["\n", "\r\n"])
    func aSyntaxErrorIsLocatedAtItsCharacterInSourcesYAML(lineEnd: String) throws {
        let spec = Self.spec(
            kind: """
                  kind: {cases: [{when: "week <= 5 and mnth(gameday) == 1", value: postseason}]}
                """)
        do {
            _ = try SourceCatalog.load(text: spec.replacingOccurrences(of: "\n", with: lineEnd), path: "pipeline/sources.yaml")
            Issue.record("expected an error")
        } catch let error as PipelineError {
            let lines = spec.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            let line = try #require(lines.firstIndex { $0.contains("mnth") }) + 1
            let column = try #require(lines[line - 1].range(of: "mnth")).lowerBound.utf16Offset(in: lines[line - 1]) + 1
            #expect(
                error.diagnostics.map(\.description) == [
                    "pipeline/sources.yaml:\(line):\(column): error: source 'test': fields.kind.cases[0].when: unknown function 'mnth'. Did you mean month()? Use one of: month(), day(), year(), weekday(), hour(), lower(), upper(), trim(), empty(), contains(), if()."
                ])
        }
    }

    @Test func aFieldTakesExactlyOneValueSourceAndCaseValuesAreChecked() throws {
        let spec = Self.spec(
            kind: """
                  kind: {from: week, cases: [{when: "week <= 5", value: playoffs}]}
                  status: {cases: [{when: "week", value: final}]}
                """)
        do {
            _ = try SourceCatalog.load(text: spec, path: "s.yaml")
            Issue.record("expected an error")
        } catch let error as PipelineError {
            let text = error.diagnostics.map(\.description).joined(separator: "\n")
            #expect(text.contains("fields.kind needs exactly one of from, constant, expr and cases"))
            #expect(text.contains("fields.kind maps to 'playoffs', which is not one of preseason, regular, postseason, exhibition"))
            #expect(text.contains("fields.status.cases[0].when is a text, not a condition"))
        }
    }
}
