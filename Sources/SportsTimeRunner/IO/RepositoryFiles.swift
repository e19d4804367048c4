import Foundation
import SportsTimeCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The few file operations publishing needs, as plain system calls: `rename` is atomic and never falls
/// back to copying across file systems, and each failure keeps its errno for the message.
struct RepositoryFiles {
    let root: URL

    func absolute(_ path: String) -> String { root.appendingPathComponent(path).path }

    /// Whether `path` names anything, a dangling symbolic link included.
    func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(absolute(path), &info) == 0
    }

    /// Renames `from` to `to`; a failure is reported at `location` (the published path it concerns).
    func rename(_ from: String, to: String, location: String) throws {
        try makeFolders(RepositoryPath.parent(of: to))
        guard systemRename(absolute(from), absolute(to)) == 0 else {
            throw FileFault(path: location, action: "move \(from) to \(to)", code: errno)
        }
    }

    func makeFolders(_ path: String) throws {
        guard !path.isEmpty, path != "." else { return }
        let (code, _) = AtomicFile.makeFolders(absolute(path))
        if code != 0 { throw FileFault(path: path, action: "create the folder", code: code) }
    }

    /// Replaces `path` atomically (see `AtomicFile`).
    func writeAtomically(_ data: Data, to path: String) throws {
        try makeFolders(RepositoryPath.parent(of: path))
        let code = AtomicFile.write(data, to: absolute(path))
        if code != 0 { throw FileFault(path: path, action: "write", code: code) }
    }

    private func systemRename(_ from: String, _ to: String) -> Int32 {
        #if canImport(Glibc)
        return Glibc.rename(from, to)
        #else
        return Darwin.rename(from, to)
        #endif
    }

    /// Removes `path` and everything under it; missing is fine.
    func removeTree(_ path: String) throws {
        guard exists(path) else { return }
        do { try FileManager.default.removeItem(atPath: absolute(path)) } catch {
            let code = ((error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError).map { Int32($0.code) } ?? EIO
            throw FileFault(path: path, action: "remove", code: code)
        }
    }
}
