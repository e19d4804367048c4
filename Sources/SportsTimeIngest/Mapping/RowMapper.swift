import Foundation
import SportsTimeCore

/// The results of one field's `match` regex by input text. A mapper reads one file on one thread.
final class MatchCache {
    var results: [String: String?] = [:]
}

/// The last text a field's `values` table was asked for and its answer: a column such as a status or
/// a game type repeats one value for many rows in a row.
final class ValuesCache {
    var text: String?
    var mapped: String?
}

/// The last text read for a choice (a kind, a status) and what it meant: a file's rows repeat one or two.
final class ChoiceCache<Choice: RawRepresentable> where Choice.RawValue == String {
    private var text: String?
    private var choice: Choice?

    /// The choice `text` names in any case, or nil.
    func choice(_ text: String) -> Choice? {
        if let last = self.text, last == text { return choice }
        let known = Choice(rawValue: text.lowercased())
        (self.text, choice) = (text, known)
        return known
    }
}

/// Whether a team string that is not plain ASCII (or has punctuation at an end) is a placeholder, by its
/// text: such names repeat on every row of their team and each costs lower-casing and Unicode properties.
final class PlaceholderCache {
    var isPlaceholder: [String: Bool] = [:]
}

/// A mapping compiled against one table's columns: turns each row into a game, a reject reason, or
/// "filtered out".
struct RowMapper {
    enum Outcome {
        case game(RawGame)
        case rejected(String, recordId: String?)
        case filtered(FilterHit)
    }

    /// Which filter left a row out, and the value it saw.
    struct FilterHit: Sendable, Hashable {
        /// Position in the source's `filters`.
        var index: Int
        var column: String
        /// The filter's test as written (`range 2022..2025`, `in [a, b]`).
        var condition: String
        /// The column's (trimmed) value in the row.
        var value: String
    }

    /// A derived field's value could not be computed; the row is rejected with this reason.
    struct DerivedFailure: Error { var reason: String }

    /// Where a value comes from: a cell of the row, a cell of a joined lookup row, or nowhere (an
    /// optional column the file does not have).
    enum CellRef {
        case column(Int)
        case lookup(Int, Int)
        case absent
    }

    struct Lookup {
        var match: CellRef
        var rows: [String: TableRow]
    }

    /// One field's compiled rules. A class: rows read the fields of one mapper many times, and passing a
    /// reference costs one retain where a copy of this many fields costs one per field.
    /// One field's compiled rules; set once when the mapping is compiled and only read per row, so its
    /// properties are constants (a class's variables are checked for exclusive access on every read).
    final class Value {
        let refs: [CellRef]
        let constant: String?
        let regex: NSRegularExpression?
        /// What `regex` made of each text seen so far (rows repeat a few values many times).
        let matches = MatchCache()
        let ifPresent: String?
        let ifEmpty: String?
        let exact: [String: String]
        let folded: [String: String]
        let lastValues = ValuesCache()
        let hasValues: Bool
        let defaultValue: String?
        let layouts: [DateLayout]
        let zone: NaiveZone?
        /// The field's name (for messages).
        let name: String
        /// `expr`: the value is the expression's result.
        let expression: Derived?
        /// `cases`: the first whose condition holds gives its value.
        let cases: [(Derived, String)]

        init(
            name: String, expression: Derived?, cases: [(Derived, String)], refs: [CellRef], constant: String?,
            regex: NSRegularExpression?, ifPresent: String?, ifEmpty: String?, values: [String: String]?,
            defaultValue: String?, layouts: [DateLayout], zone: NaiveZone?
        ) {
            self.name = name; self.expression = expression; self.cases = cases; self.refs = refs
            self.constant = constant; self.regex = regex; self.ifPresent = ifPresent; self.ifEmpty = ifEmpty
            hasValues = values != nil
            exact = values ?? [:]
            var folded: [String: String] = [:]
            for key in (values ?? [:]).keys.sorted() { folded[key.lowercased()] = folded[key.lowercased()] ?? values?[key] }
            self.folded = folded
            self.defaultValue = defaultValue; self.layouts = layouts; self.zone = zone
        }
    }

    /// A parsed expression with the cells its columns read.
    struct Derived {
        var expression: MappingExpression
        var refs: [CellRef]
    }

    struct Filter {
        enum Test {
            case equals(String), notEquals(String), isIn(Set<String>), notIn(Set<String>)
            case range(String?, String?), matches(NSRegularExpression), empty(Bool)
        }
        var column: String
        var ref: CellRef
        var test: Test
        var condition: String
    }

