import Foundation
import Testing
@testable import SportsTimeCore

@Suite struct EnvelopeTests {
    let producer = Producer(stage: "normalize", version: "9.9.9")

    func sampleStadiums() -> [Stadium] {
        let when = Instant(iso8601: "2026-01-02T03:04:05Z")!
        return [
            Stadium(
                id: "td-garden", name: "TD Garden", city: "Boston", region: "MA", country: "USA",
                latitude: 42.366303, longitude: -71.062228, timeZone: "America/New_York",
                capacity: 19_580, openedYear: 1995, lastModified: when, source: "reference"),
            Stadium(
                id: "fenway-park", name: "Fenway Park", city: "Boston", region: "MA", country: "USA",
                latitude: 42.346389, longitude: -71.0975, timeZone: "America/New_York",
                lastModified: when, source: "reference"),
        ]
    }

    @Test func canonicalBytesAreSortedOneRecordPerLineWithTrailingNewline() throws {
        let envelope = Envelope(
            kind: .stadiums, producer: producer,
            inputs: [InputReference(path: "fixtures/reference/stadiums.csv", sha256: "ab")],
            records: sampleStadiums())
        let text = String(decoding: try envelope.canonicalData(), as: UTF8.self)
        let expected = """
            {
              "inputs": [
                {"path":"fixtures/reference/stadiums.csv","sha256":"ab"}
              ],
              "kind": "sportstime.stadiums",
              "producer": {"stage":"normalize","version":"9.9.9"},
              "records": [
                {"city":"Boston","country":"USA","id":"fenway-park","lastModified":"2026-01-02T03:04:05Z","latitude":42.346389,"longitude":-71.0975,"name":"Fenway Park","region":"MA","schemaVersion":1,"source":"reference","timeZone":"America/New_York"},
                {"capacity":19580,"city":"Boston","country":"USA","id":"td-garden","lastModified":"2026-01-02T03:04:05Z","latitude":42.366303,"longitude":-71.062228,"name":"TD Garden","openedYear":1995,"region":"MA","schemaVersion":1,"source":"reference","timeZone":"America/New_York"}
              ],
              "schemaVersion": 1
            }

            """
        #expect(text == expected)
    }

    @Test func recordOrderOfInputDoesNotChangeBytes() throws {
        let a = Envelope(kind: .stadiums, producer: producer, records: sampleStadiums())
        let b = Envelope(kind: .stadiums, producer: producer, records: sampleStadiums().reversed())
        #expect(try a.canonicalData() == b.canonicalData())
    }

    @Test func roundTripsThroughTheReader() throws {
        let envelope = Envelope(kind: .stadiums, producer: producer, records: sampleStadiums())
        let data = try envelope.canonicalData()
        let read = try EnvelopeReader.read(Stadium.self, from: data, path: "out/x.json", expecting: .stadiums)
        #expect(read.records.map(\.id).sorted() == ["fenway-park", "td-garden"])
        #expect(try read.canonicalData() == data)
    }

    @Test func newerSchemaVersionIsRefusedNamingFileAndBothVersions() throws {
        let data = Data(
            #"{"kind":"sportstime.games","schemaVersion":3,"producer":{"stage":"normalize","version":"2.0.0"},"records":[]}"#.utf8)
        do {
            _ = try EnvelopeReader.read(Game.self, from: data, path: "out/normalize/games.json", expecting: .games)
            Issue.record("expected an error")
        } catch let error as PipelineError {
            #expect(error.exitCode == 2)
            #expect(
                error.description
                    == "out/normalize/games.json:1: error: schemaVersion 3 is newer than this build reads (up to 2). Rebuild, or re-run normalize with this build."
            )
        }
    }

    @Test func unexpectedKindIsRefused() throws {
        let data = Data(#"{"kind":"sportstime.teams","schemaVersion":1,"records":[]}"#.utf8)
        #expect(throws: PipelineError.self) {
            _ = try EnvelopeReader.read(Game.self, from: data, path: "a.json", expecting: .games)
        }
        do { _ = try EnvelopeReader.header(of: data, path: "a.json", expecting: .games) } catch {
            #expect("\(error)".contains("kind 'sportstime.teams' where 'sportstime.games' was expected"))
        }
    }

