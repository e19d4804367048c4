import Foundation
import SportsTimeCore

/// Reads `pipeline/pipeline.yaml` strictly: YAML and key errors from `StrictYAML`, then the checks a
/// stage needs on its own (names, empty cmd, paths that leave the repository, placeholders, fan-out).
/// Checks across stages (two writers, cycles) are made by `PipelineGraph` after fan-out.
public enum SpecParser {
    /// Parses and checks `text`; throws `PipelineError.invalidInput(s)` (exit 2) naming each line.
    /// `shared` is `pipeline/params.yaml`, whose params a stage may use where it has none of that name.
    public static func parse(_ text: String, path: String, shared: SharedParams = .none) throws -> PipelineSpec {
        let file = try StrictYAML.decode(SpecFile.self, from: text, path: path)
        let locations = SpecText(text: text, path: path)
        var problems = SpecProblems(locations: locations)

        var sharedCode: [String: [String]] = [:]
        for (index, raw) in (file.code ?? []).enumerated() {
            if let path = problems.path(raw, role: "code path", at: ["code", "[\(index)]"]) { sharedCode[path] = ["code", "[\(index)]"] }
        }

        let order = locations.documentOrder(of: Array(file.stages.keys), under: ["stages"])
        if order.isEmpty {
            problems.add(["stages"], "the pipeline has no stages", fix: "List at least one stage under 'stages'")
        }
        var templates: [StageTemplate] = []
        for name in order {
            guard let stage = file.stages[name] else { continue }
            if let template = check(stage, named: name, sharedCode: sharedCode, shared: shared, problems: &problems) {
                templates.append(template)
            }
        }
        try problems.throwIfAny()
        return PipelineSpec(path: path, templates: templates, locations: locations, shared: shared)
    }

    static func isSlug(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, first.isLowercaseASCIIAlphanumeric else { return false }
        return text.unicodeScalars.allSatisfy { $0.isLowercaseASCIIAlphanumeric || $0 == "-" || $0 == "_" }
    }

    /// The longest stage name or fan-out item: both become folder names under `.pipeline/staging/`.
    static let maxNameLength = 100

    /// Fan-out items become part of stage names and paths: letters, digits, `.`, `_`, `-`.
    static func isItem(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= maxNameLength && text != "." && text != ".." && !text.hasPrefix(".")
            && text.unicodeScalars.allSatisfy {
                ($0.isASCII && CharacterSet.alphanumerics.contains($0)) || $0 == "-" || $0 == "_" || $0 == "."
            }
    }

    private static func check(
        _ file: StageFile, named name: String, sharedCode: [String: [String]],
        shared: SharedParams, problems: inout SpecProblems
    ) -> StageTemplate? {
        let at = ["stages", name]
        let before = problems.count
        checkName(name, at: at, problems: &problems)
        var fanout: Fanout?
        if let foreach = file.foreach {
            fanout = checkFanout(foreach, at: at + ["foreach"], problems: &problems)
        }
        let isFanout = file.foreach != nil
        checkShape(file, named: name, at: at, problems: &problems)
        let params = checkParams(file.params ?? [:], at: at, isFanout: isFanout, shared: shared, problems: &problems)
        let paths = PathListCheck(stage: name, at: at, isFanout: isFanout, shared: shared)
        let deps = paths.check(file.deps ?? [], key: "deps", role: "dep", problems: &problems)
        let outs = paths.check(file.outs.map(\.path), key: "outs", role: "out", problems: &problems)
        let outChecks = checkOutChecks(file.outs, at: at, problems: &problems)
        let code = checkCode(file.code ?? [], sharedCode: sharedCode, at: at, problems: &problems)
        if isFanout {
            for (index, out) in outs.enumerated() where !out.contains("${item}") {
                problems.add(
                    at + ["outs", "[\(index)]"],
                    "out '\(out)' of fan-out stage '\(name)' does not use ${item}, so every instance would write it",
                    fix: "Put ${item} in each out, e.g. out/plan/${item}.json")
            }
        }
        checkCmdPlaceholders(file, params: params, shared: shared, isFanout: isFanout, at: at, problems: &problems)
        guard problems.count == before else { return nil }
        return StageTemplate(
            name: name, cmd: file.cmd, deps: deps, outs: outs, params: params,
            code: code.keys.sorted(), codeKeyPaths: code, foreach: fanout, description: file.description,
            outChecks: outs.count == outChecks.count ? outChecks : [])
    }

