import Foundation
import SportsTimeCore

/// What earlier runs proved valid: the SHA-256 of a file's bytes that passed validation, with what the
/// validation found (its record count and kind) and the record lines `RecordCounter` counts in them
/// (so a file seen before is hashed, and neither validated nor scanned again). A staged file whose
/// bytes, checking rules and schemas are those of an entry needs no second validation — a forced
/// re-run, or a stage whose inputs changed but most of whose files came out the same (one sport fixed:
/// every other sport's games files). The answer is the one validation would give, because validation
/// is a function of those three things:
///
/// - the bytes, by their hash;
/// - the rules: `ArtifactValidator.rulesRevision` and the artifact kinds with their newest versions;
/// - the schemas: every file of `pipeline/schemas/`, by content.
///
/// The last two make the cache's `context`, written in its header: an entry is only used by a run whose
/// context is the same, so editing a schema or building rules of another revision validates everything
/// again. Only files that validated with no problem are kept (a problem's message names the file's
/// path, and the next run must show it again). A stage's own schema (`schema:` of an out) is not cached.
/// The file is `.pipeline/cache/validated.tsv`; a lost or corrupt cache only costs validating again.
final class ValidationCache: Sendable {
    struct Entry: Sendable, Hashable {
        var records: Int?
        var kind: ArtifactKind?
        /// `RecordCounter.count` of the bytes (a function of the bytes and the path class, like the key).
        var recordLines: Int?
    }

    private static let header = "sportstime validated 2"
    static let path = ".pipeline/cache/validated.tsv"
    /// Entries kept on disk at most (the newest run's first); a few hundred are written per run.
    static let capacity = 20_000

    private let file: URL
    private let context: String
    private let state: Locked<(known: [String: Entry], used: [String: Entry], changed: Bool)>

    /// Loads the cache of the repository at `root`; `context` as `Self.context(root:)` computes it.
    init(root: URL, context: String) {
        file = root.appendingPathComponent(Self.path)
        self.context = context
        var known: [String: Entry] = [:]
        if let data = RunnerFile.cache(file.path) {
            let text = String(decoding: data, as: UTF8.self)
            var lines = TabSeparated.lines(text)[...]
            if lines.popFirst() == Substring(Self.header + "\t" + context) {
                for line in lines {
                    let fields = TabSeparated.fields(line)
                    guard fields.count == 4, fields[0].utf8.count == 66 else { continue }
                    let kind = fields[2] == "-" ? nil : ArtifactKind(rawValue: String(fields[2]))
                    guard fields[2] == "-" || kind != nil else { continue }
                    let records = fields[1] == "-" ? nil : Int(fields[1])
                    guard fields[1] == "-" || records != nil else { continue }
                    let lines = fields[3] == "-" ? nil : Int(fields[3])
                    guard fields[3] == "-" || lines != nil else { continue }
                    known[String(fields[0])] = Entry(records: records, kind: kind, recordLines: lines)
                }
            }
        }
        state = Locked((known, [:], false))
    }

    /// The key of a file's bytes as validated by path class: `j` envelope (`.json`) or `l` JSON Lines
    /// (`.jsonl`), then the hash. Nil for files that are not validated.
    static func key(hash: String, path: String) -> String? {
        if path.hasSuffix(".jsonl") { return "l:" + hash }
        if path.hasSuffix(".json") { return "j:" + hash }
        return nil
    }

    /// The checking context of the repository at `root`: the rules' revision, the kinds and their newest
    /// versions, and every schema file's name and hash.
    static func context(root: URL) -> String {
        var text = "rules \(ArtifactValidator.rulesRevision)\n"
        for kind in ArtifactKind.allCases { text += "\(kind.rawValue) \(kind.currentVersion)\n" }
        let folder = root.appendingPathComponent("pipeline/schemas")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        for name in names.sorted() where name.hasSuffix(".json") {
            let data = FileManager.default.contents(atPath: folder.appendingPathComponent(name).path) ?? Data()
            text += "\(name) \(ArtifactFiles.sha256(data))\n"
        }
        return ArtifactFiles.sha256(Data(text.utf8))
    }

    func entry(for key: String) -> Entry? {
        state.withLock { state in
            guard let entry = state.known[key] else { return nil }
            state.used[key] = entry
            return entry
        }
    }

    func remember(_ entry: Entry, for key: String) {
        state.withLock { state in
            state.known[key] = entry
            state.used[key] = entry
            state.changed = true
        }
    }

    /// Writes the cache when this run added to it: the entries this run used or added first, then older
    /// ones up to `capacity`, each block sorted by key.
    func save() {
        let (known, used, changed) = state.withLock { ($0.known, $0.used, $0.changed) }
        guard changed else { return }
        var keys = used.keys.sorted()
        let older = known.keys.filter { used[$0] == nil }.sorted()
        keys += older.prefix(max(0, Self.capacity - keys.count))
        var text = Self.header + "\t" + context + "\n"
        for key in keys {
            let entry = known[key]!
            text +=
                key + "\t" + (entry.records.map(String.init) ?? "-") + "\t" + (entry.kind?.rawValue ?? "-") + "\t"
                + (entry.recordLines.map(String.init) ?? "-") + "\n"
        }
        try? FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        ScratchFile.replace(Data(text.utf8), at: file)
    }
}
