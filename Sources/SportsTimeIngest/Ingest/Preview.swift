import Foundation
import SportsTimeCore

/// `sportstime-ingest --preview <source>`: the first rows of one source as they would be written, each
/// field with its value and where it came from, and the rows a filter or a reject would leave out, with
/// the reason. Pure: files in, text out; nothing is written.
public enum Preview {
    /// The preview text (ends with a newline). Throws like `Ingester.ingest` for a spec or file that
    /// cannot be read at all (exit 2).
    public static func text(_ source: SourceConfig, files: [LoadedFile], lookups: [LoadedFile] = [], rows limit: Int = 5) throws -> String {
        let (lookupTables, _) = try Ingester.readLookups(source, files: files, lookups: lookups)
        var out =
            "source '\(source.id)' (\(source.format.rawValue)): the first \(limit) row\(limit == 1 ? "" : "s") as they would be written\n"
        var shown = 0, games = 0, rejected = 0, filtered = 0
        var seen: [String: String] = [:]
        for file in files.sorted(by: { $0.path < $1.path }) where shown < limit {
            let table = try Ingester.readTable(file, source: source)
            let mapper = try RowMapper(source: source, table: table, lookupTables: lookupTables)
            enum Item { case row(TableRow), reject(Reject) }
            let items =
                (table.rows.map { (line: $0.line, item: Item.row($0)) }
                + table.rowRejects.map { (line: $0.line ?? 0, item: Item.reject($0)) })
                .sorted { $0.line < $1.line }
            for (line, item) in items where shown < limit {
                shown += 1
                let at = "\(table.path):\(line)"
                guard case .row(let row) = item else {
                    if case .reject(let reject) = item { out += "\n\(at): rejected: \(reject.reason)\n"; rejected += 1 }
                    continue
                }
                if let (column, bytes) = Ingester.overlongCell(row) {
                    let name = column < table.columns.count ? " ('\(table.columns[column])')" : ""
                    out += "\n\(at): rejected: \(overlongReason(column: column + 1, name: name, bytes: bytes))\n"
                    rejected += 1
                    continue
                }
                switch mapper.map(row) {
                case .filtered(let hit):
                    filtered += 1
                    out += "\n\(at): filtered by filters[\(hit.index)] (\(hit.column) \(hit.condition)): the value is '\(hit.value)'\n"
                case .rejected(let reason, _):
                    rejected += 1
                    out += "\n\(at): rejected: \(reason)\n"
                    out += fieldLines(mapper.explain(row))
                case .game(let game):
                    if let first = seen[game.id] {
                        rejected += 1
                        out += "\n\(at): rejected: duplicate of \(first) (id \(game.id))\n"
                        continue
                    }
                    seen[game.id] = at
                    games += 1
                    out += "\n\(at): game \(game.id)\n"
                    out += "  record: \((try? CanonicalJSON.compact(game)) ?? "")\n"
                    out += fieldLines(mapper.explain(row))
                }
            }
        }
        out += "\n\(shown) row\(shown == 1 ? "" : "s") shown: \(games) written, \(rejected) rejected, \(filtered) filtered\n"
        return out
    }

    static func fieldLines(_ fields: [(field: String, value: String, origin: String)]) -> String {
        let width = fields.map(\.field.count).max() ?? 0
        let valueWidth = min(fields.map(\.value.count).max() ?? 0, 40)
        return fields.map { f in
            "  " + f.field.padded(to: width) + "  "
                + (f.value.count < valueWidth ? f.value.padded(to: valueWidth) : f.value)
                + "  ← " + f.origin + "\n"
        }.joined()
    }
}
