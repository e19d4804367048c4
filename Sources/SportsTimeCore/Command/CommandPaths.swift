import Foundation

/// The command layer's one path rule, the same in every executable:
///
/// - a path given on the command line is relative to the current folder (an absolute path is taken as
///   is);
/// - a path shown in a message or recorded in an artifact (an envelope's `inputs`) is relative to the
///   repository root: the nearest folder at or above the current folder holding `pipeline/pipeline.yaml`,
///   else the current folder itself.
///
/// The runner starts every stage in the repository root, where the two agree.
public struct CommandPaths: Sendable {
    /// The folder command-line paths are relative to.
    public let cwd: URL
    /// The folder shown paths are relative to.
    public let root: URL

    /// The rule for a command started in `cwd` (by default this process's current folder).
    public init(cwd: URL = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)) {
        self.cwd = URL(fileURLWithPath: cwd.standardizedFileURL.path, isDirectory: true)
        root = ArtifactFiles.repositoryRoot(from: self.cwd)
    }

    /// The file or folder a command-line path names.
    public func url(_ path: String) -> URL {
        URL(fileURLWithPath: URL(fileURLWithPath: path, relativeTo: cwd).standardizedFileURL.path)
    }

    /// How `url` is shown and recorded: relative to the repository root (absolute when outside it).
    public func display(_ url: URL) -> String { ArtifactFiles.relativePath(of: url, to: root) }
}
