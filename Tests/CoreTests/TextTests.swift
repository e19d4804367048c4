import Foundation
import Testing
import SportsTimeTestSupport
@testable import SportsTimeCore
import Yams

@Suite struct CSVReaderTests {
    func rows(_ text: String) -> [CSVRow] { CSVReader().read(Data(text.utf8)).rows }

    @Test func quotedFieldsWithCommasQuotesAndNewlines() {
        let result = rows("a,b,c\n\"x, y\",\"say \"\"hi\"\"\",\"two\nlines\"\nlast,row,here\n")
        #expect(result.map(\.fields) == [["a", "b", "c"], ["x, y", "say \"hi\"", "two\nlines"], ["last", "row", "here"]])
        #expect(result.map(\.line) == [1, 2, 4])
    }

    @Test(arguments: ["a,b\n1,2\n3,4\n", "a,b\r\n1,2\r\n3,4\r\n", "a,b\r1,2\r3,4\r", "\u{FEFF}a,b\n1,2\n3,4"])
    func lineEndingsAndBOM(text: String) {
        let result = rows(text)
        #expect(result.map(\.fields) == [["a", "b"], ["1", "2"], ["3", "4"]])
        #expect(result.map(\.line) == [1, 2, 3])
    }

    @Test func blankLinesAreSkippedButCounted() {
        let result = rows("a,b\n\n1,2\n   \n3,4\n")
        #expect(result.map(\.line) == [1, 3, 5])
    }

    @Test func invalidUTF8IsReplacedAndReported() {
        var data = Data("name,city\n".utf8)
        data.append(contentsOf: [0x4D, 0xFC, 0x6E, 0x63, 0x68, 0x65, 0x6E, 0x2C, 0x44, 0x45, 0x0A]) // "M\xFCnchen,DE"
        let result = CSVReader().read(data)
        #expect(result.hadInvalidUTF8)
        #expect(result.rows[1].fields == ["M\u{FFFD}nchen", "DE"])
    }

    @Test func utf16AndUTF32AreRecognisedNotParsed() {
        let text = "a,b\n1,2\n"
        let encoded: [(Data, String)] = [
            (text.data(using: .utf16)!, "UTF-16"), // with a byte-order mark
            (text.data(using: .utf16LittleEndian)!, "UTF-16"), // without one: NULs
            (text.data(using: .utf16BigEndian)!, "UTF-16"),
            (Data([0xFE, 0xFF]) + text.data(using: .utf16BigEndian)!, "UTF-16"),
            (Data([0xFF, 0xFE, 0, 0]) + text.data(using: .utf32LittleEndian)!, "UTF-32"),
            (text.data(using: .utf32BigEndian)!, "UTF-32"),
        ]
        for (data, encoding) in encoded {
            let result = CSVReader().read(data)
            #expect(result.wideEncoding == encoding, "\(Array(data.prefix(4)))")
            #expect(result.rows.isEmpty)
        }
        #expect(CSVReader().read(Data(text.utf8)).wideEncoding == nil)
        #expect(CSVReader().read(Data("\u{FEFF}a,b\n".utf8)).wideEncoding == nil)
        // A stray NUL in UTF-8 text is not an encoding.
        #expect(CSVReader().read(Data("name,city\nA\u{0},B\nC,D\n".utf8)).wideEncoding == nil)
    }

    @Test func wideTextIsRefusedWithOneLocatedMessage() {
        let data = "sources: []\n".data(using: .utf16)!
        #expect(throws: PipelineError.self) { try TextEncoding.utf8Text(data, path: "pipeline/sources.yaml") }
        do { _ = try TextEncoding.utf8Text(data, path: "pipeline/sources.yaml") } catch {
            #expect("\(error)" == "pipeline/sources.yaml:1: error: the file is UTF-16 encoded. Save it as UTF-8 and re-run.")
        }
        #expect((try? TextEncoding.utf8Text(Data("a: 1\n".utf8), path: "x")) == "a: 1\n")
    }

