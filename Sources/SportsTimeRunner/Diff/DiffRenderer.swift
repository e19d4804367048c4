import Foundation
import SportsTimeCore

/// Prints a record-level diff: Markdown for a pull-request comment (counts first, long lists cut
/// with a count of what is left out), or plain text for a terminal (counts first, then everything).
/// Envelopes are listed record by record, JSON Lines line by line, any other text file (Markdown,
/// HTML, iCalendar, GeoJSON) as a unified line diff. Files whose only change is the hashes of their
/// inputs are summed in one line; a trip plan's search statistics are left out unless `showAll`.
public enum DiffRenderer {
    /// Markdown. `scope` names what was compared (`out/`), `revision` the git revision;
    /// at most `perFile` lines are listed per file.
    public static func markdown(
        _ all: [FileDiff], scope: String, revision: String, perFile: Int = 25,
        showAll: Bool = false
    ) -> String {
        let groups = Groups(all, showAll: showAll)
        let diffs = groups.shown
        let notes = groups.notes(markdown: true)
        guard !diffs.isEmpty else {
            return "No record changes in `\(scope)` against `\(revision)`.\n" + (notes.isEmpty ? "" : "\n" + notes)
        }
        var text = "## Changes in `\(scope)` against `\(revision)`\n\n"
        text += groups.summary + "\n" + notes + "\n"
        text += "| file | added | removed | changed |\n|---|---:|---:|---:|\n"
        for diff in diffs {
            let counts = diff.counts
            let note = diff.status == .modified ? "" : " (\(diff.status.rawValue))"
            if diff.isText {
                text += "| `\(diff.path)`\(note) | \(lines(counts.added)) | \(lines(counts.removed)) | |\n"
            } else {
                text +=
                    "| `\(diff.path)`\(note) | \(Format.count(counts.added)) | \(Format.count(counts.removed)) | \(Format.count(counts.changed)) |\n"
            }
        }
        if groups.recordFiles.count > 1 {
            let totals = groups.recordTotals
            text +=
                "| **total** | **\(Format.count(totals.added))** | **\(Format.count(totals.removed))** | **\(Format.count(totals.changed))** |\n"
        }
        if groups.textFiles.count > 1 {
            let totals = groups.textTotals
            text += "| **total (text)** | **\(lines(totals.added))** | **\(lines(totals.removed))** | |\n"
        }
        let more = { (count: Int, unit: String) in
            "… and \(Format.count(count)) more \(unit)\(count == 1 ? "" : "s") (`sportstime diff \(revision)` lists all)"
        }
        for diff in diffs {
            text += "\n### `\(diff.path)`\n\n"
            if case .text(let lineDiff) = diff.content {
                text += "\(lines(lineDiff.added)) added, \(Format.count(lineDiff.removed)) removed.\n\n"
                let body = lineDiff.unifiedLines
                // A fence longer than any run of backticks in the text.
                let fence = String(repeating: "`", count: max(3, longestBacktickRun(body) + 1))
                text += fence + "diff\n"
                for line in body.prefix(perFile) { text += line + "\n" }
                text += fence + "\n"
                if body.count > perFile { text += "\n" + more(body.count - perFile, "line") + "\n" }
                continue
            }
            let list = items(diff, style: .markdown)
            for item in list.prefix(perFile) {
                text += "- \(item.text)\n"
                for child in item.children { text += "  - \(child)\n" }
            }
            if list.count > perFile { text += "- " + more(list.count - perFile, "change") + "\n" }
        }
        return text
    }

