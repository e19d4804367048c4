import Foundation
import SportsTimeTestSupport
import Testing
@testable import SportsTimeRunner
import SportsTimeCore

@Suite struct DiffTests {
    static let scraped = Instant(iso8601: "2023-03-01T00:00:00Z")!
    static let revised = Instant(iso8601: "2023-05-20T00:00:00Z")!

    static func game(_ date: String, _ away: String, _ home: String, start: String?, espn: String,
                     stadium: String = "fenway-park", deprecatedAt: Instant? = nil, modified: Instant = scraped) -> Game {
        let day = LocalDate(iso8601: date)!
        return Game(id: Game.makeId(sport: "mlb", season: "2023", localDate: day, awayTeamId: "mlb-\(away)",
                                    homeTeamId: "mlb-\(home)", gameNumber: nil),
                    sport: "mlb", season: "2023", kind: .regular, startUTC: start.flatMap { Instant(iso8601: $0) },
                    localDate: day, timeTBD: start == nil, homeTeamId: "mlb-\(home)", awayTeamId: "mlb-\(away)",
                    stadiumId: stadium, neutralSite: false, gameNumber: nil, status: .scheduled,
                    sourceIds: ["espn": espn], deprecatedAt: deprecatedAt, lastModified: modified, source: "espn")
    }

    static func stadium(_ id: String, _ name: String, modified: Instant = scraped) -> Stadium {
        Stadium(id: id, name: name, city: "Cleveland", region: "OH", country: "US", latitude: 41.4962, longitude: -81.6852,
                timeZone: "America/New_York", capacity: 34_830, openedYear: 1994, lastModified: modified, source: "reference")
    }

    static func write<R: Codable & Sendable & Identifiable>(_ records: [R], kind: ArtifactKind, to path: String,
                                                              in repo: TestRepository) throws where R.ID == String {
        let envelope = Envelope(kind: kind, producer: Producer(stage: "merge"), records: records)
        try repo.write(path, String(decoding: try envelope.canonicalData(), as: UTF8.self))
    }

    /// A repository with two revisions of merge outputs: HEAD as committed, the working tree after a data fix.
    static func twoRevisions() throws -> TestRepository {
        let repo = try TestRepository(git: true)
        try repo.spec("""
            stages:
              merge:
                cmd: [/bin/true]
                outs: [out/merge]

            """)
        try write([
            game("2023-06-01", "det", "bos", start: "2023-06-01T23:10:00Z", espn: "401471001"),
            game("2023-06-02", "nyy", "bos", start: "2023-06-02T23:10:00Z", espn: "401471002"),
            game("2023-06-03", "nyy", "bos", start: "2023-06-03T17:35:00Z", espn: "401471003"),
            game("2023-06-04", "tor", "bos", start: "2023-06-04T17:35:00Z", espn: "401471004"),
        ], kind: .games, to: "out/merge/games/mlb-2023.json", in: repo)
        try write([stadium("progressive-field", "Jacobs Field"), stadium("fenway-park", "Fenway Park")],
                  kind: .stadiums, to: "out/merge/stadiums.json", in: repo)
        try repo.write("out/merge/rejects.jsonl", "")
        try repo.write("out/merge/README.md", "# Merge\n")
        try repo.shell("git add -A && git commit -qm 'first run'")

        try write([
            // Rescheduled: same day, earlier start.
            game("2023-06-01", "det", "bos", start: "2023-06-01T17:05:00Z", espn: "401471001", modified: revised),
            // Moved to the next day: a new id, matched by its ESPN id.
            game("2023-06-05", "nyy", "bos", start: "2023-06-05T23:10:00Z", espn: "401471002", modified: revised),
            // Deprecated by a newer batch that no longer lists it.
            game("2023-06-03", "nyy", "bos", start: "2023-06-03T17:35:00Z", espn: "401471003",
                 deprecatedAt: revised, modified: revised),
            game("2023-06-04", "tor", "bos", start: "2023-06-04T17:35:00Z", espn: "401471004"),
            game("2023-06-06", "tb", "bos", start: nil, espn: "401471006", modified: revised),
        ], kind: .games, to: "out/merge/games/mlb-2023.json", in: repo)
        try write([stadium("progressive-field", "Progressive Field", modified: revised), stadium("fenway-park", "Fenway Park")],
                  kind: .stadiums, to: "out/merge/stadiums.json", in: repo)
        let reject = Reject(file: "out/normalize/games/espn.json", line: 12, reason: "stadium 'Polo Grounds' is not known",
                            recordId: "espn:401471099")
        try repo.write("out/merge/rejects.jsonl", String(decoding: try RejectsWriter.data([reject]), as: UTF8.self))
        try repo.write("out/merge/README.md", "# Merge\n\nUpdated.\n")
        return repo
    }

