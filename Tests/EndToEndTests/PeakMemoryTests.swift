import Foundation
import SportsTimeTestSupport
import Testing

/// Issue 15: a 1 KB YAML file drove `sportstime-plan` to 23.7 GB, and one 50 MB field was copied into
/// three outputs. Each stage is run on such input generated here (never committed) and its own peak
/// resident memory must stay under 200 MB.
@Suite(.serialized) struct PeakMemoryTests {
    static let limitKB = 200 * 1024

    /// What one run of a stage cost: exit status, peak resident set (KB), user + system CPU seconds.
    struct Cost { var status: Int32; var maxRSSKB: Int; var cpuSeconds: Double }

    /// Runs `arguments` (an executable in `bin` and its arguments) in `folder` through `bench/measure.py`,
    /// which reads the child's peak from `RUSAGE_CHILDREN` of its own, freshly started process. (A child
    /// spawned by the test process itself would report the test process's own peak: Linux keeps the
    /// larger of the parent's and the child's high-water mark across fork and exec.)
    static func measure(_ arguments: [String], in folder: URL, bin: URL) throws -> Cost {
        let python = try #require(
            ["/usr/bin/python3", "/usr/local/bin/python3", "/bin/python3"]
                .first { FileManager.default.isExecutableFile(atPath: $0) }, "python3 is needed to measure peak memory (bench/measure.py)")
        let result = try TestProcess.run(
            URL(fileURLWithPath: python),
            [BadInputTests.packageRoot.appendingPathComponent("bench/measure.py").path, "--"]
                + [bin.appendingPathComponent(arguments[0]).path] + arguments.dropFirst(),
            in: folder)
        // `<exit code> <wall seconds> <peak RSS in MB> <CPU seconds>`
        let fields = result.stdout.split(separator: " ").map { String($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        try #require(fields.count == 4, "measure.py printed \(fields)")
        let status = try #require(Int32(fields[0])), peakMB = try #require(Double(fields[2])), cpu = try #require(Double(fields[3]))
        return Cost(status: status, maxRSSKB: Int(peakMB * 1024), cpuSeconds: cpu)
    }

    static let ingest = ["sportstime-ingest", "--sources", "pipeline/sources.yaml", "--out", "out/ingest"]
    static let normalize = ["sportstime-normalize", "--in", "out/ingest", "--reference", "fixtures/reference", "--out", "out/normalize"]
    static let merge = [
        "sportstime-merge", "--normalized", "out/normalize", "--reference", "fixtures/reference",
        "--overrides", "fixtures/overrides", "--out", "out/merge",
    ]

    @Test func planOnAYAMLBombStaysSmall() throws {
        let bin = try #require(BadInputTests.binFolder, "build the executables first (swift build --build-tests)")
        let root = try BadInputTests.workspace(for: "request-yaml-bomb")
        // The workspace is `repo/` inside a scratch folder of its own: the folder goes, not only the repository.
        defer { try? FileManager.default.removeItem(at: root.deletingLastPathComponent()) }
        for stage in [Self.ingest, Self.normalize, Self.merge] {
            #expect(try BadInputTests.run(stage, in: root, bin: bin).0 == 0, "\(stage[0])")
        }
        // Twelve levels of ten aliases: 10^12 values once expanded, from about 1.2 KB of text.
        var lines = [
            "id: ufl-trip", "title: t", "sports: [ufl]", "firstDate: 2025-04-04", "lastDate: 2025-04-13",
            "start: {latitude: 38.627, longitude: -90.1994, name: x, timeZone: America/Chicago}",
            "laughs0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]",
        ]
        for level in 1...12 {
            lines.append("laughs\(level): &a\(level) [" + Array(repeating: "*a\(level - 1)", count: 10).joined(separator: ", ") + "]")
        }
        let text = lines.joined(separator: "\n") + "\n"
        #expect(text.utf8.count < 1500)
        try Data(text.utf8).write(to: root.appendingPathComponent("fixtures/requests/ufl-trip.yaml"))
        let cost = try Self.measure(
            ["sportstime-plan", "--merged", "out/merge", "--requests", "fixtures/requests", "--out", "out/plan"],
            in: root, bin: bin)
        print("peak memory: sportstime-plan on a YAML bomb: \(cost.maxRSSKB / 1024) MB, \(String(format: "%.2f", cost.cpuSeconds)) s CPU")
        #expect(cost.status == 2)
        #expect(cost.maxRSSKB < Self.limitKB, "sportstime-plan used \(cost.maxRSSKB / 1024) MB on a YAML bomb")
        #expect(cost.cpuSeconds < 10)
    }

    @Test func aFiftyMegabyteFieldStaysSmallAndCheap() throws {
        let bin = try #require(BadInputTests.binFolder, "build the executables first (swift build --build-tests)")
        let root = try BadInputTests.workspace(for: "source-50mb-field")
        // The workspace is `repo/` inside a scratch folder of its own: the folder goes, not only the repository.
        defer { try? FileManager.default.removeItem(at: root.deletingLastPathComponent()) }
        let file = root.appendingPathComponent("fixtures/scraped/ufl-2025-sample/ufl_2025_sample.csv")
        let text = try String(contentsOf: file, encoding: .utf8)
        #expect(text.contains("@HUGE@"))
        try Data(text.replacingOccurrences(of: "@HUGE@", with: String(repeating: "F", count: 50_000_000)).utf8).write(to: file)
        let ingest = try Self.measure(Self.ingest, in: root, bin: bin)
        let normalize = try Self.measure(Self.normalize, in: root, bin: bin)
        let merge = try Self.measure(Self.merge, in: root, bin: bin)
        for (name, cost) in [("sportstime-ingest", ingest), ("sportstime-normalize", normalize), ("sportstime-merge", merge)] {
            print("peak memory: \(name) with a 50 MB field: \(cost.maxRSSKB / 1024) MB, \(String(format: "%.2f", cost.cpuSeconds)) s CPU")
            #expect(cost.status == 0, "\(name) exit \(cost.status)")
            #expect(cost.maxRSSKB < Self.limitKB, "\(name) used \(cost.maxRSSKB / 1024) MB with a 50 MB field")
        }
        // The field never reaches normalize: it costs what the other 15 rows cost, not seconds per MB.
        #expect(normalize.cpuSeconds < 5)
        let games = try Data(contentsOf: root.appendingPathComponent("out/ingest/ufl-2025-sample/games.json"))
        #expect(games.count < 100_000)
    }

    /// Issue 45: a store with 600,000 games in one week took 6.5 GB and crashed. The search state a
    /// request implies is refused at plan's entry, before any search is built: 6,000 games in the week
    /// (18 million pairs) cost a message, not gigabytes.
    @Test func planOverAHugeWeekIsRefusedBeforeItsSearch() throws {
        let bin = try #require(BadInputTests.binFolder, "build the executables first (swift build --build-tests)")
        let root = try BadInputTests.workspace(for: "request-yaml-bomb")
        defer { try? FileManager.default.removeItem(at: root.deletingLastPathComponent()) }
        for stage in [Self.ingest, Self.normalize, Self.merge] {
            #expect(try BadInputTests.run(stage, in: root, bin: bin).0 == 0, "\(stage[0])")
        }
        let store = root.appendingPathComponent("out/merge/games/ufl-2025.json")
        let text = try String(contentsOf: store, encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let first = try #require(lines.firstIndex { $0 == "  \"records\": [" }, "no records in the store") + 1
        let template = String(lines[first].hasSuffix(",") ? lines[first].dropLast() : lines[first])
        let id = try #require(template.firstRange(of: #/"id":"[^"]*"/#))
        let records = (0..<6_000).map { index in
            "    " + template.dropFirst(4).replacingCharacters(in: id, with: "\"id\":\"ufl-2025-x\(100_000 + index)\"")
        }.sorted()
        let last = try #require(lines[first...].firstIndex { $0.hasPrefix("  ]") }) - 1
        let rewritten =
            lines[..<first].joined(separator: "\n") + "\n" + records.joined(separator: ",\n") + "\n"
            + lines[(last + 1)...].joined(separator: "\n")
        try Data(rewritten.utf8).write(to: store)
        let request = [
            "id: ufl-week", "title: t", "sports: [ufl]", "firstDate: 2025-03-24", "lastDate: 2025-04-06",
            "start: {latitude: 38.627, longitude: -90.1994, name: x, timeZone: America/Chicago}",
        ]
        try Data((request.joined(separator: "\n") + "\n").utf8).write(to: root.appendingPathComponent("fixtures/requests/ufl-week.yaml"))
        let cost = try Self.measure(
            ["sportstime-plan", "--merged", "out/merge", "--requests", "fixtures/requests", "--out", "out/plan"],
            in: root, bin: bin)
        print(
            "peak memory: sportstime-plan over 6,000 games in a week: \(cost.maxRSSKB / 1024) MB, \(String(format: "%.2f", cost.cpuSeconds)) s CPU"
        )
        #expect(cost.status == 2)
        #expect(cost.maxRSSKB < Self.limitKB, "sportstime-plan used \(cost.maxRSSKB / 1024) MB over a huge week")
        #expect(cost.cpuSeconds < 10)
    }
}