    /// A quote opens a field only at its start (spaces before it are dropped); text after the closing
    /// quote is kept; a quote inside an unquoted field is text.
    @Test func quotesOpenAFieldOnlyAtItsStart() {
        #expect(rows("  \"a,b\",c\n").map(\.fields) == [["a,b", "c"]])
        #expect(rows("\"a\"b,c\n").map(\.fields) == [["ab", "c"]])
        #expect(rows("x\"y,\"\"\n").map(\.fields) == [["x\"y", ""]])
        #expect(rows("a,b").map(\.fields) == [["a", "b"]])
        #expect(rows("a,\n").map(\.fields) == [["a", ""]])
        #expect(rows("\"\"").isEmpty) // one empty field: a blank row
    }

    @Test func fieldsPastTheLimitAreCutAndReported() {
        let long = String(repeating: "x", count: 5000)
        let result = CSVReader(maxFieldBytes: 100).read(Data("a,b,c\n1,\(long),3\n4,5,6\n".utf8))
        #expect(result.rows.map(\.fields.count) == [3, 3, 3])
        #expect(result.rows[1].fields[1].utf8.count == 100)
        #expect(result.rows[1].overlongField == OverlongField(column: 1, bytes: 5000))
        #expect(result.rows[1].fields[2] == "3")
        #expect(result.rows[0].overlongField == nil && result.rows[2].overlongField == nil)
        let quoted = CSVReader(maxFieldBytes: 4).read(Data("\"a,\"\"bcdef\",x\n".utf8))
        #expect(quoted.rows.first?.overlongField == OverlongField(column: 0, bytes: 8))
        #expect(quoted.rows.first?.fields == ["a,\"b", "x"])
    }

    @Test func unterminatedQuoteIsReported() {
        let result = CSVReader().read(Data("a,b\n\"open,2\n".utf8))
        #expect(result.unterminatedQuoteLine == 2)
    }

    @Test func duplicateAndUnnamedHeaders() {
        let header = CSVHeader(["Date", "Visitor/Neutral", "PTS", "Home/Neutral", "PTS", "", "Notes"])
        #expect(header.names == ["Date", "Visitor/Neutral", "PTS", "Home/Neutral", "PTS.2", "column6", "Notes"])
        let row = CSVRow(line: 2, fields: ["Fri May 19 2023", "Connecticut Sun", "70", "Indiana Fever", "61", "Box Score", ""])
        #expect(header.value("PTS.2", in: row) == "61")
        #expect(header.value("missing", in: row) == nil)
    }

    /// Found by fuzz-csv (Fuzz/csv): a renamed repeat took a spelling a real column already had, so
    /// two columns were named `a.2` and the real `a.2` could not be read.
    @Test func renamedRepeatsNeverCollideWithRealNames() {
        let header = CSVHeader(["a", "b", "b", "a", "b", "b", "", "a.", "a.2"])
        #expect(Set(header.names).count == header.names.count)
        #expect(header.names == ["a", "b", "b.2", "a.2", "b.3", "b.4", "column7", "a.", "a.2.2"])
        let other = CSVHeader(["x.2", "x", "x", "column2", ""])
        #expect(other.names == ["x.2", "x", "x.3", "column2", "column5"])
        let row = CSVRow(line: 2, fields: ["1", "2", "3", "4", "5", "6", "7", "8", "9"])
        #expect(header.value("a.2.2", in: row) == "9")
        for (index, name) in header.names.enumerated() { #expect(header.column(name) == index) }
    }
}

@Suite struct StrictYAMLTests {
    struct Spec: Codable, Equatable {
        var name: String
        var count: Int
        var tags: [String]?
        var nested: Nested?
        struct Nested: Codable, Equatable { var flag: Bool }
    }

    func error(_ yaml: String) -> String {
        do { _ = try StrictYAML.decode(Spec.self, from: yaml, path: "x.yaml"); return "no error" } catch {
            return "\(error)"
        }
    }

    @Test func decodesAValidDocument() throws {
        let spec = try StrictYAML.decode(Spec.self, from: "name: a\ncount: 2\nnested:\n  flag: true\n", path: "x.yaml")
        #expect(spec == Spec(name: "a", count: 2, tags: nil, nested: .init(flag: true)))
    }

