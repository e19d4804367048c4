import Foundation

/// Where a problem is: a repository-relative path and, when known, a 1-based line and column.
public struct SourceLocation: Hashable, Sendable, Codable, Comparable, CustomStringConvertible {
    public var path: String
    public var line: Int?
    public var column: Int?

    public init(path: String, line: Int? = nil, column: Int? = nil) {
        self.path = path; self.line = line; self.column = column
    }

    /// `path:line:column`, omitting what is unknown.
    public var description: String {
        var text = path
        if let line { text += ":\(line)" }
        if let line = line, let column, line > 0 { text += ":\(column)" }
        return text
    }

    public static func < (a: Self, b: Self) -> Bool {
        (a.path, a.line ?? 0, a.column ?? 0) < (b.path, b.line ?? 0, b.column ?? 0)
    }
}

/// A problem with a severity, a location, what is wrong and what to do.
public struct Diagnostic: Hashable, Sendable, Codable, CustomStringConvertible {
    public enum Severity: String, Sendable, Codable, Comparable {
        case note, warning, error
        public static func < (a: Self, b: Self) -> Bool {
            let order: [Severity] = [.note, .warning, .error]
            return order.firstIndex(of: a)! < order.firstIndex(of: b)!
        }
    }

    public var severity: Severity
    public var location: SourceLocation?
    public var message: String
    public var fix: String?

    public init(_ severity: Severity, at location: SourceLocation? = nil, _ message: String, fix: String? = nil) {
        self.severity = severity; self.location = location; self.message = message; self.fix = fix
    }

    /// `path:line:col: error: what is wrong. what to do.`
    public var description: String {
        var text = ""
        if let location { text += "\(location): " }
        text += "\(severity.rawValue): \(Self.sentence(Self.printable(message)))"
        if let fix, !fix.isEmpty { text += " \(Self.sentence(Self.printable(fix)))" }
        return text
    }

    /// `text` as it goes on the message's one line: line breaks and other control characters quoted back
    /// from a bad input are escaped (`\n`, `\u{1}`), and huge words are shortened (`elidingLongWords`).
    public static func printable(_ text: String) -> String {
        elidingLongWords(escapingControlCharacters(text))
    }

    /// `text` with line breaks written `\n`/`\r` and other control characters (but tab) and Unicode line
    /// separators as `\u{X}`.
    public static func escapingControlCharacters(_ text: String) -> String {
        func escaped(_ scalar: Unicode.Scalar) -> Bool {
            (scalar.value < 0x20 && scalar != "\t") || (0x7F...0x9F).contains(scalar.value) || scalar.value == 0x2028
                || scalar.value == 0x2029
        }
        guard text.unicodeScalars.contains(where: escaped) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": out.append(contentsOf: "\\n".unicodeScalars)
            case "\r": out.append(contentsOf: "\\r".unicodeScalars)
            case _ where escaped(scalar):
                out.append(contentsOf: "\\u{\(String(scalar.value, radix: 16, uppercase: true))}".unicodeScalars)
            default: out.append(scalar)
            }
        }
        return String(out)
    }

    /// Characters (Unicode scalars) of an input's value quoted in a message.
    public static let quotedCharacters = 80

    /// `value` as a message quotes it: at most `quotedCharacters`, a longer value cut there and ended with
    /// `…`, so a message never costs the size of the value it names.
    public static func quoted(_ value: String) -> String {
        guard value.utf8.count > quotedCharacters else { return value }
        let scalars = value.unicodeScalars
        guard let cut = scalars.index(scalars.startIndex, offsetBy: quotedCharacters, limitedBy: scalars.endIndex),
            cut < scalars.endIndex
        else { return value }
        return String(scalars[..<cut]) + "…"
    }

    /// Words (runs without a space) longer than this are shortened when printed.
    public static let longestWord = 200

    /// `text` with every word longer than `longestWord` characters cut to its start and end around the
    /// count of characters: a megabyte-long id quoted back from a bad input gives a short message.
    public static func elidingLongWords(_ text: String) -> String {
        guard text.utf8.count > longestWord else { return text }
        let words = text.split(separator: " ", omittingEmptySubsequences: false)
        guard words.contains(where: { $0.utf8.count > longestWord && $0.count > longestWord }) else { return text }
        return words.map { word -> String in
            let count = word.count
            guard count > longestWord else { return String(word) }
            return "\(word.prefix(40))…(\(count) characters)…\(word.suffix(4))"
        }.joined(separator: " ")
    }

    private static func sentence(_ text: String) -> String {
        guard let last = text.last else { return text }
        return ".!?".contains(last) ? text : text + "."
    }
}

