import Foundation
import SportsTimeCore

/// Checks a mapping before any file is read: required fields, one value source per field, layouts,
/// zones, regular expressions, value-map targets, filters and lookups.
enum MappingCheck {
    struct Problem {
        var message: String
        var fix: String
        var keys: [YAMLPathElement]
        /// For a mistake inside an expression: its 0-based character offset in the expression text.
        var offset: Int?
    }

    static let dateFields: Set<String> = ["start", "date", "time", "makeupDate"]

    static func problems(in mapping: MappingSpec, format: SourceFormat, filters: [FilterSpec]) -> [Problem] {
        var problems: [Problem] = []
        func add(_ message: String, _ fix: String, _ keys: [YAMLPathElement]) {
            problems.append(Problem(message: message, fix: fix, keys: keys))
        }
        let fields = mapping.fields ?? FieldsSpec()
        if fields.homeTeam == nil { add("the mapping has no homeTeam", "Map fields.homeTeam to a column", ["mapping"]) }
        if fields.awayTeam == nil { add("the mapping has no awayTeam", "Map fields.awayTeam to a column", ["mapping"]) }
        if fields.start == nil && fields.date == nil {
            add("the mapping has neither start nor date", "Map fields.start (an instant) or fields.date", ["mapping"])
        }
        for (name, spec) in fields.all {
            guard let spec else { continue }
            let keys: [YAMLPathElement] = ["mapping", "fields", .key(name)]
            if spec.valueSourceCount != 1 {
                add(
                    "fields.\(name) needs exactly one of from, constant, expr and cases",
                    "Give a column in from, a constant, an expr, or a list of cases", keys)
            }
            if let expr = spec.expr {
                do { _ = try MappingExpression.parse(expr) } catch let error as MappingExpression.SyntaxError {
                    problems.append(
                        Problem(
                            message: "fields.\(name).expr: \(error.message)", fix: error.fix,
                            keys: keys + ["expr"], offset: error.offset))
                } catch {}
            }
            if let cases = spec.cases {
                if cases.isEmpty {
                    add("fields.\(name).cases is empty", "Give at least one {when: ..., value: ...}, or remove cases", keys + ["cases"])
                }
                for (i, c) in cases.enumerated() {
                    let at: [YAMLPathElement] = keys + ["cases", .index(i), "when"]
                    do {
                        let parsed = try MappingExpression.parse(c.when)
                        if parsed.type != .condition {
                            problems.append(
                                Problem(
                                    message: "fields.\(name).cases[\(i)].when is a \(parsed.type.rawValue), not a condition",
                                    fix: "Compare it (week <= 5, game_type == 'WC') or test it with empty(...)", keys: at, offset: 0))
                        }
                    } catch let error as MappingExpression.SyntaxError {
                        problems.append(
                            Problem(
                                message: "fields.\(name).cases[\(i)].when: \(error.message)", fix: error.fix,
                                keys: at, offset: error.offset))
                    } catch {}
                }
            }
            if let from = spec.from, from.names.isEmpty || from.names.contains(where: \.isEmpty) {
                add("fields.\(name).from names an empty column", "Give column names", keys)
            }
            if let layouts = spec.layout?.names {
                if !dateFields.contains(name) {
                    add("fields.\(name) has a layout, but only start, date, time and makeupDate read layouts", "Remove the layout", keys)
                }
                for layout in layouts {
                    do { _ = try DateLayout(layout) } catch let error as DateLayout.LayoutError {
                        add(error.message, "Use layout letters such as yyyy-MM-dd, M/d/yyyy, HH:mm, h:mma", keys)
                    } catch {}
                }
            }
            if let zone = spec.zone {
                if !dateFields.contains(name) {
                    add("fields.\(name) has a zone, but only dates and times have one", "Remove the zone", keys)
                }
                if NaiveZone(zone) == nil {
                    add("zone '\(zone)' of fields.\(name) is not an IANA zone", "Use a zone such as America/Chicago, UTC, or venue", keys)
                }
            }
            if let pattern = spec.match, (try? NSRegularExpression(pattern: pattern)) == nil {
                add("fields.\(name).match '\(pattern)' is not a regular expression", "Fix the pattern", keys)
            }
            let targets =
                Array((spec.values ?? [:]).values) + (spec.cases ?? []).map(\.value)
                + [spec.default, spec.constant, spec.ifPresent, spec.ifEmpty].compactMap { $0 }
            let allowed: [String]? =
                switch name {
                case "kind": GameKind.allCases.map(\.rawValue)
                case "status": GameStatus.allCases.map(\.rawValue)
                case "dayNight": ["day", "night", "d", "n"]
                case "neutralSite", "timeTBD": ["true", "false"]
                default: nil
                }
            if let allowed {
                for target in targets.sorted() where !allowed.contains(target.lowercased()) && !(name == "neutralSite" || name == "timeTBD")
                {
                    add(
                        "fields.\(name) maps to '\(target)', which is not one of \(allowed.joined(separator: ", "))", "Map to one of those",
                        keys)
                }
                if name == "neutralSite" || name == "timeTBD" {
                    for target in targets.sorted() where RowMapper.parseBool(target) == nil {
                        add("fields.\(name) maps to '\(target)', which is not true or false", "Map to true or false", keys)
                    }
                }
            }
        }
        let kind = format.tableKind
        if kind != .json, mapping.records != nil {
            add("mapping.records applies to JSON sources only", "Remove it", ["mapping", "records"])
        }
        if kind != .json, mapping.javascriptExport != nil {
            add("mapping.javascriptExport applies to JSON sources only", "Remove it", ["mapping", "javascriptExport"])
        }
        if kind != .csv {
            if mapping.delimiter != nil { add("mapping.delimiter applies to CSV sources only", "Remove it", ["mapping", "delimiter"]) }
            if mapping.header != nil { add("mapping.header applies to CSV sources only", "Remove it", ["mapping", "header"]) }
            if mapping.skipLines != nil { add("mapping.skipLines applies to CSV sources only", "Remove it", ["mapping", "skipLines"]) }
        }
        if let d = mapping.delimiter, RowMapper.delimiter(d) == nil {
            add("mapping.delimiter '\(d)' is not one character", "Use one character such as ',' ';' '|' or \\t", ["mapping", "delimiter"])
        }
        if let n = mapping.skipLines, n < 0 { add("mapping.skipLines is negative", "Use 0 or more", ["mapping", "skipLines"]) }
        var lookupNames = Set<String>()
        for (i, lookup) in (mapping.lookups ?? []).enumerated() {
            if lookup.name.isEmpty || lookup.name.contains(".") || !lookupNames.insert(lookup.name).inserted {
                add(
                    "lookup name '\(lookup.name)' is empty, contains '.', or is used twice", "Give each lookup its own simple name",
                    ["mapping", "lookups", .index(i)])
            }
            if lookup.file.hasPrefix("/") || lookup.file.split(separator: "/").contains("..") {
                add(
                    "lookup file '\(lookup.file)' is not inside the source's folder", "Give a relative path",
                    ["mapping", "lookups", .index(i)])
            }
        }
        for (i, filter) in filters.enumerated() {
            let operators = [
                filter.equals != nil, filter.notEquals != nil, filter.in != nil, filter.notIn != nil,
                filter.range != nil, filter.matches != nil, filter.empty != nil,
            ].filter { $0 }.count
            if operators != 1 {
                add(
                    "filter on '\(filter.column)' needs exactly one of equals, notEquals, in, notIn, range, matches, empty",
                    "Split it into several filters", ["filters", .index(i)])
            }
            if let pattern = filter.matches, (try? NSRegularExpression(pattern: pattern)) == nil {
                add("filter pattern '\(pattern)' is not a regular expression", "Fix the pattern", ["filters", .index(i)])
            }
            if let range = filter.range, range.from == nil && range.to == nil {
                add("filter range on '\(filter.column)' has neither from nor to", "Give a bound", ["filters", .index(i)])
            }
        }
        return problems
    }
}
