import Foundation

/// Reading a command's input files, a file that cannot be read being invalid input located at it.
public enum InputFiles {
    /// The bytes of `url`, shown as `path`. When it cannot be read: `problem` (with the system's reason
    /// in parentheses when `givingReason`) and `fix`, exit 2.
    public static func read(_ url: URL, path: String, problem: String, fix: String, givingReason: Bool = false) throws -> Data {
        do {
            return try Data(contentsOf: url)
        } catch {
            let message = givingReason ? "\(problem) (\(error.localizedDescription))" : problem
            throw PipelineError.invalidInput(Diagnostic(.error, at: SourceLocation(path: path), message, fix: fix))
        }
    }

    /// An envelope file of `kind` read whole (as `read` reads it), with the input reference (shown path
    /// and SHA-256) an artifact that depends on it records.
    public static func envelope<Record: Codable & Sendable>(
        _ type: Record.Type, at url: URL, path: String, expecting kind: ArtifactKind,
        problem: String, fix: String, givingReason: Bool = false
    ) throws -> (envelope: Envelope<Record>, input: InputReference) {
        let data = try read(url, path: path, problem: problem, fix: fix, givingReason: givingReason)
        let envelope = try EnvelopeReader.read(type, from: data, path: path, expecting: kind)
        return (envelope, InputReference(path: path, sha256: ArtifactFiles.sha256(data)))
    }
}
