import Foundation
import SportsTimeCore

/// A derived-field expression of a mapping (`fields.<name>.expr`, `fields.<name>.cases[].when`), parsed
/// once when `pipeline/sources.yaml` is loaded and evaluated per row. Pure: values in, values out.
///
/// Syntax (precedence from loosest to tightest):
///
/// | level | forms |
/// |---|---|
/// | 1 | `a or b` |
/// | 2 | `a and b` |
/// | 3 | `not a` |
/// | 4 | `a == b`, `!=`, `<`, `<=`, `>`, `>=`, `a in [x, y]`, `a not in [x, y]` (not chained) |
/// | 5 | `a + b`, `a - b` (numbers) |
/// | 6 | `-a`, literals, columns, `f(...)`, `( ... )` |
///
/// - Columns: a bare name (`week`, `home_team`), dotted for a lookup's column or a JSON key path
///   (`seasonDates.week`, `status.type.name`), or any name in backquotes (`` `Game Day` ``,
///   `` `competitors[homeAway=home].team.abbreviation` ``). A column's value is its trimmed text; a
///   missing lookup row reads as empty.
/// - Literals: numbers (`5`, `2.5`), text in single or double quotes (`'WC'`, `"Post Season"`; a
///   backslash escapes the quote or itself).
/// - Comparisons are numeric when either side is a number (`week <= 5`, `month(gameday) == 1`), else
///   they compare text exactly (use `lower()` to ignore case). With `==`, `!=` and `in`, a text that is
///   not a number is simply not equal to a number; with `<`, `<=`, `>`, `>=`, `+`, `-` it is an error
///   that rejects the row (guard it: `not empty(week) and week <= 5`). `and` and `or` stop early.
/// - Functions: `month(x)` 1–12, `day(x)` 1–31, `year(x)`, `weekday(x)` ISO number 1 (Monday) to 7
///   (Sunday), `hour(x)` 0–23: each reads `x` as a date or date-time with the layouts given after it
///   (`month(gameday, 'yyyy-MM-dd')`, `hour(gametime, 'HH:mm', 'h:mma')`), by default `iso8601`,
///   `yyyy-MM-dd HH:mm`, `yyyy-MM-dd HH:mm:ss`, `M/d/yyyy` and `yyyyMMdd`. A value with a zone or offset
///   (an instant) is read on the wall clock of the source's `naiveTimeZone` (UTC when that is `venue`);
///   a naive value as written. `lower(x)`, `upper(x)`, `trim(x)`, `empty(x)` (true when blank),
///   `contains(x, 'text')`, `if(condition, then, else)`.
/// - Results: text as is, numbers without a trailing `.0`, conditions as `true` / `false`.
public struct MappingExpression: Sendable {
    /// What an expression gives, known when it is parsed.
    public enum ValueType: String, Sendable { case text, number, condition }

    /// A value during evaluation.
    public enum Value: Sendable, Hashable {
        case text(String), number(Double), bool(Bool)

        /// The value as a field's text.
        public var fieldText: String {
            switch self {
            case .text(let t): return t
            case .bool(let b): return b ? "true" : "false"
            case .number(let n): return MappingExpression.format(n)
            }
        }
    }

    /// A mistake found while parsing: what is wrong, what to do, and where (a 0-based character offset).
    public struct SyntaxError: Error, Sendable, Equatable {
        public var message: String
        public var fix: String
        public var offset: Int
    }

    /// Why a row's value cannot be computed (the row is rejected with this reason).
    public struct EvaluationError: Error, Sendable, Equatable {
        public var message: String
    }

    /// Per-source evaluation settings.
    public struct Context: Sendable {
        /// The zone instants are read in by the date functions; nil reads them in UTC.
        public var zone: TimeZone?
        public init(zone: TimeZone? = nil) { self.zone = zone }
    }

    /// The functions, with their argument counts.
    enum Function: String, CaseIterable, Sendable {
        case month, day, year, weekday, hour, lower, upper, trim, empty, contains
        case `if`

