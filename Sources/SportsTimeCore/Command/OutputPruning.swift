import Foundation

/// What a stage removes from its output folder after writing: what an earlier run wrote for inputs that
/// are gone (a source dropped from the spec, a request deleted), so the folder holds exactly this run's
/// outputs. Only the command layer prunes; it decides what to say about each removal.
public enum OutputPruning {
    /// A folder directly inside the output folder that no current input produces.
    public struct StaleFolder: Sendable {
        public var url: URL
        /// The names directly inside it.
        public var contents: [String]
        /// Whether it holds nothing but files the stage itself writes (so removing it loses nothing else).
        public var holdsOnlyOwnFiles: Bool
    }

    /// The folders directly in `folder` (hidden ones aside) not named in `keeping`, by path.
    public static func staleFolders(in folder: URL, keeping names: Set<String>, ownFiles: Set<String>) -> [StaleFolder] {
        let manager = FileManager.default
        guard let entries = try? manager.contentsOfDirectory(atPath: folder.path) else { return [] }
        return entries.sorted().compactMap { name -> StaleFolder? in
            guard !name.hasPrefix("."), !names.contains(name) else { return nil }
            let url = folder.appendingPathComponent(name, isDirectory: true)
            var isFolder: ObjCBool = false
            guard manager.fileExists(atPath: url.path, isDirectory: &isFolder), isFolder.boolValue else { return nil }
            let contents = ((try? manager.contentsOfDirectory(atPath: url.path)) ?? []).sorted()
            return StaleFolder(url: url, contents: contents, holdsOnlyOwnFiles: contents.allSatisfy(ownFiles.contains))
        }
    }

    /// The files under `folder` (hidden ones aside; only those directly in it when `directly`) whose
    /// names end in `suffix` and whose paths relative to `base` (default: `folder`) are not in `keeping`,
    /// by path.
    public static func staleFiles(
        in folder: URL, suffix: String, keeping paths: Set<String>, relativeTo base: URL? = nil, directly: Bool = false
    ) -> [URL] {
        ArtifactFiles.files(under: folder, suffix: suffix).filter { file in
            if directly && ArtifactFiles.relativePath(of: file, to: folder).contains("/") { return false }
            return !paths.contains(ArtifactFiles.relativePath(of: file, to: base ?? folder))
        }
    }
}
