import Foundation
import SportsTimeTestSupport
import Testing
@testable import SportsTimeRunner
import SportsTimeCore

@Suite struct DiffTests {
    static let scraped = Instant(iso8601: "2023-03-01T00:00:00Z")!
    static let revised = Instant(iso8601: "2023-05-20T00:00:00Z")!

    static func game(
        _ date: String, _ away: String, _ home: String, start: String?, espn: String,
        stadium: String = "fenway-park", deprecatedAt: Instant? = nil, modified: Instant = scraped
    ) -> Game {
        TestRecords.game(
            season: "2023", date: LocalDate(iso8601: date)!, start: start.flatMap { Instant(iso8601: $0) },
            away: "mlb-\(away)", home: "mlb-\(home)", stadium: stadium, sourceIds: ["espn": espn],
            deprecatedAt: deprecatedAt, lastModified: modified, source: "espn")
    }

    static func stadium(_ id: String, _ name: String, modified: Instant = scraped) -> Stadium {
        TestRecords.stadium(
            id, name: name, city: "Cleveland", region: "OH", latitude: 41.4962, longitude: -81.6852, capacity: 34_830,
            openedYear: 1994, lastModified: modified)
    }

    static func write<R: Codable & Sendable & Identifiable>(
        _ records: [R], kind: ArtifactKind, to path: String,
        in repo: TestRepository
    ) throws where R.ID == String {
        let envelope = Envelope(kind: kind, producer: Producer(stage: "merge"), records: records)
        try repo.write(path, String(decoding: try envelope.canonicalData(), as: UTF8.self))
    }