        var isDate: Bool { [.month, .day, .year, .weekday, .hour].contains(self) }
        var arity: ClosedRange<Int> {
            switch self {
            case .month, .day, .year, .weekday, .hour: return 1...8
            case .lower, .upper, .trim, .empty: return 1...1
            case .contains: return 2...2
            case .if: return 3...3
            }
        }
        var usage: String {
            switch self {
            case .month, .day, .year, .weekday, .hour: return "\(rawValue)(column[, 'layout', ...])"
            case .lower, .upper, .trim, .empty: return "\(rawValue)(value)"
            case .contains: return "contains(value, 'text')"
            case .if: return "if(condition, then, else)"
            }
        }
    }

    enum Comparison: String, Sendable { case eq = "==", ne = "!=", lt = "<", le = "<=", gt = ">", ge = ">=" }

    indirect enum Node: Sendable {
        case column(slot: Int)
        case literal(Value)
        case not(Node)
        case and(Node, Node)
        case or(Node, Node)
        case compare(Comparison, Node, Node, numeric: Bool, offset: Int)
        case arithmetic(plus: Bool, Node, Node, offset: Int)
        case negate(Node, offset: Int)
        case member(Node, [Value], negated: Bool)
        case call(Function, [Node], layouts: [DateLayout], offset: Int)
    }

    /// The expression as written.
    public let text: String
    /// The columns it reads, in order of first use, each with the offset of its first use.
    public let columns: [ColumnUse]
    /// What it gives.
    public let type: ValueType
    let root: Node

    /// A column an expression reads.
    public struct ColumnUse: Sendable, Hashable {
        public var name: String
        public var offset: Int
    }

    /// Parses `text`. Throws `SyntaxError` for anything it does not know: an unknown operator or
    /// function, a wrong number of arguments, a condition where a value belongs or the reverse.
    public static func parse(_ text: String) throws -> MappingExpression {
        var parser = Parser(tokens: try Lexer.tokens(text), text: text)
        let (root, type) = try parser.parseExpression(minimum: 1)
        if let extra = parser.peek, extra.kind != .end {
            throw SyntaxError(
                message: "unexpected \(extra.kind.shown) after a complete expression",
                fix: "Join conditions with and / or, or remove it", offset: extra.offset)
        }
        return MappingExpression(text: text, columns: parser.columns, type: type, root: root)
    }

    /// Evaluates against one row: `cell(slot)` is the text of `columns[slot]` (nil reads as empty).
    public func evaluate(_ context: Context, cell: (Int) -> String?) throws -> Value {
        try withoutActuallyEscaping(cell) { cell in
            try Evaluator(context: context, cell: cell, columns: columns).value(root)
        }
    }

    static func format(_ n: Double) -> String {
        if n == n.rounded(), abs(n) < 1e15 { return String(Int64(n)) }
        return String(n)
    }

    static let defaultLayouts: [DateLayout] =
        ["iso8601", "yyyy-MM-dd HH:mm", "yyyy-MM-dd HH:mm:ss", "M/d/yyyy", "yyyyMMdd"].compactMap { try? DateLayout($0) }
}

// MARK: - Tokens

extension MappingExpression {
    struct Token: Sendable {
        enum Kind: Equatable, Sendable {
            case name(String), quotedName(String), string(String), number(Double), symbol(String), end
            var shown: String {
                switch self {
                case .name(let n): return "'\(n)'"
                case .quotedName(let n): return "`\(n)`"
                case .string(let s): return "text '\(s)'"
                case .number(let n): return "number \(MappingExpression.format(n))"
                case .symbol(let s): return "'\(s)'"
                case .end: return "the end"
                }
            }
        }
        var kind: Kind
        var offset: Int
    }

    enum Lexer {
        static let symbols = ["==", "!=", "<=", ">=", "<", ">", "+", "-", "(", ")", "[", "]", ","]