    let source: SourceConfig
    let path: String
    /// The table's column names, and each lookup's name and columns (for the preview's origins).
    let columnNames: [String]
    var lookupColumnNames: [(name: String, columns: [String])] = []
    var lookups: [Lookup] = []
    var filters: [Filter] = []
    var id, homeTeam, awayTeam, venue, city, start, date, time, timeTBD, season, kind, status: Value?
    var makeupDate, gameNumber, neutralSite, dayNight, homeScore, awayScore: Value?
    /// Team strings (lowercased) that mean "not decided yet"; blank strings always do.
    let placeholders: Set<String>
    let placeholderCache = PlaceholderCache()
    let kinds = ChoiceCache<GameKind>()
    let statuses = ChoiceCache<GameStatus>()
    /// The UTF-8 lengths of `placeholders` below 64, as bits (bit n: some placeholder is n bytes long), and
    /// whether one is longer: a team whose first and last characters are ASCII letters or digits can only
    /// be one of them when its length is one of these (no lower-casing needed otherwise).
    let placeholderLengths: (bits: UInt64, longer: Bool)
    /// The first bytes of the ASCII `placeholders`, as bits of two words (bytes 0–63, 64–127): such a team
    /// (lower-cased) can only be a placeholder when its first byte is one of these (`BOS` is not `tbd`).
    let placeholderFirstBytes: (low: UInt64, high: UInt64)
    /// How expressions read dates (instants in the source's zone, UTC for `venue`).
    let context: MappingExpression.Context
    /// The label of each season the source covers (made once, not per row).
    let seasonLabels: [Season: String]