/// Collects diagnostics from a stage; the command layer prints them.
public struct Diagnostics: Sendable {
    public private(set) var items: [Diagnostic] = []
    public init() {}
    public mutating func emit(_ diagnostic: Diagnostic) { items.append(diagnostic) }
    public mutating func warning(_ message: String, at location: SourceLocation? = nil, fix: String? = nil) {
        emit(Diagnostic(.warning, at: location, message, fix: fix))
    }
    public mutating func error(_ message: String, at location: SourceLocation? = nil, fix: String? = nil) {
        emit(Diagnostic(.error, at: location, message, fix: fix))
    }
    public mutating func append(contentsOf other: Diagnostics) { items.append(contentsOf: other.items) }
    /// Diagnostics in a stable order: by location, then severity, then message.
    public var sorted: [Diagnostic] {
        items.sorted {
            ($0.location?.path ?? "", $0.location?.line ?? 0, $0.location?.column ?? 0, $0.message)
                < ($1.location?.path ?? "", $1.location?.line ?? 0, $1.location?.column ?? 0, $1.message)
        }
    }
}

/// Fatal errors, each mapped to the pipeline's exit codes.
public enum PipelineError: Error, CustomStringConvertible, Sendable {
    /// An invalid spec, request, or input file (exit 2).
    case invalidInput(Diagnostic)
    /// Several invalid-input problems at once (exit 2).
    case invalidInputs([Diagnostic])
    /// A failure while working (exit 1).
    case failure(Diagnostic)
    /// A command-line usage error (exit 64).
    case usage(String)

    public var exitCode: Int32 {
        switch self {
        case .invalidInput, .invalidInputs: return ExitStatus.invalidInput
        case .failure: return ExitStatus.failure
        case .usage: return ExitStatus.usage
        }
    }

    public var diagnostics: [Diagnostic] {
        switch self {
        case .invalidInput(let d), .failure(let d): return [d]
        case .invalidInputs(let ds): return ds
        case .usage(let message): return [Diagnostic(.error, message)]
        }
    }

    public var description: String { diagnostics.map(\.description).joined(separator: "\n") }

    /// Diagnostics printed for one file at most; the others are counted in one line after them.
    public static let reportedPerFile = 20

    /// `diagnostics` as printed: at most `reportedPerFile` for each file, in order, then for each file
    /// that had more, `path: error: and N more problems in this file`.
    public var reported: [Diagnostic] {
        var shown: [String: Int] = [:]
        var more: [(path: String, count: Int)] = []
        var kept: [Diagnostic] = []
        for diagnostic in diagnostics {
            let path = diagnostic.location?.path ?? ""
            let count = shown[path, default: 0]
            shown[path] = count + 1
            if count < Self.reportedPerFile {
                kept.append(diagnostic)
            } else if let index = more.firstIndex(where: { $0.path == path }) {
                more[index].count += 1
            } else {
                more.append((path, 1))
            }
        }
        for (path, count) in more {
            kept.append(
                Diagnostic(
                    .error, at: path.isEmpty ? nil : SourceLocation(path: path),
                    "and \(count) more problem\(count == 1 ? "" : "s") in this file",
                    fix: "Fix the ones above and run again"))
        }
        return kept
    }
}

/// The process exit codes every executable uses.
public enum ExitStatus {
    public static let ok: Int32 = 0
    public static let failure: Int32 = 1
    public static let invalidInput: Int32 = 2
    public static let usage: Int32 = 64
}
