import Foundation
import struct SportsTimeTestSupport.SplitMix64
import Testing
@testable import SportsTimeRunner
import SportsTimeCore

/// Rendered files (Markdown, HTML, iCalendar, GeoJSON) are shown as unified line diffs whose counts are
/// git's.
@Suite struct TextDiffTests {
    static let renders = [
        "mls-2025-cascadia", "mlb-boston-june-week", "mlb-must-see-pair", "northeast-winter-nba-nhl",
        "nba-coast-to-coast-infeasible", "ufl-spring-2025",
    ]

    static func committed(_ path: String) throws -> Data {
        try #require(FileManager.default.contents(atPath: TestRepository.packageRoot.appendingPathComponent(path).path), "\(path) missing")
    }

    /// `git diff --numstat` of one file between HEAD and the working tree of `repo`.
    static func numstat(_ repo: TestRepository, _ path: String) throws -> (added: Int, removed: Int) {
        let line = try repo.shell("git diff --numstat --no-renames HEAD -- '\(path)'")
        let fields = line.split(whereSeparator: { $0 == "\t" || $0 == "\n" })
        guard fields.count >= 2, let added = Int(fields[0]), let removed = Int(fields[1]) else {
            throw TestFailure("unexpected numstat '\(line)'")
        }
        return (added, removed)
    }

    /// The new text rebuilt from the old one and the hunks (lines without their terminators).
    static func apply(_ diff: LineDiff, to old: Data) -> [String] {
        let lines = LineDiff.lines(old).map(LineDiff.withoutTerminator)
        var result: [String] = []
        var next = 0
        for hunk in diff.hunks {
            let start = hunk.oldStart - 1
            result += lines[next..<start]
            next = start
            for line in hunk.lines {
                switch line {
                case .context(let text): #expect(lines[next] == text); result.append(text); next += 1
                case .removed(let text): #expect(lines[next] == text); next += 1
                case .added(let text): result.append(text)
                }
            }
        }
        result += lines[next...]
        return result
    }

    @Test func calendarCountsAreGitsOnARealChangedTripCalendar() throws {
        let repo = try TestRepository(git: true)
        let path = "out/render/mls-2025-cascadia/trip.ics"
        let old = try Self.committed(path)
        try repo.write(path, String(decoding: old, as: UTF8.self))
        try repo.shell("git add -A && git commit -qm calendar")
        // A re-planned trip: one game replaced by two others, the description rewritten.
        let oldLines = LineDiff.lines(old)
        let other = LineDiff.lines(try Self.committed("out/render/mlb-boston-june-week/trip.ics"))
        let begin = try #require(oldLines.firstIndex { $0.hasPrefix("BEGIN:VEVENT") })
        let end = try #require(oldLines[begin...].firstIndex { $0.hasPrefix("END:VEVENT") })
        let otherBegin = try #require(other.firstIndex { $0.hasPrefix("BEGIN:VEVENT") })
        let otherEnds = other.indices.filter { other[$0].hasPrefix("END:VEVENT") }
        var newLines = Array(oldLines[..<begin]) + Array(other[otherBegin...otherEnds[1]]) + Array(oldLines[(end + 1)...])
        let description = try #require(newLines.firstIndex { $0.hasPrefix("DESCRIPTION:") })
        newLines[description] = "DESCRIPTION:Option 1 of 2: 5 games\\, May 10–18\\, 2025\\, 2\\,401 mi (3\\,864\r\n"
        let new = Data(newLines.joined().utf8)
        try repo.write(path, String(decoding: new, as: UTF8.self))

        let git = try Self.numstat(repo, path)
        let files = try OutputDiff(root: repo.root).compare(revision: "HEAD", paths: ["out"])
        let file = try #require(files.first)
        guard case .text(let diff) = file.content else { Issue.record("not a text diff: \(file.content)"); return }
        #expect(git.added > 10 && git.removed > 3)
        #expect(
            diff.added == git.added && diff.removed == git.removed,
            "ours +\(diff.added) -\(diff.removed), git +\(git.added) -\(git.removed)")
        #expect(file.counts.added == git.added && file.counts.removed == git.removed)
        #expect(Self.apply(diff, to: old) == Self.apply(LineDiff.compare(new, new), to: new))

