import Foundation
import Testing
import SportsTimeCore

/// Every YAML key a message tells the user to write (`set placeholderTeams: [] on source ...`,
/// `header: false`, `allowShrink: {reason: ...}`, `foreach: {glob: ...}`) is a documented key, so a fix-it
/// never names a key the reference (and the reader) does not know. The mentions are found by scanning the
/// string literals of every Swift file under Sources/ for YAML `key: value` shapes.
@Suite struct MessageKeyTests {
    struct Mention: Hashable, CustomStringConvertible {
        var file: String
        var line: Int
        var key: String
        var description: String { "\(file):\(line): '\(key)'" }
    }

    /// A key followed by a YAML value that can only be meant as one (a list, a mapping, a boolean, a number,
    /// a quoted or placeholder value, `...`), or any key opening a flow mapping `{key: ...}`.
    static var keyValue: Regex<(Substring, Substring)> {
        #/(?:^|[^A-Za-z0-9_.\-\/$@])([a-z][A-Za-z0-9]*): (?:\[|\{|true\b|false\b|[0-9]|'|<|\.\.\.)/#
    }
    static var flowKey: Regex<(Substring, Substring)> { #/\{([a-z][A-Za-z0-9]*): /# }

    /// Single-line string literals of Swift source with their line numbers; interpolations become `⟨⟩`.
    /// Comments and multi-line literals (documentation, embedded presets and style sheets) are skipped.
    static func literals(in source: String) -> [(line: Int, text: String)] {
        var result: [(line: Int, text: String)] = []
        let characters = Array(source.unicodeScalars)
        var i = 0
        var line = 1
        func at(_ offset: Int) -> Unicode.Scalar? { i + offset < characters.count ? characters[i + offset] : nil }
        while i < characters.count {
            let c = characters[i]
            if c == "\n" { line += 1; i += 1; continue }
            if c == "/", at(1) == "/" {
                while i < characters.count, characters[i] != "\n" { i += 1 }
                continue
            }
            if c == "/", at(1) == "*" {
                i += 2
                while i < characters.count, !(characters[i] == "*" && at(1) == "/") {
                    if characters[i] == "\n" { line += 1 }
                    i += 1
                }
                i += 2
                continue
            }
            var hashes = 0
            while at(hashes) == "#" { hashes += 1 }
            guard at(hashes) == "\"" else { i += max(hashes, 1); continue }
            i += hashes
            let closing = "\"" + String(repeating: "#", count: hashes)
            if at(1) == "\"", at(2) == "\"" {
                // A multi-line literal: skip to its closing delimiter.
                i += 3
                while i < characters.count {
                    if characters[i] == "\n" { line += 1 }
                    if characters[i] == "\"", at(1) == "\"", at(2) == "\"" { i += 3 + hashes; break }
                    i += 1
                }
                continue
            }
            i += 1
            var text = ""
            let start = line
            while i < characters.count, characters[i] != "\n" {
                let here = String(String.UnicodeScalarView(characters[i..<min(i + closing.unicodeScalars.count, characters.count)]))
                if here == closing { i += closing.unicodeScalars.count; break }
                if characters[i] == "\\" && hashes == 0 {
                    if at(1) == "(" {
                        var depth = 0
                        i += 1
                        repeat {
                            if characters[i] == "(" { depth += 1 } else if characters[i] == ")" { depth -= 1 }
                            i += 1
                        } while depth > 0 && i < characters.count && characters[i] != "\n"
                        text += "⟨⟩"
                        continue
                    }
                    text.unicodeScalars.append(at(1) ?? "\\")
                    i += 2
                    continue
                }
                text.unicodeScalars.append(characters[i])
                i += 1
            }
            result.append((start, text))
        }
        return result
    }

    /// A word after an article is prose (`as a list: [program, ...]`), not a key.
    static func isProse(_ before: Substring) -> Bool {
        let words = before.split(whereSeparator: { $0 == " " })
        return ["a", "an", "the"].contains(words.last?.lowercased() ?? "")
    }

    static func mentions() throws -> [Mention] {
        let sources = ReferenceCatalog.root.appendingPathComponent("Sources")
        let walker = try #require(FileManager.default.enumerator(atPath: sources.path))
        var found: [Mention] = []
        for case let relative as String in walker where relative.hasSuffix(".swift") {
            // The key tables themselves are the reference, not messages about it.
            if relative.hasSuffix("+Reference.swift") { continue }
            // The record generator's literals are Swift code it writes, not messages about YAML keys.
            if relative.hasPrefix("sportstime-records/") { continue }
            let text = try String(contentsOf: sources.appendingPathComponent(relative), encoding: .utf8)
            for literal in literals(in: text) {
                for match in literal.text.matches(of: keyValue) where !Self.isProse(literal.text[..<match.1.startIndex]) {
                    found.append(Mention(file: "Sources/\(relative)", line: literal.line, key: String(match.1)))
                }
                for match in literal.text.matches(of: flowKey) {
                    found.append(Mention(file: "Sources/\(relative)", line: literal.line, key: String(match.1)))
                }
            }
        }
        return Array(Set(found)).sorted { ($0.file, $0.line, $0.key) < ($1.file, $1.line, $1.key) }
    }

    @Test func everyKeyAMessageNamesIsInTheReference() throws {
        let documented = Set(YAMLReferenceTests.allRecords.flatMap { $0.record.keys.map(\.name) })
        let mentions = try Self.mentions()
        // The scan must see the fix-its it exists for; if these vanish the scanner (or the messages) broke.
        for key in ["placeholderTeams", "header", "allowShrink", "reason", "foreach", "glob"] {
            #expect(mentions.contains { $0.key == key }, "the scan no longer finds a message naming '\(key)'")
        }
        let unknown = mentions.filter { !documented.contains($0.key) }
        #expect(unknown.map(\.description) == [], "messages name keys the YAML reference does not document")
    }

    @Test func theScannerReadsLiteralsNotCode() {
        let source = #"""
            let a = f(separator: ", ")  // set header: true
            fix: "Set placeholderTeams: [] on source '\(id.map { "x: 1" })' or header: false, as a list: [a]"
            let b = #"raw {glob: x}"#
            let c = """
                style: 1
                """
            """#
        let texts = Self.literals(in: source).map(\.text)
        #expect(texts == [", ", "Set placeholderTeams: [] on source '⟨⟩' or header: false, as a list: [a]", "raw {glob: x}"])
        let keys = texts.flatMap { text in
            text.matches(of: Self.keyValue).filter { !Self.isProse(text[..<$0.1.startIndex]) }.map { String($0.1) }
                + text.matches(of: Self.flowKey).map { String($0.1) }
        }
        #expect(keys == ["placeholderTeams", "header", "glob"])
    }
}
