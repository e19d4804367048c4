/// Numbers as the project prints them: fixed, locale-independent, deterministic.
public enum NumberText {
    /// An integer with thousands separators: `12,345`, `-1,210`.
    public static func grouped<Integer: BinaryInteger>(_ value: Integer) -> String {
        let digits = String(value.magnitude)
        var out = ""
        out.reserveCapacity(digits.utf8.count + digits.utf8.count / 3 + 1)
        let count = digits.utf8.count
        for (index, digit) in digits.enumerated() {
            if index > 0, (count - index) % 3 == 0 { out.append(",") }
            out.append(digit)
        }
        return value < 0 ? "-" + out : out
    }

    /// `value` with exactly `places` decimals, rounded half away from zero (`fixed(2.5, 1)` = `2.5`,
    /// `fixed(-0.04, 1)` = `0.0`); `0` for infinities and NaN.
    public static func fixed(_ value: Double, _ places: Int) -> String {
        let (units, scale): (Int64, Int64)
        switch scaled(value, places) {
        case .text(let text): return text
        case .units(let u, let s): (units, scale) = (u, s)
        }
        let negative = units < 0
        let magnitude = negative ? -units : units
        var text = String(magnitude / scale)
        if places > 0 {
            let fraction = String(magnitude % scale)
            text += "." + String(repeating: "0", count: places - fraction.count) + fraction
        }
        return negative ? "-" + text : text
    }

    /// `value` with at most `places` decimals and no trailing zeros (`trimmed(2.50, 2)` = `2.5`, never `-0`).
    /// The same text as `fixed` with its fraction's trailing zeros (and a bare point) dropped, built in one
    /// pass: map outlines print thousands of coordinates this way.
    public static func trimmed(_ value: Double, _ places: Int) -> String {
        guard case .units(let units, _) = scaled(value, places) else { return fixed(value, places) }
        var magnitude = units < 0 ? -units : units
        var decimals = max(places, 0)
        while decimals > 0, magnitude % 10 == 0 { magnitude /= 10; decimals -= 1 }
        if magnitude == 0 { return "0" }
        // Digits right to left into a buffer: up to 19 digits, the point, the zeros before a small
        // fraction's first digit and the sign.
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 24 + decimals) { buffer in
            var at = buffer.count
            var rest = magnitude, written = 0
            repeat {
                if written == decimals, decimals > 0 { at -= 1; buffer[at] = UInt8(ascii: ".") }
                at -= 1; buffer[at] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10; written += 1
            } while rest > 0 || written <= decimals
            if units < 0 { at -= 1; buffer[at] = UInt8(ascii: "-") }
            return String(decoding: UnsafeBufferPointer(rebasing: buffer[at...]), as: UTF8.self)
        }
    }

    private enum Scaled {
        /// `value` × 10^places rounded half away from zero, and that power of ten.
        case units(Int64, scale: Int64)
        /// What both `fixed` and `trimmed` print when there is no such number: `0` for infinities and
        /// NaN, the rounded integer for values too large.
        case text(String)
    }

    private static func scaled(_ value: Double, _ places: Int) -> Scaled {
        guard value.isFinite else { return .text("0") }
        var scale: Int64 = 1
        for _ in 0..<places { scale *= 10 }
        let scaled = (value * Double(scale)).rounded()
        guard abs(scaled) < 9e17 else { return .text(String(Int64(value.rounded()))) }
        return .units(Int64(scaled), scale: scale)
    }

    /// `trimmed`, with thousands separators when the rounded value is whole: `8`, `7.5`, `13.25`, `1,210`.
    public static func decimal(_ value: Double, places: Int) -> String {
        let text = trimmed(value, places)
        guard !text.contains("."), let whole = Int64(text) else { return text }
        return grouped(whole)
    }
}
