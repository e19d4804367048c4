import Foundation
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What `stat` says about a path: enough to key a cache of content hashes (never to decide alone).
struct FileStatus: Hashable, Sendable {
    var isFolder: Bool
    var isFile: Bool
    var size: Int64
    /// Modification time in nanoseconds since the epoch.
    var modified: Int64
    /// Status-change time in nanoseconds (set by the kernel on any write, rename or `touch`; cannot be set back).
    var changed: Int64
    var inode: UInt64

    /// `d` folder, `f` regular file, `o` anything else (for the status snapshot).
    var kind: String { isFolder ? "d" : isFile ? "f" : "o" }

    /// The status of `path` (symbolic links followed), or nil when it does not exist.
    init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        self.init(info)
    }

    /// From what `stat` filled in.
    init(_ info: stat) {
        let type = info.st_mode & S_IFMT
        isFolder = type == S_IFDIR
        isFile = type == S_IFREG
        size = Int64(info.st_size)
        #if canImport(Darwin)
            modified = Int64(info.st_mtimespec.tv_sec) * 1_000_000_000 + Int64(info.st_mtimespec.tv_nsec)
            changed = Int64(info.st_ctimespec.tv_sec) * 1_000_000_000 + Int64(info.st_ctimespec.tv_nsec)
        #else
            modified = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
            changed = Int64(info.st_ctim.tv_sec) * 1_000_000_000 + Int64(info.st_ctim.tv_nsec)
        #endif
        inode = UInt64(info.st_ino)
    }

    /// Nanoseconds since the epoch now.
    static func now() -> Int64 {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Int64(spec.tv_sec) * 1_000_000_000 + Int64(spec.tv_nsec)
    }
}
