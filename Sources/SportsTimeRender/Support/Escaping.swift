import Foundation

/// Escaping for the text formats render writes.
enum Escape {
    /// Text for HTML element content and attribute values.
    static func html(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(character)
            }
        }
        return out
    }

    /// Text that must show literally in GitHub Markdown, including inside table cells
    /// (`|` is escaped, newlines become spaces).
    static func markdown(_ text: String) -> String {
        var out = ""
        let characters = Array(text)
        for (index, character) in characters.enumerated() {
            switch character {
            case "_":
                // GitHub ignores `_` inside words (`America/New_York`); escape it only at a word edge.
                let before = index > 0 && (characters[index - 1].isLetter || characters[index - 1].isNumber)
                let after = index + 1 < characters.count && (characters[index + 1].isLetter || characters[index + 1].isNumber)
                if !(before && after) { out.append("\\") }
                out.append(character)
            case "\\", "`", "*", "[", "]", "<", ">", "|", "#", "~":
                out.append("\\"); out.append(character)
            case "\n", "\r": out.append(" ")
            default: out.append(character)
            }
        }
        return out
    }

    /// An inline code span that cannot be broken by backticks in the text.
    static func markdownCode(_ text: String) -> String {
        let flattened = text.replacingOccurrences(of: "\n", with: " ").replacingOccurrences(of: "|", with: "\\|")
        return flattened.contains("`") ? "`` \(flattened) ``" : "`\(flattened)`"
    }
}
