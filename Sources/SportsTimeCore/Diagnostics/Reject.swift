import Foundation

/// A record a stage refused, with where it came from and why. Written as JSON Lines.
public struct Reject: Codable, Hashable, Sendable, Comparable {
    /// Repository-relative file the record came from.
    public var file: String
    /// 1-based line in that file (the record's first line), when the source has lines.
    public var line: Int?
    /// One sentence: what is wrong.
    public var reason: String
    /// The raw text of the record, trimmed, so a reviewer can see it without opening the file.
    public var raw: String?
    /// A stable id of the record when one is known (e.g. the source's game id).
    public var recordId: String?

    public init(file: String, line: Int?, reason: String, raw: String? = nil, recordId: String? = nil) {
        self.file = file; self.line = line; self.reason = reason; self.raw = raw; self.recordId = recordId
    }

    /// By file, line, record id, reason (field by field: no tuple of copied strings per comparison).
    public static func < (a: Self, b: Self) -> Bool {
        if a.file != b.file { return a.file < b.file }
        if (a.line ?? 0) != (b.line ?? 0) { return (a.line ?? 0) < (b.line ?? 0) }
        if (a.recordId ?? "") != (b.recordId ?? "") { return (a.recordId ?? "") < (b.recordId ?? "") }
        return a.reason < b.reason
    }
}

/// Writes rejects as JSON Lines: one reject per line, sorted by file, line, id, reason.
public enum RejectsWriter {
    public static func data(_ rejects: [Reject]) -> Data {
        CanonicalJSON.lines(rejects.sorted())
    }
}