    /// Compiles `source.mapping` and `source.filters` for `table`. Throws (exit 2) when a column the
    /// mapping needs is missing from the file.
    init(source: SourceConfig, table: Table, lookupTables: [String: Table]) throws {
        self.source = source
        self.path = table.path
        self.columnNames = table.columns
        self.placeholders = Set(source.placeholderTeams.map { Self.strippedOfPunctuation($0.lowercased()) })
        self.placeholderFirstBytes = placeholders.reduce((low: UInt64(0), high: UInt64(0))) { bits, placeholder in
            guard let first = placeholder.utf8.first, first < 0x80 else { return bits }
            return first < 64 ? (bits.low | 1 << UInt64(first), bits.high) : (bits.low, bits.high | 1 << UInt64(first - 64))
        }
        self.placeholderLengths = placeholders.reduce((bits: UInt64(0), longer: false)) { lengths, placeholder in
            let count = placeholder.utf8.count
            return count < 64 ? (lengths.bits | 1 << UInt64(count), lengths.longer) : (lengths.bits, true)
        }
        self.context = MappingExpression.Context(zone: source.naiveTimeZone.timeZone)
        var seasonLabels: [Season: String] = [:]
        for year in source.seasons.first.startYear...max(source.seasons.first.startYear, source.seasons.last.startYear) {
            let season = Season(startYear: year, isSplit: source.seasons.isSplit)
            seasonLabels[season] = season.label
        }
        self.seasonLabels = seasonLabels
        var expressionProblems: [Diagnostic] = []
        let specs = source.mapping.lookups ?? []
        var missing: [String] = []
        var lookupIndex: [String: (Int, Table?)] = [:]
        func resolve(_ name: String, optional: Bool, allowLookups: Bool = true) -> CellRef {
            if let i = table.column(name) { return .column(i) }
            if allowLookups, let dot = name.firstIndex(of: "."), let (l, lookupTable) = lookupIndex[String(name[..<dot])] {
                guard let lookupTable else { return .absent }
                if let j = lookupTable.column(String(name[name.index(after: dot)...])) { return .lookup(l, j) }
                if !optional { missing.append(name) }
                return .absent
            }
            if !optional { missing.append(name) }
            return .absent
        }
        for (l, spec) in specs.enumerated() {
            let lookupTable = lookupTables[spec.file]
            lookupIndex[spec.name] = (l, lookupTable)
            lookupColumnNames.append((spec.name, lookupTable?.columns ?? []))
            var rows: [String: TableRow] = [:]
            if let lookupTable, let keyColumn = lookupTable.column(spec.key) {
                for row in lookupTable.rows {
                    let key = (row.cell(keyColumn) ?? "").trimmed
                    if rows[key] == nil { rows[key] = row }
                }
            } else if lookupTable != nil {
                missing.append("\(spec.name): key column '\(spec.key)' of \(spec.file)")
            }
            lookups.append(Lookup(match: resolve(spec.match, optional: false, allowLookups: false), rows: rows))
        }
        func derive(_ text: String, key: String) -> Derived? {
            guard let expression = try? MappingExpression.parse(text) else { return nil } // checked when the spec was loaded
            var refs: [CellRef] = []
            for use in expression.columns {
                var unresolved: [String] = []
                let saved = missing
                let ref = resolve(use.name, optional: false)
                unresolved = Array(missing.dropFirst(saved.count))
                missing = saved
                refs.append(ref)
                guard !unresolved.isEmpty else { continue }
                var at = source.expressionStarts[key] ?? source.location
                if let column = at.column { at.column = column + use.offset }
                let candidates: [String]
                if let dot = use.name.firstIndex(of: "."), let (_, lookupTable) = lookupIndex[String(use.name[..<dot])], let lookupTable {
                    candidates = lookupTable.columns.map { "\(use.name[..<dot]).\($0)" }
                } else {
                    candidates = table.columns + lookupIndex.keys.sorted().map { "\($0).<column>" }
                }
                let near = Spelling.nearest(use.name, in: candidates).map { "Did you mean \($0)? " } ?? ""
                expressionProblems.append(
                    Diagnostic(
                        .error, at: at,
                        "source '\(source.id)': \(key) reads column '\(use.name)', which \(table.path) does not have (columns: \(candidates.joined(separator: ", ")))",
                        fix: "\(near)Name one of the file's columns (in backquotes when it has spaces or other characters: `Game Day`)"))
            }
            return Derived(expression: expression, refs: refs)
        }
        func compile(_ spec: ValueSpec?, _ name: String) -> Value? {
            guard let spec else { return nil }
            let expression = spec.expr.flatMap { derive($0, key: "fields.\(name).expr") }
            var cases: [(Derived, String)] = []
            for (i, c) in (spec.cases ?? []).enumerated() {
                if let d = derive(c.when, key: "fields.\(name).cases[\(i)].when") { cases.append((d, c.value)) }
            }
            return Value(
                name: name, expression: expression, cases: cases,
                refs: (spec.from?.names ?? []).map { resolve($0, optional: spec.optional ?? false) }, constant: spec.constant,
                regex: spec.match.flatMap { try? NSRegularExpression(pattern: $0) }, ifPresent: spec.ifPresent,
                ifEmpty: spec.ifEmpty, values: spec.values, defaultValue: spec.default,
                layouts: (spec.layout?.names ?? []).compactMap { try? DateLayout($0) }, zone: spec.zone.flatMap(NaiveZone.init))
        }
        let f = source.mapping.fields ?? FieldsSpec()
        id = compile(f.id, "id"); homeTeam = compile(f.homeTeam, "homeTeam"); awayTeam = compile(f.awayTeam, "awayTeam")
        venue = compile(f.venue, "venue"); city = compile(f.city, "city"); start = compile(f.start, "start")
        date = compile(f.date, "date"); time = compile(f.time, "time"); timeTBD = compile(f.timeTBD, "timeTBD")
        season = compile(f.season, "season"); kind = compile(f.kind, "kind"); status = compile(f.status, "status")
        makeupDate = compile(f.makeupDate, "makeupDate"); gameNumber = compile(f.gameNumber, "gameNumber")
        neutralSite = compile(f.neutralSite, "neutralSite"); dayNight = compile(f.dayNight, "dayNight")
        homeScore = compile(f.homeScore, "homeScore"); awayScore = compile(f.awayScore, "awayScore")
        for spec in source.filters {
            let test: Filter.Test
            if let v = spec.equals {
                test = .equals(v)
            } else if let v = spec.notEquals {
                test = .notEquals(v)
            } else if let v = spec.in {
                test = .isIn(Set(v))
            } else if let v = spec.notIn {
                test = .notIn(Set(v))
            } else if let r = spec.range {
                test = .range(r.from, r.to)
            } else if let p = spec.matches, let regex = try? NSRegularExpression(pattern: p) {
                test = .matches(regex)
            } else {
                test = .empty(spec.empty ?? true)
            }
            filters.append(
                Filter(
                    column: spec.column, ref: resolve(spec.column, optional: false), test: test,
                    condition: spec.conditionText))
        }
        if !expressionProblems.isEmpty {
            throw expressionProblems.count == 1
                ? PipelineError.invalidInput(expressionProblems[0]) : PipelineError.invalidInputs(expressionProblems)
        }
        if !missing.isEmpty {
            let known = table.columns.joined(separator: ", ")
            let looksLikeData = Self.headerLooksLikeData(table.columns)
            throw PipelineError.invalidInput(
                Diagnostic(
                    .error, at: SourceLocation(path: table.path, line: 1),
                    "source '\(source.id)': the mapping names \(missing.map { "'\($0)'" }.joined(separator: ", ")), not in this file (columns: \(known))"
                        + (looksLikeData ? "; the first row looks like data, not a header" : ""),
                    fix: looksLikeData
                        ? "If the file has no header row, set header: false under mapping in pipeline/sources.yaml and name the columns column1, column2, ..."
                        : "Fix the column names in pipeline/sources.yaml, or mark the field optional"))
        }
    }

    /// Sports in which a game cannot end 0–0 (soccer and dynamic sports can).
    static let sportsWithoutScorelessGames: Set<String> = ["mlb", "nba", "nhl", "nfl", "wnba"]

