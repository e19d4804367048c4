import Foundation
import SportsTimeTestSupport
import Testing
@testable import SportsTimeCore

/// The one JSON layer: every committed artifact reads and writes back to its exact bytes, the hand-written
/// record lines agree with the Codable path and with Foundation's encoder (the previous implementation),
/// and the parser is strict with located errors.
@Suite struct JSONLayerTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Every `.json` envelope under `out/`, with its kind.
    static func committedArtifacts() throws -> [(path: String, data: Data, kind: ArtifactKind)] {
        let out = root.appendingPathComponent("out")
        guard let walker = FileManager.default.enumerator(at: out, includingPropertiesForKeys: nil) else { return [] }
        var found: [(String, Data, ArtifactKind)] = []
        for case let url as URL in walker where url.pathExtension == "json" {
            let data = try Data(contentsOf: url)
            guard let header = try? JSONValueDecoder.decode(EnvelopeHeader.self, from: JSONParser.parse(data)),
                let kind = ArtifactKind(rawValue: header.kind)
            else { continue }
            found.append((String(url.path.dropFirst(root.path.count + 1)), data, kind))
        }
        return found.sorted { $0.0 < $1.0 }
    }

    /// Reads `data` as an envelope of `Record` and writes it back as every stage writes one.
    func roundTrip<Record: Codable & Sendable & Identifiable>(
        _ type: Record.Type, _ data: Data, _ path: String, _ kind: ArtifactKind
    ) throws -> Data where Record.ID == String {
        try EnvelopeReader.read(type, from: data, path: path, expecting: kind).canonicalData()
    }

    @Test func everyCommittedArtifactRoundTripsToItsBytes() throws {
        let artifacts = try Self.committedArtifacts()
        #expect(artifacts.count > 50, "expected the committed out/ tree")
        var kinds: Set<ArtifactKind> = []
        for (path, data, kind) in artifacts {
            let written: Data
            switch kind {
            case .rawGames: written = try roundTrip(RawGame.self, data, path, kind)
            case .games: written = try roundTrip(Game.self, data, path, kind)
            case .lineage: written = try roundTrip(GameLineage.self, data, path, kind)
            case .sports: written = try roundTrip(Sport.self, data, path, kind)
            case .stadiums: written = try roundTrip(Stadium.self, data, path, kind)
            case .teams: written = try roundTrip(Team.self, data, path, kind)
            case .leagueStructures: written = try roundTrip(LeagueStructure.self, data, path, kind)
            case .teamAliases: written = try roundTrip(TeamAlias.self, data, path, kind)
            case .stadiumAliases: written = try roundTrip(StadiumAlias.self, data, path, kind)
            case .unresolved: written = try roundTrip(UnresolvedName.self, data, path, kind)
            case .syncState: written = try roundTrip(SyncState.self, data, path, kind)
            case .mergeReport: written = try roundTrip(MergeReportRecord.self, data, path, kind)
            case .tripPlan: written = try roundTrip(TripPlan.self, data, path, kind)
            }
            kinds.insert(kind)
            if written != data {
                let mine = String(decoding: written, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
                let theirs = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
                let line = Array(zip(mine, theirs)).firstIndex { $0 != $1 } ?? min(mine.count, theirs.count)
                Issue.record(
                    "\(path):\(line + 1) is not written back byte for byte: \(line < mine.count ? String(mine[line]) : "(end)") vs \(line < theirs.count ? String(theirs[line]) : "(end)")"
                )
            }
        }
        #expect(kinds == Set(ArtifactKind.allCases), "every artifact kind is committed at least once")
    }

    /// Foundation's encoder with the settings artifacts used before the JSON layer.
    func foundationLine<T: Encodable>(_ value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    func handWritten<T: JSONLineCodable>(_ value: T) -> String {
        var writer = JSONWriter()
        value.write(to: &writer)
        return writer.text
    }

    /// Each hand-written record line is the Codable line, byte for byte, and reads back to the same value
    /// as the Codable reader; checked on every committed raw game, game and lineage record.
    func checkLines<T: JSONLineCodable & Codable & Equatable & Sendable>(_ type: T.Type, kind: ArtifactKind) throws -> Int {
        var checked = 0
        for (path, data, found) in try Self.committedArtifacts() where found == kind {
            let document = try JSONParser.parse(data)
            for (index, item) in (document["records"]?.arrayValue ?? []).enumerated() {
                let fast = try T(json: item, codingPath: [])
                let slow = try JSONValueDecoder.decode(T.self, from: item)
                #expect(fast == slow, "\(path) record \(index) reads differently")
                let line = handWritten(fast)
                #expect(line == item.compactText, "\(path) record \(index)")
                if index % 7 == 0 {
                    #expect(line == (try JSONValueEncoder.encode(slow).compactText))
                    #expect(line == (try foundationLine(slow)), "\(path) record \(index) differs from Foundation's encoder")
                }
                checked += 1
            }
        }
        return checked
    }

    @Test func handWrittenLinesMatchCodableAndFoundation() throws {
        #expect(try checkLines(RawGame.self, kind: .rawGames) > 10_000)
        #expect(try checkLines(Game.self, kind: .games) > 10_000)
        #expect(try checkLines(GameLineage.self, kind: .lineage) > 10_000)
        #expect(try checkLines(Sport.self, kind: .sports) >= 8)
        #expect(try checkLines(Team.self, kind: .teams) > 150)
        #expect(try checkLines(LeagueStructure.self, kind: .leagueStructures) > 40)
        #expect(try checkLines(TeamAlias.self, kind: .teamAliases) > 500)
        #expect(try checkLines(StadiumAlias.self, kind: .stadiumAliases) > 200)
    }

    @Test func aHandWrittenReferenceLineDropsNoFieldOfTheCodableForm() throws {
        // Every optional field set: a field added to a record type but not to its line fails here.
        let when = Instant(iso8601: "2026-05-01T23:05:00Z")!
        let from = LocalDate(year: 2020, month: 1, day: 2)!, until = LocalDate(year: 2024, month: 12, day: 31)!
        let sport = Sport(
            id: "xfl", abbreviation: "XFL", displayName: "X \"Football\" League", iconName: "football", colorHex: "#102030",
            seasonStartMonth: 2, seasonEndMonth: 5, isActive: false, isBuiltIn: false, matchWindowDays: 4,
            lastModified: when, schemaVersion: 2, source: "s")
        let team = Team(
            id: "mlb-bos", sport: "mlb", market: "Boston", name: "Red Sox", abbreviation: "BOS", homeStadiumId: "fenway-park",
            conferenceId: "al", divisionId: "al-east", lastModified: when, source: "s")
        let structure = LeagueStructure(
            id: "al-east", sport: "mlb", level: .division, name: "AL East", abbreviation: "ALE", parentId: "al",
            displayOrder: 3, lastModified: when, source: "s")
        let teamAlias = TeamAlias(
            id: "a1", teamId: "mlb-bos", kind: .sourceCode, value: "BOS", validFrom: from, validUntil: until,
            sourceSystem: "retrosheet", lastModified: when, source: "s")
        let stadiumAlias = StadiumAlias(
            id: "s1", stadiumId: "fenway-park", name: "Fenway", validFrom: from, validUntil: until, sourceSystem: "espn",
            lastModified: when, source: "s")
        #expect(handWritten(sport) == (try foundationLine(sport)))
        #expect(handWritten(team) == (try foundationLine(team)))
        #expect(handWritten(structure) == (try foundationLine(structure)))
        #expect(handWritten(teamAlias) == (try foundationLine(teamAlias)))
        #expect(handWritten(stadiumAlias) == (try foundationLine(stadiumAlias)))
        #expect(try Sport(json: try JSONParser.parse(Data(handWritten(sport).utf8)), codingPath: []) == sport)
        #expect(try TeamAlias(json: try JSONParser.parse(Data(handWritten(teamAlias).utf8)), codingPath: []) == teamAlias)
    }

    @Test func aHandWrittenLineDropsNoFieldOfTheCodableForm() throws {
        // A game with every optional field set: a field added to `Game` but not to its line fails here.
        let when = Instant(iso8601: "2026-05-01T23:05:00Z")!
        let game = Game(
            id: "mlb-2026-2026-05-01-nyy-at-bos-g2", sport: "mlb", season: "2026", kind: .regular, startUTC: when,
            localDate: LocalDate(year: 2026, month: 5, day: 1)!, startKnowledge: .exact, homeTeamId: "mlb-bos",
            awayTeamId: "mlb-nyy", stadiumId: "fenway-park", neutralSite: true, gameNumber: 2, status: .postponed,
            makeupDate: LocalDate(year: 2026, month: 5, day: 2)!, sourceIds: ["b": "2", "a": "1"],
            deprecatedAt: when, formerIds: ["x"], provenance: "f.csv:3", inferred: [.kind], lastModified: when,
            source: "s")
        #expect(handWritten(game) == (try foundationLine(game)))
        let raw = RawGame(
            id: "s:1", source: "s", sport: "mlb", season: "2026", kind: .postseason, sourceGameId: "1",
            homeTeam: "BOS", awayTeam: "NYY", venue: "Fenway \"Park\"", city: "Boston\n", startUTC: when,
            date: LocalDate(year: 2026, month: 5, day: 1)!, dateZone: "venue", localTime: "19:05", timeTBD: false,
            gameNumber: 1, status: .final, makeupDate: LocalDate(year: 2026, month: 5, day: 3)!, neutralSite: false,
            provenance: "f.csv:2", dayNight: "night", inferred: [.status])
        #expect(handWritten(raw) == (try foundationLine(raw)))
        let row = LineageRow(
            source: "s", row: "f:1", batch: "b:2", recordId: game.id, sourceGameId: "9", lastModified: when,
            priority: 5, localDate: game.localDate, gameNumber: 2, startUTC: when, startKnowledge: .night,
            stadiumId: "fenway-park", status: .cancelled, kind: .exhibition, inferred: [.venue])
        let lineage = GameLineage(
            id: game.id, formerIds: ["y"], rows: [row, row],
            fields: ["venue": FieldOrigin(row: 1, rule: "r"), "date": FieldOrigin(row: 0, rule: "q")])
        #expect(handWritten(lineage) == (try foundationLine(lineage)))
    }

    /// Every committed rejects line (ingest's and normalize's quarantine) is written back byte for byte by
    /// the hand-written line, which is also Foundation's line and reads back to the same reject.
    @Test func rejectsLinesAreWrittenLikeFoundation() throws {
        let out = Self.root.appendingPathComponent("out")
        let walker = try #require(FileManager.default.enumerator(at: out, includingPropertiesForKeys: nil))
        var checked = 0
        for case let url as URL in walker where url.lastPathComponent == "rejects.jsonl" {
            let data = try Data(contentsOf: url)
            var rejects: [Reject] = []
            for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
                let reject = try Reject(json: try JSONParser.parse(Data(line.utf8)), codingPath: [])
                #expect(handWritten(reject) == String(line))
                #expect(try foundationLine(reject) == String(line))
                #expect(try JSONDecoder().decode(Reject.self, from: Data(line.utf8)) == reject)
                rejects.append(reject)
            }
            #expect(RejectsWriter.data(rejects) == data, "\(url.path) is not written back byte for byte")
            checked += rejects.count
        }
        #expect(checked > 1_000)
        // Every optional field set, and none: a field added to `Reject` but not to its line fails here.
        let full = Reject(file: "f \"q\".csv", line: 7, reason: "bad\tvalue / é", raw: "a,b\n\u{1}", recordId: "s:1")
        let bare = Reject(file: "f.csv", line: nil, reason: "r")
        for reject in [full, bare] {
            #expect(handWritten(reject) == (try foundationLine(reject)))
            #expect(try Reject(json: try JSONParser.parse(Data(handWritten(reject).utf8)), codingPath: []) == reject)
        }
    }

    /// A lineage's field origins: set, replace and remove by key, iterate (and write) in key order.
    @Test func fieldOriginsKeepKeyOrder() {
        var origins = FieldOrigins()
        for (i, key) in ["venue", "date", "status", "kind", "start"].enumerated() { origins[key] = FieldOrigin(row: i, rule: key) }
        #expect(origins.map(\.key) == ["date", "kind", "start", "status", "venue"])
        origins["kind"] = FieldOrigin(row: 9, rule: "again")
        origins["start"] = nil
        origins["missing"] = nil
        #expect(origins.map(\.key) == ["date", "kind", "status", "venue"])
        #expect(origins["kind"] == FieldOrigin(row: 9, rule: "again") && origins["start"] == nil && origins.count == 4)
        #expect(origins == FieldOrigins(Dictionary(uniqueKeysWithValues: origins.map { ($0.key, $0.value) })))
    }

    /// A value written once and copied in (`encoded`) takes a value's place: after a key, and as an element
    /// with its comma; the shared one-record origins are written as origins built entry by entry are.
    @Test func anEncodedValueTakesAValuesPlace() throws {
        var w = JSONWriter()
        w.beginObject()
        w.key("a")
        w.encoded(Array(#"{"x":1}"#.utf8))
        w.key("b")
        w.beginArray()
        w.encoded(Array("2".utf8))
        w.encoded(Array("[3]".utf8))
        w.int(4)
        w.endArray()
        w.endObject()
        #expect(w.text == #"{"a":{"x":1},"b":[2,[3],4]}"#)

        var built = FieldOrigins()
        for group in FieldGroup.allCases { built[group.rawValue] = FieldOrigin(row: 0, rule: "only source") }
        #expect(built == .onlySource)
        var entryByEntry = JSONWriter()
        built.write(to: &entryByEntry)
        #expect(FieldOrigins.onlySourceJSON == entryByEntry.bytes)
        var line = JSONWriter()
        GameLineage(id: "g", formerIds: nil, rows: [], fields: built).write(to: &line)
        #expect(line.text == #"{"fields":"# + entryByEntry.text + #","id":"g","rows":[]}"#)
    }
    // MARK: Writer against Foundation on random values

    @Test func stringsAndDoublesAreWrittenLikeFoundation() throws {
        var generator = SplitMix64(seed: 20261124)
        let alphabet: [Unicode.Scalar] = [
            "a", "Z", "/", "\"", "\\", "\n", "\r", "\t", "\u{08}", "\u{0C}", "\u{01}", "\u{1F}",
            "\u{7F}", "é", "\u{2028}", "😀", " ", "0",
        ]
        for _ in 0..<2000 {
            var text = String.UnicodeScalarView()
            for _ in 0..<Int.random(in: 0...12, using: &generator) { text.append(alphabet.randomElement(using: &generator)!) }
            let string = String(text)
            #expect(try CanonicalJSON.compact([string]) == foundationLine([string]))
            let exponent = Double(Int.random(in: -20...20, using: &generator))
            let double = Double.random(in: -1000...1000, using: &generator) * pow(10, exponent)
            let rounded = (double * 1000).rounded() / 1000
            #expect(try CanonicalJSON.compact([double, rounded, -0.0, 1e21]) == foundationLine([double, rounded, -0.0, 1e21]))
        }
    }

    // MARK: Parser

    func syntaxError(_ text: String) -> JSONSyntaxError? {
        do { _ = try JSONParser.parse(text); return nil } catch { return error as? JSONSyntaxError }
    }

    @Test func parserRefusesWhatRFC8259Refuses() {
        #expect(syntaxError(#"{"a": 1, "b": 2, "a": 3}"#)?.message == "duplicate key 'a'")
        #expect(syntaxError(#"{"a": 1, "b": 2, "a": 3}"#)?.column == 18)
        #expect(syntaxError("[1, 2,]")?.message == "unexpected character ']'")
        #expect(syntaxError("[01]")?.message == "invalid number: a leading zero")
        #expect(syntaxError("{\"a\":\n\"x\ty\"}")?.line == 2)
        #expect(syntaxError("[1] // note")?.message == "unexpected text after the JSON value")
        #expect(syntaxError("{\"a\": tru}")?.message == "invalid literal (expected 'true')")
        #expect(syntaxError("[\"\\x\"]")?.message == "invalid escape '\\x'")
        #expect(
            syntaxError(String(repeating: "[", count: InputLimits.jsonDepth + 1))?.message.hasPrefix(JSONParser.nestingMessagePrefix)
                == true)
        #expect(syntaxError("{\r\n\"a\": 1,\r\n\"a\": 2}") == JSONSyntaxError(line: 3, column: 1, message: "duplicate key 'a'"))
    }

    @Test func parserKeepsNumbersAsWrittenAndDecodesEscapes() throws {
        let value = try JSONParser.parse("\u{FEFF}" + #"{"b": [1.50, -0, 2e3], "a": "\ud83c\udfc0\u00e9\/"}"#)
        #expect(value["b"] == .array([.number("1.50"), .number("-0"), .number("2e3")]))
        #expect(value["a"] == .string("🏀é/"))
        #expect(value.compactText == #"{"a":"🏀é/","b":[1.50,-0,2e3]}"#)
        let nodes = try JSONParser.parseNodes("{\n\"z\": 1,\n\"a\": {\"k\": [true, null]}\n}")
        guard case .object(let members) = nodes.value else { Issue.record("not an object"); return }
        #expect(members.map(\.key) == ["z", "a"])
        #expect(members[1].value.line == 3)
        #expect(nodes.compact == #"{"z":1,"a":{"k":[true,null]}}"#)
    }

    @Test func aRecordOfTheWrongShapeIsLocatedTheSameByBothPaths() throws {
        let line =
            #"{"awayTeam":"NYY","date":20260501,"dateZone":"venue","homeTeam":"BOS","id":"s:1","kind":"regular","provenance":"f:1","season":"2026","source":"s","sport":"mlb","status":"scheduled","timeTBD":true}"#
        let item = try JSONParser.parse(line)
        let path: [any CodingKey] = [AnyCodingKey("records"), AnyCodingKey(intValue: 1)]
        var messages: [String] = []
        do { _ = try RawGame(json: item, codingPath: path) } catch { messages.append(describe(error)) }
        do { _ = try JSONValueDecoder.decode(RawGame.self, from: item, codingPath: path) } catch { messages.append(describe(error)) }
        #expect(messages == ["records[1].date: expected String", "records[1].date: expected String"])
    }

    /// Stadiums are read without Codable (`JSONLineDecodable`) and written with it: every committed
    /// stadium reads the same both ways, coordinates are kept as written (not rounded), and a bad record
    /// fails with the same message, naming the same first problem.
    @Test func stadiumsReadWithoutCodableAsCodableReadsThem() throws {
        var checked = 0
        for (path, data, found) in try Self.committedArtifacts() where found == .stadiums {
            for (index, item) in (try JSONParser.parse(data)["records"]?.arrayValue ?? []).enumerated() {
                #expect(
                    try Stadium(json: item, codingPath: []) == (try JSONValueDecoder.decode(Stadium.self, from: item)), "\(path) \(index)")
                checked += 1
            }
        }
        #expect(checked > 150)
        let precise = try JSONParser.parse(
            #"{"city":"Boston","country":"US","id":"fenway-park","lastModified":"2026-05-01T00:00:00Z","latitude":42.3466764,"longitude":-71.0972178,"name":"Fenway Park","region":"MA","schemaVersion":1,"source":"s","timeZone":"America/New_York"}"#
        )
        let fast = try Stadium(json: precise, codingPath: [])
        #expect(fast == (try JSONValueDecoder.decode(Stadium.self, from: precise)))
        #expect(fast.latitude == 42.3466764 && fast.longitude == -71.0972178)
        let path: [any CodingKey] = [AnyCodingKey("records"), AnyCodingKey(intValue: 3)]
        for line in [
            #"{"city":"Boston","country":"US","id":"x","lastModified":"2026-05-01T00:00:00Z","latitude":"42","longitude":-71,"region":"MA","schemaVersion":1,"source":"s","timeZone":"America/New_York"}"#,
            #"{"city":"Boston","country":"US","id":"x","lastModified":"yesterday","latitude":42,"longitude":-71,"name":"n","region":"MA","schemaVersion":1,"source":"s","timeZone":"z","capacity":1.5}"#,
            #"{"city":"Boston","country":"US","id":"x","lastModified":"2026-05-01T00:00:00Z","latitude":42,"longitude":null,"name":"n","region":"MA","schemaVersion":1,"source":"s","timeZone":"z"}"#,
            #"[1]"#,
        ] {
            let item = try JSONParser.parse(line)
            var messages: [String] = []
            do { _ = try Stadium(json: item, codingPath: path) } catch { messages.append(describe(error)) }
            do { _ = try JSONValueDecoder.decode(Stadium.self, from: item, codingPath: path) } catch { messages.append(describe(error)) }
            #expect(messages.count == 2 && messages[0] == messages[1], "\(line): \(messages)")
        }
    }

    /// Every standard scalar is encoded and decoded through the keyed, unkeyed and single-value
    /// containers (the narrower integers and Float by the shared paths), and a value that does not fit is
    /// refused at its path.
    @Test func everyStandardScalarTakesEachContainer() throws {
        struct Scalars: Codable, Equatable {
            var b = true, s = "x", d = 1.5, i = -3
            var f: Float = 2.5
            var i8: Int8 = -8, i16: Int16 = -16, i32: Int32 = -32, i64: Int64 = -64
            var u: UInt = 1, u8: UInt8 = 8, u16: UInt16 = 16, u32: UInt32 = 32, u64: UInt64 = 64
            var list: [Int8] = [1, -2], floats: [Float] = [0.5], wide: [UInt64] = [7]
        }
        let value = Scalars()
        let json = try JSONValueEncoder.encode(value)
        #expect(
            json.compactText
                == #"{"b":true,"d":1.5,"f":2.5,"floats":[0.5],"i":-3,"i16":-16,"i32":-32,"i64":-64,"i8":-8,"list":[1,-2],"#
                + #""s":"x","u":1,"u16":16,"u32":32,"u64":64,"u8":8,"wide":[7]}"#)
        #expect(try JSONValueDecoder.decode(Scalars.self, from: json) == value)
        #expect(try JSONValueEncoder.encode(Int8(-8)).compactText == "-8")
        #expect(try JSONValueDecoder.decode(UInt16.self, from: JSONParser.parse("16")) == 16)
        let yaml =
            "b: true\ns: x\nd: 1.5\ni: -3\nf: 2.5\ni8: -8\ni16: -16\ni32: -32\ni64: -64\nu: 1\nu8: 8\nu16: 16\n"
            + "u32: 32\nu64: 64\nlist: [1, -2]\nfloats: [0.5]\nwide: [7]\n"
        #expect(try StrictYAML.decode(Scalars.self, from: yaml, path: "s.yaml") == value)

        func context(_ run: () throws -> Void) -> String {
            do { try run() } catch let error as DecodingError {
                if case .dataCorrupted(let context) = error {
                    return context.codingPath.map(\.stringValue).joined(separator: "/") + ": " + context.debugDescription
                }
            } catch let error as EncodingError {
                if case .invalidValue(_, let context) = error {
                    return context.codingPath.map(\.stringValue).joined(separator: "/") + ": " + context.debugDescription
                }
            } catch {}
            return "no error"
        }
        #expect(
            context { _ = try JSONValueDecoder.decode([String: Int8].self, from: JSONParser.parse(#"{"a":300}"#)) }
                == "a: Number 300 does not fit in Int8.")
        #expect(
            context { _ = try JSONValueDecoder.decode([[UInt8]].self, from: JSONParser.parse("[[1,-1]]")) }
                == "Index 0/Index 1: Number -1 does not fit in UInt8.")
        #expect(context { _ = try JSONValueEncoder.encode([[Double.nan]]) } == "Index 0/Index 0: Unable to encode nan directly in JSON.")
        #expect(context { _ = try JSONValueEncoder.encode(["a": [Float.infinity]]) } == "a/Index 0: Unable to encode inf directly in JSON.")
    }
}
