import Foundation

// `sports.yaml`: the dynamic sports, a YAML list (the built-in sports come from `BuiltInSport` and cannot be
// redefined here). Its documented keys are in `DynamicSportEntry+Reference.swift`.

/// The YAML shape of one dynamic sport in `sports.yaml`.
struct DynamicSportEntry: Decodable {
    var id: String
    var abbreviation: String
    var displayName: String
    var iconName: String
    var colorHex: String
    var seasonStartMonth: Int
    var seasonEndMonth: Int
    var isActive: Bool
    var lastModified: Instant
}

extension ReferenceParser {
    /// Every entry checked (a lowercase slug id, not built in, unique; names, colour and months); a file that
    /// cannot be read as YAML declares no ids.
    mutating func parseSports(_ data: Data?) -> ReferenceFile<Sport> {
        let file = path("sports.yaml")
        guard let data else {
            error(
                file, nil, "the file is missing",
                fix: "Restore it, or create it with [] when there are no dynamic sports")
            return ReferenceFile()
        }
        if let wide = TextEncoding.wideEncoding(of: data) {
            errors.append(TextEncoding.wideEncodingDiagnostic(wide, path: file))
            return ReferenceFile()
        }
        guard let text = String(data: data, encoding: .utf8) else {
            error(file, 1, "the file is not valid UTF-8", fix: "Save it as UTF-8")
            return ReferenceFile()
        }
        let entries: [DynamicSportEntry]
        do {
            entries = try StrictYAML.decode([DynamicSportEntry].self, from: text, path: file)
        } catch let failure as PipelineError {
            errors.append(contentsOf: failure.diagnostics)
            return ReferenceFile()
        } catch {
            self.error(file, 1, "cannot read the YAML: \(error)", fix: "Fix the YAML")
            return ReferenceFile()
        }
        // Lines of the list items, for messages about one sport.
        let node = StrictYAML.composeIfBounded(text)
        var sports = ReferenceFile<Sport>(isUsable: true)
        var seen: [String: Int] = [:]
        let builtIn = Set(BuiltInSport.allCases.map(\.rawValue))
        for (index, entry) in entries.enumerated() {
            let line = node?.sequence.flatMap { index < $0.count ? $0[index].mark?.line : nil }
            let before = errors.count
            if entry.id.isEmpty || ReferenceText.slug(entry.id) != entry.id {
                error(
                    file, line, "sport id '\(entry.id)' is not a lowercase slug",
                    fix: "Use lowercase letters, digits and dashes, e.g. ufl")
            } else if builtIn.contains(entry.id) {
                error(
                    file, line, "sport '\(entry.id)' is built in and cannot be redefined here",
                    fix: "Choose another id, or patch the built-in sport through fixtures/overrides")
            } else if let first = seen[entry.id] {
                error(file, line, "duplicate sport id '\(entry.id)' (first at line \(first))", fix: "Keep one of them")
            }
            if let line, seen[entry.id] == nil { seen[entry.id] = line }
            if !entry.id.isEmpty { sports.declared.insert(entry.id) }
            for (field, value) in [
                ("abbreviation", entry.abbreviation), ("displayName", entry.displayName),
                ("iconName", entry.iconName),
            ] where value.isWhitespaceOnly {
                error(file, line, "sport '\(entry.id)': \(field) is empty", fix: "Give it a value")
            }
            let color = ColorHex.normalize(entry.colorHex)
            if color == nil {
                error(
                    file, line, "sport '\(entry.id)': colorHex '\(entry.colorHex)' is not a colour",
                    fix: "Use \(ColorHex.acceptedForms)")
            }
            for (field, month) in [("seasonStartMonth", entry.seasonStartMonth), ("seasonEndMonth", entry.seasonEndMonth)]
            where !(1...12).contains(month) {
                error(file, line, "sport '\(entry.id)': \(field) \(month) is not a month", fix: "Use 1 to 12")
            }
            guard errors.count == before, let color else { continue }
            sports.items.append(
                LinedRecord(
                    line: line ?? 1,
                    record: Sport(
                        id: entry.id, abbreviation: entry.abbreviation, displayName: entry.displayName,
                        iconName: entry.iconName, colorHex: color, seasonStartMonth: entry.seasonStartMonth,
                        seasonEndMonth: entry.seasonEndMonth, isActive: entry.isActive, isBuiltIn: false,
                        lastModified: entry.lastModified, schemaVersion: 1, source: ReferenceLoader.recordSource)))
        }
        return sports
    }
}