    /// Why a row's status contradicts its score columns (when the mapping names them), or nil.
    private func statusContradictsScores(_ status: GameStatus, _ row: TableRow) throws -> String? {
        guard homeScore != nil || awayScore != nil else { return nil }
        let texts = try [homeScore, awayScore].map { spec in try spec.flatMap { try value($0, row) } }
        let scores = texts.map { $0.flatMap { Int($0) } }
        for (side, text) in zip(["homeScore", "awayScore"], texts) {
            if let text, Int(text) == nil { return "\(side) '\(text)' is not a whole number" }
        }
        switch status {
        case .final:
            guard let home = scores[0], let away = scores[1] else {
                return "status final but no score (homeScore and awayScore are empty): map the source's status column, or fix the row"
            }
            if home == 0, away == 0, Self.sportsWithoutScorelessGames.contains(source.sport) {
                return
                    "status final with a 0–0 score, which no \(source.sport) game ends with (a cancelled or unplayed game?): map the source's status column, or fix the row"
            }
        case .scheduled:
            if scores[0] != nil, scores[1] != nil {
                return
                    "status scheduled but the row has a score (\(scores[0]!)–\(scores[1]!)): map the status from the score columns, or fix the row"
            }
        case .postponed, .cancelled:
            break
        }
        return nil
    }

    /// Whether header names look like a row of data: a date (`2022-04-07`, `4/7/2022`, `20220407`), a
    /// clock time, or two or more plain numbers among them.
    static func headerLooksLikeData(_ names: [String]) -> Bool {
        var numbers = 0
        for name in names {
            let text = name.trimmingCharacters(in: .whitespaces)
            if text.range(of: #"^\d{1,4}[-/.]\d{1,2}[-/.]\d{1,4}$|^\d{8}$|^\d{1,2}:\d{2}(:\d{2})?$"#, options: .regularExpression) != nil {
                return true
            }
            if !text.isEmpty, Double(text) != nil { numbers += 1 }
        }
        return numbers >= 2
    }

    // MARK: - Reading values

    @inline(__always) private func cell(_ ref: CellRef, _ row: TableRow) -> String? {
        switch ref {
        case .column(let i):
            return row.cell(i)
        case .lookup(let l, let j):
            let lookup = lookups[l]
            guard let key = cell(lookup.match, row)?.trimmed,
                let joined = lookup.rows[key]
            else { return nil }
            return joined.cell(j)
        case .absent:
            return nil
        }
    }

    /// The field's value after its rules; nil when empty. Throws `DerivedFailure` when an expression
    /// of the field cannot be evaluated on this row.
    func value(_ v: Value, _ row: TableRow) throws -> String? {
        var origin: [String]?
        return try value(v, row, origin: &origin)
    }

    /// The text of the cells an expression reads.
    private func evaluate(_ d: Derived, _ row: TableRow, field: String) throws -> MappingExpression.Value {
        do {
            return try d.expression.evaluate(context) { slot in cell(d.refs[slot], row) }
        } catch let error as MappingExpression.EvaluationError {
            throw DerivedFailure(reason: "\(field): \(error.message) (in '\(d.expression.text)')")
        }
    }

    /// `value(_:_:)`, saying where the value came from when `origin` is non-nil (for the preview).
    func value(_ v: Value, _ row: TableRow, origin: inout [String]?) throws -> String? {
        var text: String? = v.constant
        if text != nil { origin?.append("constant") }
        if let d = v.expression {
            let result = try evaluate(d, row, field: "fields.\(v.name).expr")
            text = result.fieldText
            origin?.append("expr '\(d.expression.text)'")
        } else if !v.cases.isEmpty {
            for (i, (d, result)) in v.cases.enumerated() {
                guard case .bool(true) = try evaluate(d, row, field: "fields.\(v.name).cases[\(i)].when") else { continue }
                text = result
                origin?.append("cases[\(i)] when '\(d.expression.text)'")
                break
            }
            if text == nil { origin?.append("no case held") }
        } else if text == nil {
            for ref in v.refs {
                if let raw = cell(ref, row) {
                    let t = raw.trimmed
                    if !t.isEmpty {
                        text = t
                        if origin != nil { origin?.append(describe(ref)) }
                        break
                    }
                }
            }
        }
        if let regex = v.regex, let t = text {
            if let known = v.matches.results[t] {
                text = known
            } else {
                let ns = t as NSString
                if let m = regex.firstMatch(in: t, range: NSRange(location: 0, length: ns.length)) {
                    let r = m.numberOfRanges > 1 && m.range(at: 1).location != NSNotFound ? m.range(at: 1) : m.range
                    text = ns.substring(with: r).trimmed
                } else {
                    text = nil
                }
                v.matches.results[t] = .some(text)
            }
            origin?.append("match")
        }
        if let t = text, !t.isEmpty {
            if let p = v.ifPresent { text = p; origin?.append("ifPresent") }
        } else {
            text = v.ifEmpty
            if text != nil { origin?.append("ifEmpty") }
        }
        if v.hasValues, let t = text, !t.isEmpty {
            let mapped: String?
            if let last = v.lastValues.text, last == t {
                mapped = v.lastValues.mapped
            } else {
                mapped = v.exact[t] ?? v.folded[t.lowercased()]
                (v.lastValues.text, v.lastValues.mapped) = (t, mapped)
            }
            if let mapped {
                text = mapped; origin?.append("values")
            } else if let d = v.defaultValue {
                text = d; origin?.append("default")
            }
        }
        if text?.isEmpty ?? true {
            text = v.defaultValue
            if text != nil { origin?.append("default") }
        }
        return text?.isEmpty == false ? text : nil
    }