    @Test func markdownShowsEachChangeAsOneReadableLine() throws {
        let repo = try Self.twoRevisions()
        let diff = OutputDiff(root: repo.root)
        let paths = try diff.paths(stages: [])
        #expect(paths == ["out/merge"])
        let files = try diff.compare(revision: "HEAD", paths: paths)
        let markdown = DiffRenderer.markdown(files, scope: OutputDiff.scope(of: paths), revision: "HEAD")
        let expected = """
            ## Changes in `out/merge` against `HEAD`

            4 files: 2 added, 0 removed, 5 changed.

            | file | added | removed | changed |
            |---|---:|---:|---:|
            | `out/merge/README.md` | 0 | 0 | 1 |
            | `out/merge/games/mlb-2023.json` | 1 | 0 | 3 |
            | `out/merge/rejects.jsonl` | 1 | 0 | 0 |
            | `out/merge/stadiums.json` | 0 | 0 | 1 |
            | **total** | **2** | **0** | **5** |

            ### `out/merge/README.md`

            - text: 1 line added, 0 removed

            ### `out/merge/games/mlb-2023.json`

            - rescheduled `mlb-2023-2023-06-01-det-at-bos`: startUTC `2023-06-01T23:10:00Z` → `2023-06-01T17:05:00Z`; lastModified `2023-03-01T00:00:00Z` → `2023-05-20T00:00:00Z`
            - rescheduled `mlb-2023-2023-06-02-nyy-at-bos` → `mlb-2023-2023-06-05-nyy-at-bos`: localDate `2023-06-02` → `2023-06-05`; startUTC `2023-06-02T23:10:00Z` → `2023-06-05T23:10:00Z`; lastModified `2023-03-01T00:00:00Z` → `2023-05-20T00:00:00Z`
            - deprecated `mlb-2023-2023-06-03-nyy-at-bos`: deprecatedAt *(none)* → `2023-05-20T00:00:00Z`; lastModified `2023-03-01T00:00:00Z` → `2023-05-20T00:00:00Z`
            - added `mlb-2023-2023-06-06-tb-at-bos`

            ### `out/merge/rejects.jsonl`

            - added: stadium 'Polo Grounds' is not known `espn:401471099` (`out/normalize/games/espn.json:12`)

            ### `out/merge/stadiums.json`

            - renamed `progressive-field`: name `Jacobs Field` → `Progressive Field`; lastModified `2023-03-01T00:00:00Z` → `2023-05-20T00:00:00Z`

            """
        #expect(markdown == expected, "\(markdown)")
    }