    @Test func unknownKeyNamesLineAndKnownKeys() {
        #expect(
            error("name: a\ncount: 2\ncolour: red\n")
                == "x.yaml:3:1: error: unknown key 'colour'. Use one of: count, name, nested, tags.")
        #expect(
            error("name: a\ncount: 2\nnested:\n  flag: true\n  flg: false\n")
                == "x.yaml:5:3: error: unknown key 'flg' in nested. Use one of: flag.")
    }

    @Test func typeErrorPointsAtTheValue() {
        #expect(error("name: a\ncount: many\n").hasPrefix("x.yaml:2:8: error: count: "))
    }

    @Test func missingKeyAndSyntaxAndDuplicates() {
        #expect(error("name: a\n") == "x.yaml:1:1: error: missing key 'count'. Fix the value and run again.")
        #expect(error("name: [a\ncount: 1\n").hasPrefix("x.yaml:2:6: error: YAML syntax:"))
        #expect(error("name: a\nname: b\ncount: 1\n").contains("duplicate key 'name'"))
        #expect(error("").contains("the file is empty"))
    }

    @Test func aRefusedCharacterIsLocatedOnOneLine() {
        // The YAML reader's own error spans lines and repeats the position; it is told as one sentence.
        let text = error("name: a\ncount: 1\ntags: [x\u{1}y]\n")
        #expect(
            text
                == "x.yaml:3:9: error: YAML: control characters are not allowed (U+0001). Remove the character, and save the file as UTF-8 text."
        )
    }

    /// A "billion laughs" document: nine levels of ten aliases each, under 1 KB of text.
    static let laughs: String = {
        var lines = ["name: &a0 [lol]", "count: 1"]
        for level in 1...9 {
            let previous = Array(repeating: "*a\(level - 1)", count: 10).joined(separator: ", ")
            lines.append("l\(level): &a\(level) [\(previous)]")
        }
        return lines.joined(separator: "\n") + "\n"
    }()

    @Test func aliasesThatExpandPastTheLimitAreRefusedWithoutExpanding() {
        #expect(Self.laughs.utf8.count < 1024)
        // The node budget stops the walk at the limit, so the aliases are never expanded.
        let text = error(Self.laughs)
        #expect(text.hasPrefix("x.yaml:"))
        #expect(text.contains("error: the YAML expands to more than \(InputLimits.yamlNodes) values once its aliases are repeated"))
        #expect(text.hasSuffix("Write the values out instead of repeating anchors through aliases."))
        // The locators used after decoding give up on the same document instead of walking it.
        #expect(YAMLLocator(text: Self.laughs, path: "x.yaml").location(["l9", 0]).line == 1)
    }

    /// A long value under an anchor repeated by aliases: few values, many bytes once expanded.
    @Test func aliasesThatExpandPastTheByteLimitAreRefused() {
        let value = String(repeating: "x", count: 1 << 20)
        let text = "name: &big \"\(value)\"\ncount: 1\ntags: [" + Array(repeating: "*big", count: 8).joined(separator: ", ") + "]\n"
        #expect(text.utf8.count < InputLimits.yamlFileBytes)
        #expect(
            error(text)
                == "x.yaml:3:7: error: the YAML's text expands to more than \(InputLimits.yamlExpandedBytes) bytes once its aliases are repeated (an anchor &name holding a long value, copied by *name again and again). Write the values out instead of repeating anchors through aliases."
        )
        // Seven copies stay under the limit and decode.
        let fewer = "name: &big \"\(value)\"\ncount: 1\ntags: [" + Array(repeating: "*big", count: 6).joined(separator: ", ") + "]\n"
        #expect(error(fewer) == "no error")
    }

    /// A tag outside the core schema is refused at its value; core tags and the non-specific `!` are read.
    @Test func nonCoreTagsAreRefusedAtTheirValue() throws {
        #expect(
            error("name: !!binary aGVsbG8=\ncount: 1\n")
                == "x.yaml:1:7: error: the YAML tag 'tag:yaml.org,2002:binary' is not one of the core schema's (str, int, float, bool, null, seq, map). Remove the tag; values are read by their text."
        )
        #expect(error("name: a\ncount: 1\nnested: !local {flag: true}\n").hasPrefix("x.yaml:3:9: error: the YAML tag '!local'"))
        let spec = try StrictYAML.decode(
            Spec.self, from: "name: !!str a\ncount: !!int 2\ntags: ! [x]\nnested:\n  flag: true\n", path: "x.yaml")
        #expect(spec == Spec(name: "a", count: 2, tags: ["x"], nested: .init(flag: true)))
    }

    /// The strict decoder gives what Yams' decoder gives, value for value, on documents with every
    /// scalar rule the strict types meet (quoted and plain numbers, booleans, nulls, lists, maps).
    @Test func theNodeDecoderAgreesWithYams() throws {
        struct Wide: Codable, Equatable {
            var text: String
            var quoted: String
            var number: Int
            var hex: Int?
            var big: Int64
            var ratio: Double
            var flag: Bool
            var yes: Bool?
            var missing: String?
            var null: String?
            var list: [Int]
            var map: [String: [String]]
            var nested: [Inner]
            struct Inner: Codable, Equatable { var a: String; var b: Double? }
        }
        let text = """
            text: 2023
            quoted: "true"
            number: 42
            hex: 0x1F
            big: 9000000000
            ratio: 0.25
            flag: false
            yes: yes
            null: ~
            list: [1, 2, 3]
            map: {x: [a, "b"], "1": []}
            nested:
              - {a: one, b: 1e3}
              - a: two
            """
        let strict = try StrictYAML.decode(Wide.self, from: text, path: "x.yaml")
        let viaYams = try YAMLDecoder().decode(Wide.self, from: text)
        #expect(strict == viaYams)
        #expect(strict.text == "2023" && strict.hex == 31 && strict.yes == true && strict.null == nil && strict.map["1"] == [])
    }

    @Test func unknownKeysAreTheOnesNoValueAskedFor() {
        // In a list item, in a dictionary's value, and in a value decoded by hand.
        #expect(
            error("name: a\ncount: 2\ntags: [x]\nnested: {flag: true, extra: 1}\n")
                == "x.yaml:4:22: error: unknown key 'extra' in nested. Use one of: flag.")
        struct Holder: Decodable { var items: [String: StrictYAMLTests.Spec.Nested] }
        #expect(throws: (any Error).self) {
            try StrictYAML.decode(Holder.self, from: "items:\n  any-name: {flag: true, flah: true}\n", path: "h.yaml")
        }
        do {
            _ = try StrictYAML.decode(Holder.self, from: "items:\n  any-name: {flag: true, flah: true}\n", path: "h.yaml")
        } catch {
            #expect("\(error)" == "h.yaml:2:26: error: unknown key 'flah' in items.any-name. Use one of: flag.")
        }
        // Several at once, in document order.
        #expect(
            error("name: a\nzz: 1\ncount: 2\naa: 2\n")
                == "x.yaml:2:1: error: unknown key 'zz'. Use one of: count, name, nested, tags.\nx.yaml:4:1: error: unknown key 'aa'. Use one of: count, name, nested, tags."
        )
    }

    /// A merge key is not expanded: it is a key like any other, unknown to the strict types.
    @Test func aMergeKeyIsAnUnknownKey() {
        #expect(error("tags: &t [a]\n<<: {name: a}\nname: a\ncount: 1\n").hasPrefix("x.yaml:2:1: error: unknown key '<<'."))
    }

    @Test func aFewAliasesStillDecode() throws {
        let spec = try StrictYAML.decode(Spec.self, from: "name: &n a\ncount: 2\ntags: [*n, *n]\n", path: "x.yaml")
        #expect(spec.tags == ["a", "a"])
    }

    @Test func deepNestingAndOversizedFilesAreRefused() {
        let deep = "name: a\ncount: 1\ntags: " + String(repeating: "[", count: 100) + String(repeating: "]", count: 100) + "\n"
        #expect(error(deep).contains("error: the YAML nests deeper than \(InputLimits.yamlDepth) levels"))
        let big = "name: a\ncount: 1\n" + String(repeating: "# padding\n", count: InputLimits.yamlFileBytes / 10 + 1)
        #expect(
            error(big).hasPrefix(
                "x.yaml:1: error: the YAML file is \(big.utf8.count) bytes, more than the limit of \(InputLimits.yamlFileBytes)"))
    }

    @Test func slugsAndMatchKeys() {
        #expect(Slug.make("Oriole Park at Camden Yards") == "oriole-park-at-camden-yards")
        #expect(Slug.make("Estadio Alfredo Harp Helú") == "estadio-alfredo-harp-helu")
        #expect(Slug.make("St. Louis Cardinals") == "st-louis-cardinals")
        #expect(Slug.make("Levi's Stadium") == "levis-stadium")
        #expect(Slug.matchKey("PHX (Suns)") == "phxsuns")
    }

    /// Dates and instants are written as the zero-padded interpolation writes them.
    @Test func isoTextOfDatesAndInstants() {
        func pad(_ n: Int, _ width: Int) -> String { String(repeating: "0", count: max(0, width - String(n).count)) + String(n) }
        var seconds: Int64 = -62_000_000_000
        while seconds < 260_000_000_000 {
            let instant = Instant(secondsSinceEpoch: seconds)
            let date = instant.utcDate, s = instant.utcSecondOfDay
            let day = "\(pad(date.year, 4))-\(pad(date.month, 2))-\(pad(date.day, 2))"
            #expect(date.iso8601 == day)
            #expect(instant.iso8601 == "\(day)T\(pad(s / 3600, 2)):\(pad(s / 60 % 60, 2)):\(pad(s % 60, 2))Z")
            if date.year <= 9999 { #expect(Instant(iso8601: instant.iso8601) == instant) }
            seconds += 7_777_777
        }
    }

    /// A scalar taken for a string without Yams' regexes is one Yams' default resolver reads as a string.
    @Test func plainStringsAreWhatTheDefaultResolverSays() {
        let samples = [
            "yes", "Yes", "yES", "no", "NO", "on", "Off", "null", "NULL", "Null", "nulls", "true", "TRUE", "tRUE",
            "false", "y", "n", "id", "mlb", "America/New_York", "csv-mapping", "2023", "0x1F", ".inf", ".nan",
            "~", "", "<<", "=", "+1", "-2.5", "1:30", "2025-01-01", "e5", "E", "inf", "nan", "NaN", "a b", "abc\n",
            "x ", "Zulu", "retrosheet", "T", "F", "Y", "N", "ON", "oN", "YeS", "True ", "nO",
        ]
        for text in samples where StrictYAML.isPlainString(text) {
            #expect(Resolver.default.resolveTag(of: Node(text)) == .str, "\(text)")
        }
        #expect(StrictYAML.isPlainString("mlb") && !StrictYAML.isPlainString("yes") && !StrictYAML.isPlainString("2023"))
    }

    /// The ASCII path gives what Foundation's folding gives, for every ASCII character in every position.
    @Test func asciiSlugsMatchTheFoldingPath() {
        for value in UInt8(0)..<0x80 {
            let c = String(UnicodeScalar(value))
            for text in ["a\(c)b", "\(c)Ab", "aB\(c)", "\(c)", "X \(c) 9", "\(c)\(c)z\(c)"] {
                #expect(Slug.make(text) == Slug.foldedSlug(text), "\(value)")
                #expect(Slug.matchKey(text) == Slug.foldedSlug(text).replacingOccurrences(of: "-", with: ""), "\(value)")
            }
        }
        #expect(Slug.asciiSlug("Helú", dashes: true) == nil)
    }

    /// Slugging parts as if joined by a dash gives the slug of the joined text: empty parts, parts that end
    /// or start with punctuation, and non-ASCII parts (the folding path).
    @Test func aSlugOfPartsIsTheSlugOfTheirJoinedText() {
        let samples: [[String]] = [
            [], [""], ["", ""], ["mlb-bos", "name", "", "Red Sox", ""], ["a.", ".b"], ["x'", "'y"], ["-", "-"],
            ["St. Louis", "abbreviation", "mlb", "STL", "2024-01-01"], ["Estadio Alfredo Harp Helú", "", "x"],
            ["a", "B", "c "], [" ", "Z"],
        ]
        for parts in samples {
            #expect(Slug.make(joining: parts) == Slug.make(parts.joined(separator: "-")), "\(parts)")
        }
    }
}