        let plain = DiffRenderer.plain(files, scope: "out/", revision: "HEAD")
        #expect(plain.contains("out/render/mls-2025-cascadia/trip.ics: \(git.added) lines added, \(git.removed) removed\n  @@ -"))
        #expect(plain.contains("\n  -DESCRIPTION:Option 1 of 2: 4 games\\, May 10–18\\, 2025\\, 2\\,332 mi (3\\,752\n"))
        #expect(plain.contains("\n  +DESCRIPTION:Option 1 of 2: 5 games\\, May 10–18\\, 2025\\, 2\\,401 mi (3\\,864\n"))
        let markdown = DiffRenderer.markdown(files, scope: "out/", revision: "HEAD", perFile: 500)
        #expect(markdown.contains("| `out/render/mls-2025-cascadia/trip.ics` | \(git.added) lines | \(git.removed) lines | |\n"))
        #expect(markdown.contains("```diff\n@@ -"))
    }

    @Test func everyPairOfCommittedRendersCountsAsGitDoes() throws {
        let repo = try TestRepository(git: true)
        for name in ["trip.ics", "itinerary.md", "route.geojson", "itinerary.html"] {
            try repo.write("out/\(name)", String(decoding: try Self.committed("out/render/\(Self.renders[0])/\(name)"), as: UTF8.self))
        }
        try repo.shell("git add -A && git commit -qm first")
        for (index, render) in Self.renders.enumerated().dropFirst() {
            let name = ["trip.ics", "itinerary.md", "route.geojson", "itinerary.html"][index % 4]
            let old = try #require(FileManager.default.contents(atPath: repo.url("out/\(name)").path))
            let new = try Self.committed("out/render/\(render)/\(name)")
            try repo.write("out/\(name)", String(decoding: new, as: UTF8.self))
            let git = try Self.numstat(repo, "out/\(name)")
            let diff = LineDiff.compare(old, new)
            #expect(
                diff.added == git.added && diff.removed == git.removed,
                "\(render)/\(name): ours +\(diff.added) -\(diff.removed), git +\(git.added) -\(git.removed)")
            #expect(Self.apply(diff, to: old) == Self.apply(LineDiff.compare(new, new), to: new), "\(render)/\(name)")
            try repo.shell("git add -A && git commit -qm '\(render)'")
        }
    }

    @Test func randomEditsAreMinimalAndRebuildTheNewText() {
        var generator = SplitMix64(seed: 18)
        for _ in 0..<300 {
            let alphabet = ["a", "b", "c", "d"]
            let old = (0..<Int.random(in: 0...14, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }
            var new = old
            for _ in 0..<Int.random(in: 0...6, using: &generator) {
                switch Int.random(in: 0...2, using: &generator) {
                case 0 where !new.isEmpty: new.remove(at: Int.random(in: 0..<new.count, using: &generator))
                case 1 where !new.isEmpty:
                    new[Int.random(in: 0..<new.count, using: &generator)] = alphabet.randomElement(using: &generator)!
                default: new.insert(alphabet.randomElement(using: &generator)!, at: Int.random(in: 0...new.count, using: &generator))
                }
            }
            let a = Data(old.map { $0 + "\n" }.joined().utf8), b = Data(new.map { $0 + "\n" }.joined().utf8)
            let diff = LineDiff.compare(a, b, context: Int.random(in: 0...3, using: &generator))
            // Minimal: removed + added = n + m − 2 × the longest common subsequence.
            var table = [[Int]](repeating: [Int](repeating: 0, count: new.count + 1), count: old.count + 1)
            for i in stride(from: old.count - 1, through: 0, by: -1) {
                for j in stride(from: new.count - 1, through: 0, by: -1) {
                    table[i][j] = old[i] == new[j] ? table[i + 1][j + 1] + 1 : max(table[i + 1][j], table[i][j + 1])
                }
            }
            #expect(diff.added == new.count - table[0][0] && diff.removed == old.count - table[0][0], "\(old) → \(new)")
            #expect(Self.apply(diff, to: a) == new, "\(old) → \(new)")
        }
    }

    @Test func aLastLineWithoutNewlineIsAChangeAsInGit() {
        let diff = LineDiff.compare(Data("a\nb".utf8), Data("a\nb\n".utf8))
        #expect(diff.added == 1 && diff.removed == 1)
        #expect(DiffRenderer.unified(diff) == ["@@ -1,2 +1,2 @@", " a", "-b", "\\ No newline at end of file", "+b"])
        let added = LineDiff.compare(Data(), Data("x\ny\n".utf8))
        #expect(DiffRenderer.unified(added) == ["@@ -0,0 +1,2 @@", "+x", "+y"])
    }

    @Test func farApartChangesAreSeparateHunks() {
        let old = (1...20).map { "line \($0)\n" }.joined()
        let new = old.replacingOccurrences(of: "line 2\n", with: "line two\n").replacingOccurrences(of: "line 18\n", with: "")
        let diff = LineDiff.compare(Data(old.utf8), Data(new.utf8))
        #expect(diff.hunks.map(\.header) == ["@@ -1,5 +1,5 @@", "@@ -15,6 +15,5 @@"])
        #expect(diff.added == 1 && diff.removed == 2)
    }
}