    @Test func plainTextListsEverything() throws {
        let repo = try Self.twoRevisions()
        let diff = OutputDiff(root: repo.root)
        let files = try diff.compare(revision: "HEAD", paths: ["out/merge/stadiums.json"])
        #expect(DiffRenderer.plain(files, scope: "out/merge/stadiums.json", revision: "HEAD") == """
            out/merge/stadiums.json (sportstime.stadiums): 0 added, 0 removed, 1 changed
              renamed progressive-field: name "Jacobs Field" → "Progressive Field"; lastModified "2023-03-01T00:00:00Z" → "2023-05-20T00:00:00Z"

            """)
    }

    @Test func longDiffsAreSummarisedWithCountsFirst() throws {
        let repo = try TestRepository(git: true)
        try repo.spec("stages:\n  merge:\n    cmd: [/bin/true]\n    outs: [out/merge]\n")
        try Self.write([Self.stadium("fenway-park", "Fenway Park")], kind: .stadiums, to: "out/merge/stadiums.json", in: repo)
        try repo.shell("git add -A && git commit -qm one")
        let many = (1...40).map { Self.stadium(String(format: "park-%02d", $0), "Park \($0)") } + [Self.stadium("fenway-park", "Fenway Park")]
        try Self.write(many, kind: .stadiums, to: "out/merge/stadiums.json", in: repo)
        let files = try OutputDiff(root: repo.root).compare(revision: "HEAD", paths: ["out/merge"])
        let markdown = DiffRenderer.markdown(files, scope: "out/merge", revision: "HEAD", perFile: 5)
        let lines = markdown.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines[2] == "1 file: 40 added, 0 removed, 0 changed.")
        #expect(lines[6] == "| `out/merge/stadiums.json` | 40 | 0 | 0 |")
        #expect(markdown.contains("- added `park-05`\n- … and 35 more (`sportstime diff HEAD` lists all)\n"))
        #expect(!markdown.contains("park-06"))
    }

    @Test func sameBytesMeanNoChanges() throws {
        let repo = try Self.twoRevisions()
        try repo.shell("git add -A && git commit -qm second")
        let files = try OutputDiff(root: repo.root).compare(revision: "HEAD", paths: ["out/merge"])
        #expect(files.isEmpty)
        #expect(DiffRenderer.markdown(files, scope: "out/merge", revision: "HEAD") == "No record changes in `out/merge` against `HEAD`.\n")
        let older = try OutputDiff(root: repo.root).compare(revision: "HEAD~1", paths: ["out/merge"])
        #expect(older.count == 4)
    }

    @Test func filesWhoseInputsAloneChangedAreOneNote() throws {
        let repo = try Self.twoRevisions()
        try repo.shell("git add -A && git commit -qm second")
        let envelope = Envelope(kind: .stadiums, producer: Producer(stage: "merge"),
                                inputs: [InputReference(path: "fixtures/reference/stadiums.csv", sha256: String(repeating: "b", count: 64))],
                                records: [Self.stadium("progressive-field", "Progressive Field", modified: Self.revised),
                                          Self.stadium("fenway-park", "Fenway Park")])
        try repo.write("out/merge/stadiums.json", String(decoding: try envelope.canonicalData(), as: UTF8.self))
        let files = try OutputDiff(root: repo.root).compare(revision: "HEAD", paths: ["out/merge"])
        #expect(DiffRenderer.markdown(files, scope: "out/merge", revision: "HEAD")
                == "No record changes in `out/merge` against `HEAD`.\n\n1 more file differs only in the hashes of its inputs.\n")
        #expect(DiffRenderer.plain(files, scope: "out/merge", revision: "HEAD")
                == "out/merge/stadiums.json: only the hashes of its inputs changed\n")
    }

    @Test func anUnknownRevisionIsAUsageError() throws {
        let repo = try Self.twoRevisions()
        do {
            _ = try OutputDiff(root: repo.root).compare(revision: "no-such-branch", paths: ["out/merge"])
            Issue.record("accepted")
        } catch let error as PipelineError {
            #expect(error.exitCode == 64)
            #expect(error.description.contains("'no-such-branch' is not a commit in this repository"))
        }
    }

    @Test func theCommandPrintsMarkdownForOneStage() throws {
        let repo = try Self.twoRevisions()
        let result = try TestProcess.run(try TestRepository.runnerExecutable(), ["diff", "--stage", "merge", "--md"], in: repo.root)
        let output = result.stdout
        #expect(result.code == 0)
        #expect(output.hasPrefix("## Changes in `out/merge` against `HEAD`\n"))
        #expect(output.contains("- renamed `progressive-field`: name `Jacobs Field` → `Progressive Field`"))
    }

    @Test func aGameReDatedByAnotherSourceIsPairedByItsFormerIdAndAFilledStartIsNoReschedule() throws {
        let sunday = Self.game("2024-01-07", "hou", "ind", start: nil, espn: "x")
        var saturday = Self.game("2024-01-06", "hou", "ind", start: "2024-01-07T01:15:00Z", espn: "y")
        saturday.sourceIds = ["nflverse": "2023_18_HOU_IND"]
        saturday.formerIds = [sunday.id]
        var filled = Self.game("2023-06-01", "det", "bos", start: nil, espn: "401471001")
        let before = [sunday, filled]
        filled.startUTC = Instant(iso8601: "2023-06-01T23:10:00Z"); filled.startKnowledge = .exact
        func bytes(_ games: [Game]) throws -> Data {
            try Envelope(kind: .games, producer: Producer(stage: "merge"), records: games).canonicalData()
        }
        let diffs = RecordDiff.compare(old: ["out/merge/games/mlb-2023.json": try bytes(before)],
                                       new: ["out/merge/games/mlb-2023.json": try bytes([saturday, filled])])
        guard case .records(let added, let removed, let changed, _) = try #require(diffs.first).content else {
            Issue.record("expected a record diff"); return
        }
        #expect(added.isEmpty && removed.isEmpty)
        let moved = try #require(changed.first { $0.id == sunday.id })
        #expect(moved.newId == saturday.id && moved.label == .rescheduled)
        #expect(moved.fields.contains { $0.path == "localDate" })
        #expect(changed.first { $0.id == filled.id }?.label == .changed)
    }
}
