import Foundation
import SportsTimeCore
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Removes the runner's scratch folders (a published stage's backups and staging leftovers) off the
/// scheduling thread: each is renamed into `.pipeline/trash/` at once, so its path is free, and deleted
/// file by file on a background queue while the next stages run. `drain` waits for the deletions (the
/// runner drains before it exits); what a killed runner leaves in the trash is deleted by the next run.
final class Trash: Sendable {
    static let folder = ".pipeline/trash"

    private let root: URL
    private let queue = DispatchQueue(label: "sportstime.trash")
    private let count = Locked(0)

    private let rootPath: String

    init(root: URL) {
        self.root = root
        rootPath = root.path
    }

    /// Moves `path` (repository-relative) out of the way and deletes it in the background; where it
    /// cannot be moved, deletes it now. A missing path is nothing to do.
    func discard(_ path: String) {
        let source = PathText.join(rootPath, path)
        guard FileStatus(path: source) != nil else { return }
        let trash = PathText.join(rootPath, Self.folder)
        if FileStatus(path: trash) == nil { _ = AtomicFile.makeFolders(trash) }
        let number = count.withLock { value -> Int in
            value += 1
            return value
        }
        let target = trash + "/\(getpid())-\(number)"
        guard rename(source, target) == 0 else {
            try? FileManager.default.removeItem(atPath: source)
            return
        }
        queue.async { try? FileManager.default.removeItem(atPath: target) }
    }

    /// Deletes, in the background, whatever an earlier (killed) runner left in the trash.
    func emptyLeftovers() {
        let trash = PathText.join(rootPath, Self.folder)
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: trash), !names.isEmpty else { return }
        queue.async {
            for name in names { try? FileManager.default.removeItem(atPath: trash + "/" + name) }
        }
    }

    /// Waits until every deletion asked for so far is done.
    func drain() { queue.sync {} }
}