        static func tokens(_ text: String) throws -> [Token] {
            let chars = Array(text)
            var tokens: [Token] = []
            var i = 0
            func isNameStart(_ c: Character) -> Bool { c.isASCII && (c.isLetter || c == "_") }
            func isNamePart(_ c: Character) -> Bool { c.isASCII && (c.isLetter || c.isNumber || c == "_") }
            while i < chars.count {
                let c = chars[i]
                if c == " " || c == "\t" || c == "\n" || c == "\r" { i += 1; continue }
                let start = i
                if isNameStart(c) {
                    // A name, with dotted parts for lookups and JSON key paths (`seasonDates.week`).
                    while i < chars.count, isNamePart(chars[i]) || (chars[i] == "." && i + 1 < chars.count && isNamePart(chars[i + 1])) {
                        i += 1
                    }
                    tokens.append(Token(kind: .name(String(chars[start..<i])), offset: start))
                } else if c.isASCII, c.isNumber {
                    while i < chars.count, chars[i].isASCII, chars[i].isNumber { i += 1 }
                    if i + 1 < chars.count, chars[i] == ".", chars[i + 1].isASCII, chars[i + 1].isNumber {
                        i += 1
                        while i < chars.count, chars[i].isASCII, chars[i].isNumber { i += 1 }
                    }
                    if i < chars.count, isNameStart(chars[i]) {
                        throw SyntaxError(
                            message: "'\(String(chars[start...i]))' starts like a number but goes on with letters",
                            fix: "Put a column name that starts with a digit in backquotes (`2nd half`)", offset: start)
                    }
                    tokens.append(Token(kind: .number(Double(String(chars[start..<i])) ?? 0), offset: start))
                } else if c == "'" || c == "\"" || c == "`" {
                    var value = ""
                    i += 1
                    var closed = false
                    while i < chars.count {
                        if chars[i] == "\\", i + 1 < chars.count, chars[i + 1] == c || chars[i + 1] == "\\" {
                            value.append(chars[i + 1]); i += 2; continue
                        }
                        if chars[i] == c { closed = true; i += 1; break }
                        value.append(chars[i]); i += 1
                    }
                    guard closed else {
                        throw SyntaxError(
                            message: c == "`" ? "a backquoted column name is not closed" : "a quoted text is not closed",
                            fix: "Close it with \(c)", offset: start)
                    }
                    if c == "`" {
                        guard !value.isEmpty else {
                            throw SyntaxError(message: "an empty column name ``", fix: "Name a column", offset: start)
                        }
                        tokens.append(Token(kind: .quotedName(value), offset: start))
                    } else {
                        tokens.append(Token(kind: .string(value), offset: start))
                    }
                } else if let symbol = symbols.first(where: { matches($0, chars, at: i) }) {
                    tokens.append(Token(kind: .symbol(symbol), offset: start))
                    i += symbol.count
                } else {
                    let known: [(String, String)] = [
                        ("&&", "and"), ("||", "or"), ("=", "=="), ("!", "not"), ("<>", "!="), ("&", "and"), ("|", "or"),
                    ]
                    if let (wrong, right) = known.first(where: { matches($0.0, chars, at: i) }) {
                        throw SyntaxError(message: "unknown operator '\(wrong)'", fix: "Write \(right)", offset: start)
                    }
                    throw SyntaxError(
                        message: "unknown operator or character '\(c)'",
                        fix:
                            "Use == != < <= > >= + - and or not in, parentheses, quotes for text and backquotes for column names with other characters",
                        offset: start)
                }
            }
            tokens.append(Token(kind: .end, offset: chars.count))
            return tokens
        }

        private static func matches(_ symbol: String, _ chars: [Character], at i: Int) -> Bool {
            let s = Array(symbol)
            guard i + s.count <= chars.count else { return false }
            return Array(chars[i..<(i + s.count)]) == s
        }
    }
}

// MARK: - Parser (precedence climbing)

extension MappingExpression {
    struct Parser {
        var tokens: [Token]
        var text: String
        var position = 0
        var columns: [ColumnUse] = []

        var peek: Token? { position < tokens.count ? tokens[position] : nil }
        mutating func next() -> Token { defer { position += 1 }; return tokens[min(position, tokens.count - 1)] }

        /// Binary operators: precedence, for the climbing loop.
        static func precedence(_ token: Token, _ following: Token?) -> Int? {
            switch token.kind {
            case .name("or"): return 1
            case .name("and"): return 2
            case .name("in"): return 4
            case .name("not") where following?.kind == .name("in"): return 4
            case .symbol("=="), .symbol("!="), .symbol("<"), .symbol("<="), .symbol(">"), .symbol(">="): return 4
            case .symbol("+"), .symbol("-"): return 5
            default: return nil
            }
        }