@Suite struct InputLimitsTests {
    @Test func anEnvelopeNestedTooDeepIsRefusedBeforeDecoding() {
        let deep =
            "{\"kind\":\"sportstime.games\",\"schemaVersion\":1,\"meta\":{\"x\":"
            + String(repeating: "[", count: InputLimits.jsonDepth) + String(repeating: "]", count: InputLimits.jsonDepth) + "}}"
        #expect(throws: PipelineError.self) {
            _ = try EnvelopeReader.header(of: Data(deep.utf8), path: "out/x.json", expecting: .games)
        }
        do { _ = try EnvelopeReader.header(of: Data(deep.utf8), path: "out/x.json", expecting: .games) } catch {
            #expect(
                "\(error)"
                    == "out/x.json:1: error: the artifact nests arrays and objects deeper than \(InputLimits.jsonDepth) levels. Re-run the stage that writes it."
            )
        }
    }

    /// A file over its kind's limit is refused by its size, before it is read: a 3 GiB hole costs nothing.
    @Test func aFileOverItsLimitIsRefusedBeforeItIsRead() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("input-files-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let huge = folder.appendingPathComponent("huge.csv")
        try Data("a,b\n".utf8).write(to: huge)
        let handle = try FileHandle(forWritingTo: huge)
        try handle.truncate(atOffset: 3 << 30)
        try handle.close()
        guard case .failure(.tooLarge(let size)) = InputFiles.bytes(atPath: huge.path, limit: InputLimits.scrapedFileBytes) else {
            Issue.record("a 3 GiB file was not refused by its size")
            return
        }
        #expect(size == 3 << 30)
        #expect(throws: PipelineError.self) { try InputFiles.read(huge, path: "x/huge.csv", kind: .scraped, problem: "p", fix: "f") }
        do { _ = try InputFiles.readIfPresent(huge, path: "x/huge.csv", kind: .scraped) } catch {
            #expect(
                "\(error)"
                    == "x/huge.csv: error: the file is \(3 << 30) bytes, more than the \(InputLimits.scrapedFileBytes) allowed for a scraped source file. Check that this is the intended file; the limits are in Sources/SportsTimeCore/Text/InputLimits.swift."
            )
        }
        // At the limit it is read whole; a missing file is absent, not refused.
        let small = folder.appendingPathComponent("small.csv")
        try Data("a,b\n1,2\n".utf8).write(to: small)
        #expect(try InputFiles.readIfPresent(small, path: "x/small.csv", kind: .scraped) == Data("a,b\n1,2\n".utf8))
        guard case .success(let exact) = InputFiles.bytes(atPath: small.path, limit: 8) else {
            Issue.record("a file at the limit was refused")
            return
        }
        #expect(exact.count == 8)
        guard case .failure(.tooLarge) = InputFiles.bytes(atPath: small.path, limit: 7) else {
            Issue.record("a file one byte over the limit was read")
            return
        }
        #expect(try InputFiles.readIfPresent(folder.appendingPathComponent("none.csv"), path: "x/none.csv", kind: .scraped) == nil)
    }

    /// Printed errors: at most 20 a file, then one line counting the rest; other files keep theirs.
    @Test func aFileReportsABoundedNumberOfErrors() {
        let many = (1...45).map { (line: Int) in Diagnostic(.error, at: SourceLocation(path: "a.yaml", line: line), "bad \(line)") }
        let other = Diagnostic(.error, at: SourceLocation(path: "b.yaml", line: 1), "bad")
        let reported = PipelineError.invalidInputs(many + [other]).reported.map(\.description)
        #expect(reported.count == PipelineError.reportedPerFile + 2)
        #expect(reported[19] == "a.yaml:20: error: bad 20.")
        #expect(reported[20] == "b.yaml:1: error: bad.")
        #expect(reported.last == "a.yaml: error: and 25 more problems in this file. Fix the ones above and run again.")
    }

    /// A value quoted in a message is cut to its first 80 characters.
    @Test func quotedValuesAreCut() {
        #expect(Diagnostic.quoted("mlb") == "mlb")
        let long = String(repeating: "é", count: 3_000_000)
        #expect(Diagnostic.quoted(long) == String(repeating: "é", count: Diagnostic.quotedCharacters) + "…")
    }
}