    /// A stage name is a lowercase slug short enough to name a folder.
    private static func checkName(_ name: String, at: [String], problems: inout SpecProblems) {
        if !isSlug(name) {
            problems.add(
                at, "stage name '\(name)' is not a lowercase slug",
                fix: "Use lowercase letters, digits, '-' and '_', starting with a letter or digit (e.g. 'normalize')")
        } else if name.utf8.count > maxNameLength {
            problems.add(
                at, "stage name '\(name)' is \(name.utf8.count) characters long, more than \(maxNameLength)",
                fix: "Use a shorter name: it names the stage's staging folder")
        }
    }

    /// A stage has a program to run and writes something.
    private static func checkShape(_ file: StageFile, named name: String, at: [String], problems: inout SpecProblems) {
        if file.cmd.isEmpty {
            problems.add(
                at + ["cmd"], "stage '\(name)' has an empty cmd",
                fix: "Give the command as a list: [program, argument, ...]")
        } else if file.cmd[0].trimmingCharacters(in: .whitespaces).isEmpty {
            problems.add(
                at + ["cmd", "[0]"], "the program in cmd of stage '\(name)' is empty",
                fix: "Name the program first, e.g. sportstime-normalize")
        }
        if file.outs.isEmpty {
            problems.add(
                at + ["outs"], "stage '\(name)' lists no outs",
                fix: "List the files or folders it writes under outs")
        }
    }

    /// A stage's own params: names, and placeholders (the fan-out item and shared params only).
    private static func checkParams(
        _ raw: [String: String], at: [String], isFanout: Bool, shared: SharedParams, problems: inout SpecProblems
    ) -> [String: String] {
        var params: [String: String] = [:]
        for key in raw.keys.sorted() {
            let value = raw[key] ?? ""
            if !SharedParams.isName(key) {
                problems.add(
                    at + ["params", key], "param name '\(key)' has characters other than letters, digits, '-' and '_'",
                    fix: "Rename the param")
            }
            // A stage's param may be built from the shared ones (not from its own: no order among them).
            problems.placeholders(
                in: value,
                allowed: { placeholder in
                    if placeholder == "item" { return isFanout }
                    return placeholder.hasPrefix("params.") && shared.values[String(placeholder.dropFirst(7))] != nil
                }, isFanout: isFanout, role: "param '\(key)'", at: at + ["params", key])
            params[key] = value
        }
        return params
    }

    /// The deps or outs of one stage: placeholders, repository paths, no path twice.
    private struct PathListCheck {
        let stage: String
        let at: [String]
        let isFanout: Bool
        let shared: SharedParams

        func check(_ list: [String], key: String, role: String, problems: inout SpecProblems) -> [String] {
            var seen: [String: Int] = [:]
            var result: [String] = []
            for (index, raw) in list.enumerated() {
                let where_ = at + [key, "[\(index)]"]
                // Paths may use the fan-out item; deps also shared params (a stage's own params are for
                // its cmd, and outs stay literal so every tool sees who writes what).
                problems.placeholders(
                    in: raw,
                    allowed: { placeholder in
                        if placeholder == "item" { return isFanout }
                        return key == "deps" && placeholder.hasPrefix("params.")
                            && shared.values[String(placeholder.dropFirst(7))] != nil
                    }, isFanout: isFanout, role: "\(role) '\(raw)'", at: where_)
                guard let path = problems.path(raw, role: role, at: where_) else { continue }
                if let first = seen[path] {
                    problems.add(
                        where_, "\(role) '\(path)' is listed twice in stage '\(stage)' (also item \(first + 1))",
                        fix: "Remove one of them")
                    continue
                }
                seen[path] = index
                result.append(path)
            }
            return result
        }
    }

