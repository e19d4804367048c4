import Foundation
import SportsTimeTestSupport
import Testing

/// The bad-input corpus: each folder under `BadInputs/` is one case run against the real executables in
/// a scratch copy of a minimal repository (reference data, overrides, map outlines, the artifact schemas,
/// the UFL sample source, and the base `BadInputs/_base/` files), with the case's `files/` laid over it.
///
/// `case.json`:
/// - `about`: what the case breaks.
/// - `steps`: run in order from the scratch root. `{"run": [...], "exit": N}` runs a built executable;
///   it may give `"stderr"`: lines that must appear in its stderr exactly (`path:line: error: what. fix.`).
///   `{"overlay": "later"}` lays the case's folder `later/` over the scratch root, to break an input
///   after an earlier step used it.
/// - `remove`: repository paths deleted before the steps.
/// - `expand`: `{path, text, count}`: `@HUGE@` in that file becomes `text` repeated `count` times (huge
///   fields without committing megabytes).
/// - `conserve`: ingest sources (`out/ingest/<id>`) whose counts must add up afterwards.
/// - `contains`: `{path, text}`: after the last step, the file at `path` contains `text` (a reject's reason).
/// - `maxBytes`: repository path → the most bytes that file may have after the last step (a huge field
///   must not be copied into outputs).
/// - `keep`: repository paths (files or folders) whose bytes must be the same after the last step as
///   just before the first step expected to fail (a path missing then must still be missing): the
///   outputs a failing stage must not touch.
/// - `outside`: files (path → text) made next to the scratch repository, outside it; `@OUTSIDE@` in a
///   link's target names that folder. After the last step they must hold the same bytes, and nothing
///   else may have appeared there: nothing outside the repository was touched.
/// - a step `{"sparse": PATH, "bytes": N}` makes PATH (made if missing) N bytes long by `ftruncate`, a
///   hole that costs no disk: a file over a size limit without committing or writing it.
/// - a step `{"link": PATH, "to": TARGET}` makes PATH (anything there is removed first) a symbolic link
///   to TARGET.
/// Every step must print only located errors (`path:line[:col]: error:`; a usage error, exit 64, names
/// no file), and never crash.
@Suite(.serialized) struct BadInputTests {
    struct Step: Decodable {
        var run: [String]?; var exit: Int32?; var stderr: [String]?; var overlay: String?; var link: String?; var to: String?
        var sparse: String?; var bytes: UInt64?
    }
    struct Expand: Decodable { var path: String; var text: String; var count: Int }
    struct Contains: Decodable { var path: String; var text: String }
    struct Case: Decodable {
        var about: String; var steps: [Step]; var remove: [String]?; var conserve: [String]?; var expand: [Expand]?
        var keep: [String]?; var outside: [String: String]?; var contains: [Contains]?; var maxBytes: [String: Int]?
    }

    static let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    static let corpus = here.appendingPathComponent("BadInputs")
    static let packageRoot = here.deletingLastPathComponent().deletingLastPathComponent()

