import Foundation
import SportsTimeCore

/// Reads files as git sees them: at a revision, or in the working tree (tracked and untracked, not
/// ignored), under some repository paths.
public struct GitFiles: Sendable {
    public let root: URL
    /// git's environment.
    public let environment: [String: String]

    /// path → bytes of the files under `paths` at `revision`.
    public func files(at revision: String, under paths: [String]) throws -> [String: Data] {
        _ = try git(
            ["rev-parse", "--verify", "--quiet", "\(revision)^{commit}"],
            failure: { _ in
                PipelineError.usage("'\(revision)' is not a commit in this repository. Name a branch, tag or commit (default HEAD)")
            })
        let listing = try git(["ls-tree", "-r", "-z", "--name-only", revision, "--"] + paths)
        let names = listing.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }.filter { !$0.isEmpty }
        guard !names.isEmpty else { return [:] }
        let request = Data(names.map { "\(revision):\($0)\n" }.joined().utf8)
        let output = try git(["cat-file", "--batch"], input: request)
        // Each answer: "<sha> blob <size>\n<bytes>\n".
        var files: [String: Data] = [:]
        var cursor = output.startIndex
        for name in names {
            guard let newline = output[cursor...].firstIndex(of: 0x0A) else { break }
            let header = String(decoding: output[cursor..<newline], as: UTF8.self).split(separator: " ")
            cursor = output.index(after: newline)
            guard header.count == 3, header[1] == "blob", let size = Int(header[2]) else { continue }
            let end = output.index(cursor, offsetBy: size)
            files[name] = Data(output[cursor..<end])
            cursor = output.index(after: end)
        }
        return files
    }

    /// path → bytes of the working tree's files under `paths` that git would track (ignored files left out).
    public func workingFiles(under paths: [String]) throws -> [String: Data] {
        let listing = try git(["ls-files", "-z", "--cached", "--others", "--exclude-standard", "--"] + paths)
        var files: [String: Data] = [:]
        for raw in listing.split(separator: 0) where !raw.isEmpty {
            let name = String(decoding: raw, as: UTF8.self)
            if let data = FileManager.default.contents(atPath: root.appendingPathComponent(name).path) { files[name] = data }
        }
        return files
    }

    private func git(
        _ arguments: [String], input: Data? = nil,
        failure: ((String) -> PipelineError)? = nil
    ) throws -> Data {
        let finished: ChildProcess.Finished
        do {
            finished = try ChildProcess.run(
                "/usr/bin/env", ["git", "-C", root.path] + arguments, options: ChildProcess.Options(environment: environment, input: input))
        } catch {
            throw PipelineError.failure(Diagnostic(.error, "cannot run git (\(error.reason))", fix: "Install git"))
        }
        guard finished.termination == .exited(0) else {
            let message = String(decoding: finished.errors, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            if let failure { throw failure(message) }
            throw PipelineError.failure(
                Diagnostic(
                    .error, "git \(arguments.first ?? "") failed: \(message)",
                    fix: "Run sportstime diff inside a git repository"))
        }
        return finished.output
    }
}
