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

/// `.pipeline/cache/status.tsv`: the stat of every path the last full `status` looked at (spec, shared params, lock,
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
    static let fixedPaths = [Workspace.specPath, SharedParams.path, Publisher.lockPath, Publisher.journalPath]

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

    /// The stored status when every recorded path is exactly as recorded; nil otherwise. Works on the
    /// file's bytes (no string splitting): this is the whole cost of a no-op `status`.
    static func confirm(root: URL) -> StatSnapshot? {
        guard let data = RunnerFile.cache(root.appendingPathComponent(path).path) else { return nil }
        return data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> StatSnapshot? in
            let bytes = raw.bindMemory(to: UInt8.self)
            var position = 0
            func nextLine() -> UnsafeBufferPointer<UInt8>? {
                guard position < bytes.count else { return nil }
                let start = position
                while position < bytes.count && bytes[position] != 0x0A { position += 1 }
                let line = UnsafeBufferPointer(rebasing: bytes[start..<position])
                position += 1
                return line
            }
            func text(_ line: UnsafeBufferPointer<UInt8>) -> String { String(decoding: line, as: UTF8.self) }
            guard let first = nextLine(), text(first) == header,
                let runner = nextLine(), text(runner) == "runner \(runnerIdentity())",
                let stampLine = nextLine(), text(stampLine).hasPrefix("stamp "),
                let stamp = Int64(text(stampLine).dropFirst(6))
            else { return nil }
            func block(_ name: String) -> [String]? {
                guard let line = nextLine() else { return nil }
                let heading = text(line)
                guard heading.hasPrefix(name + " "), let count = Int(heading.dropFirst(name.count + 1)), count >= 0 else { return nil }
                var values: [String] = []
                values.reserveCapacity(count)
                for _ in 0..<count {
                    guard let value = nextLine() else { return nil }
                    values.append(text(value))
                }
                return values
            }
            guard let stages = block("stages"), let printed = block("lines") else { return nil }
            // root + "/" + path + NUL, reused for every line.
            var pathBuffer = Array(root.path.utf8) + [0x2F]
            let base = pathBuffer.count
            var count = 0
            while let line = nextLine() {
                if line.isEmpty { continue }
                // kind \t size \t mtime \t ctime \t inode \t path
                var fields: [Int64] = []
                var index = 2
                guard line.count > 2, line[1] == 0x09 else { return nil }
                while fields.count < 4 {
                    var value: Int64 = 0
                    var digits = 0
                    while index < line.count, line[index] >= 0x30, line[index] <= 0x39 {
                        value = value &* 10 &+ Int64(line[index] - 0x30)
                        index += 1
                        digits += 1
                    }
                    guard digits > 0, index < line.count, line[index] == 0x09 else { return nil }
                    index += 1
                    fields.append(value)
                }
                pathBuffer.removeSubrange(base...)
                pathBuffer.append(contentsOf: UnsafeBufferPointer(rebasing: line[index...]))
                pathBuffer.append(0)
                var info = stat()
                let found = pathBuffer.withUnsafeBufferPointer { buffer in
                    buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buffer.count) { stat($0, &info) == 0 }
                }
                if line[0] == 0x2D { // "-": recorded as missing
                    if found { return nil }
                } else {
                    guard found else { return nil }
                    let status = FileStatus(info)
                    guard status.kind.utf8.first == line[0], status.size == fields[0], status.modified == fields[1],
                        status.changed == fields[2], Int64(bitPattern: status.inode) == fields[3],
                        StatClock.isSettled(modified: status.modified, changed: status.changed, before: stamp)
                    else { return nil }
                }
                count += 1
            }
            guard count > 0 else { return nil }
            return StatSnapshot(stages: stages, lines: printed)
        }
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
