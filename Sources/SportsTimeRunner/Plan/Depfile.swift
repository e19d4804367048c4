import Foundation
import SportsTimeCore

/// What a stage reports it read, through `${depfile}` (like a compiler's depfile for make or ninja).
///
/// A stage whose cmd uses `${depfile}` writes there, one per line, the repository paths its outputs
/// depend on: files, and globs with one `*` in the last part (`out/merge/games/mlb-*.json`) for a family
/// of files of which any, present now or added later, could matter. Every entry must lie inside one of
/// the stage's deps. The runner keeps the list in the lock (`reads`), and from then on a dep folder
/// holding entries counts only through them: the stage's key hashes those files (for a glob, the names
/// that match and their contents), so a change elsewhere in the folder leaves it up to date, while a
/// changed file it read, or a new file matching one of its globs, runs it again. Deps holding no entry
/// still count whole, and a stage that never ran (or was forced) is keyed by its whole deps.
///
/// This is exact as long as the list covers everything that decided the outputs, including what made the
/// stage read one file and not another: a stage that chooses its files by looking at a folder's other
/// files must list those too (or the folder itself).
public enum Depfile {
    /// Why a depfile cannot be used; the stage fails with it and publishes nothing.
    public struct Problem: Error, Sendable, Equatable {
        public var message: String
        public var fix: String
    }

    /// The entries of a depfile, normalized and sorted. Blank lines and lines starting with `#` are skipped.
    public static func parse(_ text: String, deps: [String]) -> Result<[String], Problem> {
        var entries = Set<String>()
        for (number, rawLine) in TextLines.split(text).enumerated() {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            let path: String
            switch RepositoryPath.normalize(line) {
            case .success(let normalized): path = normalized
            case .failure(let problem):
                return .failure(
                    Problem(
                        message: "line \(number + 1): " + problem.message(for: line, role: "the path"),
                        fix: "Write repository-relative paths, one per line"))
            }
            let folder = RepositoryPath.parent(of: path)
            let last = path.split(separator: "/").last.map(String.init) ?? path
            if folder.contains("*") || last.filter({ $0 == "*" }).count > 1 {
                return .failure(
                    Problem(
                        message: "line \(number + 1): '\(path)' has a '*' outside its last part or more than one",
                        fix: "Use one '*' in the file name only, e.g. out/merge/games/mlb-*.json"))
            }
            guard deps.contains(where: { RepositoryPath.contains($0, path) }) else {
                return .failure(
                    Problem(
                        message: "line \(number + 1): the stage reports reading '\(path)', which none of its deps holds "
                            + "(deps: \(deps.joined(separator: ", ")))",
                        fix: "Add it (or a folder holding it) to the stage's deps in \(Workspace.specPath)"))
            }
            entries.insert(path)
        }
        return .success(entries.sorted())
    }

    /// The paths a stage's key hashes: each dep that holds none of `reads` as it is; each dep that holds
    /// some, replaced by them (a read that is the dep itself keeps it whole). Without reads: the deps.
    public static func narrowed(deps: [String], reads: [String]?) -> [String] {
        guard let reads else { return deps }
        var paths = Set<String>()
        for dep in deps {
            let inside = reads.filter { RepositoryPath.contains(dep, $0) }
            if inside.isEmpty || inside.contains(dep) {
                paths.insert(dep)
            } else {
                paths.formUnion(inside)
            }
        }
        return paths.sorted()
    }

    /// Whether `path` is a glob (`*` in its last part).
    public static func isGlob(_ path: String) -> Bool {
        (path.split(separator: "/").last ?? "").contains("*")
    }

    /// Whether a file name matches a glob's last part (one `*`, matching any run of characters).
    public static func matches(_ name: String, pattern: String) -> Bool {
        guard let star = pattern.firstIndex(of: "*") else { return name == pattern }
        let prefix = pattern[..<star], suffix = pattern[pattern.index(after: star)...]
        return name.count >= prefix.count + suffix.count && name.hasPrefix(prefix) && name.hasSuffix(suffix)
    }
}
