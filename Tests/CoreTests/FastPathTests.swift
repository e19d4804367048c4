import Foundation
import Testing
@testable import SportsTimeCore

/// The fast paths of the JSON layer and the time types agree with the general code they short-cut:
/// escaping found eight bytes at a time, the writer's copy-on-write buffer, canonical dates and instants
/// parsed and written without Strings, ASCII game ids built byte by byte, and envelopes read line by line
/// (with the whole-file reading for anything that is not one record per line).
@Suite struct FastPathTests {
    /// The escaping rules of `JSONWriter`, one byte at a time.
    static func quotedByteByByte(_ text: String) -> String {
        var out: [UInt8] = [0x22]
        for byte in text.utf8 {
            switch byte {
            case 0x22: out += Array(#"\""#.utf8)
            case 0x5C: out += Array(#"\\"#.utf8)
            case 0x0A: out += Array(#"\n"#.utf8)
            case 0x0D: out += Array(#"\r"#.utf8)
            case 0x09: out += Array(#"\t"#.utf8)
            case 0x08: out += Array(#"\b"#.utf8)
            case 0x0C: out += Array(#"\f"#.utf8)
            case ..<0x20: out += Array(String(format: "\\u%04x", Int(byte)).utf8)
            default: out.append(byte)
            }
        }
        out.append(0x22)
        return String(decoding: out, as: UTF8.self)
    }

    @Test func escapingAtEveryPositionMatchesTheByteRule() {
        let specials: [Character] = ["\"", "\\", "\n", "\r", "\t", "\u{08}", "\u{0C}", "\u{01}", "\u{1F}", "é", "/"]
        // Lengths on both sides of the short-string copy (32 bytes) and of the eight-byte scan; keys too.
        for length in 0..<40 {
            for position in 0..<max(length, 1) {
                for special in specials {
                    var characters = Array(repeating: Character("a"), count: length)
                    if position < length { characters[position] = special }
                    let text = String(characters)
                    var writer = JSONWriter()
                    writer.string(text)
                    #expect(writer.text == Self.quotedByteByByte(text), "\(text.debugDescription)")
                    var keyed = JSONWriter()
                    keyed.beginObject(); keyed.key(text); keyed.int(1); keyed.endObject()
                    #expect(keyed.text == "{" + Self.quotedByteByByte(text) + ":1}", "\(text.debugDescription)")
                }
            }
        }
        var writer = JSONWriter()
        writer.string("naïve – 東京 ⚾️ ~\u{7F}")
        #expect(writer.text == "\"naïve – 東京 ⚾️ ~\u{7F}\"")
    }

    /// The word-at-a-time scan for the end of a plain run finds the byte the byte-by-byte rule finds, for
    /// runs of every length at every offset, with several special bytes in a word (a borrow from one may
    /// flag the bytes above it) and bytes next to the special ones (`!` `#` `[` `]`, 0x1F, 0x20, 0x80).
    @Test func theEndOfAPlainRunIsTheFirstByteTheRuleStopsAt() {
        let alphabet: [UInt8] = [0x00, 0x01, 0x1F, 0x20, 0x21, 0x22, 0x23, 0x5B, 0x5C, 0x5D, 0x61, 0x7F, 0x80, 0xA2, 0xDC, 0xFF]
        var random = SystemRandomNumberGenerator()
        for _ in 0..<4000 {
            let count = Int.random(in: 0...40, using: &random)
            // Mostly plain bytes, so that runs are long enough to cross words.
            let bytes = (0..<count).map { _ in
                Int.random(in: 0..<4, using: &random) == 0 ? alphabet.randomElement(using: &random)! : UInt8(ascii: "a")
            }
            let start = Int.random(in: 0...count, using: &random)
            let end = Int.random(in: start...count, using: &random)
            var expected = start
            while expected < end, bytes[expected] >= 0x20, bytes[expected] != 0x22, bytes[expected] != 0x5C { expected += 1 }
            bytes.withUnsafeBufferPointer { buffer in
                let found = JSONWriter.endOfPlainRun(buffer.baseAddress ?? UnsafePointer(bitPattern: 1)!, from: start, to: end)
                #expect(found == expected, "\(bytes) from \(start) to \(end)")
            }
        }
    }

    /// Foundation's directory enumerator, as `ArtifactFiles.files(under:suffix:)` listed files before it
    /// read folders itself: the oracle the listing must agree with.
    static func filesByFoundation(under directory: URL, suffix: String) -> [String] {
        guard
            let enumerator = FileManager.default.enumerator(
                at: directory, includingPropertiesForKeys: [.isRegularFileKey], options: [.skipsHiddenFiles])
        else { return [] }
        var found: [URL] = []
        for case let url as URL in enumerator where url.lastPathComponent.hasSuffix(suffix) {
            if (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true { found.append(url) }
        }
        return found.map(\.path).sorted()
    }

    @Test func listingFilesAgreesWithFoundationsEnumerator() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("listing-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: base) }
        let tree = base.appendingPathComponent("tree")
        let manager = FileManager.default
        for folder in ["sub/deeper", ".hidden", "dir.json", "sub/.inner", "empty"] {
            try manager.createDirectory(at: tree.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
        try manager.createDirectory(at: base.appendingPathComponent("elsewhere"), withIntermediateDirectories: true)
        for file in [
            "a.json", "b.txt", "sub/b.json", "sub/deeper/c.json", "sub/é ü.json", "sub/x.JSON", ".x.json", ".hidden/h.json",
            "sub/.inner/i.json", "dir.json/inside.json", "sub/100%;#.json",
        ] {
            try Data(file.utf8).write(to: tree.appendingPathComponent(file))
        }
        try Data().write(to: base.appendingPathComponent("elsewhere/o.json"))
        try manager.createSymbolicLink(atPath: tree.appendingPathComponent("link-a.json").path, withDestinationPath: "a.json")
        try manager.createSymbolicLink(atPath: tree.appendingPathComponent("linked").path, withDestinationPath: "../elsewhere")
        try manager.createSymbolicLink(atPath: tree.appendingPathComponent("broken.json").path, withDestinationPath: "missing.json")
        try manager.createSymbolicLink(atPath: base.appendingPathComponent("rootlink").path, withDestinationPath: "tree")
        #expect(mkfifo(tree.appendingPathComponent("fifo.json").path, 0o644) == 0)
        let roots = [
            tree, URL(fileURLWithPath: tree.path + "/"), tree.appendingPathComponent("sub/../sub"),
            URL(fileURLWithPath: base.path + "//tree//sub"), base.appendingPathComponent("rootlink"),
            base.appendingPathComponent("missing"), tree.appendingPathComponent("a.json"), tree.appendingPathComponent("empty"),
        ]
        for root in roots {
            for suffix in [".json", "", "json"] {
                let listed = ArtifactFiles.files(under: root, suffix: suffix).map(\.path)
                #expect(listed == Self.filesByFoundation(under: root, suffix: suffix), "\(root.path) \(suffix)")
            }
        }
        #expect(ArtifactFiles.files(under: tree, suffix: ".json").count == 6)
    }

    @Test func pathsJoinedAsTextAreTheURLsPaths() {
        for base in ["/srv/repo", "/", "/a b/é", "/x/.pipeline"] {
            for relative in [
                "", "a", "a/", "a//", "a/b/c.json", "a//b", "./a", "a/../b", ".pipeline/cache", "é ü/x", "%41", "a?b#c", "/",
                "/a", "x/y/z/",
            ] {
                #expect(
                    PathText.join(base, relative) == URL(fileURLWithPath: base).appendingPathComponent(relative).path,
                    "\(base) + \(relative)")
            }
        }
        for path in ["/a/b/c.json", "c.json", "/c.json", "a/b/", "/srv/repo/out/é.json"] {
            let (folder, name) = PathText.splitLast(path)
            #expect(folder + name == path)
            #expect(!name.contains("/"))
            if path.contains("/") { #expect(folder.hasSuffix("/")) }
        }
    }

    @Test func literalKeysAreWrittenAsStringKeysAre() {
        var literal = JSONWriter()
        var text = JSONWriter()
        literal.beginObject(); text.beginObject()
        literal.key("x" as StaticString); text.key(String("x")); literal.int(1); text.int(1)
        // A single-scalar literal has no pointer to copy from: written through its description.
        literal.key(StaticString(unicodeScalarLiteral: "y")); text.key(String("y")); literal.int(0); text.int(0)
        literal.field("awayTeamId", "mlb-bos"); text.key(String("awayTeamId")); text.string("mlb-bos")
        literal.field("a_long_key_of_more_than_sixteen_bytes", 2); text.key(String("a_long_key_of_more_than_sixteen_bytes")); text.int(2)
        literal.key("é" as StaticString); text.key(String("é")); literal.null(); text.null()
        literal.endObject(); text.endObject()
        #expect(literal.text == text.text)
        #expect(literal.text == #"{"x":1,"y":0,"awayTeamId":"mlb-bos","a_long_key_of_more_than_sixteen_bytes":2,"é":null}"#)
    }

    /// An enumeration read from its bytes in place is what `init(rawValue:)` makes of the same text.
    @Test func enumerationsReadFromBytesAsFromTheirRawValues() {
        func check<E: RawRepresentable & CaseIterable & Equatable>(_ table: RawValueTable<E>, _ extra: [String])
        where E.RawValue == String {
            for text in E.allCases.map(\.rawValue) + extra {
                let bytes = Array(text.utf8)
                let read = bytes.withUnsafeBufferPointer { table.value(of: $0) }
                #expect(read == E(rawValue: text), "\(E.self) '\(text)'")
            }
        }
        let near = ["", "Final", "fina", "finals", "regular ", "day\u{0}", "nüght", "postponed!"]
        check(GameKind.rawValues, near)
        check(GameStatus.rawValues, near)
        check(StartKnowledge.rawValues, near)
        // Through the direct reader: an escaped value is left to the general reader, which unescapes it.
        let line =
            #"{"awayTeamId":"a","homeTeamId":"h","id":"x","kind":"regul\u0061r","lastModified":"2026-01-01T00:00:00Z","localDate":"2026-01-02","neutralSite":false,"schemaVersion":2,"season":"2026","source":"s","sourceIds":{},"sport":"mlb","stadiumId":"p","startKnowledge":"unknown","status":"final"}"#
        #expect(Array(line.utf8).withUnsafeBufferPointer { Game.directlyDecoded($0) } == nil)
        let plain = line.replacingOccurrences(of: #"regul\u0061r"#, with: "regular")
        let game = Array(plain.utf8).withUnsafeBufferPointer { Game.directlyDecoded($0) }
        #expect(game?.kind == .regular && game?.status == .final && game?.startKnowledge == .unknown)
        // Inferred fields are read from their bytes too; a name that is no field leaves the line to the
        // general reader, which refuses it.
        check(InferredField.rawValues, near + ["stadiumid", "venues"])
        let inferred = plain.replacingOccurrences(of: #""id":"x","#, with: #""id":"x","inferred":["stadiumId","status"],"#)
        #expect(Array(inferred.utf8).withUnsafeBufferPointer { Game.directlyDecoded($0) }?.inferred == [.stadiumId, .status])
        let unknown = inferred.replacingOccurrences(of: #""status"]"#, with: #""weather"]"#)
        #expect(Array(unknown.utf8).withUnsafeBufferPointer { Game.directlyDecoded($0) } == nil)
        #expect(throws: DecodingError.self) { try Game(json: try JSONParser.parse(Data(unknown.utf8)), codingPath: []) }
    }

    /// A file large enough to be read on all cores reads every record into its place, in order; a bad
    /// record anywhere (in any chunk, or in two) fails the read with the error the whole-file reading
    /// gives, located at the first bad record, and nothing decoded before it is left behind.
    @Test func aLargeFileIsReadInChunksAndABadRecordInAnyChunkFailsItWhole() throws {
        let games = (0..<6_000).map { n in
            Game(
                id: String(format: "mlb-2026-g%05d", n), sport: "mlb", season: "2026", kind: .regular, startUTC: nil,
                localDate: LocalDate(year: 2026, month: 4, day: 1 + n % 28)!, startKnowledge: .unknown,
                homeTeamId: "mlb-bos", awayTeamId: "mlb-nyy", stadiumId: "fenway-park-\(n % 7)", neutralSite: false,
                gameNumber: nil, status: .scheduled, sourceIds: ["s": "\(n)"], provenance: "f.csv:\(n + 2)",
                lastModified: Instant(iso8601: "2026-01-01T00:00:00Z")!, source: "s")
        }
        let data = try Envelope(kind: .games, producer: Producer(stage: "test"), records: games).canonicalData()
        #expect(try EnvelopeReader.read(Game.self, from: data, path: "g.json", expecting: .games).records == games)

        func broken(at indices: [Int]) -> Data {
            var text = String(decoding: data, as: UTF8.self)
            for index in indices {
                let id = games[index].id
                text = text.replacingOccurrences(of: #""id":"\#(id)","kind":"regular""#, with: #""id":"\#(id)","kind":7"#)
            }
            return Data(text.utf8)
        }
        func failure(_ data: Data) -> String? {
            do {
                _ = try EnvelopeReader.read(Game.self, from: data, path: "g.json", expecting: .games)
                return nil
            } catch { return "\(error)" }
        }
        let late = try #require(failure(broken(at: [5_000])))
        let both = try #require(failure(broken(at: [100, 5_000])))
        #expect(late.hasPrefix("g.json:5006: error:") && late.contains("records[5000].kind"), "\(late)")
        #expect(both.hasPrefix("g.json:106: error:") && both.contains("records[100].kind"), "\(both)")
        #expect(both == failure(broken(at: [100])))
    }

    @Test func shortAndLongCopiesMoveEveryByte() {
        let source = (0..<80).map { UInt8($0 + 1) }
        for count in 0...70 {
            var target = [UInt8](repeating: 0, count: 80)
            source.withUnsafeBufferPointer { from in
                target.withUnsafeMutableBufferPointer { to in JSONWriter.copy(from.baseAddress!, to: to.baseAddress!, count: count) }
            }
            #expect(Array(target[..<count]) == Array(source[..<count]), "\(count)")
            #expect(target[count...].allSatisfy { $0 == 0 }, "\(count)")
        }
    }

    @Test func aCopiedWriterDoesNotShareItsBytes() {
        var first = JSONWriter(capacity: 1)
        first.beginArray()
        first.string("x")
        var second = first
        second.string("y")
        second.endArray()
        first.int(7)
        first.endArray()
        #expect(first.text == #"["x",7]"#)
        #expect(second.text == #"["x","y"]"#)
        #expect(first.data == Data(first.bytes))
        #expect(first.count == first.bytes.count)
    }

    @Test func nestedContainersGetTheirCommasBack() {
        var writer = JSONWriter()
        writer.beginObject()
        writer.key("a")
        writer.beginArray()
        writer.int(1)
        writer.beginObject()
        writer.endObject()
        writer.int(-12)
        writer.int(100)
        writer.endArray()
        writer.key("b")
        writer.bool(true)
        writer.endObject()
        #expect(writer.text == #"{"a":[1,{},-12,100],"b":true}"#)
    }

    @Test func datesAndInstantsAreWrittenAsTheirISOText() throws {
        let dates = [
            LocalDate(year: 2026, month: 6, day: 12)!, LocalDate(year: 1, month: 1, day: 1)!,
            LocalDate(year: 999, month: 12, day: 31)!, LocalDate(daysSinceEpoch: -800_000),
        ]
        for date in dates {
            var writer = JSONWriter()
            writer.date(date)
            #expect(writer.text == "\"\(date.iso8601)\"")
        }
        for seconds: Int64 in [0, 1_781_305_500, -1, 86_399, -62_135_596_800, -80_000_000_000, 253_402_300_799, 253_402_300_800] {
            let instant = Instant(secondsSinceEpoch: seconds)
            var writer = JSONWriter()
            writer.instant(instant)
            #expect(writer.text == "\"\(instant.iso8601)\"")
        }
    }

    @Test func canonicalDatesAndInstantsParseLikeTheGeneralForms() {
        #expect(LocalDate(iso8601: "2024-02-29") == LocalDate(year: 2024, month: 2, day: 29))
        #expect(LocalDate(iso8601: "2023-02-29") == nil)
        #expect(LocalDate(iso8601: "2024-13-01") == nil)
        #expect(LocalDate(iso8601: "0000-01-01") == nil)
        #expect(LocalDate(iso8601: "2024-1a-01") == nil)
        #expect(LocalDate(iso8601: "20240229") == LocalDate(year: 2024, month: 2, day: 29))
        #expect(LocalDate(iso8601: Substring("x2024-02-29").dropFirst()) == LocalDate(year: 2024, month: 2, day: 29))
        let base = Instant(utc: LocalDate(year: 2026, month: 6, day: 12)!, hour: 23, minute: 5)
        #expect(Instant(iso8601: "2026-06-12T23:05:00Z") == base)
        #expect(Instant(iso8601: "2026-06-12T23:05:60Z") == base.adding(seconds: 60))
        #expect(Instant(iso8601: "2026-06-12T24:00:00Z") == nil)
        #expect(Instant(iso8601: "2026-06-12T23:60:00Z") == nil)
        #expect(Instant(iso8601: "2026-02-30T23:05:00Z") == nil)
        #expect(Instant(iso8601: "2026-06-12T23:05:00+00") == base)
        #expect(Instant(iso8601: "2026-06-12T18:05:00-05:00") == base)
        #expect(Instant(iso8601: "2026-06-12 23:05:00Z") == base)
        #expect(Instant(iso8601: "2026-06-12T23:05Z") == base)
    }

    @Test func asciiGameIdsAreBuiltAsBefore() {
        let date = LocalDate(year: 2026, month: 5, day: 1)!
        #expect(
            Game.makeId(
                sport: "mlb", season: "2026", localDate: date, awayTeamId: "mlb-nyy", homeTeamId: "mlb-bos",
                gameNumber: 2) == "mlb-2026-2026-05-01-nyy-at-bos-g2")
        #expect(
            Game.makeId(
                sport: "mlb", season: "2026", localDate: date, awayTeamId: "nyy", homeTeamId: "mlb",
                gameNumber: 1) == "mlb-2026-2026-05-01-nyy-at-mlb")
        #expect(
            Game.makeId(
                sport: "mlb", season: "2026", localDate: date, awayTeamId: "mlb-", homeTeamId: "mlbx-bos",
                gameNumber: nil) == "mlb-2026-2026-05-01--at-mlbx-bos")
        #expect(
            Game.makeId(
                sport: "nba", season: "2025-26", localDate: date, awayTeamId: "nba-lal", homeTeamId: "nba-bos",
                gameNumber: 12) == "nba-2025-26-2026-05-01-lal-at-bos-g12")
        #expect(
            Game.makeId(
                sport: "mlb", season: "987", localDate: LocalDate(year: 987, month: 12, day: 31)!, awayTeamId: "mlb-nyy",
                homeTeamId: "mlb-bos", gameNumber: 1_234_567) == "mlb-987-0987-12-31-nyy-at-bos-g1234567")
        // Not ASCII: the general path, by characters.
        #expect(
            Game.makeId(
                sport: "mls", season: "2026", localDate: date, awayTeamId: "mls-montréal", homeTeamId: "mls-bos",
                gameNumber: nil) == "mls-2026-2026-05-01-montréal-at-bos")
    }

    /// A date plus days within its month is worked out without the day count; every date of six years
    /// (leap and century years among them: 1900, 2000, 2024) plus every offset from -40 to 40 days must
    /// equal the trip through the day count.
    @Test func addingDaysWithinTheMonthEqualsTheDayCount() {
        var checked = 0
        for year in [1900, 1999, 2000, 2023, 2024, 2025] {
            var date = LocalDate(year: year, month: 1, day: 1)!
            while date.year == year {
                for offset in -40...40 {
                    #expect(date.adding(days: offset) == date.addingThroughDayCount(days: offset), "\(date) + \(offset)")
                    checked += 1
                }
                date = date.addingThroughDayCount(days: 1)
            }
        }
        #expect(checked == (365 * 4 + 366 * 2) * 81)
    }

    static let producer = Producer(stage: "test", version: "0.0.0")

    static func games(_ count: Int) -> [Game] {
        (0..<count).map { index in
            let date = LocalDate(year: 2026, month: 4, day: 1)!.adding(days: index)
            return Game(
                id: Game.makeId(
                    sport: "mlb", season: "2026", localDate: date, awayTeamId: "mlb-nyy",
                    homeTeamId: "mlb-bos", gameNumber: nil),
                sport: "mlb", season: "2026", kind: .regular, startUTC: nil, localDate: date, startKnowledge: .unknown,
                homeTeamId: "mlb-bos", awayTeamId: "mlb-nyy", stadiumId: "fenway-park", neutralSite: false,
                gameNumber: nil, status: .scheduled, makeupDate: nil, sourceIds: ["s": "\(index)"], deprecatedAt: nil,
                formerIds: nil, provenance: "f.csv:\(index + 2)", inferred: nil,
                lastModified: Instant(secondsSinceEpoch: 1_700_000_000), schemaVersion: 2, source: "s")
        }
    }

    @Test func canonicalFilesReadLineByLineEqualTheWholeFileReading() throws {
        let envelope = Envelope(kind: .games, producer: Self.producer, meta: [.sport: "mlb"], records: Self.games(5000))
        let data = try envelope.canonicalData()
        #expect(CanonicalLayout(data)?.lines.count == 5000)
        let read = try EnvelopeReader.read(Game.self, from: data, path: "g.json", expecting: .games)
        #expect(read.records == envelope.records)
        #expect(read.meta == [.sport: "mlb"])
        #expect(try read.canonicalData() == data)
        // The same document laid out otherwise (two records on one line) still reads.
        var joined = String(decoding: data, as: UTF8.self)
        let separator = try #require(joined.range(of: "},\n    {"))
        joined.replaceSubrange(separator, with: "}, {")
        let again = try EnvelopeReader.read(Game.self, from: Data(joined.utf8), path: "g.json", expecting: .games)
        #expect(again.records == envelope.records)
    }

    @Test func aBadRecordLineIsReportedWhereTheWholeFileHasIt() throws {
        let envelope = Envelope(kind: .games, producer: Self.producer, records: Self.games(3))
        let lines = String(decoding: try envelope.canonicalData(), as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            .map(String.init)
        let first = try #require(lines.firstIndex { $0.hasPrefix("    {") }) // records[0], on line first + 1
        var duplicated = lines
        duplicated[first] = duplicated[first].replacingOccurrences(of: #""sport":"mlb""#, with: #""sport":"mlb","sport":"mlb""#)
        #expect(duplicated != lines)
        do {
            _ = try EnvelopeReader.read(Game.self, from: Data(duplicated.joined(separator: "\n").utf8), path: "g.json", expecting: .games)
            Issue.record("expected an error")
        } catch let error as PipelineError {
            #expect(error.description.hasPrefix("g.json:\(first + 1):"), "\(error.description)")
            #expect(error.description.contains("duplicate key 'sport'"))
        }
        var mistyped = lines
        mistyped[first + 1] = mistyped[first + 1].replacingOccurrences(of: #""neutralSite":false"#, with: #""neutralSite":"no""#)
        #expect(mistyped != lines)
        do {
            _ = try EnvelopeReader.read(Game.self, from: Data(mistyped.joined(separator: "\n").utf8), path: "g.json", expecting: .games)
            Issue.record("expected an error")
        } catch let error as PipelineError {
            #expect(
                error.description.hasPrefix("g.json:\(first + 2): error: records do not match sportstime.games v2: records[1].neutralSite"),
                "\(error.description)")
        }
    }

    @Test func theLineParserKeepsNoStateBetweenLines() throws {
        var parser = JSONParser.LineParser()
        let lines = [
            #"{"a":"long repeated value","b":"x","c":[1,{"d":"e"}]}"#, #"{"a":"long repeated value","b":"y"}"#,
            #"{"a":"other","z":"x"}"#, #"{"a":"","b":"x\"y"}"#, #"[1,"long repeated value"]"#,
        ]
        for line in lines {
            let viaLineParser = try Data(line.utf8).withUnsafeBytes { try parser.parse($0.bindMemory(to: UInt8.self)) }
            #expect(viaLineParser == (try JSONParser.parse(line)))
        }
        #expect(throws: JSONSyntaxError.self) {
            try Data(#"{"a":1,"a":2}"#.utf8).withUnsafeBytes { try parser.parse($0.bindMemory(to: UInt8.self)) }
        }
        let after = try Data(#"{"a":"x"}"#.utf8).withUnsafeBytes { try parser.parse($0.bindMemory(to: UInt8.self)) }
        #expect(after == .members([JSONMember(key: "a", value: .string("x"))]))
    }

    // MARK: records read straight from their bytes

    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Every record line of `paths` read by `JSONDirectReader` and by the parser with `init(json:)`.
    func compareDirect<R: JSONDirectDecodable & Equatable>(_ type: R.Type, files folder: String, named suffix: String) throws -> Int {
        var compared = 0
        let root = Self.repository.appendingPathComponent(folder)
        let enumerator = try #require(FileManager.default.enumerator(atPath: root.path))
        for case let name as String in enumerator where name.hasSuffix(suffix) {
            let data = try Data(contentsOf: root.appendingPathComponent(name))
            let layout = try #require(CanonicalLayout(data), "\(name)")
            try data.withUnsafeBytes { raw in
                let bytes = raw.bindMemory(to: UInt8.self)
                var parser = JSONParser.LineParser()
                for range in layout.lines {
                    let line = UnsafeBufferPointer(rebasing: bytes[range])
                    let general = try R(json: try parser.parse(line), codingPath: [])
                    let direct = R.directlyDecoded(line)
                    #expect(direct == general, "\(name): \(String(decoding: line, as: UTF8.self))")
                    compared += 1
                }
            }
        }
        return compared
    }

    @Test func everyCommittedGameAndRawGameReadsTheSameStraightFromItsBytes() throws {
        #expect(try compareDirect(RawGame.self, files: "out/ingest", named: "games.json") > 12_000)
        #expect(try compareDirect(Game.self, files: "out/normalize/games", named: ".json") > 10_000)
        #expect(try compareDirect(Game.self, files: "out/merge/games", named: ".json") > 10_000)
    }

    /// What the direct reader does not read the general way it leaves to it (nil): the whole envelope
    /// then reads the same, or fails with the same error, as before.
    @Test func theDirectReaderGivesUpOnWhatItDoesNotReadTheSameWay() throws {
        var writer = JSONWriter()
        Self.games(1)[0].write(to: &writer)
        let line = writer.text
        func direct(_ text: String) -> Game? {
            Data(text.utf8).withUnsafeBytes { Game.directlyDecoded($0.bindMemory(to: UInt8.self)) }
        }
        #expect(direct(line) == Self.games(1)[0])
        let variants = [
            line.replacingOccurrences(of: #""source":"s""#, with: #""source":"\u0073""#), // an escape
            line.replacingOccurrences(of: #""schemaVersion":2"#, with: #""schemaVersion":2.0"#), // not a plain integer
            line.replacingOccurrences(of: #""sport":"mlb""#, with: #""sport":"mlb","sport":"mlb""#), // repeated key
            line.replacingOccurrences(of: #"{"awayTeamId":"mlb-nyy","#, with: #"{"#) + "", // missing required key
            line.replacingOccurrences(of: #""kind":"regular""#, with: #""kind":"regular","note":"x""#), // unknown key
            line.replacingOccurrences(of: #""lastModified":"2023-11-14T22:13:20Z""#, with: #""lastModified":"2023-11-14T22:13:20+00:00""#),
            String(line.dropLast()), // cut short
            line + "x", // trailing bytes
        ]
        for variant in variants {
            #expect(variant != line)
            #expect(direct(variant) == nil, "\(variant)")
        }
        // The general reading of the escape and the other instant form is the same game.
        let escaped = try JSONParser.parse(variants[0])
        #expect(try Game(json: escaped, codingPath: []) == Self.games(1)[0])
        // Out of sorted order, the direct reader gives up; the general reader takes it.
        let reordered = line.replacingOccurrences(of: #"{"awayTeamId":"mlb-nyy","#, with: "{").dropLast() + #","awayTeamId":"mlb-nyy"}"#
        #expect(direct(String(reordered)) == nil)
        #expect(try Game(json: try JSONParser.parse(String(reordered)), codingPath: []) == Self.games(1)[0])
    }

    // MARK: a few records of a large file

    /// Every committed games file read for a few of its ids (and ids it does not hold) gives exactly the
    /// records the whole reading gives for them, in file order; every id reads straight from its line.
    @Test func readingSomeIdsOfACommittedFileEqualsFilteringTheWholeReading() throws {
        let root = Self.repository.appendingPathComponent("out/merge/games")
        var files = 0
        for name in try FileManager.default.contentsOfDirectory(atPath: root.path) where name.hasSuffix(".json") {
            let data = try Data(contentsOf: root.appendingPathComponent(name))
            let all = try EnvelopeReader.read(Game.self, from: data, path: name, expecting: .games).records
            let layout = try #require(CanonicalLayout(data))
            data.withUnsafeBytes { raw in
                let bytes = raw.bindMemory(to: UInt8.self)
                for (range, game) in zip(layout.lines, all) {
                    #expect(Game.directId(UnsafeBufferPointer(rebasing: bytes[range])) == game.id, "\(name): \(game.id)")
                }
            }
            let ids = Set(all.enumerated().filter { $0.offset % 7 == 3 }.map(\.element.id) + ["mlb-1900-01-01-a-at-b", ""])
            let some = try EnvelopeReader.records(Game.self, from: data, path: name, expecting: .games, ids: ids)
            #expect(some == all.filter { ids.contains($0.id) }, "\(name)")
            #expect(try EnvelopeReader.records(Game.self, from: data, path: name, expecting: .games, ids: []).isEmpty)
            files += 1
        }
        #expect(files > 10)
    }

    /// A line whose id does not read straight (an escape) is decoded whole and kept by its decoded id;
    /// a file in another layout, or with a bad wanted record, reads (or fails) as the whole reading does;
    /// a bad record that is not wanted is not read.
    @Test func readingSomeIdsFallsBackToTheWholeReading() throws {
        let games = Self.games(6)
        let envelope = Envelope(kind: .games, producer: Self.producer, meta: [.sport: "mlb"], records: games)
        let text = String(decoding: try envelope.canonicalData(), as: UTF8.self)
        let wanted: Set<String> = [games[1].id, games[4].id]
        func some(_ text: String, _ ids: Set<String> = wanted) throws -> [Game] {
            try EnvelopeReader.records(Game.self, from: Data(text.utf8), path: "g.json", expecting: .games, ids: ids)
        }
        #expect(try some(text) == [games[1], games[4]])
        // An id written with an escape: not read straight, still found.
        let escaped = text.replacingOccurrences(
            of: #""id":"\#(games[4].id)""#, with: #""id":"\#(games[4].id.replacingOccurrences(of: "m", with: "\\u006d"))""#)
        #expect(escaped != text)
        try escaped.data(using: .utf8)!.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            let layout = try #require(CanonicalLayout(Data(escaped.utf8)))
            #expect(Game.directId(UnsafeBufferPointer(rebasing: bytes[layout.lines[4]])) == nil)
        }
        #expect(try some(escaped) == [games[1], games[4]])
        // Two records on one line: not the canonical layout, read whole.
        var joined = text
        joined.replaceSubrange(try #require(joined.range(of: "},\n    {")), with: "}, {")
        #expect(try some(joined) == [games[1], games[4]])
        // A bad record that is wanted, or that cannot be passed over (a value of the wrong kind), fails as
        // the whole reading fails; one that is passed over and not wanted (an unknown status) is not read.
        func failure(_ read: () throws -> Any) -> String {
            do { _ = try read() } catch { return "\(error)" }
            return ""
        }
        let mistyped = text.replacingOccurrences(of: #""sourceIds":{"s":"4"}"#, with: #""sourceIds":{"s":4}"#)
        let unknown = text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.contains(#""sourceIds":{"s":"4"}"#)
                ? line.replacingOccurrences(of: #""status":"scheduled""#, with: #""status":"soon""#) : String(line)
        }.joined(separator: "\n")
        for bad in [mistyped, unknown] {
            #expect(bad != text)
            let whole = failure { try EnvelopeReader.read(Game.self, from: Data(bad.utf8), path: "g.json", expecting: .games) }
            #expect(whole.contains("records do not match"), "\(whole)")
            #expect(failure { try some(bad) } == whole)
        }
        #expect(failure { try some(mistyped, [games[1].id]) } == failure { try some(mistyped) })
        #expect(try some(unknown, [games[1].id]) == [games[1]])
        // The header is checked as always.
        #expect(throws: PipelineError.self) {
            try EnvelopeReader.records(Game.self, from: try envelope.canonicalData(), path: "g.json", expecting: .stadiums, ids: wanted)
        }
    }
}
