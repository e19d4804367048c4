import Foundation
import SportsTimeCore

/// One field that differs between two versions of a record; `old` or `new` is nil when the field is absent.
public struct FieldChange: Sendable, Hashable {
    /// `startUTC`, `sourceIds.espn`, `options[0].score.total`.
    public var path: String
    public var old: JSONValue?
    public var new: JSONValue?
}

/// A record present in both versions (possibly under a new id) whose content differs.
public struct RecordChange: Sendable, Hashable {
    /// What the change amounts to, for a reader.
    public enum Label: String, Sendable {
        case changed, renamed, rescheduled, deprecated, restored
    }

    public var id: String
    /// The new id when the record was matched to an old one by a shared source id.
    public var newId: String?
    public var label: Label
    public var fields: [FieldChange]
    /// What a reader sees change, before the fields (a trip plan's games, days, driving and score).
    public var highlights: [String] = []
    /// Fields left out of `fields` (a plan's search statistics, shown with `--all`).
    public var hiddenFields = 0
}

/// How one file changed.
public struct FileDiff: Sendable, Hashable {
    public enum Status: String, Sendable { case added, removed, modified }
    public enum Content: Sendable, Hashable {
        /// An envelope: records keyed by `id`.
        case records(added: [String], removed: [String], changed: [RecordChange], header: [FieldChange])
        /// JSON Lines (rejects): lines added and removed, compared as a multiset.
        case lines(added: [String], removed: [String])
        /// Any other file (Markdown, HTML, iCalendar, GeoJSON, …): a unified line diff.
        case text(LineDiff)
    }

    public var path: String
    public var status: Status
    /// The envelope kind, when the file is one.
    public var kind: String?
    public var content: Content
    /// Records whose only changes are hidden (a plan's search statistics), left out of `content`.
    public var hiddenRecords = 0

    /// Whether the counts are lines of text rather than records.
    public var isText: Bool {
        if case .text = content { return true }
        return false
    }

    /// Whether every change of this file is hidden (see `hidingSearchStatistics`).
    public var isHiddenOnly: Bool {
        if case .records(let added, let removed, let changed, let header) = content, status == .modified {
            return hiddenRecords > 0 && added.isEmpty && removed.isEmpty && changed.isEmpty && header.isEmpty
        }
        return false
    }

    /// This diff without the search statistics of trip plans (`search.*`): they say how the planner
    /// searched, not what the traveller gets. A plan whose other fields are unchanged is left out and
    /// counted in `hiddenRecords`.
    public func hidingSearchStatistics() -> FileDiff {
        guard kind == PlanHighlights.kind, case .records(let added, let removed, let changed, let header) = content else { return self }
        var copy = self
        var kept: [RecordChange] = []
        for var change in changed {
            let visible = change.fields.filter { !PlanHighlights.isSearchStatistic($0.path) }
            change.hiddenFields += change.fields.count - visible.count
            change.fields = visible
            if visible.isEmpty && change.highlights.isEmpty && change.newId == nil {
                copy.hiddenRecords += 1
            } else {
                kept.append(change)
            }
        }
        copy.content = .records(added: added, removed: removed, changed: kept, header: header)
        return copy
    }

    /// Whether no record, header field or line differs (an envelope whose `inputs` hashes alone changed).
    public var isInputsOnly: Bool {
        if case .records(let added, let removed, let changed, let header) = content, status == .modified {
            return hiddenRecords == 0 && added.isEmpty && removed.isEmpty && changed.isEmpty && header.isEmpty
        }
        return false
    }

    public var counts: (added: Int, removed: Int, changed: Int) {
        switch content {
        case .records(let added, let removed, let changed, let header):
            return (added.count, removed.count, changed.count + (header.isEmpty ? 0 : 1))
        case .lines(let added, let removed): return (added.count, removed.count, 0)
        case .text(let diff): return (diff.added, diff.removed, 0)
        }
    }
}

