import Foundation
import SportsTimeTestSupport
import Testing

@testable import SportsTimeCore

/// The record generator (`sportstime-records`), run as the real executable: the committed records are
/// as it writes them, it writes what a declaration says, and it refuses a body it could misread.
@Suite struct RecordDeclarationTests {
    private func scratch(_ files: [String: String]) throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("records-\(UUID().uuidString)")
        for (path, text) in files {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        return root
    }

    private func generator(_ arguments: [String]) throws -> ProcessResult {
        try TestProcess.run(try Executables.url("sportstime-records"), arguments)
    }

    @Test func theCommittedRecordsAreAsTheirDeclarationsSay() throws {
        let result = try generator(["--check", PackagePaths.root.path])
        #expect(result.status == 0, "\(result.stderr)")
    }

    @Test func aNewFieldReachesTheInitializerTheReaderAndTheWriterInKeyOrder() throws {
        let declaration = """
            public struct Visit: Codable, Sendable, JSONLineCodable {
                // codec: line
                public var id: String
                public var tags: [String]? // codec: omitted when empty
                public var count: Int = 1
            }

            """
        let root = try scratch(["Sources/M/Visit.swift": declaration])
        defer { try? FileManager.default.removeItem(at: root) }
        #expect(try generator(["--check", root.path]).status == 1)
        #expect(try generator([root.path]).status == 0)
        let text = try String(contentsOf: root.appendingPathComponent("Sources/M/Visit.swift"), encoding: .utf8)
        #expect(text.contains("public init(\n        id: String, tags: [String]? = nil, count: Int = 1\n    ) {"))
        #expect(text.contains("id: f.string(\"id\"), tags: f.optionalStrings(\"tags\"), count: f.int(\"count\")"))
        let writes = text.split(separator: "\n").filter { $0.contains("w.field(") }.map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(
            writes == [
                "w.field(\"count\", count)", "w.field(\"id\", id)", "if let tags, !tags.isEmpty { w.field(\"tags\", tags) }",
            ])
        // Written once, the output is stable: a second run changes nothing.
        #expect(try generator(["--check", root.path]).status == 0)
    }

    @Test func aBodyTheGeneratorCouldMisreadIsRefusedAtItsLine() throws {
        let declaration = """
            public struct Visit: Codable, Sendable, JSONLineCodable {
                // codec: line
                public var id: String
                public var label: String { id.uppercased() }
            }

            """
        let root = try scratch(["Sources/M/Visit.swift": declaration])
        defer { try? FileManager.default.removeItem(at: root) }
        let result = try generator([root.path])
        #expect(result.status == 2)
        #expect(result.stderr.contains("Sources/M/Visit.swift:4: error: a computed property belongs in an extension"))
        let unknown = try scratch(["Sources/M/Visit.swift": declaration.replacingOccurrences(of: "// codec: line", with: "// codec: lines")]
        )
        defer { try? FileManager.default.removeItem(at: unknown) }
        #expect(try generator([unknown.path]).stderr.contains("Sources/M/Visit.swift:2: error: unknown codec option 'lines'"))
    }

    /// A version 1 game (`timeTBD`, no `startKnowledge`) reads through each generated reader alike.
    @Test func aVersionOneGameReadsTheSameThroughEveryReader() throws {
        let line =
            #"{"awayTeamId":"mlb-nyy","homeTeamId":"mlb-bos","id":"g","kind":"regular","lastModified":"2026-01-01T00:00:00Z","localDate":"2026-06-01","neutralSite":false,"schemaVersion":1,"season":"2026","source":"s","sourceIds":{},"sport":"mlb","stadiumId":"fenway-park","startUTC":"2026-06-01T23:10:00Z","status":"scheduled","timeTBD":false}"#
        let direct = Array(line.utf8).withUnsafeBufferPointer { Game.directlyDecoded($0) }
        let general = try Game(json: try JSONParser.parse(Data(line.utf8)), codingPath: [])
        let codable = try JSONValueDecoder.decode(Game.self, from: try JSONParser.parse(Data(line.utf8)))
        #expect(direct == general)
        #expect(codable == general)
        #expect(general.startKnowledge == .exact)
        let missing = line.replacingOccurrences(of: #","timeTBD":false"#, with: "")
        #expect(Array(missing.utf8).withUnsafeBufferPointer { Game.directlyDecoded($0) } == nil)
        #expect(throws: DecodingError.self) { try Game(json: try JSONParser.parse(Data(missing.utf8)), codingPath: []) }
    }
}
