import Foundation
import SportsTimeCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The file system's own clock, for racy-timestamp protection (as git's index uses its file's mtime).
///
/// `stamp` sets `.pipeline/cache/stamp`'s times to now and reads them back: that is "now" as the file
/// system records it, with its granularity. A file whose mtime and ctime are both older than a stamp
/// taken before it was read cannot have been changed since without its mtime or ctime moving past the
/// stamp; one changed in the stamp's own tick (or later) is "racy" and is never trusted by its stat.
enum StatClock {
    static let path = ".pipeline/cache/stamp"

    /// The stamp's mtime in nanoseconds, or nil when it cannot be written (then nothing is trusted).
    static func stamp(root: URL) -> Int64? {
        let folder = root.appendingPathComponent(".pipeline/cache").path
        if FileStatus(path: folder) == nil { _ = AtomicFile.makeFolders(folder) }
        let fd = open(root.appendingPathComponent(path).path, O_WRONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o644)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        guard futimens(fd, nil) == 0 else { return nil }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return nil }
        #if canImport(Darwin)
        return Int64(info.st_mtimespec.tv_sec) * 1_000_000_000 + Int64(info.st_mtimespec.tv_nsec)
        #else
        return Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
        #endif
    }

    /// Whether a file with these times may be trusted by its stat: both older than the stamp. A ctime
    /// with no nanoseconds comes from a file system that keeps whole seconds (or two, FAT), where the
    /// tick is as long as that: such a file must be two seconds older.
    static func isSettled(modified: Int64, changed: Int64, before stamp: Int64?) -> Bool {
        guard let stamp else { return false }
        let latest = max(modified, changed)
        let margin: Int64 = changed % 1_000_000_000 == 0 ? 2_000_000_000 : 0
        return latest + margin < stamp
    }
}

/// `.pipeline/cache/status.tsv`: the stat of every path the last full `status` looked at (spec, lock,
/// every dep, code path and out and each file and folder inside them, the fan-out glob folders, the
/// folders holding outs) with the status it printed, kept only when that status was "up to date" and
/// every path was settled (`StatClock`). When every path still has the same type, size, mtime, ctime
/// and inode — and the runner is the same build — nothing they hold can have changed, so `status` and
/// a no-op `run` are confirmed without reading a file or parsing the spec. Any difference, a missing
/// or malformed snapshot, or a journal falls back to the full computation (which writes a new one).
struct StatSnapshot: Sendable, Equatable {
    static let path = ".pipeline/cache/status.tsv"
    private static let header = "sportstime status snapshot 1"

    /// Stage names in order (for `run`'s lines).
    var stages: [String]
    /// What `status` printed.
    var lines: [String]

    /// Paths every snapshot records besides what the hasher saw.
    static let fixedPaths = [Workspace.specPath, Publisher.lockPath, Publisher.journalPath]

    /// Writes the snapshot when every observed path is settled; otherwise removes any old one.
    static func write(root: URL, stamp: Int64?, stages: [String], lines: [String], observed: [String: FileStatus?]) {
        let url = root.appendingPathComponent(path)
        guard let stamp else { return remove(root: root) }
        var text = header + "\n" + "runner \(runnerIdentity())\n" + "stamp \(stamp)\n"
        text += "stages \(stages.count)\n" + stages.map { $0 + "\n" }.joined()
        text += "lines \(lines.count)\n" + lines.map { $0.replacingOccurrences(of: "\n", with: " ") + "\n" }.joined()
        for path in observed.keys.sorted() {
            if let status = observed[path]! {
                guard StatClock.isSettled(modified: status.modified, changed: status.changed, before: stamp) else {
                    return remove(root: root)
                }
                text += "\(status.kind)\t\(status.size)\t\(status.modified)\t\(status.changed)\t\(status.inode)\t\(path)\n"
            } else {
                text += "-\t0\t0\t0\t0\t\(path)\n"
            }
        }
        ScratchFile.replace(Data(text.utf8), at: url)
    }

    /// Removes the snapshot (after a run changed something it may not see by stat alone).
    static func remove(root: URL) {
        _ = unlink(root.appendingPathComponent(path).path)
    }

    /// The stored status when every recorded path is exactly as recorded; nil otherwise.
    static func confirm(root: URL) -> StatSnapshot? {
        guard let data = FileManager.default.contents(atPath: root.appendingPathComponent(path).path) else { return nil }
        let text = String(decoding: data, as: UTF8.self)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)[...]
        guard lines.popFirst() == Substring(header), lines.popFirst() == Substring("runner \(runnerIdentity())"),
              let stampLine = lines.popFirst(), stampLine.hasPrefix("stamp "), let stamp = Int64(stampLine.dropFirst(6)) else { return nil }
        func block(_ name: String) -> [String]? {
            guard let line = lines.popFirst(), line.hasPrefix(name + " "), let count = Int(line.dropFirst(name.count + 1)),
                  count >= 0, lines.count >= count else { return nil }
            let values = lines.prefix(count).map(String.init)
            lines = lines.dropFirst(count)
            return values
        }
        guard let stages = block("stages"), let printed = block("lines") else { return nil }
        let base = root.path + "/"
        var count = 0
        for line in lines where !line.isEmpty {
            let fields = line.split(separator: "\t", maxSplits: 5, omittingEmptySubsequences: false)
            guard fields.count == 6 else { return nil }
            let status = FileStatus(path: base + fields[5])
            if fields[0] == "-" {
                if status != nil { return nil }
            } else {
                guard let status, Substring(status.kind) == fields[0], String(status.size) == fields[1],
                      String(status.modified) == fields[2], String(status.changed) == fields[3],
                      String(status.inode) == fields[4],
                      StatClock.isSettled(modified: status.modified, changed: status.changed, before: stamp) else { return nil }
            }
            count += 1
        }
        guard count > 0 else { return nil }
        return StatSnapshot(stages: stages, lines: printed)
    }

    /// The running executable's stat: a rebuilt runner may decide differently, so its snapshot is not reused.
    static func runnerIdentity() -> String {
        #if os(Linux)
        var buffer = [CChar](repeating: 0, count: 4096)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        let path = length > 0 ? String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self) : nil
        #else
        let path = Bundle.main.executablePath
        #endif
        guard let path, let status = FileStatus(path: path) else { return "unknown" }
        return "\(status.size):\(status.modified):\(status.changed):\(status.inode)"
    }
}
