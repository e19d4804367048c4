import Foundation

/// Fast text helpers for the reference loader, which runs in every stage. Each gives exactly the result of the
/// general Foundation-based function it stands for; ASCII text (nearly all reference data) skips Foundation.
enum ReferenceText {
    /// `Slug.make(text)` (whose ASCII path writes the slug straight into its string).
    static func slug(_ text: String) -> String { Slug.make(text) }

    /// `text.trimmingCharacters(in: .whitespaces)`.
    static func trimmed(_ text: String) -> String {
        let utf8 = text.utf8
        guard let first = utf8.first, let last = utf8.last else { return text }
        let isBlank: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 || $0 >= 0x80 }
        if !isBlank(first) && !isBlank(last) { return text }
        return text.trimmingCharacters(in: .whitespaces)
    }
}