    static var caseNames: [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: corpus.path)) ?? []
        return names.filter { !$0.hasPrefix("_") && !$0.hasPrefix(".") }.sorted()
    }

    /// The folder holding the built executables (a test that needs them fails when they are not built).
    static var binFolder: URL? { try? Executables.folder() }

    static func copy(_ from: URL, over to: URL) throws {
        let manager = FileManager.default
        let base = from.standardizedFileURL.path
        guard let walker = manager.enumerator(at: from, includingPropertiesForKeys: [.isDirectoryKey]) else { return }
        for case let file as URL in walker {
            let relative = String(file.standardizedFileURL.path.dropFirst(base.count + 1))
            let target = to.appendingPathComponent(relative)
            if try file.resourceValues(forKeys: [.isDirectoryKey]).isDirectory == true {
                try manager.createDirectory(at: target, withIntermediateDirectories: true)
            } else {
                try manager.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
                if manager.fileExists(atPath: target.path) { try manager.removeItem(at: target) }
                try manager.copyItem(at: file, to: target)
            }
        }
    }

    /// The scratch repository of case `name`: `repo/` in a fresh folder that holds nothing else but the
    /// case's `outside` files.
    static func workspace(for name: String) throws -> URL {
        let manager = FileManager.default
        let root = manager.temporaryDirectory.appendingPathComponent("bad-input-\(name)-\(UUID().uuidString)")
            .appendingPathComponent("repo")
        for part in ["fixtures/reference", "fixtures/overrides", "fixtures/geo", "fixtures/scraped/ufl-2025-sample", "pipeline/schemas"] {
            try manager.createDirectory(
                at: root.appendingPathComponent(part).deletingLastPathComponent(),
                withIntermediateDirectories: true)
            try manager.copyItem(at: packageRoot.appendingPathComponent(part), to: root.appendingPathComponent(part))
        }
        try copy(corpus.appendingPathComponent("_base"), over: root)
        let files = corpus.appendingPathComponent(name).appendingPathComponent("files")
        if manager.fileExists(atPath: files.path) { try copy(files, over: root) }
        return root
    }

    /// Runs one executable; a death by signal is reported as 128 + the signal.
    static func run(_ arguments: [String], in folder: URL, bin: URL) throws -> (Int32, String) {
        let result = try TestProcess.run(bin.appendingPathComponent(arguments[0]), Array(arguments.dropFirst()), in: folder)
        return (result.code, result.stderr)
    }

    @Test("the corpus has cases") func corpusIsThere() {
        #expect(Self.caseNames.count >= 20)
    }

    @Test(
        "bad input is refused with a located message, the right exit code, and nothing lost",
        arguments: caseNames)
    func badInput(_ name: String) throws {
        let bin = try #require(Self.binFolder, "build the executables first (swift build --build-tests)")
        let folder = Self.corpus.appendingPathComponent(name)
        let spec = try JSONDecoder().decode(Case.self, from: Data(contentsOf: folder.appendingPathComponent("case.json")))
        let root = try Self.workspace(for: name)
        let outside = root.deletingLastPathComponent()
        defer { try? FileManager.default.removeItem(at: outside) }
        for (path, text) in spec.outside ?? [:] {
            let url = outside.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        let outsideBefore = try Self.snapshotOutside(outside)
        for path in spec.remove ?? [] { try FileManager.default.removeItem(at: root.appendingPathComponent(path)) }
        for expand in spec.expand ?? [] {
            let url = root.appendingPathComponent(expand.path)
            let text = try String(contentsOf: url, encoding: .utf8)
            #expect(text.contains("@HUGE@"), "\(name): no @HUGE@ in \(expand.path)")
            try Data(text.replacingOccurrences(of: "@HUGE@", with: String(repeating: expand.text, count: expand.count)).utf8).write(to: url)
        }
        var kept: [String: [String: Data]]?
        for (index, step) in spec.steps.enumerated() {
            if let overlay = step.overlay {
                let from = folder.appendingPathComponent(overlay)
                #expect(FileManager.default.fileExists(atPath: from.path), "\(name): no folder \(overlay) to overlay")
                try Self.copy(from, over: root)
                continue
            }
            if let sparse = step.sparse {
                let url = root.appendingPathComponent(sparse)
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                if !FileManager.default.fileExists(atPath: url.path) { try Data().write(to: url) }
                let handle = try FileHandle(forWritingTo: url)
                try handle.truncate(atOffset: try #require(step.bytes, "\(name) step \(index + 1): sparse without bytes"))
                try handle.close()
                continue
            }
            if let link = step.link {
                let target = try #require(step.to, "\(name) step \(index + 1): a link without 'to'")
                let url = root.appendingPathComponent(link)
                try? FileManager.default.removeItem(at: url)
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try FileManager.default.createSymbolicLink(
                    atPath: url.path, withDestinationPath: target.replacingOccurrences(of: "@OUTSIDE@", with: outside.path))
                continue
            }
            let run = try #require(step.run, "\(name) step \(index + 1): neither run, overlay, sparse nor link")
            let exit = try #require(step.exit, "\(name) step \(index + 1): no exit code")
            if kept == nil, exit != 0, let keep = spec.keep {
                kept = try Dictionary(uniqueKeysWithValues: keep.map { ($0, try Self.snapshot($0, in: root)) })
            }
            let (status, stderr) = try Self.run(run, in: root, bin: bin)
            let label = "\(name) step \(index + 1) (\(run.joined(separator: " ")))"
            #expect(status == exit, "\(label): exit \(status), expected \(exit)\n\(stderr)")
            let lines = stderr.split(separator: "\n").map(String.init)
            for expected in step.stderr ?? [] {
                #expect(lines.contains(expected), "\(label): missing stderr line\n  \(expected)\ngot:\n\(stderr)")
            }
            for line in lines where line.contains(" error: ") || line.hasPrefix("error:") {
                #expect(Self.isLocated(line, usage: exit == 64), "\(label): message without a location: \(line)")
            }
            #expect(
                !stderr.contains("Fatal error") && !stderr.contains("Stack dump") && !stderr.contains("Program crashed"),
                "\(label): crashed\n\(stderr)")
        }
        #expect(spec.keep == nil || kept != nil, "\(name): keep needs a step expected to fail")
        for (path, before) in (kept ?? [:]).sorted(by: { $0.key < $1.key }) {
            let after = try Self.snapshot(path, in: root)
            let changed = Set(before.keys).union(after.keys).filter { before[$0] != after[$0] }.sorted()
            #expect(changed.isEmpty, "\(name): \(path) changed after the failing step: \(changed.prefix(10).joined(separator: ", "))")
        }
        for source in spec.conserve ?? [] { try Self.checkConservation(source, in: root, name: name) }
        for wanted in spec.contains ?? [] {
            let text = String(decoding: (try? Data(contentsOf: root.appendingPathComponent(wanted.path))) ?? Data(), as: UTF8.self)
            #expect(text.contains(wanted.text), "\(name): \(wanted.path) does not contain\n  \(wanted.text)")
        }
        for (path, limit) in (spec.maxBytes ?? [:]).sorted(by: { $0.key < $1.key }) {
            let size = try #require(
                try FileManager.default.attributesOfItem(atPath: root.appendingPathComponent(path).path)[.size] as? Int,
                "\(name): \(path) is missing")
            #expect(size <= limit, "\(name): \(path) has \(size) bytes, more than \(limit)")
        }
        let outsideAfter = try Self.snapshotOutside(outside)
        let touched = Set(outsideBefore.keys).union(outsideAfter.keys).filter { outsideBefore[$0] != outsideAfter[$0] }.sorted()
        #expect(touched.isEmpty, "\(name): files outside the repository changed: \(touched.prefix(10).joined(separator: ", "))")
    }

    /// The bytes of everything in the folder holding the scratch repository, but the repository.
    static func snapshotOutside(_ folder: URL) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) where name != "repo" {
            files.merge(try snapshot(name, in: folder)) { $1 }
        }
        return files
    }

    /// Whether an error line names where the problem is. A problem inside a file gives its line; only a
    /// file that is missing or unreadable as a whole, or a symbolic link refused as a whole, has none; a usage error (exit 64) is about the
    /// command line, not a file. The runner shows a stage's own stderr as `  <stage> | <line>`, and
    /// after it one line naming the failed stage (`normalize: error: the stage exited with status 2; ...`).
    static func isLocated(_ line: String, usage: Bool) -> Bool {
        var text = Substring(line)
        if let bar = line.range(of: #"^  [^ |]+ \| "#, options: .regularExpression) { text = line[bar.upperBound...] }
        return text.range(of: #"^[^ :][^:]*:\d+(:\d+)?: error: "#, options: .regularExpression) != nil
            || text.range(
                of:
                    #"^[^ :][^:]*: error: (the file is missing|the file is \d+ bytes|and \d+ more problems? in this file|cannot read|cannot (follow|write through) the symbolic link)"#,
                options: .regularExpression) != nil
            || text.range(of: #"^[a-z0-9][a-z0-9_.@-]*: error: the stage "#, options: .regularExpression) != nil
            || (usage && text.hasPrefix("error: "))
    }

    /// The bytes of every file at or under `path` (keyed by repository path); empty when nothing is there.
    static func snapshot(_ path: String, in root: URL) throws -> [String: Data] {
        let manager = FileManager.default
        let url = root.appendingPathComponent(path)
        var isFolder: ObjCBool = false
        guard manager.fileExists(atPath: url.path, isDirectory: &isFolder) else { return [:] }
        guard isFolder.boolValue else { return [path: try Data(contentsOf: url)] }
        var files: [String: Data] = [path + "/": Data()]
        let base = url.standardizedFileURL.path
        guard let walker = manager.enumerator(at: url, includingPropertiesForKeys: [.isDirectoryKey]) else { return files }
        for case let file as URL in walker {
            let relative = path + "/" + String(file.standardizedFileURL.path.dropFirst(base.count + 1))
            if try file.resourceValues(forKeys: [.isDirectoryKey]).isDirectory == true {
                files[relative + "/"] = Data()
            } else {
                files[relative] = try Data(contentsOf: file)
            }
        }
        return files
    }

    /// in = written + rejected + filtered + folded, counted from the outputs themselves.
    static func checkConservation(_ source: String, in root: URL, name: String) throws {
        let folder = root.appendingPathComponent("out/ingest").appendingPathComponent(source)
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent("games.json")))
        let games = object as? [String: Any]
        let meta = try #require(games?["meta"] as? [String: String], "\(name): no meta in \(source)/games.json")
        let records = try #require(games?["records"] as? [Any])
        func count(_ key: String) throws -> Int { try #require(Int(meta[key] ?? ""), "\(name): meta \(key) missing") }
        let rejectText = try String(decoding: Data(contentsOf: folder.appendingPathComponent("rejects.jsonl")), as: UTF8.self)
        let rejects = rejectText.split(separator: "\n").filter { !$0.isEmpty }.count
        let read = try count("rowsRead"), filtered = try count("rowsFiltered"), folded = try count("rowsFolded")
        #expect(records.count == (try count("recordsWritten")), "\(name): records written")
        #expect(rejects == (try count("rowsRejected")), "\(name): rejects.jsonl lines")
        #expect(
            read == records.count + rejects + filtered + folded,
            "\(name): \(source) read \(read) ≠ written \(records.count) + rejected \(rejects) + filtered \(filtered) + folded \(folded)")
    }
}
