import Foundation

/// Stable, lowercase, readable ids.
public enum Slug {
    /// `"Oriole Park at Camden Yards"` → `oriole-park-at-camden-yards`; accents folded, runs of other
    /// characters become one `-`, no leading or trailing `-`.
    public static func make(_ text: String) -> String {
        if let ascii = asciiSlug(text, dashes: true) { return ascii }
        return foldedSlug(text)
    }

    /// `make` through Foundation's folding (any text; the ASCII path gives the same result for ASCII).
    static func foldedSlug(_ text: String) -> String {
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
        if let ascii = asciiSlug(text, dashes: false) { return ascii }
        // The slug without its dashes (ASCII bytes: what is left is still UTF-8).
        return String(decoding: make(text).utf8.filter { $0 != UInt8(ascii: "-") }, as: UTF8.self)
    }

    /// `make(parts.joined(separator: "-"))` without building the joined text: ASCII parts are slugged one after
    /// the other straight into the slug, as if a dash stood between them; other text goes through `make`.
    public static func make(joining parts: [String]) -> String {
        // The joined text's length (one byte more): a slug is never longer than its text.
        let capacity = parts.reduce(parts.count) { $0 + $1.utf8.count }
        var ascii = true
        let slug = String(unsafeUninitializedCapacity: capacity) { out in
            var writer = ASCIISlugWriter(out: out, dashes: true)
            for (index, part) in parts.enumerated() where ascii {
                if index > 0 { writer.pendingDash = true } // the "-" the parts are joined with
                var part = part
                ascii = part.withUTF8 { writer.write($0) }
            }
            return ascii ? writer.count : 0
        }
        return ascii ? slug : make(parts.joined(separator: "-"))
    }

    /// `make` (with `dashes`) or `matchKey` (without) for ASCII text, without Foundation's folding
    /// (which only lower-cases ASCII): runs of letters and digits lower-cased, joined by `-`,
    /// apostrophes and dots dropped. nil when the text has a non-ASCII byte (the folding path decides).
    @inline(__always)
    static func asciiSlug(_ text: String, dashes: Bool) -> String? {
        var text = text
        return text.withUTF8 { bytes -> String? in
            // Written straight into the new string: a slug is never longer than its text (a dash stands
            // for at least one byte left out).
            var ascii = true
            let slug = String(unsafeUninitializedCapacity: bytes.count) { out in
                var writer = ASCIISlugWriter(out: out, dashes: dashes)
                ascii = writer.write(bytes)
                return ascii ? writer.count : 0
            }
            return ascii ? slug : nil
        }
    }

    /// Writes the slug of ASCII text, given in one or more pieces, into `out`, which has room for every byte.
    struct ASCIISlugWriter {
        let out: UnsafeMutableBufferPointer<UInt8>
        /// Whether runs are joined by `-` (`make`) or not at all (`matchKey`).
        let dashes: Bool
        /// Bytes written so far.
        var count = 0
        /// Whether a run of other characters came since the last letter or digit.
        var pendingDash = false

        /// Writes the slug of `bytes`; false, once a byte is not ASCII (the rest is then left unread).
        @inline(__always)
        mutating func write(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
            for b in bytes {
                if b >= 0x80 { return false }
                let lower = (b >= 65 && b <= 90) ? b | 0x20 : b
                if (lower >= 97 && lower <= 122) || (b >= 48 && b <= 57) {
                    if pendingDash && dashes && count > 0 {
                        out[count] = UInt8(ascii: "-")
                        count += 1
                    }
                    pendingDash = false
                    out[count] = lower
                    count += 1
                } else if b == UInt8(ascii: "'") || b == UInt8(ascii: ".") {
                    continue
                } else {
                    pendingDash = true
                }
            }
            return true
        }
    }
}
