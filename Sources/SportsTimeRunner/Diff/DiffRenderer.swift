import Foundation
import SportsTimeCore

/// Prints a record-level diff: Markdown for a pull-request comment (counts first, long lists cut
/// with a count of what is left out), or plain text for a terminal (everything).
public enum DiffRenderer {
    /// Markdown. `scope` names what was compared (`out/`), `revision` the git revision;
    /// at most `perFile` lines are listed per file.
    public static func markdown(_ all: [FileDiff], scope: String, revision: String, perFile: Int = 25) -> String {
        let diffs = all.filter { !$0.isInputsOnly }
        let inputsOnly = all.count - diffs.count
        let note = inputsOnly == 0 ? "" : "\(inputsOnly) more file\(inputsOnly == 1 ? "" : "s") differ\(inputsOnly == 1 ? "s" : "") only in "
            + "the hashes of \(inputsOnly == 1 ? "its" : "their") inputs.\n"
        guard !diffs.isEmpty else {
            return "No record changes in `\(scope)` against `\(revision)`.\n" + (note.isEmpty ? "" : "\n" + note)
        }
        var text = "## Changes in `\(scope)` against `\(revision)`\n\n"
        let totals = diffs.reduce((0, 0, 0)) { ($0.0 + $1.counts.added, $0.1 + $1.counts.removed, $0.2 + $1.counts.changed) }
        text += "\(diffs.count) file\(diffs.count == 1 ? "" : "s"): \(Format.count(totals.0)) added, "
            + "\(Format.count(totals.1)) removed, \(Format.count(totals.2)) changed.\n" + note + "\n"
        text += "| file | added | removed | changed |\n|---|---:|---:|---:|\n"
        for diff in diffs {
            let counts = diff.counts
            let note = diff.status == .modified ? "" : " (\(diff.status.rawValue))"
            text += "| `\(diff.path)`\(note) | \(Format.count(counts.added)) | \(Format.count(counts.removed)) | \(Format.count(counts.changed)) |\n"
        }
        if diffs.count > 1 {
            text += "| **total** | **\(Format.count(totals.0))** | **\(Format.count(totals.1))** | **\(Format.count(totals.2))** |\n"
        }
        for diff in diffs {
            text += "\n### `\(diff.path)`\n\n"
            let lines = items(diff, style: .markdown)
            for line in lines.prefix(perFile) { text += "- \(line)\n" }
            if lines.count > perFile {
                text += "- … and \(Format.count(lines.count - perFile)) more (`sportstime diff \(revision)` lists all)\n"
            }
        }
        return text
    }

    /// Plain text, every change listed.
    public static func plain(_ diffs: [FileDiff], scope: String, revision: String) -> String {
        guard !diffs.isEmpty else { return "No changes in \(scope) against \(revision).\n" }
        var text = ""
        for diff in diffs {
            if diff.isInputsOnly {
                text += "\(diff.path): only the hashes of its inputs changed\n"
                continue
            }
            let counts = diff.counts
            let kind = diff.kind.map { " (\($0))" } ?? ""
            let note = diff.status == .modified ? "" : " [\(diff.status.rawValue)]"
            text += "\(diff.path)\(kind)\(note): \(counts.added) added, \(counts.removed) removed, \(counts.changed) changed\n"
            for line in items(diff, style: .plain) { text += "  \(line)\n" }
        }
        return text
    }

    enum Style { case markdown, plain }

    /// One readable line per record (or line) that changed.
    static func items(_ diff: FileDiff, style: Style) -> [String] {
        func code(_ text: String) -> String {
            style == .plain ? text : (text.contains("`") ? "`` \(text) ``" : "`\(text)`")
        }
        func value(_ value: JSONValue?) -> String {
            guard let value, value != .null else { return style == .plain ? "(none)" : "*(none)*" }
            var text = style == .markdown ? (value.stringValue ?? value.compactText) : value.compactText
            if text.count > 80 { text = String(text.prefix(77)) + "…" }
            return code(text)
        }
        func fields(_ changes: [FieldChange]) -> String {
            let shown = changes.prefix(6).map { "\($0.path) \(value($0.old)) → \(value($0.new))" }
            let more = changes.count > 6 ? "; and \(changes.count - 6) more fields" : ""
            return shown.joined(separator: "; ") + more
        }
        switch diff.content {
        case .records(let added, let removed, let changed, let header):
            var lines: [String] = []
            if !header.isEmpty { lines.append("header: " + fields(header)) }
            for change in changed {
                let id = change.newId.map { "\(code(change.id)) → \(code($0))" } ?? code(change.id)
                lines.append("\(change.label.rawValue) \(id): " + fields(change.fields))
            }
            lines.append(contentsOf: added.map { "added \(code($0))" })
            lines.append(contentsOf: removed.map { "removed \(code($0))" })
            return lines
        case .lines(let added, let removed):
            func describe(_ line: String) -> String {
                if let object = try? JSONParser.parse(line), let reason = object["reason"]?.stringValue {
                    var place = object["file"]?.stringValue ?? ""
                    if let number = object["line"]?.compactText, !place.isEmpty { place += ":\(number)" }
                    let id = object["recordId"]?.stringValue.map { " \(code($0))" } ?? ""
                    return reason + id + (place.isEmpty ? "" : " (\(code(place)))")
                }
                return code(line.count > 100 ? String(line.prefix(97)) + "…" : line)
            }
            return added.map { "added: " + describe($0) } + removed.map { "removed: " + describe($0) }
        case .text(let added, let removed):
            return ["text: \(Format.count(added)) line\(added == 1 ? "" : "s") added, \(Format.count(removed)) removed"]
        }
    }
}