    /// How each out is checked before it is published: as envelopes, against a schema, or not at all.
    private static func checkOutChecks(_ outs: [OutFile], at: [String], problems: inout SpecProblems) -> [OutCheck] {
        var outChecks: [OutCheck] = []
        for (index, out) in outs.enumerated() {
            let where_ = at + ["outs", "[\(index)]"]
            switch (out.validate, out.schema) {
            case (false?, _?):
                problems.add(
                    where_ + ["schema"], "out '\(out.path)' has both validate: false and a schema",
                    fix: "Keep the schema to check it, or validate: false to publish it unchecked")
                outChecks.append(.unchecked)
            case (false?, nil):
                outChecks.append(.unchecked)
            case (_, let schema?):
                if schema.contains("${") {
                    problems.add(
                        where_ + ["schema"], "schema '\(schema)' uses a placeholder",
                        fix: "Name the schema file literally; it is the same for every instance")
                    outChecks.append(.envelope)
                } else if let path = problems.path(schema, role: "schema", at: where_ + ["schema"]) {
                    outChecks.append(.schema(path))
                } else {
                    outChecks.append(.envelope)
                }
            default:
                outChecks.append(.envelope)
            }
        }
        return outChecks
    }

    /// The stage's code paths (literal repository paths) added to the shared ones, each with its key path.
    private static func checkCode(
        _ raw: [String], sharedCode: [String: [String]], at: [String], problems: inout SpecProblems
    ) -> [String: [String]] {
        var code: [String: [String]] = sharedCode
        for (index, raw) in raw.enumerated() {
            let where_ = at + ["code", "[\(index)]"]
            if raw.contains("${") {
                problems.add(
                    where_, "code path '\(raw)' uses a placeholder",
                    fix: "Name source folders literally; code is the same for every instance")
                continue
            }
            if let path = problems.path(raw, role: "code path", at: where_) { code[path] = where_ }
        }
        return code
    }

    /// Every placeholder of the cmd names something the stage has.
    private static func checkCmdPlaceholders(
        _ file: StageFile, params: [String: String], shared: SharedParams, isFanout: Bool, at: [String],
        problems: inout SpecProblems
    ) {
        for (index, argument) in file.cmd.enumerated() {
            problems.placeholders(
                in: argument,
                allowed: { placeholder in
                    // Judged by the outs as written: an out refused above must not also make ${out} "unknown".
                    if placeholder == "out" { return !file.outs.isEmpty }
                    if placeholder == "item" { return isFanout }
                    if placeholder == "depfile" { return true }
                    if placeholder.hasPrefix("params.") {
                        let param = String(placeholder.dropFirst(7))
                        return params[param] != nil || shared.values[param] != nil
                    }
                    if placeholder.hasPrefix("outs.") {
                        var rest = placeholder.dropFirst(5)
                        if rest.hasSuffix(".dir") { rest = rest.dropLast(4) }
                        guard let n = Int(rest), String(n) == rest else { return false }
                        return n >= 0 && n < file.outs.count
                    }
                    return false
                }, isFanout: isFanout, role: "cmd argument '\(argument)'", at: at + ["cmd", "[\(index)]"])
        }
    }

    private static func checkFanout(_ file: FanoutFile, at: [String], problems: inout SpecProblems) -> Fanout? {
        switch (file.items, file.glob) {
        case (let items?, nil):
            if items.isEmpty {
                problems.add(at, "foreach lists no items", fix: "List at least one item, or remove foreach")
                return nil
            }
            var seen = Set<String>()
            for (index, item) in items.enumerated() {
                let itemAt = at + (file.isList ? ["[\(index)]"] : ["items", "[\(index)]"])
                if !isItem(item) {
                    problems.add(
                        itemAt, "foreach item '\(item)' is not usable in a stage name and a path",
                        fix: "Use letters, digits, '.', '_' and '-' only, at most \(maxNameLength) of them")
                } else if !seen.insert(item).inserted {
                    problems.add(itemAt, "foreach item '\(item)' is listed twice", fix: "Remove one of them")
                }
            }
            return .items(items)
        case (nil, let glob?):
            let folders = glob.hasSuffix("/")
            let trimmed = folders ? String(glob.dropLast()) : glob
            let folder = RepositoryPath.parent(of: trimmed)
            let last = trimmed.split(separator: "/").last.map(String.init) ?? ""
            let stars = last.filter { $0 == "*" }.count
            guard stars == 1, !folder.contains("*"), folder != "." else {
                problems.add(
                    at + ["glob"], "glob '\(glob)' must name a folder and have one '*' in its last part",
                    fix: "Write it like fixtures/requests/*.yaml (files) or fixtures/scraped/*/ (folders)")
                return nil
            }
            guard let normalized = problems.path(folder, role: "glob folder", at: at + ["glob"]) else { return nil }
            let star = last.firstIndex(of: "*")!
            return .glob(
                folder: normalized, prefix: String(last[..<star]),
                suffix: String(last[last.index(after: star)...]), folders: folders)
        default:
            problems.add(
                at, "foreach needs exactly one of 'items' or 'glob'",
                fix: "Write foreach: [a, b], foreach: {items: [a, b]} or foreach: {glob: fixtures/requests/*.yaml}")
            return nil
        }
    }
}

