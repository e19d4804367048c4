import Foundation
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reading a command's input files, a file that cannot be read being invalid input located at it.
///
/// Every file a stage reads is opened, `fstat`ed and refused over its kind's limit (`InputLimits.Kind`)
/// before a byte is read, so a 5 GB file costs a message, not 5 GB of memory or a misleading reason.
/// And every file read (by `read` and `readIfPresent`) is confined to the repository as the runner
/// confines it, also when a stage runs on its own: a link under the repository that leads outside it is
/// refused at the link, before anything is opened through it.
public enum InputFiles {
    /// The repository this process works in: the folder holding `pipeline/pipeline.yaml` at or above the
    /// current folder (the current folder when there is none).
    static let repository = RepositoryConfinement(root: ArtifactFiles.repositoryRoot())

    /// Throws the located refusal when `url` lies under the repository and a link along it leads outside.
    /// A path outside the repository is not checked: a command-line flag names it on purpose (a stage
    /// run by hand on other files), and no link inside the repository is followed to reach it.
    public static func confine(_ url: URL) throws {
        if let problem = repository.checkRead(url) { throw PipelineError.invalidInput(problem) }
    }

    /// Whether `url` may be read under `confine`'s rule.
    public static func isConfined(_ url: URL) -> Bool { repository.checkRead(url) == nil }

    /// Why `bytes(atPath:limit:)` read nothing.
    public enum Refusal: Error, Sendable {
        /// The file is larger than the limit (its size in bytes).
        case tooLarge(Int64)
        /// `open`, `fstat` or `read` failed with this errno (`ENOENT` for a missing file).
        case failed(Int32)
    }

    /// The bytes of the file at `path`, its size checked by `fstat` on the open file before reading: over
    /// `limit` bytes (or growing past it while read) it is refused unread.
    public static func bytes(atPath path: String, limit: Int) -> Result<Data, Refusal> {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return .failure(.failed(errno)) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return .failure(.failed(errno)) }
        if (info.st_mode & S_IFMT) == S_IFDIR { return .failure(.failed(EISDIR)) }
        guard Int64(info.st_size) <= Int64(limit) else { return .failure(.tooLarge(Int64(info.st_size))) }
        // One byte more than the limit is asked for, so a file that grew since `fstat` is caught too.
        var data = Data(count: Int(info.st_size) + 1)
        var filled = 0
        while true {
            if filled == data.count {
                guard data.count <= limit else { return .failure(.tooLarge(Int64(filled))) }
                data.count = min(limit + 1, data.count * 2)
            }
            let count = data.withUnsafeMutableBytes { Foundation.read(fd, $0.baseAddress! + filled, $0.count - filled) }
            if count < 0 {
                if errno == EINTR { continue }
                return .failure(.failed(errno))
            }
            if count == 0 { break }
            filled += count
        }
        guard filled <= limit else { return .failure(.tooLarge(Int64(filled))) }
        data.count = filled
        return .success(data)
    }

    /// The refusal of a file over its kind's limit, located at it.
    public static func tooLarge(_ path: String, bytes: Int64, kind: InputLimits.Kind) -> Diagnostic {
        Diagnostic(
            .error, at: SourceLocation(path: path),
            "the file is \(bytes) bytes, more than the \(kind.limit) allowed for \(kind.name)",
            fix: "Check that this is the intended file; the limits are in Sources/SportsTimeCore/Text/InputLimits.swift")
    }

    /// The bytes of `url`, shown as `path`, at most `kind.limit`. When it cannot be read: `problem` (with
    /// the system's reason in parentheses when `givingReason`) and `fix`, exit 2; a larger file is
    /// refused for its size.
    public static func read(
        _ url: URL, path: String, kind: InputLimits.Kind, problem: String, fix: String, givingReason: Bool = false
    ) throws -> Data {
        try confine(url)
        switch bytes(atPath: url.path, limit: kind.limit) {
        case .success(let data): return data
        case .failure(.tooLarge(let size)): throw PipelineError.invalidInput(tooLarge(path, bytes: size, kind: kind))
        case .failure(.failed(let code)):
            let message = givingReason ? "\(problem) (\(String(cString: strerror(code))))" : problem
            throw PipelineError.invalidInput(Diagnostic(.error, at: SourceLocation(path: path), message, fix: fix))
        }
    }

    /// The bytes of `url` (shown as `path`, at most `kind.limit`), or nil when it cannot be read (missing,
    /// a folder, no permission): for readers that treat such a file as absent. A larger file is refused.
    public static func readIfPresent(_ url: URL, path: String, kind: InputLimits.Kind) throws -> Data? {
        try confine(url)
        switch bytes(atPath: url.path, limit: kind.limit) {
        case .success(let data): return data
        case .failure(.tooLarge(let size)): throw PipelineError.invalidInput(tooLarge(path, bytes: size, kind: kind))
        case .failure(.failed): return nil
        }
    }

    /// An envelope file of `kind` read whole (as `read` reads it), with the input reference (shown path
    /// and SHA-256) an artifact that depends on it records.
    public static func envelope<Record: Codable & Sendable>(
        _ type: Record.Type, at url: URL, path: String, expecting kind: ArtifactKind,
        problem: String, fix: String, givingReason: Bool = false
    ) throws -> (envelope: Envelope<Record>, input: InputReference) {
        let data = try read(url, path: path, kind: .artifact, problem: problem, fix: fix, givingReason: givingReason)
        let envelope = try EnvelopeReader.read(type, from: data, path: path, expecting: kind)
        return (envelope, InputReference(path: path, sha256: ArtifactFiles.sha256(data)))
    }
}
