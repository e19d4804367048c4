import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Files under `.pipeline/` that only save work or inform (caches, reports): replaced by rename so a
/// reader never sees half a file, but not flushed to disk (Foundation's file writes sync, which costs
/// milliseconds per file; losing one of these to a power cut only costs re-hashing).
enum ScratchFile {
    static func replace(_ data: Data, at url: URL) {
        let temporary = url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).\(getpid()).tmp").path
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return }
        let written = data.withUnsafeBytes { bytes -> Bool in
            var offset = 0
            while offset < bytes.count {
                let count = write(fd, bytes.baseAddress! + offset, bytes.count - offset)
                if count <= 0 { return false }
                offset += count
            }
            return true
        }
        close(fd)
        if !written || rename(temporary, url.path) != 0 { unlink(temporary) }
    }
}
