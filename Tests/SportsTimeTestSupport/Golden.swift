import Foundation
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
            let diff = LineDiff.unified(
                old: String(decoding: expected, as: UTF8.self), new: String(decoding: actual, as: UTF8.self),
                oldName: shown + " (golden)", newName: shown + " (now)")
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
                    rawValue: "the set of files differs from \(folder.lastPathComponent): only golden \(onlyGolden), only now \(onlyNow)"),
                sourceLocation: sourceLocation)
        }
        for file in files where existing.contains(file.path) {
            try assertMatches(
                file.data, expected: folder.appendingPathComponent(file.path), name: file.path, sourceLocation: sourceLocation)
        }
    }

    static func filePaths(under folder: URL) -> [String] {
        let base = folder.standardizedFileURL.path
        guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey]) else { return [] }
        var paths: [String] = []
        for case let url as URL in walker where (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true {
            paths.append(String(url.standardizedFileURL.path.dropFirst(base.count + 1)))
        }
        return paths.sorted()
    }
}

/// A line diff (longest common subsequence) with context, for test failures.
public enum LineDiff {
    public static func unified(
        old: String, new: String, oldName: String, newName: String, context: Int = 2,
        maxLines: Int = 120
    ) -> String {
        let a = old.components(separatedBy: "\n"), b = new.components(separatedBy: "\n")
        guard a.count * b.count <= 9_000_000 else {
            let first = zip(a, b).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(a.count, b.count)
            return
                "--- \(oldName)\n+++ \(newName)\nfirst difference at line \(first + 1):\n-\(first < a.count ? a[first] : "")\n+\(first < b.count ? b[first] : "")"
        }
        var lcs = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in stride(from: a.count - 1, through: 0, by: -1) {
            for j in stride(from: b.count - 1, through: 0, by: -1) {
                lcs[i][j] = a[i] == b[j] ? lcs[i + 1][j + 1] + 1 : max(lcs[i + 1][j], lcs[i][j + 1])
            }
        }
        var ops: [(Character, String, Int)] = []
        var i = 0, j = 0
        while i < a.count || j < b.count {
            if i < a.count, j < b.count, a[i] == b[j] {
                ops.append((" ", a[i], i)); i += 1; j += 1
            } else if j < b.count, i == a.count || lcs[i][j + 1] >= lcs[i + 1][j] {
                ops.append(("+", b[j], i)); j += 1
            } else {
                ops.append(("-", a[i], i)); i += 1
            }
        }
        var keep = [Bool](repeating: false, count: ops.count)
        for (index, op) in ops.enumerated() where op.0 != " " {
            for k in max(0, index - context)...min(ops.count - 1, index + context) { keep[k] = true }
        }
        var lines = ["--- \(oldName)", "+++ \(newName)"]
        var inHunk = false
        for (index, op) in ops.enumerated() {
            if keep[index] {
                if !inHunk { lines.append("@@ near line \(op.2 + 1) @@"); inHunk = true }
                lines.append("\(op.0)\(op.1)")
            } else {
                inHunk = false
            }
            if lines.count > maxLines { lines.append("... (diff cut)"); break }
        }
        return lines.joined(separator: "\n")
    }
}
