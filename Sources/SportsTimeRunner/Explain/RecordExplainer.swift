import Foundation
import SportsTimeCore

/// `sportstime explain <id>`: the lineage of one merged record, read from the merge's outputs.
///
/// - A game (by its current id or any former one): every source row that fed it (`file:line`), which
///   row each part of it came from and by which rule, the conflicts and ambiguous pairings the merge
///   reported for it, and the overrides that touched it (`out/merge/lineage/`, `games/`,
///   `merge-report.json`).
/// - A team or a stadium: the merged record, every line of the reference files it was built from that
///   names it (its own row, its aliases, dated homes), and the overrides that touched it.
///
/// Pure over the files it is given: `read` returns a repository-relative file's bytes, or nil.
public struct RecordExplainer: Sendable {
    public let mergeFolder: String
    private let read: @Sendable (String) -> Data?
    private let list: @Sendable (String) -> [String]

    /// - Parameters:
    ///   - read: the bytes of a repository-relative file, or nil when it does not exist.
    ///   - list: the repository-relative `.json` files directly under a folder, sorted.
    public init(
        mergeFolder: String = "out/merge", read: @escaping @Sendable (String) -> Data?,
        list: @escaping @Sendable (String) -> [String]
    ) {
        self.mergeFolder = mergeFolder; self.read = read; self.list = list
    }

    /// Reads from the files under `root`.
    public init(root: URL, mergeFolder: String = "out/merge") {
        self.init(
            mergeFolder: mergeFolder,
            read: { FileManager.default.contents(atPath: root.appendingPathComponent($0).path) },
            list: { folder in
                let url = root.appendingPathComponent(folder)
                let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
                return names.filter { $0.hasSuffix(".json") }.sorted().map { "\(folder)/\($0)" }
            })
    }

    /// The explanation of `id`, as lines of text. Throws a located error (exit 2) when no merged game,
    /// team or stadium has that id, or the merge has not run.
    public func explain(_ id: String) throws -> String {
        let report = try mergeReport()
        if let text = try explainGame(id, report: report) { return text }
        if let text = try explainReferenceRecord(id, kind: .teams, file: "teams.json", report: report) { return text }
        if let text = try explainReferenceRecord(id, kind: .stadiums, file: "stadiums.json", report: report) { return text }
        throw PipelineError.invalidInput(
            Diagnostic(
                .error, at: SourceLocation(path: mergeFolder),
                "no merged game, team or stadium has the id '\(id)' (current or former)",
                fix: "Check the id (game ids look like nfl-2023-2024-01-06-hou-at-ind), or run make to bring out/merge up to date"))
    }

    // MARK: Games

    private func explainGame(_ id: String, report: [MergeReportRecord]) throws -> String? {
        for path in list("\(mergeFolder)/lineage") {
            guard let data = read(path) else { continue }
            let envelope = try EnvelopeReader.read(GameLineage.self, from: data, path: path, expecting: .lineage)
            guard let lineage = envelope.records.first(where: { $0.id == id || ($0.formerIds ?? []).contains(id) }) else { continue }
            let gamesPath = "\(mergeFolder)/games/\((path as NSString).lastPathComponent)"
            let game = try read(gamesPath).flatMap { data in
                try EnvelopeReader.read(Game.self, from: data, path: gamesPath, expecting: .games).records.first { $0.id == lineage.id }
            }
            return describe(lineage, game: game, askedAs: id, report: report, lineagePath: path)
        }
        return nil
    }