        static let keywords: Set<String> = ["and", "or", "not", "in"]

        mutating func parseExpression(minimum: Int) throws -> (Node, ValueType) {
            let startOffset = peek?.offset ?? 0
            var (left, leftType) = try parseUnary()
            var comparedAt: Int?
            while let token = peek, let prec = Self.precedence(token, position + 1 < tokens.count ? tokens[position + 1] : nil),
                prec >= minimum
            {
                _ = next()
                if prec == 4 {
                    if let earlier = comparedAt {
                        throw SyntaxError(
                            message: "comparisons cannot be chained (the one at column \(earlier + 1) is followed by another)",
                            fix: "Join them with and: a < b and b < c", offset: token.offset)
                    }
                    comparedAt = token.offset
                }
                switch token.kind {
                case .name("or"), .name("and"):
                    let (right, rightType) = try parseExpression(minimum: prec + 1)
                    try requireCondition(leftType, at: startOffset, for: token.kind == .name("or") ? "or" : "and")
                    try requireCondition(rightType, at: token.offset, for: token.kind == .name("or") ? "or" : "and")
                    left = token.kind == .name("or") ? .or(left, right) : .and(left, right)
                    leftType = .condition
                case .name("in"), .name("not"):
                    let negated = token.kind == .name("not")
                    if negated { _ = next() } // `in`
                    guard leftType != .condition else {
                        throw SyntaxError(
                            message: "'in' needs a value on its left, not a condition", fix: "Compare a column or a function's value",
                            offset: token.offset)
                    }
                    let list = try parseList()
                    left = .member(left, list, negated: negated)
                    leftType = .condition
                case .symbol(let s) where prec == 4:
                    let op = Comparison(rawValue: s) ?? .eq
                    let (right, rightType) = try parseExpression(minimum: prec + 1)
                    let numeric = leftType == .number || rightType == .number
                    if leftType == .condition || rightType == .condition {
                        guard leftType == rightType, op == .eq || op == .ne else {
                            throw SyntaxError(
                                message:
                                    "'\(s)' compares a condition with \(leftType == .condition ? rightType.rawValue : leftType.rawValue)",
                                fix: "Compare values, and join conditions with and / or", offset: token.offset)
                        }
                    }
                    left = .compare(op, left, right, numeric: numeric, offset: token.offset)
                    leftType = .condition
                case .symbol(let s):
                    let (right, rightType) = try parseExpression(minimum: prec + 1)
                    if leftType == .condition || rightType == .condition {
                        throw SyntaxError(
                            message: "'\(s)' adds or subtracts numbers, not conditions", fix: "Use numbers or number columns",
                            offset: token.offset)
                    }
                    left = .arithmetic(plus: s == "+", left, right, offset: token.offset)
                    leftType = .number
                default:
                    throw SyntaxError(message: "unexpected \(token.kind.shown)", fix: "Check the expression", offset: token.offset)
                }
            }
            return (left, leftType)
        }

        func requireCondition(_ type: ValueType, at offset: Int, for op: String) throws {
            guard type == .condition else {
                throw SyntaxError(
                    message: "'\(op)' joins conditions, but this side is a \(type.rawValue)",
                    fix: "Compare it (week <= 5), or test it with empty(...)", offset: offset)
            }
        }

