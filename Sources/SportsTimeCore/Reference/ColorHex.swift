import Foundation

/// Sport colours as written in data, normalized to one canonical form: the one colour rule of the
/// project (reference `sports.yaml`, merged sport records, overrides).
public enum ColorHex {
    /// The forms a colour may be written in.
    public static let acceptedForms = "#RGB, #RRGGBB, RRGGBB or #RRGGBBAA"

    /// `#RGB`, `#RRGGBB`, `RRGGBB` or `#RRGGBBAA` (any letter case) as uppercase `#RRGGBB`; nil for anything else.
    /// The alpha of `#RRGGBBAA` is dropped; `#RGB` doubles each digit (`#0af` → `#00AAFF`). Spaces and
    /// tabs around the colour are ignored (a CSV cell or an override may carry them); none inside it.
    public static func normalize(_ text: String) -> String? {
        let text = text.trimmingCharacters(in: CharacterSet(charactersIn: " \t"))
        let hasHash = text.hasPrefix("#")
        let digits = Array((hasHash ? text.dropFirst() : Substring(text)).utf8)
        guard digits.allSatisfy(isHexDigit) else { return nil }
        let rgb: [UInt8]
        switch (hasHash, digits.count) {
        case (true, 3): rgb = digits.flatMap { [$0, $0] }
        case (_, 6): rgb = digits
        case (true, 8): rgb = Array(digits.prefix(6))
        default: return nil
        }
        return "#" + String(decoding: rgb, as: UTF8.self).uppercased()
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
            || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
            || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte)
    }
}
