import Foundation
import struct SportsTimeCore.LineDiff
// A release build of the package (`make`, with the runtime linked statically) compiles this target too,
// where the Testing module is not available; the comparer exists only where tests can use it.
#if canImport(Testing)
    import Testing

    /// Golden-file comparison for every test target: a mismatch fails with a unified line diff;
    /// `RECORD_GOLDENS=1` rewrites the expected file and fails on purpose, so a recording run never passes.
    public enum Golden {
        public static var isRecording: Bool { ProcessInfo.processInfo.environment["RECORD_GOLDENS"] == "1" }

        /// Checks `actual` against the golden file at `expected` (or records it).
        public static func assertMatches(
            _ actual: Data, expected url: URL, name: String? = nil,
            sourceLocation: SourceLocation = #_sourceLocation
        ) throws {
            let shown = name ?? url.lastPathComponent
            if isRecording {
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try actual.write(to: url)
                Issue.record("Recorded \(shown). Unset RECORD_GOLDENS and run again.", sourceLocation: sourceLocation)
                return
            }
            guard let expected = FileManager.default.contents(atPath: url.path) else {
                Issue.record("No golden file \(shown) at \(url.path). Record it with RECORD_GOLDENS=1.", sourceLocation: sourceLocation)
                return
            }
            if expected != actual {
                let diff = unifiedDiff(expected, actual, oldName: shown + " (golden)", newName: shown + " (now)")
                Issue.record(
                    "\(shown) differs from its golden file (re-record with RECORD_GOLDENS=1 if the change is intended):\n\(diff)",
                    sourceLocation: sourceLocation)
            }
        }

        /// Checks a set of files (relative path → bytes) against a golden folder: the same files, each with
        /// the same bytes. Recording replaces the folder.
        public static func assertFolderMatches(
            _ files: [(path: String, data: Data)], expected folder: URL,
            sourceLocation: SourceLocation = #_sourceLocation
        ) throws {
            if isRecording {
                try? FileManager.default.removeItem(at: folder)
                for file in files {
                    let url = folder.appendingPathComponent(file.path)
                    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                    try file.data.write(to: url)
                }
                Issue.record(
                    "Recorded \(files.count) golden files in \(folder.path). Unset RECORD_GOLDENS and run again.",
                    sourceLocation: sourceLocation)
                return
            }
            let existing = filePaths(under: folder)
            let produced = files.map(\.path).sorted()
            if existing != produced {
                let onlyGolden = Set(existing).subtracting(produced).sorted(), onlyNow = Set(produced).subtracting(existing).sorted()
                Issue.record(
                    Comment(
                        rawValue:
                            "the set of files differs from \(folder.lastPathComponent): only golden \(onlyGolden), only now \(onlyNow)"),
                    sourceLocation: sourceLocation)
            }
            for file in files where existing.contains(file.path) {
                try assertMatches(
                    file.data, expected: folder.appendingPathComponent(file.path), name: file.path, sourceLocation: sourceLocation)
            }
        }

        static func filePaths(under folder: URL) -> [String] {
            let base = folder.standardizedFileURL.path
            guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey]) else {
                return []
            }
            var paths: [String] = []
            for case let url as URL in walker where (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true {
                paths.append(String(url.standardizedFileURL.path.dropFirst(base.count + 1)))
            }
            return paths.sorted()
        }
    }

    extension Golden {
        /// The project's own line diff (`LineDiff`, what `sportstime diff` prints), with file names, cut
        /// after `maxLines` lines.
        public static func unifiedDiff(_ old: Data, _ new: Data, oldName: String, newName: String, maxLines: Int = 120) -> String {
            var lines = ["--- \(oldName)", "+++ \(newName)"] + LineDiff.compare(old, new, context: 2).unifiedLines
            if lines.count > maxLines {
                lines = Array(lines.prefix(maxLines)) + ["... (diff cut)"]
            }
            return lines.joined(separator: "\n")
        }
    }
#endif