        mutating func parseUnary() throws -> (Node, ValueType) {
            let token = next()
            switch token.kind {
            case .name("not"):
                let (operand, type) = try parseExpression(minimum: 3)
                try requireCondition(type, at: token.offset + 4, for: "not")
                return (.not(operand), .condition)
            case .symbol("-"):
                let (operand, type) = try parseUnary()
                guard type != .condition else {
                    throw SyntaxError(message: "'-' before a condition", fix: "Negate conditions with not", offset: token.offset)
                }
                if case .literal(.number(let n)) = operand { return (.literal(.number(-n)), .number) }
                return (.negate(operand, offset: token.offset), .number)
            case .symbol("("):
                let inner = try parseExpression(minimum: 1)
                try expect(")", opening: token.offset)
                return inner
            case .number(let n):
                return (.literal(.number(n)), .number)
            case .string(let s):
                return (.literal(.text(s)), .text)
            case .quotedName(let name):
                return (.column(slot: use(name, at: token.offset)), .text)
            case .name(let name):
                if peek?.kind == .symbol("(") { return try parseCall(name, at: token.offset) }
                if Self.keywords.contains(name) {
                    throw SyntaxError(
                        message: "'\(name)' is an operator, not a value here",
                        fix: "Put a value before it, or write a column named \(name) as `\(name)`", offset: token.offset)
                }
                return (.column(slot: use(name, at: token.offset)), .text)
            case .end:
                throw SyntaxError(message: "the expression ends where a value is expected", fix: "Complete it", offset: token.offset)
            default:
                throw SyntaxError(
                    message: "unexpected \(token.kind.shown) where a value is expected",
                    fix: "Write a column, a number, a quoted text, a function call or a parenthesis", offset: token.offset)
            }
        }

        mutating func use(_ name: String, at offset: Int) -> Int {
            if let slot = columns.firstIndex(where: { $0.name == name }) { return slot }
            columns.append(ColumnUse(name: name, offset: offset))
            return columns.count - 1
        }

        mutating func expect(_ symbol: String, opening: Int) throws {
            let token = next()
            guard token.kind == .symbol(symbol) else {
                throw SyntaxError(
                    message: "expected '\(symbol)' (to close the one at column \(opening + 1)), found \(token.kind.shown)",
                    fix: "Add '\(symbol)'", offset: token.offset)
            }
        }

        mutating func parseList() throws -> [Value] {
            let open = next()
            guard open.kind == .symbol("[") else {
                throw SyntaxError(
                    message: "'in' needs a list in brackets, found \(open.kind.shown)", fix: "Write in ['a', 'b'] or in [1, 2]",
                    offset: open.offset)
            }
            var values: [Value] = []
            while true {
                var token = next()
                var sign = 1.0
                if token.kind == .symbol("-") { sign = -1; token = next() }
                switch token.kind {
                case .number(let n): values.append(.number(sign * n))
                case .string(let s) where sign > 0: values.append(.text(s))
                case .symbol("]") where values.isEmpty && sign > 0: return values
                default:
                    throw SyntaxError(
                        message: "a list after 'in' holds numbers and quoted texts only, found \(token.kind.shown)",
                        fix: "Quote text values: in ['WC', 'DIV']", offset: token.offset)
                }
                let separator = next()
                if separator.kind == .symbol("]") { return values }
                guard separator.kind == .symbol(",") else {
                    throw SyntaxError(
                        message: "expected ',' or ']' in the list, found \(separator.kind.shown)", fix: "Separate the values with commas",
                        offset: separator.offset)
                }
            }
        }