    /// Plain text: the counts table, then every change.
    public static func plain(_ all: [FileDiff], scope: String, revision: String, showAll: Bool = false) -> String {
        let groups = Groups(all, showAll: showAll)
        let diffs = groups.shown
        let notes = groups.notes(markdown: false)
        guard !diffs.isEmpty else {
            return (all.isEmpty ? "No changes in \(scope) against \(revision).\n" : "No record changes in \(scope) against \(revision).\n")
                + notes
        }
        var text = "Changes in \(scope) against \(revision): " + groups.summary + "\n" + notes + "\n"
        // The counts table, aligned.
        var rows: [[String]] = [["file", "added", "removed", "changed"]]
        for diff in diffs {
            let counts = diff.counts
            let note = diff.status == .modified ? "" : " (\(diff.status.rawValue))"
            if diff.isText {
                rows.append([diff.path + note, lines(counts.added), lines(counts.removed), ""])
            } else {
                rows.append([diff.path + note, Format.count(counts.added), Format.count(counts.removed), Format.count(counts.changed)])
            }
        }
        if groups.recordFiles.count > 1 {
            let totals = groups.recordTotals
            rows.append(["total", Format.count(totals.added), Format.count(totals.removed), Format.count(totals.changed)])
        }
        if groups.textFiles.count > 1 {
            let totals = groups.textTotals
            rows.append(["total (text)", lines(totals.added), lines(totals.removed), ""])
        }
        let widths = (0..<4).map { column in rows.map { $0[column].count }.max() ?? 0 }
        for row in rows {
            var line = row[0].padded(to: widths[0])
            for column in 1..<4 { line += "  " + String(repeating: " ", count: widths[column] - row[column].count) + row[column] }
            while line.hasSuffix(" ") { line.removeLast() }
            text += line + "\n"
        }
        for diff in diffs {
            text += "\n"
            let note = diff.status == .modified ? "" : " [\(diff.status.rawValue)]"
            if case .text(let lineDiff) = diff.content {
                text += "\(diff.path)\(note): \(lines(lineDiff.added)) added, \(Format.count(lineDiff.removed)) removed\n"
                for line in lineDiff.unifiedLines { text += "  \(line)\n" }
                continue
            }
            let counts = diff.counts
            let kind = diff.kind.map { " (\($0))" } ?? ""
            text += "\(diff.path)\(kind)\(note): \(counts.added) added, \(counts.removed) removed, \(counts.changed) changed\n"
            for item in items(diff, style: .plain) {
                text += "  \(item.text)\n"
                for child in item.children { text += "    \(child)\n" }
            }
        }
        return text
    }

    /// `24 lines`, `1 line`.
    static func lines(_ count: Int) -> String { "\(Format.count(count)) line\(count == 1 ? "" : "s")" }

    /// The files to list, and the ones summed in a note.
    struct Groups {
        var shown: [FileDiff] = []
        var inputsOnly: [FileDiff] = []
        var hiddenOnly: [FileDiff] = []
        var hiddenFields = 0

        init(_ all: [FileDiff], showAll: Bool) {
            for file in all {
                let diff = showAll ? file : file.hidingSearchStatistics()
                if diff.isInputsOnly {
                    inputsOnly.append(diff)
                } else if diff.isHiddenOnly {
                    hiddenOnly.append(diff)
                } else {
                    shown.append(diff)
                }
                if case .records(_, _, let changed, _) = diff.content { hiddenFields += changed.reduce(0) { $0 + $1.hiddenFields } }
            }
        }

        var recordFiles: [FileDiff] { shown.filter { !$0.isText } }
        var textFiles: [FileDiff] { shown.filter(\.isText) }
        var recordTotals: (added: Int, removed: Int, changed: Int) {
            recordFiles.reduce((0, 0, 0)) { ($0.0 + $1.counts.added, $0.1 + $1.counts.removed, $0.2 + $1.counts.changed) }
        }
        var textTotals: (added: Int, removed: Int) {
            textFiles.reduce((0, 0)) { ($0.0 + $1.counts.added, $0.1 + $1.counts.removed) }
        }

        /// `3 files: 1 added, 0 removed, 4 changed; 24 lines added, 3 removed in 1 text file.`
        var summary: String {
            let count = shown.count
            var text = "\(Format.count(count)) file\(count == 1 ? "" : "s"): "
            var parts: [String] = []
            if !recordFiles.isEmpty {
                let totals = recordTotals
                parts.append(
                    "\(Format.count(totals.added)) added, \(Format.count(totals.removed)) removed, \(Format.count(totals.changed)) changed")
            }
            if !textFiles.isEmpty {
                let totals = textTotals
                parts.append(
                    "\(DiffRenderer.lines(totals.added)) added, \(Format.count(totals.removed)) removed in "
                        + "\(textFiles.count) text file\(textFiles.count == 1 ? "" : "s")")
            }
            text += parts.joined(separator: "; ") + "."
            return text
        }