@Suite struct NumberTextTests {
    @Test func groupedFixedTrimmedAndDecimal() {
        #expect(NumberText.grouped(0) == "0" && NumberText.grouped(1210) == "1,210" && NumberText.grouped(-1_234_567) == "-1,234,567")
        #expect(NumberText.fixed(2.5, 1) == "2.5" && NumberText.fixed(-0.04, 1) == "0.0" && NumberText.fixed(.nan, 2) == "0")
        #expect(NumberText.trimmed(2.50, 2) == "2.5" && NumberText.trimmed(-0.004, 2) == "0" && NumberText.trimmed(3, 2) == "3")
        #expect(NumberText.decimal(13.25, places: 2) == "13.25" && NumberText.decimal(1210.001, places: 2) == "1,210")
    }

    /// `trimmed` (built digit by digit) is `fixed` with the fraction's trailing zeros and a bare point
    /// dropped and `-0` as `0`, for values of every size, sign and number of places.
    @Test func trimmedIsFixedWithoutTrailingZeros() {
        func stripped(_ value: Double, _ places: Int) -> String {
            var text = NumberText.fixed(value, places)
            if text.contains(".") {
                while text.hasSuffix("0") { text.removeLast() }
                if text.hasSuffix(".") { text.removeLast() }
            }
            return text == "-0" ? "0" : text
        }
        var generator = SplitMix64(seed: 23)
        var values: [Double] = [0, -0.0, 0.5, -0.5, 0.05, -0.004, 1e-9, 12.3, 100, -100.25, 9e16, -9e16, 1e18, .infinity, .nan]
        for _ in 0..<5_000 {
            let magnitude = pow(10, Double(generator.next() % 13) - 6)
            let sign: Double = generator.next() % 2 == 0 ? 1 : -1
            values.append(sign * magnitude * Double(generator.next() % 1_000_000) / 1_000_000)
        }
        for value in values {
            for places in 0...6 { #expect(NumberText.trimmed(value, places) == stripped(value, places), "\(value) \(places)") }
        }
    }

    /// `decimal` prints what rounding to the places and then `%.Nf` without trailing zeros prints
    /// (thousands separators on whole values), over many values of every size and sign.
    @Test func decimalAgreesWithRoundingAndPrintf() {
        var generator = SplitMix64(seed: 17)
        for _ in 0..<5_000 {
            let magnitude = pow(10, Double.random(in: -4...9, using: &generator))
            let value = (Bool.random(using: &generator) ? -1 : 1) * magnitude
            for places in 0...3 {
                let rounded = value.rounded(toPlaces: places)
                var expected: String
                if rounded == rounded.rounded() {
                    expected = NumberText.grouped(Int64(rounded))
                } else {
                    expected = String(format: "%.\(places)f", rounded)
                    while expected.hasSuffix("0") { expected.removeLast() }
                    if expected.hasSuffix(".") { expected.removeLast() }
                }
                #expect(NumberText.decimal(value, places: places) == expected, "\(value) to \(places) places")
            }
        }
    }
}

@Suite struct WhitespaceTests {
    /// `isWhitespaceOnly` says what trimming Foundation's white space and asking for emptiness says, for
    /// ASCII and Unicode spaces, line breaks (not white space here), combining marks and other scripts.
    @Test func whitespaceOnlyIsWhatTrimmingLeavesEmpty() {
        let pieces = [
            "", " ", "\t", "\n", "\r", "\u{0B}", "\u{0C}", "\u{A0}", "\u{2003}", "\u{3000}", "\u{200B}", "\u{2028}",
            "\u{85}", "\u{0301}", "a", "Z", "7", "é", "東", "⚾️", "-", "\u{FEFF}",
        ]
        var samples: [String] = []
        for a in pieces { for b in pieces { for c in ["", " ", "\u{A0}", "x"] { samples.append(a + b + c) } } }
        for text in samples {
            #expect(text.isWhitespaceOnly == text.trimmingCharacters(in: .whitespaces).isEmpty, "\(text.debugDescription)")
            #expect(text[...].isWhitespaceOnly == text.isWhitespaceOnly)
        }
        for text in samples where text.hasPlainASCIIEnds {
            #expect(text.trimmingCharacters(in: .whitespacesAndNewlines) == text, "\(text.debugDescription)")
        }
        #expect("Fenway Park".hasPlainASCIIEnds && "".hasPlainASCIIEnds && "\u{01}x".hasPlainASCIIEnds)
        #expect(!" x".hasPlainASCIIEnds && !"x\n".hasPlainASCIIEnds && !"é".hasPlainASCIIEnds)
        #expect(" \u{A0}\t\u{3000}".isWhitespaceOnly)
        #expect(!" \n ".isWhitespaceOnly)
    }
}

@Suite struct StringJoinTests {
    @Test func joiningIsTheInterpolation() {
        for (head, tail) in [("", ""), ("mlb-2023", "g1"), ("é", "東京"), (String(repeating: "x", count: 40), "7"), ("a", "")] {
            #expect(String.joining(head, UInt8(ascii: ":"), tail) == "\(head):\(tail)")
        }
    }
}

@Suite struct TextLinesTests {
    @Test func linesEndAtLFAndCRLFAndKeepEverythingElse() {
        #expect(TextLines.split("a\nb\r\nc") == ["a", "b", "c"])
        #expect(TextLines.split("a\r\nb\r\n") == ["a", "b", ""])
        #expect(TextLines.split("") == [""])
        #expect(TextLines.split("\n") == ["", ""])
        #expect(TextLines.split("\r\n\r\n") == ["", "", ""])
        // A lone CR ends no line (as before); only the CR of a CRLF goes.
        #expect(TextLines.split("a\rb\n\r") == ["a\rb", "\r"])
        #expect(TextLines.split("Montréal,é\u{301}\r\n東京 🏟️\n") == ["Montréal,é\u{301}", "東京 🏟️", ""])
    }