        mutating func parseCall(_ name: String, at offset: Int) throws -> (Node, ValueType) {
            guard let function = Function(rawValue: name) else {
                let names = Function.allCases.map(\.rawValue)
                let near = Spelling.nearest(name, in: names).map { "Did you mean \($0)()? " } ?? ""
                throw SyntaxError(
                    message: "unknown function '\(name)'",
                    fix: "\(near)Use one of: \(names.map { $0 + "()" }.joined(separator: ", "))", offset: offset)
            }
            let open = next() // "("
            var args: [(Node, ValueType, Int)] = []
            if peek?.kind == .symbol(")") {
                _ = next()
            } else {
                while true {
                    let at = peek?.offset ?? 0
                    let (node, type) = try parseExpression(minimum: 1)
                    args.append((node, type, at))
                    let token = next()
                    if token.kind == .symbol(")") { break }
                    guard token.kind == .symbol(",") else {
                        throw SyntaxError(
                            message: "expected ',' or ')' in \(name)(...), found \(token.kind.shown)",
                            fix: "Close the call at column \(open.offset + 1) with ')'", offset: token.offset)
                    }
                }
            }
            guard function.arity.contains(args.count) else {
                throw SyntaxError(
                    message:
                        "\(name)() takes \(function.arity.lowerBound == function.arity.upperBound ? "\(function.arity.lowerBound)" : "\(function.arity.lowerBound) or more") argument\(function.arity.upperBound == 1 ? "" : "s"), not \(args.count)",
                    fix: "Write \(function.usage)", offset: offset)
            }
            var layouts: [DateLayout] = []
            if function.isDate {
                guard args[0].1 != .condition else {
                    throw SyntaxError(message: "\(name)() reads a date, not a condition", fix: "Write \(function.usage)", offset: args[0].2)
                }
                for (node, _, at) in args.dropFirst() {
                    guard case .literal(.text(let layout)) = node else {
                        throw SyntaxError(
                            message: "\(name)(): the arguments after the first are layouts in quotes",
                            fix: "Write \(function.usage), e.g. \(name)(gameday, 'yyyy-MM-dd')", offset: at)
                    }
                    do { layouts.append(try DateLayout(layout)) } catch let error as DateLayout.LayoutError {
                        throw SyntaxError(
                            message: error.message, fix: "Use layout letters such as yyyy-MM-dd, M/d/yyyy, HH:mm, h:mma", offset: at)
                    }
                }
                if function == .hour, let layout = layouts.first(where: { !$0.hasTime }) {
                    throw SyntaxError(
                        message: "hour(): layout '\(layout)' has no hour", fix: "Give a layout with H or h, such as HH:mm",
                        offset: args[1].2)
                }
                return (.call(function, [args[0].0], layouts: layouts, offset: offset), .number)
            }
            switch function {
            case .lower, .upper, .trim, .empty, .contains:
                for (_, type, at) in args where type == .condition {
                    throw SyntaxError(message: "\(name)() reads a value, not a condition", fix: "Write \(function.usage)", offset: at)
                }
                let type: ValueType = function == .empty || function == .contains ? .condition : .text
                return (.call(function, args.map(\.0), layouts: [], offset: offset), type)
            default: // if
                guard args[0].1 == .condition else {
                    throw SyntaxError(
                        message: "if(): the first argument must be a condition, not a \(args[0].1.rawValue)",
                        fix: "Write if(condition, then, else), e.g. if(doubleheader == 'S', 2, 1)", offset: args[0].2)
                }
                let type: ValueType = args[1].1 == args[2].1 ? args[1].1 : .text
                return (.call(.if, args.map(\.0), layouts: [], offset: offset), type)
            }
        }
    }
}

// MARK: - Evaluation

extension MappingExpression {
    struct Evaluator {
        var context: Context
        var cell: (Int) -> String?
        var columns: [ColumnUse]

        func value(_ node: Node) throws -> Value {
            switch node {
            case .column(let slot):
                return .text((cell(slot) ?? "").trimmed)
            case .literal(let v):
                return v
            case .not(let inner):
                return .bool(!(try condition(inner)))
            case .and(let a, let b):
                return .bool(try condition(a) && condition(b))
            case .or(let a, let b):
                return .bool(try condition(a) || condition(b))
            case .compare(let op, let a, let b, let numeric, _):
                let (x, y) = (try value(a), try value(b))
                if numeric {
                    if op == .eq || op == .ne {
                        guard let p = Self.number(x), let q = Self.number(y) else { return .bool(op == .ne) }
                        return .bool((p == q) == (op == .eq))
                    }
                    let p = try number(x, a), q = try number(y, b)
                    return .bool(Self.order(op, p < q, p == q))
                }
                if case .bool(let p) = x, case .bool(let q) = y { return .bool((p == q) == (op == .eq)) }
                let (s, t) = (x.fieldText, y.fieldText)
                return .bool(Self.order(op, s < t, s == t))
            case .arithmetic(let plus, let a, let b, _):
                let p = try number(try value(a), a), q = try number(try value(b), b)
                return .number(plus ? p + q : p - q)
            case .negate(let inner, _):
                return .number(-(try number(try value(inner), inner)))
            case .member(let inner, let list, let negated):
                let v = try value(inner)
                let found = list.contains { item in
                    switch item {
                    case .number(let n): return Self.number(v) == n
                    default: return v.fieldText == item.fieldText
                    }
                }
                return .bool(found != negated)
            case .call(let function, let args, let layouts, _):
                return try call(function, args, layouts)
            }
        }