        /// One line each for the files summed rather than listed.
        func notes(markdown: Bool) -> String {
            var text = ""
            let more = shown.isEmpty ? "" : " more"
            if !inputsOnly.isEmpty {
                let count = inputsOnly.count
                text +=
                    "\(Format.count(count))\(more) file\(count == 1 ? "" : "s") differ\(count == 1 ? "s" : "") only in the hashes of "
                    + "\(count == 1 ? "its" : "their") inputs (" + Self.folders(inputsOnly, markdown: markdown) + ").\n"
            }
            if !hiddenOnly.isEmpty {
                let count = hiddenOnly.count
                let flag = markdown ? "`--all`" : "--all"
                text +=
                    "\(Format.count(count))\(more) file\(count == 1 ? "" : "s") differ\(count == 1 ? "s" : "") only in search statistics ("
                    + Self.folders(hiddenOnly, markdown: markdown) + "; \(flag) shows them).\n"
            }
            return text
        }

        /// `out/plan/ 9, out/render/ 14`: where the summed files are (the file itself when there is one).
        static func folders(_ files: [FileDiff], markdown: Bool) -> String {
            if files.count == 1 { return markdown ? "`\(files[0].path)`" : files[0].path }
            var counts: [String: Int] = [:]
            for file in files {
                let parts = file.path.split(separator: "/")
                let folder = parts.count > 2 ? parts.prefix(2).joined(separator: "/") + "/" : RepositoryPath.parent(of: file.path) + "/"
                counts[folder, default: 0] += 1
            }
            return counts.keys.sorted().map { markdown ? "`\($0)` \(counts[$0]!)" : "\($0) \(counts[$0]!)" }.joined(separator: ", ")
        }
    }

    private static func longestBacktickRun(_ lines: [String]) -> Int {
        var longest = 0
        for line in lines where line.contains("`") {
            var run = 0
            for character in line {
                run = character == "`" ? run + 1 : 0
                longest = max(longest, run)
            }
        }
        return longest
    }

    enum Style { case markdown, plain }

    /// A listed change, with lines that belong under it.
    struct Item {
        var text: String
        var children: [String] = []
    }

    /// One readable line per record (or line) that changed.
    static func items(_ diff: FileDiff, style: Style) -> [Item] {
        func code(_ text: String) -> String {
            style == .plain ? text : (text.contains("`") ? "`` \(text) ``" : "`\(text)`")
        }
        func value(_ value: JSONValue?) -> String {
            guard let value, value != .null else { return style == .plain ? "(none)" : "*(none)*" }
            var text = style == .markdown ? (value.stringValue ?? value.compactText) : value.compactText
            if text.count > 80 { text = String(text.prefix(77)) + "…" }
            return code(text)
        }
        func fields(_ changes: [FieldChange], hidden: Int) -> String {
            let shown = changes.prefix(6).map { "\($0.path) \(value($0.old)) → \(value($0.new))" }
            var more = changes.count > 6 ? "and \(changes.count - 6) more field\(changes.count == 7 ? "" : "s")" : ""
            if hidden > 0 {
                let flag = style == .markdown ? "`--all`" : "--all"
                more +=
                    (more.isEmpty ? "" : ", ")
                    + "\(hidden) search statistic\(hidden == 1 ? "" : "s") (\(flag) shows \(hidden == 1 ? "it" : "them"))"
            }
            return (shown + (more.isEmpty ? [] : [more])).joined(separator: "; ")
        }
        switch diff.content {
        case .records(let added, let removed, let changed, let header):
            var items: [Item] = []
            if !header.isEmpty { items.append(Item(text: "header: " + fields(header, hidden: 0))) }
            for change in changed {
                let id = change.newId.map { "\(code(change.id)) → \(code($0))" } ?? code(change.id)
                if change.highlights.isEmpty {
                    items.append(Item(text: "\(change.label.rawValue) \(id): " + fields(change.fields, hidden: change.hiddenFields)))
                    continue
                }
                // What a traveller sees first; the fields behind it after.
                var item = Item(text: "\(change.label.rawValue) \(id): " + change.highlights[0])
                var children = Array(change.highlights.dropFirst())
                let rest = fields(change.fields, hidden: change.hiddenFields)
                if !rest.isEmpty { children.append((change.fields.isEmpty ? "" : "fields: ") + rest) }
                item.children = children
                items.append(item)
            }
            items += added.map { Item(text: "added \(code($0))") }
            items += removed.map { Item(text: "removed \(code($0))") }
            return items
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
            return added.map { Item(text: "added: " + describe($0)) } + removed.map { Item(text: "removed: " + describe($0)) }
        case .text(let lineDiff):
            return lineDiff.unifiedLines.map { Item(text: $0) }
        }
    }
}
