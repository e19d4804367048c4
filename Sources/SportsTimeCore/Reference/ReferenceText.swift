import Foundation

/// Fast text helpers for the reference loader, which runs in every stage. Each gives exactly the result of the
/// general Foundation-based function it stands for; ASCII text (nearly all reference data) skips Foundation.
enum ReferenceText {
    /// `Slug.make(text)` (whose ASCII path writes the slug straight into its string).
    static func slug(_ text: String) -> String { Slug.make(text) }

    /// `text.trimmingCharacters(in: .whitespaces)`.
    static func trimmed(_ text: String) -> String {
        isPadded(text) ? text.trimmingCharacters(in: .whitespaces) : text
    }

    /// Whether `text` may start or end with whitespace, i.e. `trimmed` may change it: false when its first and
    /// last bytes are ASCII other than a space or a tab (checked on the bytes in place).
    static func isPadded(_ text: String) -> Bool {
        let utf8 = text.utf8
        guard let first = utf8.first else { return false }
        let last = utf8[utf8.index(before: utf8.endIndex)]
        return isBlank(first) || isBlank(last)
    }

    /// A space, a tab, or a byte of a non-ASCII character (which may be a Unicode space).
    private static func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte >= 0x80 }
}