    /// Every field of the mapping with its value on `row` and where it came from (for the preview).
    /// Fields the mapping leaves out are listed when the record still gets a value for them.
    func explain(_ row: TableRow) -> [(field: String, value: String, origin: String)] {
        let named: [(String, Value?)] = [
            ("id", id), ("homeTeam", homeTeam), ("awayTeam", awayTeam), ("venue", venue), ("city", city), ("start", start),
            ("date", date), ("time", time), ("timeTBD", timeTBD), ("season", season), ("kind", kind), ("status", status),
            ("makeupDate", makeupDate), ("gameNumber", gameNumber), ("neutralSite", neutralSite), ("dayNight", dayNight),
            ("homeScore", homeScore), ("awayScore", awayScore),
        ]
        var lines: [(String, String, String)] = []
        for (name, spec) in named {
            guard let spec else {
                switch name {
                case "id": lines.append((name, "(derived)", "not mapped, <date>-<away>-at-<home>[-g<n>]"))
                case "season":
                    lines.append((name, source.seasons.isSingle ? source.seasons.first.label : "(none)", "not mapped, the source's season"))
                case "kind": lines.append((name, "regular", "not mapped, default, inferred"))
                case "status": lines.append((name, "scheduled", "not mapped, default, inferred"))
                default: break
                }
                continue
            }
            var origin: [String]? = []
            do {
                let text = try value(spec, row, origin: &origin)
                let how = (origin ?? []).joined(separator: " → ")
                lines.append((name, text ?? "(empty)", how.isEmpty ? "empty" : how))
            } catch let failure as DerivedFailure {
                lines.append((name, "(error)", failure.reason))
            } catch {
                lines.append((name, "(error)", "\(error)"))
            }
        }
        return lines
    }

    /// `column 'home_team'`, `lookup column 'seasonDates.week'`.
    private func describe(_ ref: CellRef) -> String {
        switch ref {
        case .column(let i): return "column '\(i < columnNames.count ? columnNames[i] : "column\(i + 1)")'"
        case .lookup(let l, let j):
            return
                "lookup column '\(lookupColumnNames[l].name).\(j < lookupColumnNames[l].columns.count ? lookupColumnNames[l].columns[j] : "?")'"
        case .absent: return "absent column"
        }
    }

    private func filterValue(_ ref: CellRef, _ row: TableRow) -> String {
        (cell(ref, row) ?? "").trimmed
    }

    private func passes(_ filter: Filter, _ row: TableRow) -> Bool {
        let v = filterValue(filter.ref, row)
        switch filter.test {
        case .equals(let x): return v == x
        case .notEquals(let x): return v != x
        case .isIn(let set): return set.contains(v)
        case .notIn(let set): return !set.contains(v)
        case .empty(let wantEmpty): return v.isEmpty == wantEmpty
        case .matches(let regex):
            return regex.firstMatch(in: v, range: NSRange(location: 0, length: (v as NSString).length)) != nil
        case .range(let lo, let hi):
            guard !v.isEmpty else { return false }
            func le(_ a: String, _ b: String) -> Bool {
                if let x = Double(a), let y = Double(b) { return x <= y }
                return a <= b
            }
            if let lo, !le(lo, v) { return false }
            if let hi, !le(v, hi) { return false }
            return true
        }
    }

    // MARK: - Typed parsing

    static func parseBool(_ text: String) -> Bool? {
        switch text.lowercased() {
        case "true", "t", "yes", "y", "1": return true
        case "false", "f", "no", "n", "0": return false
        default: return nil
        }
    }

    static func delimiter(_ text: String) -> Character? {
        if text == "\\t" || text == "\t" || text.lowercased() == "tab" { return "\t" }
        return text.count == 1 ? text.first : nil
    }

    private static let defaultDateLayouts = [try? DateLayout("iso8601"), try? DateLayout("M/d/yyyy")].compactMap { $0 }
    private static let defaultTimeLayouts = ["HH:mm", "HH:mm:ss", "h:mm a", "h:mma"].compactMap { try? DateLayout($0) }
    private static let defaultStartLayouts = [try? DateLayout("iso8601")].compactMap { $0 }
    private static let tbdTimes: Set<String> = ["tbd", "tba", "tbc", "to be determined", "to be announced"]