/// Problems found in the spec, each at its YAML location.
struct SpecProblems {
    let locations: SpecText
    private(set) var items: [Diagnostic] = []

    init(locations: SpecText) { self.locations = locations }

    var count: Int { items.count }

    mutating func add(_ keyPath: [String], _ message: String, fix: String) {
        let diagnostic = Diagnostic(.error, at: locations.location(keyPath), message, fix: fix)
        if !items.contains(diagnostic) { items.append(diagnostic) }
    }

    /// The normalized path, or nil after recording why it cannot be used.
    mutating func path(_ raw: String, role: String, at keyPath: [String]) -> String? {
        switch RepositoryPath.normalize(raw) {
        case .success(let path): return path
        case .failure(let problem):
            let fix: String
            if case .nameTooLong = problem {
                fix = "Use shorter file and folder names"
            } else {
                fix = "Use a path inside the repository, relative to its root (e.g. out/normalize)"
            }
            add(keyPath, problem.message(for: raw, role: role), fix: fix)
            return nil
        }
    }

    mutating func placeholders(in text: String, allowed: (String) -> Bool, isFanout: Bool, role: String, at keyPath: [String]) {
        switch Placeholders.names(in: text) {
        case .failure:
            add(keyPath, "\(role) has a '${' without its closing '}'", fix: "Close it, or write $${ for a literal ${")
        case .success(let names):
            for name in names where !allowed(name) {
                if name == "item" && !isFanout {
                    add(keyPath, "\(role) uses ${item} but the stage has no foreach", fix: "Add a foreach, or remove ${item}")
                } else if name.hasPrefix("params."), role.hasPrefix("cmd") {
                    let param = String(name.dropFirst(7))
                    add(
                        keyPath, "\(role) uses ${\(name)}, but neither the stage's params nor \(SharedParams.path) define '\(param)'",
                        fix: "Add '\(param): VALUE' under the stage's params or to \(SharedParams.path)")
                } else if name.hasPrefix("params."), role.hasPrefix("dep") || role.hasPrefix("param ") {
                    let param = String(name.dropFirst(7))
                    add(
                        keyPath, "\(role) uses ${\(name)}, but \(SharedParams.path) does not define '\(param)'",
                        fix: "Add '\(param): VALUE' to \(SharedParams.path) (a stage's own params are for its cmd only)")
                } else {
                    let known =
                        role.hasPrefix("cmd")
                        ? "${out}, ${outs.N}, ${outs.N.dir}, ${params.NAME}, ${depfile}" + (isFanout ? ", ${item}" : "")
                        : (isFanout ? "${item}" : "no placeholders")
                    add(
                        keyPath, "\(role) uses unknown placeholder ${\(name)}",
                        fix: "Use \(known); write $${ for a literal ${")
                }
            }
        }
    }

    func throwIfAny() throws {
        guard !items.isEmpty else { return }
        let sorted = items.sorted { ($0.location ?? SourceLocation(path: "")) < ($1.location ?? SourceLocation(path: "")) }
        throw sorted.count == 1 ? PipelineError.invalidInput(sorted[0]) : PipelineError.invalidInputs(sorted)
    }
}

extension Unicode.Scalar {
    var isLowercaseASCIIAlphanumeric: Bool { ("a"..."z").contains(self) || ("0"..."9").contains(self) }
    var isUppercaseASCIILetter: Bool { ("A"..."Z").contains(self) }
}
