import Foundation
import SportsTimeCore
import struct SportsTimeTestSupport.SplitMix64
@testable import SportsTimeIngest
import Testing

/// Unit tests of the readers' format rules.
@Suite struct ReaderTests {
    // MARK: Retrosheet notes

    typealias Notes = RetrosheetTable.Notes
    let day = LocalDate(year: 2020, month: 7, day: 29)!

    @Test func retrosheetPostponedToTheLastMakeupDate() {
        let notes = Notes(date: day, postponement: "Boycott (racial justice); (Game2)", makeup: "20200828; 20200829")
        #expect(notes.status == .postponed)
        #expect(notes.makeupDate == LocalDate(year: 2020, month: 8, day: 29))
        #expect(notes.playedAt == nil)
    }

    @Test func retrosheetMakeupWithoutReasonIsStillAPostponement() {
        let notes = Notes(date: LocalDate(year: 2022, month: 10, day: 3), postponement: "", makeup: "20221004")
        #expect(notes.status == .postponed)
        #expect(notes.makeupDate == LocalDate(year: 2022, month: 10, day: 4))
    }

    @Test func retrosheetGameNeverMadeUpIsCancelled() {
        let notes = Notes(
            date: day, postponement: "Covid; Rescheduled for Aug 13 (Game1) but No makeup played (Covid)",
            makeup: "20200813 [game was not played]")
        #expect(notes.status == .cancelled)
        #expect(notes.makeupDate == nil)
        #expect(Notes(date: day, postponement: "Rain", makeup: "").status == .cancelled)
    }

    @Test func retrosheetPlayedElsewhereOnItsOwnDateKeepsTheGameAndNamesThePlace() {
        let moved = Notes(date: day, postponement: "Played at WAS due to Buffalo stadium not ready", makeup: "20200729")
        #expect(moved.status == .scheduled)
        #expect(moved.makeupDate == nil)
        #expect(moved.playedAt == "WAS")
        let buffalo = Notes(date: day, postponement: "Played at Buffalo", makeup: "20200729")
        #expect(buffalo.playedAt == "Buffalo")
        let smoke = Notes(date: day, postponement: "Played at SFN due to wildfire smoke in SEA; SEA batted last", makeup: "20200729")
        #expect(smoke.playedAt == "SFN")
    }

    @Test func retrosheetNoteAboutBattingOrderOnlyIsNotAPostponement() {
        let notes = Notes(
            date: day, postponement: "OAK batted last (Game 1); game scheduled at OAK in original pre-lockout schedule", makeup: "")
        #expect(notes.status == .scheduled)
        #expect(notes.playedAt == nil)
    }

    @Test func retrosheetPlayedAtOfAPostponedGameIsTheMakeupsPlaceNotTheGames() {
        let notes = Notes(date: day, postponement: "Covid; Played at BAL; MIA batted last (Game2)", makeup: "20200805")
        #expect(notes.status == .postponed)
        #expect(notes.playedAt == nil)
    }

    @Test func retrosheetRowWithWrongColumnCountIsRejected() {
        let table = RetrosheetTable.read(
            Data(utf8: "\"20230330\",\"0\",\"Thu\",\"BAL\",\"AL\",1,\"BOS\",\"AL\",1,\"d\",\"\",\"\"\r\n\"20230330\",\"0\",\"Thu\"\r\n"),
            path: "x.TXT")
        #expect(table.rows.count == 1)
        #expect(table.rowRejects.map(\.line) == [2])
    }

    /// The real rows of `2022SKED.TXT` (lines 452–453; Retrosheet notice in fixtures/scraped/*/README.mirror.md):
    /// both 2022-05-10 OAK at DET games say game number 0; the visitor's game numbers (30, 31) order them.
    @Test func anUnnumberedDoubleheaderIsNumberedByTheTeamsGameNumbers() throws {
        let rows = """
            "20220510","0","Tue","OAK","AL",31,"DET","AL",31,"d","",""
            "20220510","0","Tue","OAK","AL",30,"DET","AL",30,"d","OAK batted last (Game 1); game scheduled at OAK in original pre-lockout schedule",""
            "20220510","0","Tue","BAL","AL",30,"SLN","NL",30,"n","",""

            """
        let table = RetrosheetTable.read(Data(utf8: rows), path: "2022SKED.TXT")
        #expect(table.rows.map { $0.cells[1] } == ["2", "1", "0"])
        let spec = """
            sources:
              - id: mlb-2022
                sport: mlb
                season: "2022"
                system: retrosheet
                files: [2022SKED.TXT]
                format: retrosheet
                scrapedAt: "2022-03-01T00:00:00Z"
                naiveTimeZone: venue
                rejectThreshold: "0"
                priority: 50
            """
        let result = try TestSupport.ingest(spec: spec, files: ["2022SKED.TXT": Data(utf8: rows)])
        #expect(result.rejects.isEmpty)
        #expect(result.records.map(\.gameNumber).sorted { ($0 ?? 0) < ($1 ?? 0) } == [nil, 1, 2])
    }