    @Test func notAnEnvelopeIsAnInvalidInput() {
        #expect(throws: PipelineError.self) {
            _ = try EnvelopeReader.header(of: Data("[1,2]".utf8), path: "a.json", expecting: .games)
        }
    }

    @Test func badRecordIsReportedAtItsLine() throws {
        let envelope = Envelope(kind: .stadiums, producer: producer, records: sampleStadiums())
        var text = String(decoding: try envelope.canonicalData(), as: UTF8.self)
        text = text.replacingOccurrences(of: #""latitude":42.366303"#, with: #""latitude":"north""#)
        do {
            _ = try EnvelopeReader.read(Stadium.self, from: Data(text.utf8), path: "s.json", expecting: .stadiums)
            Issue.record("expected an error")
        } catch let error as PipelineError {
            #expect(error.description.hasPrefix("s.json:7: error: records do not match sportstime.stadiums v1"))
        }
    }

    @Test func emptyRecordArrayIsWrittenOnOneLine() throws {
        let envelope = Envelope<Stadium>(kind: .stadiums, producer: producer, records: [])
        let text = String(decoding: try envelope.canonicalData(), as: UTF8.self)
        #expect(text.contains("\"records\": [],\n"))
        #expect(text.hasSuffix("}\n"))
    }

    @Test func slashesAreNotEscapedAndNonFiniteNumbersThrow() throws {
        #expect(try CanonicalJSON.compact(["a/b"]) == #"["a/b"]"#)
        #expect(throws: (any Error).self) { _ = try CanonicalJSON.compact([Double.nan]) }
    }

    @Test func roundingFixesPrecisionAndNeverWritesNegativeZero() throws {
        #expect((-0.0000001).rounded(toPlaces: 6) == 0)
        #expect(try CanonicalJSON.compact([(-0.0000001).rounded(toPlaces: 6)]) == "[0]")
        #expect(42.34638891.rounded(toPlaces: 6) == 42.346389)
    }

    @Test func rejectsAreJSONLinesSortedByFileAndLine() throws {
        let data = RejectsWriter.data([
            Reject(file: "b.csv", line: 2, reason: "blank home team"),
            Reject(file: "a.csv", line: 9, reason: "bad date", raw: "x,y"),
            Reject(file: "a.csv", line: 3, reason: "TBD"),
        ])
        #expect(
            String(decoding: data, as: UTF8.self) == """
                {"file":"a.csv","line":3,"reason":"TBD"}
                {"file":"a.csv","line":9,"raw":"x,y","reason":"bad date"}
                {"file":"b.csv","line":2,"reason":"blank home team"}

                """)
    }

    @Test func diagnosticsReadAsPathLineColumnErrorWhatAndFix() {
        let d = Diagnostic(
            .error, at: SourceLocation(path: "pipeline/pipeline.yaml", line: 4, column: 3),
            "unknown key 'cmdd'", fix: "Use one of: cmd, deps")
        #expect(d.description == "pipeline/pipeline.yaml:4:3: error: unknown key 'cmdd'. Use one of: cmd, deps.")
    }

    @Test func aHugeValueQuotedBackIsShortened() {
        let id = String(repeating: "x", count: 1_000_000)
        let d = Diagnostic(
            .error, at: SourceLocation(path: "fixtures/requests/a.yaml", line: 9, column: 20),
            "unknown stadium '\(id)'", fix: "Use a known stadium id")
        let expected =
            "fixtures/requests/a.yaml:9:20: error: unknown stadium '" + String(repeating: "x", count: 39)
            + "…(1000002 characters)…xxx'. Use a known stadium id."
        #expect(d.description == expected)
        #expect(
            Diagnostic(.error, "bad name 'a\nb\r\u{1}\tc'", fix: "Rename it").description
                == "error: bad name 'a\\nb\\r\\u{1}\tc'. Rename it.")
        let list = (1...300).map { "stadium-\($0)" }.joined(separator: ", ")
        #expect(Diagnostic(.error, "x", fix: "Use one of: \(list)").description == "error: x. Use one of: \(list).")
    }
}
