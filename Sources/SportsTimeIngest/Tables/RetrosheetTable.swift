import Foundation
import SportsTimeCore

/// Retrosheet schedule files (`2023SKED.TXT`): headerless, quoted, 12 columns per game —
/// date, game number, weekday, visitor, visitor league, visitor's game number, home, home league,
/// home's game number, day/night, postponement note, makeup date(s).
///
/// Adds derived columns read from the notes: `status`, `makeupDate` (ISO), `playedAt` (the place named
/// by "Played at X" when the game was played on its date somewhere else).
enum RetrosheetTable {
    static let columns = [
        "date", "gameNumber", "weekday", "visitor", "visitorLeague", "visitorGame", "home",
        "homeLeague", "homeGame", "dayNight", "postponement", "makeup",
        "status", "makeupDate", "playedAt",
    ]

    static func read(_ data: Data, path: String) -> Table {
        let csv = CSVTable.read(data, path: path, options: .init(hasHeader: false))
        var table = Table(path: path, columns: columns, csvDelimiter: ",")
        table.quotedColumns = 12
        table.warnings = csv.warnings
        table.rowRejects = csv.rowRejects
        table.rows.reserveCapacity(csv.rows.count)
        for row in csv.rows {
            guard row.cells.count == 12 else {
                table.rowRejects.append(
                    Reject(
                        file: path, line: row.line,
                        reason: "a Retrosheet schedule row has 12 columns; this one has \(row.cells.count)",
                        raw: Table.quoted(row.cells)))
                continue
            }
            var cells = row.cells.map { $0.trimmed }
            // The raw text is the row's 12 cells quoted (`quotedColumns`), kept apart only when trimming
            // changed a cell.
            let raw = cells == row.cells ? nil : Table.quoted(row.cells)
            let date = LocalDate(iso8601: cells[0])
            let notes = Notes(date: date, postponement: cells[10], makeup: cells[11])
            cells.reserveCapacity(15)
            cells.append(notes.status.rawValue)
            cells.append(notes.makeupDate?.iso8601 ?? "")
            cells.append(notes.playedAt ?? "")
            table.rows.append(TableRow(line: row.line, cells: cells, raw: raw))
        }
        numberUnnumberedDoubleheaders(&table.rows)
        return table
    }

    /// Two games of one date and pairing that both say game number 0 ("single game") are a doubleheader
    /// the file did not number — `2022SKED.TXT` lists both 2022-05-10 OAK at DET games as 0. They are
    /// numbered 1, 2, … in the order of the visitor's game number (then the home team's, then the line),
    /// so neither is refused as a repeat of the other. Rows whose visitor game numbers are the same too
    /// are one game listed twice, and stay a repeat.
    static func numberUnnumberedDoubleheaders(_ rows: inout [TableRow]) {
        struct Key: Hashable { var date, visitor, home: String }
        // Sized for every row at once (nearly every game is its own group), and rows read in place (a copy
        // of each would retain its cells and raw text).
        var groups: [Key: [Int]] = [:]
        groups.reserveCapacity(rows.count)
        for index in rows.indices where rows[index].cells[1] == "0" {
            let cells = rows[index].cells
            groups[Key(date: cells[0], visitor: cells[3], home: cells[6]), default: []].append(index)
        }
        // Rows that also repeat the teams' game numbers are one game listed twice, left to the repeat check.
        for (_, members) in groups where members.count > 1 && Set(members.map { rows[$0].cells[5] }).count == members.count {
            let ordered = members.sorted { a, b in
                let (x, y) = (rows[a].cells, rows[b].cells)
                let (vx, vy) = (Int(x[5]) ?? 0, Int(y[5]) ?? 0)
                if vx != vy { return vx < vy }
                let (hx, hy) = (Int(x[8]) ?? 0, Int(y[8]) ?? 0)
                if hx != hy { return hx < hy }
                return rows[a].line < rows[b].line
            }
            for (number, index) in ordered.enumerated() {
                // The raw text keeps the file's game number.
                if rows[index].raw == nil { rows[index].raw = Table.quoted(rows[index].cells.prefix(12)) }
                rows[index].cells[1] = String(number + 1)
            }
        }
    }

    /// What the postponement and makeup columns say about a game.
    ///
    /// - a makeup date other than the game's date: postponed, made up on the last date listed;
    /// - "not played" / "No makeup" / "cancel": cancelled;
    /// - a note without any makeup date that only says where the game was played or who batted last:
    ///   played as scheduled; any other note without a makeup date: postponed and never made up (cancelled);
    /// - "Played at X" on a game played on its own date: `playedAt` = X (`Buffalo`, or a team code such as `WAS`).
    struct Notes {
        var status: GameStatus = .scheduled
        var makeupDate: LocalDate?
        var playedAt: String?

        init(date: LocalDate?, postponement: String, makeup: String) {
            let note = postponement.trimmed
            let makeupText = makeup.trimmed
            guard !note.isEmpty || !makeupText.isEmpty else { return }
            let lowerNote = note.lowercased(), lowerMakeup = makeupText.lowercased()
            let dates = Self.dates(in: makeupText)
            let otherDates = dates.filter { $0 != date }
            if lowerMakeup.contains("not played") || lowerNote.contains("no makeup") || lowerNote.contains("cancel") {
                status = .cancelled
            } else if let last = otherDates.last {
                status = .postponed
                makeupDate = last
            } else if dates.isEmpty, !note.isEmpty, !Self.onlySaysWhere(note) {
                status = .cancelled
            }
            if status == .scheduled, let range = note.range(of: "Played at ", options: .caseInsensitive) {
                var place = note[range.upperBound...]
                for stop in [";", " due ", "(", ","] {
                    if let end = place.range(of: stop) { place = place[..<end.lowerBound] }
                }
                let text = place.trimmed
                if !text.isEmpty { playedAt = text }
            }
        }

        /// `20200828; 20200829` → both dates; ignores other text.
        static func dates(in text: String) -> [LocalDate] {
            var found: [LocalDate] = []
            var run = ""
            for c in text + " " {
                if c.isASCIIDigit { run.append(c); continue }
                if run.count == 8, let d = LocalDate(iso8601: run) { found.append(d) }
                run = ""
            }
            return found
        }

        /// Notes made only of clauses about the place or the batting order (the game itself was played).
        static func onlySaysWhere(_ note: String) -> Bool {
            note.split(separator: ";").allSatisfy { clause in
                let c = clause.lowercased()
                return c.contains("played at") || c.contains("batted last") || c.contains("scheduled at")
                    || c.trimmed.isEmpty
            }
        }
    }
}
