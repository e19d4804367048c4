import Foundation

/// Stable, lowercase, readable ids.
public enum Slug {
    /// `"Oriole Park at Camden Yards"` → `oriole-park-at-camden-yards`; accents folded, runs of other
    /// characters become one `-`, no leading or trailing `-`.
    public static func make(_ text: String) -> String {
        let folded = text.folding(options: [.diacriticInsensitive, .caseInsensitive], locale: Locale(identifier: "en_US_POSIX"))
        var out = ""
        var pendingDash = false
        for scalar in folded.unicodeScalars {
            if scalar.isASCII, CharacterSet.alphanumerics.contains(scalar) {
                if pendingDash && !out.isEmpty { out.append("-") }
                pendingDash = false
                out.unicodeScalars.append(scalar)
            } else if scalar == "'" || scalar == "\u{2019}" || scalar == "." {
                continue
            } else {
                pendingDash = true
            }
        }
        return out.lowercased()
    }

    /// The key names are matched by: lowercase, accents folded, punctuation and spacing removed.
    public static func matchKey(_ text: String) -> String {
        make(text).replacingOccurrences(of: "-", with: "")
    }
}
