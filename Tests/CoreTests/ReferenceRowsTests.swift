import Foundation
import Testing
@testable import SportsTimeCore

/// A small record read through the row helper, as each reference file kind reads its own.
private struct Thing: Equatable {
    var id: String
    var name: String
    var count: Int
    var note: String?
}

/// Reads `text` as a file with the columns `id,name,count,note` into `Thing`s.
private func readThings(_ text: String?) -> (file: ReferenceFile<Thing>, problems: [String]) {
    var problems: [Diagnostic] = []
    let file = ReferenceRows.read(
        text.map { Data($0.utf8) }, path: "ref/things.csv", columns: ["id", "name", "count", "note"], problems: &problems
    ) { (row, fields: inout ReferenceRows) -> Thing? in
        let (id, owner) = fields.id(row, "id", what: "thing")
        let name = fields.required(row, "name", owner: owner)
        let count = fields.int(row, "count", owner: owner)
        guard let count else { return nil }
        return Thing(id: id, name: name, count: count, note: fields.optional(row, "note"))
    }
    return (file, problems.map(\.description))
}

@Suite("Reference rows")
struct ReferenceRowsTests {
    @Test func rowsComeBackWithTheirLinesAndColumnsByHeaderName() {
        let (file, problems) = readThings("note,count,id,name\n,3,a,Alpha\nfirst,1,b,Beta\n")
        #expect(problems.isEmpty)
        #expect(file.isUsable)
        #expect(file.items.map(\.line) == [2, 3])
        #expect(
            file.items.map(\.record) == [
                Thing(id: "a", name: "Alpha", count: 3, note: nil), Thing(id: "b", name: "Beta", count: 1, note: "first"),
            ])
        #expect(file.declared == ["a", "b"])
    }

    @Test func aMissingColumnIsAnErrorOnTheHeaderLineAndTheFileYieldsNoRows() {
        let (file, problems) = readThings("id,name,note\na,Alpha,\n")
        #expect(
            problems == ["ref/things.csv:1: error: missing column 'count'. Use exactly the columns id,name,count,note."])
        #expect(!file.isUsable)
        #expect(file.items.isEmpty && file.declared.isEmpty)
    }

    @Test func aMissingFileIsAnErrorNamingTheHeader() {
        let (file, problems) = readThings(nil)
        #expect(
            problems == ["ref/things.csv: error: the file is missing. Restore it, or create it with the header id,name,count,note."])
        #expect(!file.isUsable)
    }

    @Test func aBadValueIsAnErrorOnItsLineAndOnlyThatRowIsDropped() {
        let (file, problems) = readThings("id,name,count,note\na,Alpha,1,\nb,Beta,many,\nc,,2,\nd,Delta,4,\n")
        #expect(
            problems == [
                "ref/things.csv:3: error: thing 'b': count 'many' is not a whole number. Write a whole number, e.g. 1.",
                "ref/things.csv:4: error: thing 'c': name is empty. Give it a value.",
            ])
        #expect(file.isUsable)
        #expect(file.items.map(\.record.id) == ["a", "d"])
        // Rows with problems still declare their ids, so references to them are not reported again.
        #expect(file.declared == ["a", "b", "c", "d"])
    }

    @Test func blankLinesAreSkippedAndStillCountedInLineNumbers() {
        let (file, problems) = readThings("id,name,count,note\n\na,Alpha,1,\n\n\nb,Beta,x,\r\n\r\nc,Gamma,3,\n")
        #expect(problems == ["ref/things.csv:6: error: thing 'b': count 'x' is not a whole number. Write a whole number, e.g. 1."])
        #expect(file.items.map(\.line) == [3, 8])
    }

    @Test func idsMustBeUniqueLowercaseSlugs() {
        let (file, problems) = readThings("id,name,count,note\na,Alpha,1,\nBad Id,B,2,\na,Again,3,\n,Nameless,4,\n")
        #expect(
            problems == [
                "ref/things.csv:3: error: thing id 'Bad Id' is not a lowercase slug. "
                    + "Use lowercase letters, digits and single dashes, e.g. 'bad-id'.",
                "ref/things.csv:4: error: duplicate thing id 'a': line 2 has the same id. Keep one row, or change one of them.",
                "ref/things.csv:5: error: thing: id is empty. Give every thing a lowercase slug id.",
            ])
        #expect(file.items.map(\.line) == [2])
    }

    @Test func fieldsAreTrimmedAndAShortRowIsAnErrorOnItsLine() {
        let (file, problems) = readThings("id,name,count,note\n a , Alpha ,\t1, \nb,Beta\n")
        #expect(
            problems == [
                "ref/things.csv:3: error: the row has 2 fields but the header has 4. "
                    + "Quote fields that contain commas and give every column a value (empty is allowed)."
            ])
        #expect(file.items.map(\.record) == [Thing(id: "a", name: "Alpha", count: 1, note: nil)])
    }

    @Test func typedFieldsReportWhatIsWrongAndWhatToDo() {
        let columns = ["when", "from", "valid_from", "valid_until", "seats", "level", "degrees"]
        let text = """
            when,from,valid_from,valid_until,seats,level,degrees
            2026-06-12T00:00:00Z,2024-01-31,2024-01-01,2024-12-31,,league,42.5
            yesterday,31/01/2024,2024-12-31,2024-01-01,0,club,north

            """
        var problems: [Diagnostic] = []
        var values: [String] = []
        let file = ReferenceRows.read(Data(text.utf8), path: "x.csv", columns: columns, problems: &problems) {
            (row, fields: inout ReferenceRows) -> Int? in
            let owner = "row \(row.line)"
            let when = fields.instant(row, "when", owner: owner)
            let from = fields.date(row, "from", owner: owner)
            let (validFrom, validUntil) = fields.validity(row, owner: owner)
            let seats = fields.optionalInt(row, "seats", owner: owner, range: 1...100)
            let level = fields.choice(
                row, "level", owner: owner, as: LeagueStructure.Level.self, known: "Use league, conference or division")
            let degrees = fields.double(row, "degrees", owner: owner)
            values.append(
                [
                    when?.description ?? "-", from?.iso8601 ?? "-", validFrom?.iso8601 ?? "-", validUntil?.iso8601 ?? "-",
                    seats.map { $0.map(String.init) ?? "empty" } ?? "-", level?.rawValue ?? "-", degrees.map { "\($0)" } ?? "-",
                ].joined(separator: " "))
            return row.line
        }
        #expect(
            problems.map(\.description) == [
                "x.csv:3: error: row 3: when 'yesterday' is not an ISO-8601 instant. "
                    + "Write it like 2026-06-12T00:00:00Z, and bump it whenever the row changes.",
                "x.csv:3: error: row 3: from '31/01/2024' is not a date. Write it like 2024-12-31, or leave it empty.",
                "x.csv:3: error: row 3: valid_from 2024-12-31 is after valid_until 2024-01-01. "
                    + "Swap or correct the dates (both days are inclusive).",
                "x.csv:3: error: row 3: seats '0' is not a whole number in 1...100. Correct it, or leave it empty when unknown.",
                "x.csv:3: error: row 3: level 'club' is not known. Use league, conference or division.",
                "x.csv:3: error: row 3: degrees 'north' is not a number. Write decimal degrees, e.g. 42.346389.",
            ])
        #expect(file.items.map(\.record) == [2])
        #expect(values.first == "2026-06-12T00:00:00Z 2024-01-31 2024-01-01 2024-12-31 empty league 42.5")
        #expect(values.last == "- - 2024-12-31 2024-01-01 - - -")
    }
}
