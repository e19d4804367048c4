import Foundation

// What the two alias files (`ReferenceTeamAliases.swift`, `ReferenceStadiumAliases.swift`) share: a target id,
// a text, dates, a source system and a last change on every row, the target check and the ambiguity warning.

/// An alias valid for a date range and, optionally, one source system (`TeamAlias`, `StadiumAlias`).
protocol DatedReferenceAlias {
    /// The team or stadium it names.
    var targetId: String { get }
    /// The name, abbreviation or code that names it.
    var text: String { get }
    var validFrom: LocalDate? { get }
    var validUntil: LocalDate? { get }
    var sourceSystem: String? { get }
}

extension TeamAlias: DatedReferenceAlias {
    var targetId: String { teamId }
    var text: String { value }
}

extension StadiumAlias: DatedReferenceAlias {
    var targetId: String { stadiumId }
    var text: String { name }
}

/// The fields every alias row has: `target` (the id it names), `text`, `valid_from`/`valid_until`,
/// `source_system` and `last_modified`.
struct AliasFields {
    let targetId: String
    let text: String
    /// How messages name the row: `what 'text'`.
    let owner: RowName
    let validFrom: LocalDate?
    let validUntil: LocalDate?
    let sourceSystem: String?
    let lastModified: Instant?

    init(_ row: ReferenceTable.Row, _ fields: inout ReferenceRows, target: String, text: String, what: String) {
        self.text = row[text]
        owner = RowName(what: what, name: self.text)
        targetId = fields.required(row, target, owner: owner)
        if self.text.isEmpty { fields.fail(row, "\(what) of '\(targetId)': \(text) is empty", fix: "Give the alias a \(text)") }
        (validFrom, validUntil) = fields.validity(row, owner: owner)
        sourceSystem = fields.optional(row, "source_system")
        lastModified = fields.instant(row, "last_modified", owner: owner)
    }
}

extension ReferenceParser {
    /// Every alias of `file` names an id of `targetFile` (unchecked when that file could not be read).
    mutating func checkAliasTargets<Alias: DatedReferenceAlias>(
        _ aliases: [LinedRecord<Alias>], file: String, what: String, column: String, known: Set<String>?,
        targetFile: String, target: String
    ) {
        let aliasesPath = path(file)
        for item in aliases where known?.contains(item.record.targetId) == false {
            error(
                aliasesPath, item.line,
                "\(what) '\(item.record.text)': \(column) '\(item.record.targetId)' is not in \(targetFile)",
                fix: "Add the \(target) or fix the id")
        }
    }

    /// Pairs (later, earlier) of aliases in one group of `groups` that name different targets on dates that
    /// overlap for a source system both apply to.
    static func clashes<Alias: DatedReferenceAlias>(
        in groups: [String: [LinedRecord<Alias>]]
    ) -> [(LinedRecord<Alias>, LinedRecord<Alias>)] {
        var pairs: [(LinedRecord<Alias>, LinedRecord<Alias>)] = []
        for (_, group) in groups where group.count > 1 {
            for (i, a) in group.enumerated() {
                for b in group[..<i] where a.record.targetId != b.record.targetId && overlaps(a.record, b.record) {
                    pairs.append((a, b))
                }
            }
        }
        return pairs
    }

    static func overlaps(_ a: some DatedReferenceAlias, _ b: some DatedReferenceAlias) -> Bool {
        if let systemA = a.sourceSystem, let systemB = b.sourceSystem, systemA != systemB { return false }
        if let untilA = a.validUntil, let fromB = b.validFrom, untilA < fromB { return false }
        if let untilB = b.validUntil, let fromA = a.validFrom, untilB < fromA { return false }
        return true
    }

    /// The warning that alias `a` and the earlier `b` name two targets on the same dates.
    mutating func warnClash<Alias: DatedReferenceAlias>(
        _ a: LinedRecord<Alias>, _ b: LinedRecord<Alias>, what: String, path: String
    ) {
        warnings.append(
            Diagnostic(
                .warning, at: SourceLocation(path: path, line: a.line),
                "\(what) '\(a.record.text)' names both '\(b.record.targetId)' (line \(b.line)) and "
                    + "'\(a.record.targetId)' on the same dates",
                fix: "Give the aliases non-overlapping dates or source systems, or remove one"))
    }
}