    private func parse(_ text: String, _ layouts: [DateLayout], fallback: [DateLayout]) -> DateLayout.Parts? {
        for layout in layouts.isEmpty ? fallback : layouts {
            if let parts = layout.parse(text) { return parts }
        }
        return nil
    }

    private func layoutNames(_ v: Value, fallback: [DateLayout]) -> String {
        (v.layouts.isEmpty ? fallback : v.layouts).map(\.description).joined(separator: ", ")
    }

    /// Why a team string cannot be a team, or nil when it can.
    private func placeholderReason(_ team: String?, side: String) -> String? {
        guard let team, Self.hasLetterOrNumber(team) else { return "blank \(side) team" }
        guard !placeholders.isEmpty else { return nil }
        func isASCIIAlphanumeric(_ b: UInt8) -> Bool { (b >= 0x30 && b <= 0x39) || (b | 0x20 >= 0x61 && b | 0x20 <= 0x7A) }
        if let first = team.utf8.first, let last = team.utf8.last, isASCIIAlphanumeric(first), isASCIIAlphanumeric(last),
            team.isAllASCII
        {
            // ASCII with a letter or digit at both ends: a placeholder only when it is one, in any case
            // (`TBD`), lowered byte by byte (most team codes are as long as some placeholder).
            let count = team.utf8.count
            guard count < 64 ? placeholderLengths.bits & 1 << UInt64(count) != 0 : placeholderLengths.longer else { return nil }
            let lead = first >= 0x41 && first <= 0x5A ? first | 0x20 : first
            guard (lead < 64 ? placeholderFirstBytes.low >> UInt64(lead) : placeholderFirstBytes.high >> UInt64(lead - 64)) & 1 != 0
            else { return nil }
            let lower = String(unsafeUninitializedCapacity: count) { out in
                for (at, byte) in team.utf8.enumerated() { out[at] = byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte }
                return count
            }
            return placeholders.contains(lower) ? "placeholder \(side) team '\(team)'" : nil
        }
        let isPlaceholder: Bool
        if let known = placeholderCache.isPlaceholder[team] {
            isPlaceholder = known
        } else {
            isPlaceholder = isPlaceholderByCharacter(team)
            placeholderCache.isPlaceholder[team] = isPlaceholder
        }
        return isPlaceholder ? "placeholder \(side) team '\(team)'" : nil
    }

    /// Whether `team` is one of `placeholders`, lower-cased, or once white space and punctuation are taken
    /// off its ends.
    private func isPlaceholderByCharacter(_ team: String) -> Bool {
        let lower = team.lowercased()
        if placeholders.contains(lower) { return true }
        guard let first = lower.unicodeScalars.first, let last = lower.unicodeScalars.last,
            !(first.properties.isAlphabetic || first.properties.numericType != nil)
                || !(last.properties.isAlphabetic || last.properties.numericType != nil)
        else { return false }
        return placeholders.contains(Self.strippedOfPunctuation(lower))
    }

    /// Whether a character of `text` is a letter or a number; ASCII text is checked byte by byte.
    static func hasLetterOrNumber(_ text: String) -> Bool {
        var ascii = true
        for b in text.utf8 {
            if b >= 0x80 { ascii = false; break }
            if (b >= 0x30 && b <= 0x39) || (b | 0x20 >= 0x61 && b | 0x20 <= 0x7A) { return true }
        }
        return ascii ? false : text.contains(where: { $0.isLetter || $0.isNumber })
    }

    /// `(tbd)` → `tbd`: white space and punctuation removed from both ends.
    static func strippedOfPunctuation(_ text: String) -> String {
        let utf8 = text.utf8
        if text.isAllASCII {
            // ASCII: byte by byte, by the same rule tabulated (a byte is a character here).
            var start = utf8.startIndex, end = utf8.endIndex
            while start < end, asciiEdge[Int(utf8[start])] { start = utf8.index(after: start) }
            while end > start, asciiEdge[Int(utf8[utf8.index(before: end)])] { end = utf8.index(before: end) }
            return String(text[start..<end])
        }
        var scalars = text.unicodeScalars[...]
        while let s = scalars.first, isEdge(s) { scalars = scalars.dropFirst() }
        while let s = scalars.last, isEdge(s) { scalars = scalars.dropLast() }
        return String(String.UnicodeScalarView(scalars))
    }

    /// White space or punctuation: what `strippedOfPunctuation` removes from the ends.
    static func isEdge(_ s: Unicode.Scalar) -> Bool {
        if s.properties.isWhitespace { return true }
        switch s.properties.generalCategory {
        case .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation,
            .initialPunctuation, .finalPunctuation, .otherPunctuation:
            return true
        default: return false
        }
    }