    // MARK: iCalendar

    @Test func summaryOrderDependsOnTheSeparator() {
        #expect(ICalendarTable.teams(in: "Atlanta United* vs. CF Montreal") == ("Atlanta United", "CF Montreal"))
        #expect(ICalendarTable.teams(in: "Austin FC vs Nashville SC*") == ("Austin FC", "Nashville SC"))
        #expect(ICalendarTable.teams(in: "Seattle @ Portland") == ("Portland", "Seattle"))
        #expect(ICalendarTable.teams(in: "Seattle at Portland") == ("Portland", "Seattle"))
        #expect(ICalendarTable.teams(in: "Season opener party") == ("", ""))
        #expect(ICalendarTable.teams(in: "İstanbul BB VS. Fenerbahçe") == ("İstanbul BB", "Fenerbahçe"))
    }

    /// Stripping white space and punctuation from the ends of ASCII text byte by byte gives what the
    /// rule gives scalar by scalar: every ASCII character alone and around a word, and mixed ends.
    @Test func asciiNamesAreStrippedLikeAnyText() {
        func byScalars(_ text: String) -> String {
            var scalars = text.unicodeScalars[...]
            while let s = scalars.first, RowMapper.isEdge(s) { scalars = scalars.dropFirst() }
            while let s = scalars.last, RowMapper.isEdge(s) { scalars = scalars.dropLast() }
            return String(String.UnicodeScalarView(scalars))
        }
        var texts = ["", "tbd", " (TBD). ", "_x_", "$5$", "-TBD-", "~x~", "\t\n x \r", "[?] {winner} <a>", "a+b"]
        for byte in UInt8(0)..<128 {
            let c = String(Unicode.Scalar(byte))
            texts += [c, c + "x" + c, "x" + c, c + c + "tbd" + c]
        }
        for text in texts { #expect(RowMapper.strippedOfPunctuation(text) == byScalars(text), "\(text.debugDescription)") }
        #expect(RowMapper.strippedOfPunctuation("«Montréal»") == "Montréal")
    }

    /// The byte-wise split of ASCII descriptions gives what a split at newline characters gives.
    @Test func descriptionLinesSplitAtEveryNewline() {
        let texts = [
            "", "one", "a\nb", "a\r\nb\r\n", "\n\na\r\rb\u{0B}c\u{0C}d\n", "MLS - Regular Season\nAtlanta United 3 - CF Montreal 2",
            "Montréal\u{2028}Toronto\u{85}x\r\ny", "  padded \n\t tabbed ",
        ]
        for text in texts { #expect(ICalendarTable.lines(of: text) == text.split(whereSeparator: \.isNewline), "\(text.debugDescription)") }
    }

    @Test func resultLines() {
        #expect(ICalendarTable.isResult("Atlanta United 3 - CF Montreal 2"))
        #expect(ICalendarTable.isResult("San Jose Earthquakes 2 (penalties: 2) - Austin FC 2 (penalties: 4)"))
        #expect(!ICalendarTable.isResult("MLS - Regular Season"))
        #expect(!ICalendarTable.isResult("Portland Timbers vs. San Diego FC"))
        #expect(ICalendarTable.isResult("Club Atlético 1 - Montréal 0"))
        // A dash that a combining mark joins to the space after it is not the separator.
        #expect(!ICalendarTable.isResult("Austin 1 -\u{301} Dallas 2"))
        #expect(ICalendarTable.firstRange(of: " - ", in: "a - b").map { "a - b"[$0] } == " - ")
    }

    /// The ASCII paths of unescaping and property splitting give what the character-wise ones give.
    @Test func textValuesAndPropertiesReadTheSameInAnyText() {
        #expect(ICalendarText.unescape(#"a\,b\;c\nd\Ne\\f\"#) == "a,b;c\nd\ne\\f\\")
        #expect(ICalendarText.unescape(#"Montr\,éal\n"#) == "Montr,éal\n")
        #expect(ICalendarText.unescape("plain") == "plain")
        for content in [
            #"DTSTART;TZID="America/New_York:x";VALUE=DATE-TIME:20250301T190000"#,
            #"SUMMARY;LANGUAGE=fr:Montréal vs. Toronto"#, "LOCATION:Stade, Montréal", "X-NO-COLON",
        ] {
            let property = ICalendarTable.parseProperty(content)
            let accented = ICalendarTable.parseProperty(content + "é")
            #expect(property?.name == accented?.name && property?.params == accented?.params)
            #expect(property.map { $0.value + "é" } == accented?.value)
        }
        let dtstart = ICalendarTable.parseProperty(#"DTSTART;TZID="America/New_York:x";VALUE=DATE-TIME:20250301T190000"#)
        #expect(
            dtstart?.name == "DTSTART" && dtstart?.params == ["TZID": "America/New_York:x", "VALUE": "DATE-TIME"]
                && dtstart?.value == "20250301T190000")
    }

    /// The byte-wise readings of ASCII text give what the character-wise readings give: unescaping (the
    /// same text after an accent takes the character-wise path) and result lines, for text made of the
    /// bytes that matter to them.
    @Test func asciiTextReadsAsCharacterWiseText() {
        var random = SplitMix64(seed: 5)
        func text(_ alphabet: [String], _ length: ClosedRange<Int>) -> String {
            (0..<Int.random(in: length, using: &random)).map { _ in alphabet.randomElement(using: &random)! }.joined()
        }
        for _ in 0..<3000 {
            let escaped = text(["a", "\\", "n", "N", ",", ";", " ", "\r\n", "\n"], 0...16)
            #expect("é" + ICalendarText.unescape(escaped) == ICalendarText.unescape("é" + escaped), "\(escaped.debugDescription)")
            let result = text(["Austin", " ", "1", "23", " - ", "(", ")", "pen: 4", "\t", "\r\n", "*", "-", "FC"], 0...12)
            #expect(ICalendarTable.isResult(result) == ICalendarTable.isResultByCharacter(result), "\(result.debugDescription)")
        }
    }

    /// Unfolding in place gives each logical line and the physical line it starts on, for any mix of
    /// line ends, folds (a space or tab first) and empty lines.
    @Test func foldedLinesUnfoldAtTheirFirstPhysicalLine() {
        let unfolded = ICalendarTable.unfold("\u{FEFF}A:1\r\n b\r\n\tc\nB:2\r\rC:3\n d\n\n e\nD")
        #expect(unfolded.map(\.0) == [1, 4, 6, 9, 10])
        #expect(unfolded.map(\.1) == ["A:1bc", "B:2", "C:3d", " e", "D"])
        #expect(ICalendarTable.unfold("").isEmpty && ICalendarTable.unfold("\r\n\r\n").isEmpty)
    }

    /// Properties split byte by byte (ASCII) match the character-wise split, for lines made of the bytes
    /// that matter to it: colons, semicolons, equals signs and quotes among letters, in any order.
    @Test func asciiPropertiesSplitAsCharacterWiseOnes() {
        let alphabet = Array("aZ:;=\"x-,.\\ ")
        var random = SystemRandomNumberGenerator()
        for _ in 0..<5000 {
            let content = String((0..<Int.random(in: 0...24, using: &random)).map { _ in alphabet.randomElement(using: &random)! })
            let bytes = ICalendarTable.parseProperty(content)
            let characters = ICalendarTable.parsePropertyByCharacter(content)
            #expect(
                bytes?.name == characters?.name && bytes?.params == characters?.params && bytes?.value == characters?.value, "\(content)")
        }
    }

    /// Trimming ASCII ends byte by byte gives what trimming Unicode scalars gives, for ends of ASCII and
    /// Unicode white space, line breaks, control bytes that are not white space, marks and letters.
    @Test func trimmingByBytesIsTrimmingByScalars() {
        let pieces = ["", " ", "\t", "\n", "\r\n", "\u{0B}", "\u{1C}", "\u{A0}", "\u{2003}", "\u{85}", "\u{301}", "a", "é", "東 京", "x y"]
        for a in pieces {
            for b in pieces {
                for c in pieces {
                    let text = a + b + c
                    let scalars = String.trimScalars(text[...].unicodeScalars)
                    #expect(text.trimmed == scalars, "\(text.debugDescription)")
                    #expect(text[...].trimmed == scalars, "\(text.debugDescription)")
                }
            }
        }
    }

    @Test func startTimesInUTCWithTZIDFloatingAndDateOnly() throws {
        let ics = """
            BEGIN:VCALENDAR
            BEGIN:VTIMEZONE
            TZID:America/New_York
            BEGIN:STANDARD
            DTSTART:19701101T020000
            END:STANDARD
            END:VTIMEZONE
            BEGIN:VEVENT
            UID:a
            SUMMARY:A vs. B
            DTSTART:20250301T190000Z
            END:VEVENT
            BEGIN:VEVENT
            UID:b
            SUMMARY:C vs. D
            DTSTART;TZID="America/New_York":20250701T193000
            BEGIN:VALARM
            DTSTART:19990101T000000Z
            END:VALARM
            END:VEVENT
            BEGIN:VEVENT
            UID:c
            SUMMARY:E vs. F
            DTSTART:20250702T193000
            END:VEVENT
            BEGIN:VEVENT
            UID:d
            SUMMARY:G vs. H
            DTSTART;VALUE=DATE:20250703
            STATUS:CANCELLED
            END:VEVENT
            BEGIN:VEVENT
            UID:e
            SUMMARY:I vs. J
            DTSTART;TZID=Eastern Standard Time:20250704T193000
            END:VEVENT
            END:VCALENDAR
            """
        let table = ICalendarTable.read(Data(utf8: ics), path: "t.ics")
        func cell(_ row: TableRow, _ name: String) -> String { row.cells[table.column(name)!] }
        #expect(table.rows.map { cell($0, "start") } == ["2025-03-01T19:00:00Z", "2025-07-01T23:30:00Z", "", ""])
        #expect(table.rows.map { cell($0, "date") } == ["", "", "2025-07-02", "2025-07-03"])
        #expect(table.rows.map { cell($0, "time") } == ["", "", "19:30", ""])
        #expect(table.rows.map { cell($0, "status") } == ["scheduled", "scheduled", "scheduled", "cancelled"])
        #expect(table.rowRejects.map(\.reason) == ["DTSTART names the time zone 'Eastern Standard Time', which is not an IANA zone"])
        #expect(table.rows.map(\.line) == [8, 13, 21, 26])
    }

    @Test func calendarCutShortRejectsTheOpenEvent() {
        let table = ICalendarTable.read(Data(utf8: "BEGIN:VCALENDAR\nBEGIN:VEVENT\nUID:x\nSUMMARY:A vs. B\n"), path: "t.ics")
        #expect(table.rows.isEmpty)
        #expect(table.rowRejects.first?.line == 2)
    }

    // MARK: Basketball-Reference

    @Test func bbrefSectionRowsSwitchTheKindAndAreNotGames() {
        let csv =
            "Date,Start (ET),Visitor/Neutral,PTS,Home/Neutral,PTS,,,Attend.,Arena,Notes\nTue Apr 16 2024,7:30p,A,1,B,2,Box Score,,100,X Arena,\nPlayoffs,,,,,,,,,,\nSat Apr 20 2024,1:00p,C,,D,,,,,Y Arena,\n"
        let table = BBRefTable.read(Data(utf8: csv), path: "b.csv")
        #expect(table.rows.count == 2)
        #expect(table.rows.map { $0.cells[table.column("section")!] } == ["", "Playoffs"])
        #expect(table.column("PTS.2") == 5)
        #expect(table.column("column7") == 6)
    }

    // MARK: JSON

    @Test func jsonKeyPathsWithIndexesSelectionsAndWildcards() throws {
        let json = """
            {"weeks": [{"games": [{"id": 1, "teams": [{"side": "home", "name": "A"}, {"side": "away", "name": "B"}], "ok": true, "v": null}]},
                       {"games": [{"id": 2.50, "teams": [{"side": "away", "name": "C"}, {"side": "home", "name": "D"}]}]}]}
            """
        let root = try JSONParser.parseNodes(json)
        let games = try JSONPath("weeks[*].games").nodes(from: root).flatMap { node -> [JSONNode] in
            if case .array(let items) = node.value { return items }
            return [node]
        }
        #expect(games.count == 2)
        #expect(try JSONPath("teams[side=home].name").text(in: games[1]) == "D")
        #expect(try JSONPath("teams.1.name").text(in: games[0]) == "B")
        #expect(try JSONPath("id").text(in: games[1]) == "2.50")
        #expect(try JSONPath("ok").text(in: games[0]) == "true")
        #expect(try JSONPath("v").text(in: games[0]) == nil)
        #expect(games[1].line == 2)
    }

    @Test func jsonStringEscapes() throws {
        let node = try JSONParser.parseNodes(#"["a\"b\\c\/d\n\u00e9\ud83c\udfc0"]"#)
        guard case .array(let items) = node.value else { Issue.record("not an array"); return }
        #expect(items.first?.text == "a\"b\\c/d\n\u{e9}\u{1F3C0}")
    }

    // MARK: Globs

    @Test func globs() {
        #expect(Glob.matches("*.ics", "atlantaunited.ics"))
        #expect(!Glob.matches("*.ics", "sub/atlantaunited.ics"))
        #expect(Glob.matches("**/*.ics", "sub/atlantaunited.ics"))
        #expect(Glob.matches("**/*.ics", "atlantaunited.ics"))
        #expect(Glob.matches("20[0-9][0-9]SKED.TXT", "2023SKED.TXT"))
        #expect(!Glob.matches("2023SKED.TXT", "2023SKED.TXT.bak"))
        #expect(Glob.matches("games_?.csv", "games_1.csv"))
    }
}
