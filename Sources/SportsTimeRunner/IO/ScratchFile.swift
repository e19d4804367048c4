import Foundation
import SportsTimeCore

/// Files under `.pipeline/` that only save work or inform (caches, reports): replaced by rename so a
/// reader never sees half a file, but not flushed to disk (a flush costs milliseconds per file; losing
/// one of these to a power cut only costs re-hashing). Failures are ignored: these files are optional.
enum ScratchFile {
    static func replace(_ data: Data, at url: URL) {
        _ = AtomicFile.write(data, to: url.path, sync: false)
    }
}