    /// `isEdge` of each ASCII byte.
    private static let asciiEdge: [Bool] = (0..<128).map { isEdge(Unicode.Scalar(UInt8($0))) }

    // MARK: - Row → game

    func map(_ row: TableRow) -> Outcome {
        for (i, filter) in filters.enumerated() where !passes(filter, row) {
            return .filtered(FilterHit(index: i, column: filter.column, condition: filter.condition, value: filterValue(filter.ref, row)))
        }
        var provisionalId: String?
        do {
            return try mapFields(row, provisionalId: &provisionalId)
        } catch let failure as DerivedFailure {
            return .rejected(failure.reason, recordId: provisionalId)
        } catch {
            return .rejected("\(error)", recordId: provisionalId)
        }
    }

    private func mapFields(_ row: TableRow, provisionalId: inout String?) throws -> Outcome {
        let sourceId = try id.flatMap { try value($0, row) }
        provisionalId = sourceId.map { String.joining(source.id, UInt8(ascii: ":"), $0) }
        let recordId = provisionalId
        func reject(_ reason: String) -> Outcome { .rejected(reason, recordId: recordId) }

        let home = try homeTeam.flatMap { try value($0, row) }
        let away = try awayTeam.flatMap { try value($0, row) }
        if let reason = placeholderReason(home, side: "home") ?? placeholderReason(away, side: "away") { return reject(reason) }
        guard let home, let away else { return reject("blank team") }
        if home == away { return reject("home and away team are both '\(home)'") }

        // Time of day is undecided when the source says so.
        var tbd = false
        if let spec = timeTBD, let text = try value(spec, row) {
            guard let flag = Self.parseBool(text) else { return reject("timeTBD '\(text)' is not true or false") }
            tbd = flag
        }

        var instant: Instant?
        var day: LocalDate?
        var dayZone = source.naiveTimeZone
        var clock: (h: Int, m: Int, s: Int)?
        var clockZone = source.naiveTimeZone
        var startZone = source.naiveTimeZone

        if let spec = start, let text = try value(spec, row) {
            startZone = spec.zone ?? source.naiveTimeZone
            guard let parts = parse(text, spec.layouts, fallback: Self.defaultStartLayouts) else {
                return reject("start '\(text)' does not fit the layouts \(layoutNames(spec, fallback: Self.defaultStartLayouts))")
            }
            // A declared placeholder (`placeholderStarts`) still dates the game; its start stays unknown.
            if source.placeholderStarts.contains(text.lowercased()) { tbd = true }
            if let i = parts.instant {
                instant = i
            } else if let d = parts.date {
                day = d; dayZone = startZone; clockZone = startZone
                if let h = parts.hour { clock = (h, parts.minute ?? 0, parts.second ?? 0) }
            }
        }
        if let spec = date, let text = try value(spec, row) {
            guard let parts = parse(text, spec.layouts, fallback: Self.defaultDateLayouts), let d = parts.date else {
                return reject("date '\(text)' does not fit the layouts \(layoutNames(spec, fallback: Self.defaultDateLayouts))")
            }
            day = d
            dayZone = spec.zone ?? source.naiveTimeZone
            if instant == nil, let i = parts.instant { instant = i }
            if clock == nil, let h = parts.hour { clock = (h, parts.minute ?? 0, parts.second ?? 0); clockZone = dayZone }
        }
        if let spec = time {
            let text = try value(spec, row)
            if let text, !Self.tbdTimes.contains(text.lowercased()), !source.placeholderStarts.contains(text.lowercased()) {
                guard let parts = parse(text, spec.layouts, fallback: Self.defaultTimeLayouts), let h = parts.hour else {
                    return reject("time '\(text)' does not fit the layouts \(layoutNames(spec, fallback: Self.defaultTimeLayouts))")
                }
                clock = (h, parts.minute ?? 0, parts.second ?? 0)
                clockZone = spec.zone ?? date?.zone ?? source.naiveTimeZone
            } else {
                if text != nil { tbd = true }
                if instant == nil { clock = nil }
            }
        }

        var startUTC: Instant?
        var localTime: String?
        let gameDate: LocalDate
        var dateZone: String
        if let instant {
            startUTC = tbd ? nil : instant
            if let day {
                gameDate = day; dateZone = dayZone.description
            } else if tbd, let zone = startZone.timeZone {
                gameDate = ZonedTime.localDate(of: instant, in: zone); dateZone = startZone.description
            } else {
                gameDate = instant.utcDate; dateZone = "UTC"
            }
        } else if let day {
            gameDate = day
            dateZone = dayZone.description
            if let clock, !tbd {
                if let zone = clockZone.timeZone {
                    startUTC = ZonedTime.instant(date: day, hour: clock.h, minute: clock.m, second: clock.s, in: zone)
                    dateZone = clockZone.description
                } else {
                    localTime = "\(clock.h < 10 ? "0" : "")\(clock.h):\(clock.m < 10 ? "0" : "")\(clock.m)"
                }
            }
        } else {
            return reject("no date")
        }
        tbd = tbd || (startUTC == nil && localTime == nil)

        // Season: the row's own, else the one the source declares.
        let seasonLabel: String
        if let spec = season, let text = try value(spec, row) {
            guard let s = Season.parse(text, split: source.seasons.isSplit) else {
                return reject("season '\(text)' is not a season like \(source.seasons.first.label)")
            }
            guard source.seasons.contains(s) else {
                return reject("season \(s.label) is outside this source's seasons \(source.seasons)")
            }
            seasonLabel = seasonLabels[s] ?? s.label
        } else if source.seasons.isSingle {
            seasonLabel = seasonLabels[source.seasons.first] ?? source.seasons.first.label
        } else {
            return reject("no season")
        }

        var inferredFields: [InferredField]? = [kind == nil ? .kind : nil, status == nil ? .status : nil].compactMap { $0 }
        if inferredFields!.isEmpty { inferredFields = nil }
        var gameKind = GameKind.regular
        if let spec = kind, let text = try value(spec, row) {
            guard let k = kinds.choice(text) else {
                return reject("kind '\(text)' is not one of preseason, regular, postseason, exhibition (map it in fields.kind.values)")
            }
            gameKind = k
        }
        var gameStatus = GameStatus.scheduled
        if let spec = status, let text = try value(spec, row) {
            guard let s = statuses.choice(text) else {
                return reject("status '\(text)' is not one of scheduled, postponed, cancelled, final (map it in fields.status.values)")
            }
            gameStatus = s
        }
        if let reason = try statusContradictsScores(gameStatus, row) { return reject(reason) }
        var makeup: LocalDate?
        if let spec = makeupDate, let text = try value(spec, row) {
            guard let parts = parse(text, spec.layouts, fallback: Self.defaultDateLayouts), let d = parts.date else {
                return reject("makeupDate '\(text)' does not fit the layouts \(layoutNames(spec, fallback: Self.defaultDateLayouts))")
            }
            makeup = d
        }
        var number: Int?
        if let spec = gameNumber, let text = try value(spec, row) {
            guard let n = Int(text), n >= 0 else { return reject("gameNumber '\(text)' is not a number") }
            number = n == 0 ? nil : n
        }
        var neutral: Bool?
        if let spec = neutralSite, let text = try value(spec, row) {
            guard let b = Self.parseBool(text) else { return reject("neutralSite '\(text)' is not true or false") }
            neutral = b
        }
        var light: String?
        if let spec = dayNight, let text = try value(spec, row) {
            switch text.lowercased() {
            case "d", "day": light = "day"
            case "n", "night": light = "night"
            default: return reject("dayNight '\(text)' is not day or night")
            }
        }

        // A venue not decided yet (`placeholderVenues`) is no venue: normalize plans the game at the home team's
        // home, and `venue` is listed as inferred so the store says the venue is to be confirmed.
        let printedVenue = try venue.flatMap { try value($0, row) }
        let venueIsPlaceholder = printedVenue.map { source.placeholderVenues.contains($0.lowercased()) } ?? false
        let venueText = venueIsPlaceholder ? nil : printedVenue
        if venueIsPlaceholder { inferredFields = ((inferredFields ?? []) + [.venue]).sorted() }
        let cityText = try city.flatMap { try value($0, row) }
        // A source id's record id is the provisional one already joined; a derived key is joined here.
        let recordIdText =
            recordId
            ?? String.joining(source.id, UInt8(ascii: ":"), Self.derivedKey(date: gameDate, away: away, home: home, gameNumber: number))
        return .game(
            RawGame(
                id: recordIdText, source: source.id, sport: source.sport, season: seasonLabel,
                kind: gameKind,
                sourceGameId: sourceId, homeTeam: home, awayTeam: away,
                venue: venueText, city: cityText,
                startUTC: startUTC, date: gameDate, dateZone: dateZone, localTime: localTime, timeTBD: tbd,
                gameNumber: number, status: gameStatus, makeupDate: makeup, neutralSite: neutral,
                provenance: String.joining(path, UInt8(ascii: ":"), String(row.line)), dayNight: light, inferred: inferredFields))
    }

    /// `2023-03-30-bal-at-bos[-g2]`: the id key of a game from a source without ids.
    static func derivedKey(date: LocalDate, away: String, home: String, gameNumber: Int?) -> String {
        func part(_ team: String) -> String {
            let slug = Slug.make(team)
            return slug.isEmpty ? "x\(team.unicodeScalars.map { String($0.value, radix: 16) }.joined())" : slug
        }
        var key = "\(date.iso8601)-\(part(away))-at-\(part(home))"
        if let gameNumber, gameNumber > 0 { key += "-g\(gameNumber)" }
        return key
    }
}
