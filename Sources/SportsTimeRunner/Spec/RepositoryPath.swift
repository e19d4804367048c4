import Foundation

/// Repository-relative paths as the spec writes them: normalized, checked to stay inside the
/// repository, and compared by whole components (`out/plan` contains `out/plan/a.json`, not `out/planner`).
public enum RepositoryPath {
    /// Why a path written in the spec cannot be used.
    public enum Problem: Error, Equatable, Sendable {
        case empty
        case absolute
        case leavesRepository
        case reserved(String)
        case hasNewline
        /// NUL or another control character (its code point): C calls would cut the path at a NUL.
        case hasControlCharacter(UInt32)
        case wholeRepository
        /// A folder or file name longer than file systems allow (255 bytes).
        case nameTooLong(Int)

        /// One sentence naming what is wrong with `path`.
        public func message(for path: String, role: String) -> String {
            switch self {
            case .empty: return "\(role) is empty"
            case .absolute: return "\(role) '\(path)' is an absolute path and leaves the repository"
            case .leavesRepository: return "\(role) '\(path)' leaves the repository"
            case .reserved(let what): return "\(role) '\(path)' is inside \(what), which belongs to the runner"
            case .hasNewline: return "\(role) '\(path)' contains a line break"
            case .hasControlCharacter(let value):
                return "\(role) '\(path)' contains the control character U+\(String(format: "%04X", value))"
            case .wholeRepository: return "\(role) '\(path)' names the whole repository"
            case .nameTooLong(let bytes):
                return "\(role) '\(path)' has a name of \(bytes) bytes; file systems allow \(RepositoryPath.maxNameBytes)"
            }
        }
    }

    /// The longest file or folder name file systems allow (NAME_MAX).
    public static let maxNameBytes = 255

    /// Paths the runner owns; no stage may read or write them.
    static let reserved = [".pipeline", ".git", "pipeline/pipeline.lock.json", "pipeline/pipeline.yaml"]

    /// `./out//plan/` → `out/plan`; `out/../fixtures` → `fixtures`. Fails for empty, absolute, escaping or reserved paths.
    public static func normalize(_ raw: String) -> Result<String, Problem> {
        if let control = controlCharacter(in: raw) {
            return .failure(control == "\n" || control == "\r" ? .hasNewline : .hasControlCharacter(control.value))
        }
        let trimmed = raw.trimmingCharacters(in: .whitespaces)
        if trimmed.isEmpty { return .failure(.empty) }
        if trimmed.hasPrefix("/") || trimmed.hasPrefix("~") { return .failure(.absolute) }
        var parts: [Substring] = []
        for part in trimmed.split(separator: "/", omittingEmptySubsequences: true) {
            switch part {
            case ".": continue
            case "..":
                if parts.isEmpty { return .failure(.leavesRepository) }
                parts.removeLast()
            default:
                if part.utf8.count > maxNameBytes { return .failure(.nameTooLong(part.utf8.count)) }
                parts.append(part)
            }
        }
        if parts.isEmpty { return .failure(.wholeRepository) }
        let path = parts.joined(separator: "/")
        for owned in reserved where overlaps(owned, path) {
            return .failure(.reserved(owned))
        }
        return .success(path)
    }

    /// The first NUL or other control character (C0, DEL, C1) in `text`: no path may hold one.
    public static func controlCharacter(in text: String) -> Unicode.Scalar? {
        text.unicodeScalars.first { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }
    }

    /// Whether `inner` is `outer` or lies under it.
    public static func contains(_ outer: String, _ inner: String) -> Bool {
        // Compared as bytes, as the file system names them (and without building `outer + "/"`: the
        // runner asks this of every pair of its stages' paths).
        let (o, i) = (outer.utf8, inner.utf8)
        let (outerCount, innerCount) = (o.count, i.count)
        guard innerCount >= outerCount, i.starts(with: o) else { return false }
        return innerCount == outerCount || i[i.index(i.startIndex, offsetBy: outerCount)] == UInt8(ascii: "/")
    }

    /// Whether one path contains the other.
    public static func overlaps(_ a: String, _ b: String) -> Bool { contains(a, b) || contains(b, a) }

    /// The folder holding `path` (`.` for a top-level name).
    public static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return String(path[..<slash])
    }
}