    private func describe(
        _ lineage: GameLineage, game: Game?, askedAs id: String, report: [MergeReportRecord],
        lineagePath: String
    ) -> String {
        var lines: [String] = []
        let heading = id == lineage.id ? "game \(lineage.id)" : "game \(lineage.id) (asked as \(id), a former id)"
        lines.append(heading)
        if let game {
            var summary = "  \(game.awayTeamId) at \(game.homeTeamId), \(game.localDate.iso8601)"
            if let number = game.gameNumber { summary += " game \(number)" }
            summary +=
                ", \(game.stadiumId)\(game.neutralSite ? " (neutral site)" : ""), start \(Self.start(game.startUTC, game.startKnowledge))"
            summary += ", \(game.status.rawValue), \(game.kind.rawValue)"
            if let deprecated = game.deprecatedAt { summary += ", deprecated at \(deprecated.iso8601)" }
            lines.append(summary)
        }
        if let former = lineage.formerIds, !former.isEmpty { lines.append("  former ids: \(former.joined(separator: ", "))") }
        lines.append("  lineage: \(lineagePath)")
        lines.append("")
        lines.append("rows (\(lineage.rows.count)), oldest first:")
        for (index, row) in lineage.rows.enumerated() {
            var head = "  [\(index)] \(row.source)"
            if let gameId = row.sourceGameId { head += " (its id \(gameId))" }
            head += ", lastModified \(row.lastModified.iso8601), priority \(row.priority)"
            lines.append(head)
            lines.append("      row   \(row.row ?? "(not recorded)")")
            lines.append("      batch \(row.batch)")
            var values = "      says  \(row.localDate.iso8601)"
            if let number = row.gameNumber { values += " game \(number)" }
            values +=
                ", start \(Self.start(row.startUTC, row.startKnowledge)), \(row.stadiumId), \(row.status.rawValue), \(row.kind.rawValue)"
            if let inferred = row.inferred, !inferred.isEmpty {
                values += " (not stated by the source: \(inferred.map(\.rawValue).joined(separator: ", ")))"
            }
            lines.append(values)
        }
        lines.append("")
        lines.append("fields:")
        for group in FieldGroup.allCases {
            guard let origin = lineage.fields[group.rawValue], lineage.rows.indices.contains(origin.row) else { continue }
            let row = lineage.rows[origin.row]
            let value: String =
                switch group {
                case .date: row.localDate.iso8601 + (row.gameNumber.map { " game \($0)" } ?? "")
                case .start: game.map { Self.start($0.startUTC, $0.startKnowledge) } ?? Self.start(row.startUTC, row.startKnowledge)
                case .venue: row.stadiumId
                case .status: row.status.rawValue
                case .kind: row.kind.rawValue
                }
            lines.append(
                "  \(group.rawValue.padded(to: 7)) \(value)  <- [\(origin.row)] \(row.source): \(origin.rule)"
            )
        }

        let ids = Set([lineage.id] + (lineage.formerIds ?? []))
        var findings: [String] = []
        for record in report {
            switch record {
            case .conflict(let conflict) where ids.contains(conflict.gameId):
                let values = conflict.sources.map {
                    "\($0.source) \($0.localDate.iso8601) \(Self.start($0.startUTC, $0.startKnowledge)) \($0.stadiumId) \($0.status.rawValue)"
                }
                findings.append("  conflict \(conflict.classes.map(\.rawValue).joined(separator: ", ")): \(values.joined(separator: "; "))")
            case .ambiguous(let match) where ids.contains(match.gameId) || !ids.isDisjoint(with: match.candidates):
                findings.append("  ambiguous pairing \(match.gameId) ~ \(match.candidates.joined(separator: ", ")): \(match.reason)")
            case .override(let override) where override.entity == "game" && ids.contains(override.recordId):
                findings.append(
                    "  override \(override.field) = \(override.value) (\(override.status.rawValue); was \(override.foldedValue?.description ?? "none")) at \(override.location): \(override.reason)"
                )
            default: continue
            }
        }
        lines.append("")
        lines.append(findings.isEmpty ? "conflicts and overrides: none" : "conflicts and overrides:")
        lines += findings
        return lines.joined(separator: "\n") + "\n"
    }

    static func start(_ instant: Instant?, _ knowledge: StartKnowledge) -> String {
        switch knowledge {
        case .exact: instant.map { "\($0.iso8601) (exact)" } ?? "unknown"
        case .day: "day game (no exact time)"
        case .night: "night game (no exact time)"
        case .unknown: "unknown"
        }
    }

    // MARK: Teams and stadiums

    private func explainReferenceRecord(
        _ id: String, kind: ArtifactKind, file: String,
        report: [MergeReportRecord]
    ) throws -> String? {
        let path = "\(mergeFolder)/\(file)"
        guard let data = read(path) else { return nil }
        let header = try EnvelopeReader.header(of: data, path: path, expecting: kind)
        let line = data.split(separator: UInt8(ascii: "\n")).first { line in
            String(decoding: line, as: UTF8.self).contains("\"id\":\"\(id)\"")
        }
        guard let line else { return nil }
        let entity = kind == .teams ? "team" : "stadium"
        var lines = ["\(entity) \(id)", "  \(String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespaces))", ""]
        lines.append("reference lines that name it:")
        var referenceFiles = (header.inputs ?? []).map(\.path)
        // Aliases and dated homes name teams and stadiums too.
        if let folder = referenceFiles.first.map({ ($0 as NSString).deletingLastPathComponent }) {
            for name in ["team-aliases.csv", "stadium-aliases.csv", "team-homes.csv", "teams.csv"] {
                let candidate = "\(folder)/\(name)"
                if !referenceFiles.contains(candidate) { referenceFiles.append(candidate) }
            }
        }
        var found = 0
        for reference in referenceFiles.sorted() {
            guard let bytes = read(reference) else { continue }
            for (number, text) in TextLines.split(String(decoding: bytes, as: UTF8.self))
                .enumerated()
            where Self.names(String(text), id) {
                lines.append("  \(reference):\(number + 1): \(text)")
                found += 1
            }
        }
        if found == 0 { lines.append("  (none)") }
        var overrides: [String] = []
        for case .override(let override) in report where override.entity == entity && override.recordId == id {
            overrides.append(
                "  override \(override.field) = \(override.value) (\(override.status.rawValue)) at \(override.location): \(override.reason)"
            )
        }
        lines.append("")
        lines.append(overrides.isEmpty ? "overrides: none" : "overrides:")
        lines += overrides
        return lines.joined(separator: "\n") + "\n"
    }

    /// Whether a CSV or YAML line names `id` as a whole field.
    static func names(_ line: String, _ id: String) -> Bool {
        let separators = CharacterSet(charactersIn: ",:\"' []{}")
        return line.components(separatedBy: separators).contains(id)
    }

    private func mergeReport() throws -> [MergeReportRecord] {
        let path = "\(mergeFolder)/merge-report.json"
        guard let data = read(path) else {
            throw PipelineError.invalidInput(
                Diagnostic(
                    .error, at: SourceLocation(path: path), "the merge has not run (no merge report)",
                    fix: "Run make (or make +merge) first"))
        }
        return try EnvelopeReader.read(MergeReportRecord.self, from: data, path: path, expecting: .mergeReport).records
    }
}