    /// A repository with two revisions of merge outputs: HEAD as committed, the working tree after a data fix.
    static func twoRevisions() throws -> TestRepository {
        let repo = try TestRepository(git: true)
        try repo.spec(
            """
            stages:
              merge:
                cmd: [/bin/true]
                outs: [out/merge]

            """)
        try write(
            [
                game("2023-06-01", "det", "bos", start: "2023-06-01T23:10:00Z", espn: "401471001"),
                game("2023-06-02", "nyy", "bos", start: "2023-06-02T23:10:00Z", espn: "401471002"),
                game("2023-06-03", "nyy", "bos", start: "2023-06-03T17:35:00Z", espn: "401471003"),
                game("2023-06-04", "tor", "bos", start: "2023-06-04T17:35:00Z", espn: "401471004"),
            ], kind: .games, to: "out/merge/games/mlb-2023.json", in: repo)
        try write(
            [stadium("progressive-field", "Jacobs Field"), stadium("fenway-park", "Fenway Park")],
            kind: .stadiums, to: "out/merge/stadiums.json", in: repo)
        try repo.write("out/merge/rejects.jsonl", "")
        try repo.write("out/merge/README.md", "# Merge\n")
        try repo.shell("git add -A && git commit -qm 'first run'")

        try write(
            [
                // Rescheduled: same day, earlier start.
                game("2023-06-01", "det", "bos", start: "2023-06-01T17:05:00Z", espn: "401471001", modified: revised),
                // Moved to the next day: a new id, matched by its ESPN id.
                game("2023-06-05", "nyy", "bos", start: "2023-06-05T23:10:00Z", espn: "401471002", modified: revised),
                // Deprecated by a newer batch that no longer lists it.
                game(
                    "2023-06-03", "nyy", "bos", start: "2023-06-03T17:35:00Z", espn: "401471003",
                    deprecatedAt: revised, modified: revised),
                game("2023-06-04", "tor", "bos", start: "2023-06-04T17:35:00Z", espn: "401471004"),
                game("2023-06-06", "tb", "bos", start: nil, espn: "401471006", modified: revised),
            ], kind: .games, to: "out/merge/games/mlb-2023.json", in: repo)
        try write(
            [stadium("progressive-field", "Progressive Field", modified: revised), stadium("fenway-park", "Fenway Park")],
            kind: .stadiums, to: "out/merge/stadiums.json", in: repo)
        let reject = Reject(
            file: "out/normalize/games/espn.json", line: 12, reason: "stadium 'Polo Grounds' is not known",
            recordId: "espn:401471099")
        try repo.write("out/merge/rejects.jsonl", String(decoding: RejectsWriter.data([reject]), as: UTF8.self))
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

            4 files: 2 added, 0 removed, 4 changed; 2 lines added, 0 removed in 1 text file.

            | file | added | removed | changed |
            |---|---:|---:|---:|
            | `out/merge/README.md` | 2 lines | 0 lines | |
            | `out/merge/games/mlb-2023.json` | 1 | 0 | 3 |
            | `out/merge/rejects.jsonl` | 1 | 0 | 0 |
            | `out/merge/stadiums.json` | 0 | 0 | 1 |
            | **total** | **2** | **0** | **4** |

            ### `out/merge/README.md`

            2 lines added, 0 removed.

            ```diff
            @@ -1 +1,3 @@
             # Merge
            +
            +Updated.
            ```

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
        #expect(
            DiffRenderer.plain(files, scope: "out/merge/stadiums.json", revision: "HEAD") == """
                Changes in out/merge/stadiums.json against HEAD: 1 file: 0 added, 0 removed, 1 changed.

                file                     added  removed  changed
                out/merge/stadiums.json      0        0        1

                out/merge/stadiums.json (sportstime.stadiums): 0 added, 0 removed, 1 changed
                  renamed progressive-field: name "Jacobs Field" → "Progressive Field"; lastModified "2023-03-01T00:00:00Z" → "2023-05-20T00:00:00Z"

                """)
        let all = try diff.compare(revision: "HEAD", paths: ["out/merge"])
        let plain = DiffRenderer.plain(all, scope: "out/merge", revision: "HEAD")
        #expect(
            plain.hasPrefix(
                """
                Changes in out/merge against HEAD: 4 files: 2 added, 0 removed, 4 changed; 2 lines added, 0 removed in 1 text file.

                file                             added  removed  changed
                out/merge/README.md            2 lines  0 lines
                out/merge/games/mlb-2023.json        1        0        3
                out/merge/rejects.jsonl              1        0        0
                out/merge/stadiums.json              0        0        1
                total                                2        0        4

                out/merge/README.md: 2 lines added, 0 removed
                  @@ -1 +1,3 @@
                   # Merge
                  +
                  +Updated.

                out/merge/games/mlb-2023.json (sportstime.games): 1 added, 0 removed, 3 changed

                """), "\(plain)")
    }

    @Test func longDiffsAreSummarisedWithCountsFirst() throws {
        let repo = try TestRepository(git: true)
        try repo.spec("stages:\n  merge:\n    cmd: [/bin/true]\n    outs: [out/merge]\n")
        try Self.write([Self.stadium("fenway-park", "Fenway Park")], kind: .stadiums, to: "out/merge/stadiums.json", in: repo)
        try repo.shell("git add -A && git commit -qm one")
        let many =
            (1...40).map { Self.stadium(String(format: "park-%02d", $0), "Park \($0)") } + [Self.stadium("fenway-park", "Fenway Park")]
        try Self.write(many, kind: .stadiums, to: "out/merge/stadiums.json", in: repo)
        let files = try OutputDiff(root: repo.root).compare(revision: "HEAD", paths: ["out/merge"])
        let markdown = DiffRenderer.markdown(files, scope: "out/merge", revision: "HEAD", perFile: 5)
        let lines = markdown.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines[2] == "1 file: 40 added, 0 removed, 0 changed.")
        #expect(lines[6] == "| `out/merge/stadiums.json` | 40 | 0 | 0 |")
        #expect(markdown.contains("- added `park-05`\n- … and 35 more changes (`sportstime diff HEAD` lists all)\n"))
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
        let envelope = Envelope(
            kind: .stadiums, producer: Producer(stage: "merge"),
            inputs: [InputReference(path: "fixtures/reference/stadiums.csv", sha256: String(repeating: "b", count: 64))],
            records: [
                Self.stadium("progressive-field", "Progressive Field", modified: Self.revised),
                Self.stadium("fenway-park", "Fenway Park"),
            ])
        try repo.write("out/merge/stadiums.json", String(decoding: try envelope.canonicalData(), as: UTF8.self))
        let files = try OutputDiff(root: repo.root).compare(revision: "HEAD", paths: ["out/merge"])
        #expect(
            DiffRenderer.markdown(files, scope: "out/merge", revision: "HEAD")
                == "No record changes in `out/merge` against `HEAD`.\n\n1 file differs only in the hashes of its inputs (`out/merge/stadiums.json`).\n"
        )
        #expect(
            DiffRenderer.plain(files, scope: "out/merge", revision: "HEAD")
                == "No record changes in out/merge against HEAD.\n1 file differs only in the hashes of its inputs (out/merge/stadiums.json).\n"
        )
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
        let diffs = RecordDiff.compare(
            old: ["out/merge/games/mlb-2023.json": try bytes(before)],
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

    /// Many files whose inputs alone changed are one line, with the folders they are in.
    @Test func manyInputsOnlyFilesAreOneLine() throws {
        let repo = try TestRepository(git: true)
        try repo.spec("stages:\n  merge:\n    cmd: [/bin/true]\n    outs: [out/merge]\n")
        func write(_ hash: Character) throws {
            let inputs = [InputReference(path: "fixtures/x.csv", sha256: String(repeating: hash, count: 64))]
            for index in 1...3 {
                let envelope = Envelope(
                    kind: .stadiums, producer: Producer(stage: "merge"), inputs: inputs,
                    records: [Self.stadium("park-\(index)", "Park \(index)")])
                try repo.write("out/merge/s\(index).json", String(decoding: try envelope.canonicalData(), as: UTF8.self))
                try repo.write("out/plan/p\(index).json", String(decoding: try envelope.canonicalData(), as: UTF8.self))
            }
        }
        try write("a")
        try repo.write(
            "out/merge/stadiums.json",
            String(
                decoding: try Envelope(
                    kind: .stadiums, producer: Producer(stage: "merge"),
                    records: [Self.stadium("fenway-park", "Fenway Park")]
                ).canonicalData(), as: UTF8.self))
        try repo.shell("git add -A && git commit -qm one")
        try write("b")
        try Self.write([Self.stadium("fenway-park", "Fenway Park, Boston")], kind: .stadiums, to: "out/merge/stadiums.json", in: repo)
        let files = try OutputDiff(root: repo.root).compare(revision: "HEAD", paths: ["out"])
        let plain = DiffRenderer.plain(files, scope: "out/", revision: "HEAD")
        #expect(
            plain.hasPrefix(
                """
                Changes in out/ against HEAD: 1 file: 0 added, 0 removed, 1 changed.
                6 more files differ only in the hashes of their inputs (out/merge/ 3, out/plan/ 3).

                """), "\(plain)")
        #expect(!plain.contains("s1.json"))
    }

    /// The committed plan of a request, as JSON text, with `edits` applied to its record line (first match each).
    static func plan(_ edits: [(String, String)] = []) throws -> String {
        var text = String(
            decoding: try #require(
                FileManager.default.contents(
                    atPath: TestRepository.packageRoot.appendingPathComponent("out/plan/mlb-boston-june-week.json").path)), as: UTF8.self)
        for (old, new) in edits {
            let range = try #require(text.range(of: old), "\(old) not in the plan")
            text.replaceSubrange(range, with: new)
        }
        return text
    }

    static func planRepository(_ edits: [(String, String)]) throws -> TestRepository {
        let repo = try TestRepository(git: true)
        try repo.spec("stages:\n  plan:\n    cmd: [/bin/true]\n    outs: [out/plan]\n")
        try repo.write("out/plan/mlb-boston-june-week.json", try plan())
        try repo.shell("git add -A && git commit -qm plan")
        try repo.write("out/plan/mlb-boston-june-week.json", try plan(edits))
        return repo
    }

    @Test func aPlanDiffLeadsWithWhatTheTravellerSeesAndHidesSearchStatistics() throws {
        let repo = try Self.planRepository([
            (
                "\"awayTeamId\":\"mlb-det\",\"awayTeamName\":\"Detroit Tigers\",\"city\":\"Philadelphia\",\"gameId\":\"mlb-2023-2023-06-05-det-at-phi\"",
                "\"awayTeamId\":\"mlb-nym\",\"awayTeamName\":\"New York Mets\",\"city\":\"Philadelphia\",\"gameId\":\"mlb-2023-2023-06-05-nym-at-phi\""
            ),
            ("\"drivingKilometres\":1048.5", "\"drivingKilometres\":1148.5"),
            ("\"labelsExpanded\":400", "\"labelsExpanded\":401"),
        ])
        let files = try OutputDiff(root: repo.root).compare(revision: "HEAD", paths: ["out/plan"])
        let plain = DiffRenderer.plain(files, scope: "out/plan", revision: "HEAD")
        #expect(
            plain.hasSuffix(
                """
                out/plan/mlb-boston-june-week.json (sportstime.trip-plan): 0 added, 0 removed, 1 changed
                  changed mlb-boston-june-week: option 1: 7 games, 7 days (2023-06-05 to 2023-06-11), 652 → 714 mi and 10.5 h driving, score 7
                    option 1 adds 2023-06-05 New York Mets at Philadelphia Phillies, Citizens Bank Park (mlb-2023-2023-06-05-nym-at-phi)
                    option 1 drops 2023-06-05 Detroit Tigers at Philadelphia Phillies, Citizens Bank Park (mlb-2023-2023-06-05-det-at-phi)
                    fields: options[0].score.drivingKilometres 1048.5 → 1148.5; options[0].visits[0].awayTeamId "mlb-det" → "mlb-nym"; options[0].visits[0].awayTeamName "Detroit Tigers" → "New York Mets"; options[0].visits[0].gameId "mlb-2023-2023-06-05-det-at-phi" → "mlb-2023-2023-06-05-nym-at-phi"; 1 search statistic (--all shows it)

                """), "\(plain)")
        #expect(!plain.contains("labelsExpanded"))
        let all = DiffRenderer.plain(files, scope: "out/plan", revision: "HEAD", showAll: true)
        #expect(all.contains("search.labelsExpanded 400 → 401"))
        let markdown = DiffRenderer.markdown(files, scope: "out/plan", revision: "HEAD")
        #expect(
            markdown.contains(
                """
                - changed `mlb-boston-june-week`: option 1: 7 games, 7 days (2023-06-05 to 2023-06-11), 652 → 714 mi and 10.5 h driving, score 7
                  - option 1 adds 2023-06-05 New York Mets at Philadelphia Phillies, Citizens Bank Park (mlb-2023-2023-06-05-nym-at-phi)
                """), "\(markdown)")
        #expect(markdown.contains("1 search statistic (`--all` shows it)"))
    }

    @Test func aPlanWhoseSearchStatisticsAloneChangedIsOneLine() throws {
        let repo = try Self.planRepository([("\"labelsExpanded\":400", "\"labelsExpanded\":330"), ("\"arcs\":667", "\"arcs\":668")])
        let files = try OutputDiff(root: repo.root).compare(revision: "HEAD", paths: ["out/plan"])
        #expect(
            DiffRenderer.plain(files, scope: "out/plan", revision: "HEAD")
                == "No record changes in out/plan against HEAD.\n1 file differs only in search statistics (out/plan/mlb-boston-june-week.json; --all shows them).\n"
        )
        let all = DiffRenderer.plain(files, scope: "out/plan", revision: "HEAD", showAll: true)
        #expect(all.contains("  changed mlb-boston-june-week: search.arcs 667 → 668; search.labelsExpanded 400 → 330\n"), "\(all)")
    }

    /// `sportstime diff-files` as git's external diff driver: `git diff` of an envelope lists its records.
    @Test func gitDiffThroughTheDriverListsRecords() throws {
        let repo = try Self.twoRevisions()
        let runner = try TestRepository.runnerExecutable()
        try repo.write(".gitattributes", "out/**/*.json diff=sportstime\nout/**/*.jsonl diff=sportstime\n")
        try repo.shell("git config diff.sportstime.command '\(runner.path) diff-files'")
        let output = try repo.shell("git diff -- out/merge/stadiums.json out/merge/README.md")
        #expect(
            output.contains(
                """
                Changes in out/merge/stadiums.json against its other version: 1 file: 0 added, 0 removed, 1 changed.
                """), "\(output)")
        #expect(output.contains("  renamed progressive-field: name \"Jacobs Field\" → \"Progressive Field\""), "\(output)")
        // Files the attributes do not name keep git's own diff.
        #expect(output.contains("+Updated."))
        // Two plain files, and a usage error.
        try repo.write("a.json", "{}\n")
        #expect(try TestProcess.run(runner, ["diff-files", "a.json"], in: repo.root).code == 64)
        let two = try repo.shell("'\(runner.path)' diff-files a.json out/merge/README.md")
        #expect(two.contains("out/merge/README.md: 3 lines added, 1 removed\n  @@ -1 +1,3 @@\n  -{}\n"), "\(two)")
    }
}
