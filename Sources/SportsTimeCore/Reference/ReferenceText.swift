import Foundation

/// Fast text helpers for the reference loader, which runs in every stage. Each gives exactly the result of the
/// general Foundation-based function it stands for; ASCII text (nearly all reference data) skips Foundation.
enum ReferenceText {
    /// `Slug.make(text)`.
    static func slug(_ text: String) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        var pendingDash = false
        for byte in text.utf8 {
            guard byte < 0x80 else { return Slug.make(text) }
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                if pendingDash && !out.isEmpty { out.append(UInt8(ascii: "-")) }
                pendingDash = false
                out.append(byte)
            case UInt8(ascii: "A")...UInt8(ascii: "Z"):
                if pendingDash && !out.isEmpty { out.append(UInt8(ascii: "-")) }
                pendingDash = false
                out.append(byte + 32)
            case UInt8(ascii: "'"), UInt8(ascii: "."):
                continue
            default:
                pendingDash = true
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// `text.trimmingCharacters(in: .whitespaces)`.
    static func trimmed(_ text: String) -> String {
        let utf8 = text.utf8
        guard let first = utf8.first, let last = utf8.last else { return text }
        let isBlank: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 || $0 >= 0x80 }
        if !isBlank(first) && !isBlank(last) { return text }
        return text.trimmingCharacters(in: .whitespaces)
    }
}
