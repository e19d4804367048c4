import Foundation
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The one symbolic-link rule every executable applies to the files it reads, writes or removes: a
/// link whose target (followed to the end, through further links) lies inside the repository is
/// followed; a link that leads outside it — or loops — is refused with
/// `<link>: error: cannot follow the symbolic link: it leads outside the repository. …`.
///
/// Paths are resolved on the disk as they are now, component by component (a dangling last link is
/// resolved to where it points), so a folder that is a link is caught as well as a file.
public struct RepositoryConfinement: Sendable {
    /// The repository root as given.
    public let root: URL
    /// The repository root with every link resolved.
    public let realRoot: String

    public init(root: URL) {
        self.root = root.standardizedFileURL
        realRoot = Self.resolve(self.root.path) ?? self.root.path
    }

    /// `path` (absolute) with every symbolic link followed; nil for a loop or an unreadable link.
    public static func resolve(_ path: String) -> String? {
        var pending = Array(path.split(separator: "/", omittingEmptySubsequences: true).map(String.init).reversed())
        var resolved: [String] = []
        var hops = 0
        while let part = pending.popLast() {
            if part == "." { continue }
            if part == ".." { if !resolved.isEmpty { resolved.removeLast() }; continue }
            let candidate = "/" + (resolved + [part]).joined(separator: "/")
            var info = stat()
            guard lstat(candidate, &info) == 0, (info.st_mode & S_IFMT) == S_IFLNK else {
                resolved.append(part)
                continue
            }
            hops += 1
            guard hops <= 40, let target = readLink(candidate) else { return nil }
            if target.hasPrefix("/") { resolved = [] }
            pending.append(contentsOf: target.split(separator: "/", omittingEmptySubsequences: true).map(String.init).reversed())
        }
        return "/" + resolved.joined(separator: "/")
    }

    static func readLink(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: 4097)
        let count = readlink(path, &buffer, 4096)
        guard count > 0 else { return nil }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Whether `path` is a symbolic link itself (not followed).
    public static func isLink(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFLNK
    }

    /// The absolute path of a repository-relative one.
    public func absolute(_ relative: String) -> String { root.appendingPathComponent(relative).path }

    /// Where `relative` really is, as a path relative to the real root; nil when that is outside the
    /// repository (or a loop). `.` for the root itself.
    public func resolvedRelative(_ relative: String) -> String? {
        guard let real = Self.resolve(absolute(relative)) else { return nil }
        if real == realRoot { return "." }
        let prefix = realRoot == "/" ? "/" : realRoot + "/"
        return real.hasPrefix(prefix) ? String(real.dropFirst(prefix.count)) : nil
    }

    /// The first link along `relative` (a repository-relative path, itself included) that leads outside
    /// the repository, as the repository path of that link; nil when the whole path stays inside.
    public func linkLeavingRepository(_ relative: String) -> String? {
        guard resolvedRelative(relative) == nil else { return nil }
        let parts = relative.split(separator: "/").map(String.init)
        for count in 1...max(1, parts.count) {
            let prefix = parts.prefix(count).joined(separator: "/")
            if Self.isLink(absolute(prefix)) && resolvedRelative(prefix) == nil { return prefix }
        }
        return relative
    }