/// Record-level differences between two trees of artifacts. Pure: paths and bytes in, a report out.
public enum RecordDiff {
    /// Compares `old` and `new` (path → file bytes); files equal byte for byte are left out.
    public static func compare(old: [String: Data], new: [String: Data]) -> [FileDiff] {
        var diffs: [FileDiff] = []
        for path in Set(old.keys).union(new.keys).sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
            let before = old[path]
            let after = new[path]
            if before == after { continue }
            let status: FileDiff.Status = before == nil ? .added : (after == nil ? .removed : .modified)
            diffs.append(compareFile(path: path, status: status, old: before, new: after))
        }
        return diffs
    }

    static func compareFile(path: String, status: FileDiff.Status, old: Data?, new: Data?) -> FileDiff {
        if path.hasSuffix(".jsonl") {
            let (added, removed) = lineChanges(old: old, new: new)
            return FileDiff(path: path, status: status, kind: nil, content: .lines(added: added, removed: removed))
        }
        if path.hasSuffix(".json") {
            let before = old.flatMap(envelope)
            let after = new.flatMap(envelope)
            if (old == nil || before != nil) && (new == nil || after != nil) {
                let kind = after?.kind ?? before?.kind
                return FileDiff(
                    path: path, status: status, kind: kind,
                    content: compareEnvelopes(before ?? .empty, after ?? .empty, kind: kind))
            }
        }
        return FileDiff(path: path, status: status, kind: nil, content: .text(LineDiff.compare(old ?? Data(), new ?? Data())))
    }

    struct ParsedEnvelope {
        var kind: String?
        var header: [String: JSONValue]
        var records: [String: JSONValue]
        static let empty = ParsedEnvelope(kind: nil, header: [:], records: [:])
    }

    /// The envelope's header fields and records by id; nil when the file is not an envelope with ids.
    static func envelope(_ data: Data) -> ParsedEnvelope? {
        guard let document = try? JSONParser.parse(data), var object = document.objectValue,
            let kind = object["kind"]?.stringValue, let records = object.removeValue(forKey: "records")?.arrayValue
        else {
            return nil
        }
        var byId: [String: JSONValue] = [:]
        for (index, record) in records.enumerated() {
            let id = record["id"]?.stringValue ?? "#\(index)"
            byId[id] = record
        }
        object["inputs"] = nil
        return ParsedEnvelope(kind: kind, header: object, records: byId)
    }

    static func compareEnvelopes(_ old: ParsedEnvelope, _ new: ParsedEnvelope, kind: String?) -> FileDiff.Content {
        var added = Set(new.records.keys).subtracting(old.records.keys)
        var removed = Set(old.records.keys).subtracting(new.records.keys)
        var changed: [RecordChange] = []
        for id in Set(old.records.keys).intersection(new.records.keys) {
            let fields = fieldChanges(old.records[id], new.records[id], path: "")
            if !fields.isEmpty {
                var change = RecordChange(id: id, newId: nil, label: label(fields), fields: fields)
                if kind == PlanHighlights.kind { change.highlights = PlanHighlights.lines(old: old.records[id], new: new.records[id]) }
                changed.append(change)
            }
        }
        // A record whose id changed (a game moved to another date) is matched by the ids it had before
        // (`formerIds`), then by a source's own id.
        func pair(_ id: String, with match: String) {
            added.remove(match)
            removed.remove(id)
            let fields = fieldChanges(old.records[id], new.records[match], path: "").filter { $0.path != "id" }
            var change = RecordChange(id: id, newId: match, label: label(fields), fields: fields)
            if change.label == .changed || change.label == .renamed { change.label = .changed }
            changed.append(change)
        }
        var byFormerId: [String: String] = [:]
        for id in added.sorted() {
            for former in new.records[id]?["formerIds"]?.arrayValue ?? [] {
                if let text = former.stringValue, byFormerId[text] == nil { byFormerId[text] = id }
            }
        }
        for id in removed.sorted() {
            if let match = byFormerId[id], added.contains(match) { pair(id, with: match) }
        }
        var bySourceId: [String: String] = [:]
        for id in added.sorted() {
            for key in sourceKeys(new.records[id]) where bySourceId[key] == nil { bySourceId[key] = id }
        }
        for id in removed.sorted() {
            if let match = sourceKeys(old.records[id]).lazy.compactMap({ bySourceId[$0] }).first(where: { added.contains($0) }) {
                pair(id, with: match)
            }
        }
        let header = fieldChanges(.object(old.header), .object(new.header), path: "")
        return .records(
            added: added.sorted(), removed: removed.sorted(), changed: changed.sorted { $0.id < $1.id },
            header: old.kind == nil || new.kind == nil ? [] : header)
    }

    /// `source:value` keys of a record's `sourceIds`.
    static func sourceKeys(_ record: JSONValue?) -> [String] {
        guard let ids = record?["sourceIds"]?.objectValue else { return [] }
        return ids.keys.sorted().compactMap { key in ids[key]?.stringValue.map { "\(key):\($0)" } }
    }

    static func label(_ fields: [FieldChange]) -> RecordChange.Label {
        let paths = Set(fields.map(\.path))
        if let deprecation = fields.first(where: { $0.path == "deprecatedAt" }) {
            if deprecation.new != nil && deprecation.new != .null { return .deprecated }
            return .restored
        }
        // A new date, or a start that changed from one time to another (a start filled in where none was
        // known is not a reschedule).
        let movedStart = fields.contains { $0.path == "startUTC" && $0.old != nil && $0.old != .null && $0.new != nil && $0.new != .null }
        if paths.contains("localDate") || movedStart { return .rescheduled }
        if paths.contains("name") { return .renamed }
        return .changed
    }

    /// Leaf-level differences; `lastModified` and `schemaVersion` listed after the others.
    static func fieldChanges(_ old: JSONValue?, _ new: JSONValue?, path: String) -> [FieldChange] {
        var found: [FieldChange] = []
        collect(old, new, path: path, into: &found)
        let trailing: Set<String> = ["lastModified", "schemaVersion"]
        return found.filter { !trailing.contains($0.path) } + found.filter { trailing.contains($0.path) }
    }

    private static func collect(_ old: JSONValue?, _ new: JSONValue?, path: String, into found: inout [FieldChange]) {
        if old == new { return }
        switch (old, new) {
        case (.members(let a)?, .members(let b)?):
            let keys = Set(a.map(\.key)).union(b.map(\.key)).sorted()
            for key in keys {
                collect(old?[key], new?[key], path: path.isEmpty ? key : "\(path).\(key)", into: &found)
            }
        case (.array(let a)?, .array(let b)?) where a.count == b.count:
            for index in a.indices { collect(a[index], b[index], path: "\(path)[\(index)]", into: &found) }
        default:
            found.append(FieldChange(path: path, old: old, new: new))
        }
    }

    /// Lines added and removed, as multisets (order-insensitive), each list sorted.
    static func lineChanges(old: Data?, new: Data?) -> (added: [String], removed: [String]) {
        func lines(_ data: Data?) -> [String: Int] {
            var counts: [String: Int] = [:]
            guard let data else { return counts }
            for line in String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: true) {
                counts[String(line), default: 0] += 1
            }
            return counts
        }
        let before = lines(old)
        let after = lines(new)
        var added: [String] = []
        var removed: [String] = []
        for line in Set(before.keys).union(after.keys).sorted() {
            let difference = (after[line] ?? 0) - (before[line] ?? 0)
            if difference > 0 { added.append(contentsOf: repeatElement(line, count: difference)) }
            if difference < 0 { removed.append(contentsOf: repeatElement(line, count: -difference)) }
        }
        return (added, removed)
    }
}