        static func order(_ op: Comparison, _ less: Bool, _ equal: Bool) -> Bool {
            switch op {
            case .eq: return equal
            case .ne: return !equal
            case .lt: return less
            case .le: return less || equal
            case .gt: return !less && !equal
            case .ge: return !less
            }
        }

        func condition(_ node: Node) throws -> Bool {
            guard case .bool(let b) = try value(node) else { throw EvaluationError(message: "a condition gave a value") }
            return b
        }

        static func number(_ v: Value) -> Double? {
            switch v {
            case .number(let n): return n
            case .text(let t): return Double(t).flatMap { $0.isFinite ? $0 : nil }
            case .bool: return nil
            }
        }

        /// What the node reads, for messages: a column's name, else "the value".
        func name(_ node: Node) -> String {
            if case .column(let slot) = node { return columns[slot].name }
            return "the value"
        }

        func number(_ v: Value, _ node: Node) throws -> Double {
            if let n = Self.number(v) { return n }
            let text = v.fieldText
            throw EvaluationError(
                message: text.isEmpty
                    ? "\(name(node)) is empty where a number is needed"
                    : "\(name(node)) '\(text)' is not a number")
        }

        func call(_ function: Function, _ args: [Node], _ layouts: [DateLayout]) throws -> Value {
            let first = try value(args[0])
            switch function {
            case .lower: return .text(first.fieldText.lowercased())
            case .upper: return .text(first.fieldText.uppercased())
            case .trim: return .text(first.fieldText.trimmed)
            case .empty: return .bool(first.fieldText.trimmed.isEmpty)
            case .contains: return .bool(first.fieldText.contains(try value(args[1]).fieldText))
            case .if: return try condition(args[0]) ? value(args[1]) : value(args[2])
            case .month, .day, .year, .weekday, .hour:
                let text = first.fieldText
                let tried = layouts.isEmpty ? MappingExpression.defaultLayouts : layouts
                guard !text.isEmpty else { throw EvaluationError(message: "\(function.rawValue)(): \(name(args[0])) is empty") }
                guard let parts = tried.lazy.compactMap({ $0.parse(text) }).first else {
                    throw EvaluationError(
                        message:
                            "\(function.rawValue)(): \(name(args[0])) '\(text)' does not fit the layouts \(tried.map(\.description).joined(separator: ", "))"
                    )
                }
                var date = parts.date
                var hour = parts.hour
                if let instant = parts.instant {
                    if let zone = context.zone {
                        date = ZonedTime.localDate(of: instant, in: zone)
                        hour = ZonedTime.localSecondOfDay(of: instant, in: zone) / 3600
                    } else {
                        date = instant.utcDate
                        hour = instant.utcSecondOfDay / 3600
                    }
                }
                if function == .hour {
                    guard let hour else { throw EvaluationError(message: "hour(): \(name(args[0])) '\(text)' has no time of day") }
                    return .number(Double(hour))
                }
                guard let date else { throw EvaluationError(message: "\(function.rawValue)(): \(name(args[0])) '\(text)' has no date") }
                switch function {
                case .month: return .number(Double(date.month))
                case .day: return .number(Double(date.day))
                case .year: return .number(Double(date.year))
                default: return .number(Double(date.isoWeekday))
                }
            }
        }
    }
}

/// The nearest spelling of a name among candidates (for "did you mean"), or nil when none is close.
enum Spelling {
    static func nearest(_ name: String, in candidates: [String]) -> String? {
        let target = Array(name.lowercased())
        var best: (String, Int)?
        for candidate in candidates {
            let d = distance(target, Array(candidate.lowercased()))
            if d <= max(1, min(target.count, candidate.count) / 3), d < (best?.1 ?? .max) { best = (candidate, d) }
        }
        return best?.0
    }

    static func distance(_ a: [Character], _ b: [Character]) -> Int { EditDistance.between(a, b) }
}