    /// Every link at or under `relative` (names starting with `.` skipped, like every listing in the
    /// pipeline) that leads outside the repository, sorted, at most `limit`. Folders reached through
    /// links inside the repository are searched too, each real folder once.
    public func linksLeavingRepository(under relative: String, limit: Int = 20) -> [String] {
        if let link = linkLeavingRepository(relative) { return [link] }
        var found: [String] = []
        var visited = Set<String>()
        // Each folder is listed once with the kinds of its entries (`readdir`'s type), so a plain file
        // costs no call of its own; `real` is the folder's path with every link resolved (a folder
        // reached by a plain entry is its parent's real path plus its name).
        func walk(_ path: String, real: String, depth: Int) {
            guard depth < 64, found.count < limit, visited.insert(real).inserted else { return }
            let folder = absolute(path)
            for (name, kind) in Self.entries(of: folder) where found.count < limit {
                let child = path + "/" + name
                switch kind {
                case .folder:
                    walk(child, real: real == "/" ? "/" + name : real + "/" + name, depth: depth + 1)
                case .link:
                    guard resolvedRelative(child) != nil else {
                        found.append(child)
                        continue
                    }
                    var isFolder: ObjCBool = false
                    let target = folder + "/" + name
                    if FileManager.default.fileExists(atPath: target, isDirectory: &isFolder), isFolder.boolValue {
                        walk(child, real: Self.resolve(target) ?? child, depth: depth + 1)
                    }
                case .other:
                    continue
                }
            }
        }
        let top = absolute(relative)
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: top, isDirectory: &isFolder), isFolder.boolValue else { return [] }
        walk(relative, real: Self.resolve(top) ?? relative, depth: 0)
        return found
    }

    enum EntryKind { case folder, link, other }

    /// The entries of the folder at `path` (absolute) whose names do not start with `.`, sorted by name,
    /// each a folder, a link or anything else (kinds the listing does not give are asked with `lstat`).
    static func entries(of path: String) -> [(name: String, kind: EntryKind)] {
        guard let folder = opendir(path) else { return [] }
        defer { closedir(folder) }
        var entries: [(name: String, kind: EntryKind)] = []
        while let entry = readdir(folder) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard !name.hasPrefix(".") else { continue }
            var type = Int32(entry.pointee.d_type)
            if type == Int32(DT_UNKNOWN) {
                var info = stat()
                guard lstat(path + "/" + name, &info) == 0 else { continue }
                let format = info.st_mode & S_IFMT
                type = format == S_IFDIR ? Int32(DT_DIR) : format == S_IFLNK ? Int32(DT_LNK) : Int32(DT_REG)
            }
            entries.append((name, type == Int32(DT_DIR) ? .folder : type == Int32(DT_LNK) ? .link : .other))
        }
        return entries.sorted { $0.name < $1.name }
    }

    /// The message for a link that leads outside the repository, located at the link.
    public static func outsideLink(_ link: String) -> Diagnostic {
        Diagnostic(
            .error, at: SourceLocation(path: link),
            "cannot follow the symbolic link: it leads outside the repository",
            fix: "Replace the link with the file or folder itself, or point it inside the repository")
    }

    /// How messages name `url`: its path relative to the root as written (links not followed), or the
    /// absolute path when it is not under the root.
    public func display(_ url: URL) -> String {
        let path = url.standardizedFileURL.path, base = root.path
        if path == base { return "." }
        let prefix = base == "/" ? "/" : base + "/"
        return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
    }

    /// Whether the absolute `real` path (links already resolved) lies inside the repository.
    func isInside(real: String) -> Bool {
        real == realRoot || real.hasPrefix(realRoot == "/" ? "/" : realRoot + "/")
    }

    /// Whether `url` names a place at or under the root as written (before links are followed).
    func isUnderRoot(_ url: URL) -> Bool {
        let path = url.standardizedFileURL.path, base = root.path
        return path == base || path.hasPrefix(base == "/" ? "/" : base + "/")
    }

    /// The files under `folder` whose names end in `suffix`, relative to `folder` and sorted, for
    /// stages that list their input folders: regular files, and links to regular files inside the
    /// repository (folders reached through such links are listed too). Names starting with `.` are
    /// skipped. Throws `PipelineError.invalidInputs` naming every link that leads outside the repository
    /// . A folder given outside the repository (a stage run by hand on other
    /// files) is listed without the rule; links under it are still refused when they leave both.
    public func inputFiles(under folder: URL, suffix: String) throws -> [String] {
        let base = folder.standardizedFileURL
        if let link = firstLinkLeaving(base) { throw PipelineError.invalidInput(Self.outsideLink(display(link))) }
        let baseReal = Self.resolve(base.path) ?? base.path
        var names: [String] = []
        var problems: [Diagnostic] = []
        var visited: Set<String> = [baseReal]
        func walk(_ url: URL, _ shown: String, depth: Int) {
            guard depth < 64, let entries = try? FileManager.default.contentsOfDirectory(atPath: url.path) else { return }
            for name in entries.sorted() where !name.hasPrefix(".") {
                let child = url.appendingPathComponent(name)
                let relative = shown.isEmpty ? name : shown + "/" + name
                let real = Self.resolve(child.path)
                if Self.isLink(child.path) {
                    guard let real, isInside(real: real) || (!isUnderRoot(base) && real.hasPrefix(baseReal + "/")) else {
                        problems.append(Self.outsideLink(display(child)))
                        continue
                    }
                }
                var isFolder: ObjCBool = false
                guard let real, FileManager.default.fileExists(atPath: real, isDirectory: &isFolder) else { continue }
                if isFolder.boolValue {
                    if visited.insert(real).inserted { walk(child, relative, depth: depth + 1) }
                } else if name.hasSuffix(suffix) {
                    names.append(relative)
                }
            }
        }
        walk(base, "", depth: 0)
        if !problems.isEmpty { throw PipelineError.invalidInputs(problems) }
        return names.sorted()
    }

    /// Checks the file or folder at `url` before it is read: nil when it may be read (or does not
    /// exist), else the error for the link that leads outside the repository .
    public func checkRead(_ url: URL) -> Diagnostic? {
        firstLinkLeaving(url.standardizedFileURL).map { Self.outsideLink(display($0)) }
    }

    /// The first link along `url` below the root that leads outside the repository; nil when there is
    /// none, or when `url` is not under the root at all (a path given by hand outside the repository).
    /// Walked on the path's text (one `lstat` a component), not by `URL` operations: every file a stage
    /// reads is checked.
    private func firstLinkLeaving(_ url: URL) -> URL? {
        let path = url.standardizedFileURL.path, base = root.path
        guard path == base || path.hasPrefix(base == "/" ? "/" : base + "/") else { return nil }
        var prefix = base == "/" ? "" : base
        for part in path.dropFirst(base.count).split(separator: "/") {
            prefix += "/" + part
            guard Self.isLink(prefix) else { continue }
            guard let real = Self.resolve(prefix), isInside(real: real) else { return URL(fileURLWithPath: prefix) }
        }
        return nil
    }
}