    /// Where a text has no CRLF, the lines are what splitting the string at "\n" gives; with CRLF ends,
    /// the same text with LF ends.
    @Test(arguments: ["", "one", "a\nb", "a\n\nb\n", "\n\n", "x,y\n\"q\",é\u{301}\n🏟️", "  padded \n\t tabbed \n"])
    func linesAreTheStringSplitAtNewlineAndCRLFChangesNothingElse(text: String) {
        let expected = text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(TextLines.split(text) == expected)
        let crlf = text.replacingOccurrences(of: "\n", with: "\r\n")
        #expect(TextLines.split(crlf) == expected)
        // Line n of the file is element n - 1: each slice starts where its line starts in the text.
        for (index, line) in TextLines.split(crlf).enumerated() where index > 0 {
            #expect(crlf[..<line.startIndex].utf8.last == UInt8(ascii: "\n"))
        }
    }
}

@Suite struct ASCIITextTests {
    /// Eight bytes at a time and the tail byte by byte: a non-ASCII byte at any position of texts up to
    /// three words long is seen, in a String and in a Substring of one.
    @Test func isAllASCIIMatchesAByteByByteCheck() {
        var texts = ["", "a", "Atlanta United 3 - CF Montreal 2", String(repeating: "x", count: 64)]
        for length in 0...24 {
            let plain = String(repeating: "a", count: length)
            texts.append(plain)
            for position in 0...length {
                var bytes = Array(plain.utf8)
                bytes.insert(contentsOf: Array("é".utf8), at: position)
                texts.append(String(decoding: bytes, as: UTF8.self))
                texts.append(String(plain.prefix(position)) + "\u{7F}" + String(plain.dropFirst(position)))
            }
        }
        for text in texts {
            let expected = text.utf8.allSatisfy { $0 < 0x80 }
            #expect(text.isAllASCII == expected, "\(text)")
            #expect(text.dropFirst().isAllASCII == text.dropFirst().utf8.allSatisfy { $0 < 0x80 }, "\(text)")
        }
        #expect(!"Montréal".isAllASCII && "Montreal".isAllASCII)
    }
}
