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
    private let rootPath: String

    init(root: URL) {
        self.root = root
        rootPath = root.path
    }

    func absolute(_ path: String) -> String { PathText.join(rootPath, path) }

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

    /// The inode of `path` itself (a link is not followed), or nil when nothing is there.
    func inode(_ path: String) -> UInt64? {
        var info = stat()
        return lstat(absolute(path), &info) == 0 ? UInt64(info.st_ino) : nil
    }

    /// Swaps `a` and `b` in one step (`renameat2` with `RENAME_EXCHANGE`): at every instant each path
    /// holds one of the two whole versions. Returns false, having changed nothing, where the system or
    /// file system cannot exchange; a failure is reported at `location`.
    func exchange(_ a: String, _ b: String, location: String) throws -> Bool {
        guard let call = Self.renameat2 else { return false }
        guard call(AT_FDCWD, absolute(a), AT_FDCWD, absolute(b), Self.renameExchange) == 0 else {
            let code = errno
            if code == EINVAL || code == ENOSYS || code == ENOTSUP || code == EOPNOTSUPP { return false }
            throw FileFault(path: location, action: "swap \(a) and \(b)", code: code)
        }
        return true
    }

    private typealias RenameAt2 = @convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) -> Int32
    private static let renameExchange: UInt32 = 1 << 1

    /// glibc's `renameat2` (2.28 and later; Swift does not import it), looked up once; nil elsewhere.
    private static let renameat2: RenameAt2? = {
        #if os(Linux)
            guard let handle = dlopen(nil, RTLD_NOW), let symbol = dlsym(handle, "renameat2") else { return nil }
            return unsafeBitCast(symbol, to: RenameAt2.self)
        #else
            return nil
        #endif
    }()

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
