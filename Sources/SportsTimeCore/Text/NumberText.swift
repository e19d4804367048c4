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
        guard value.isFinite else { return "0" }
        var scale: Int64 = 1
        for _ in 0..<places { scale *= 10 }
        let scaled = (value * Double(scale)).rounded()
        guard abs(scaled) < 9e17 else { return String(Int64(value.rounded())) }
        let units = Int64(scaled)
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
    public static func trimmed(_ value: Double, _ places: Int) -> String {
        var text = fixed(value, places)
        if text.contains(".") {
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
        }
        return text == "-0" ? "0" : text
    }

    /// `trimmed`, with thousands separators when the rounded value is whole: `8`, `7.5`, `13.25`, `1,210`.
    public static func decimal(_ value: Double, places: Int) -> String {
        let text = trimmed(value, places)
        guard !text.contains("."), let whole = Int64(text) else { return text }
        return grouped(whole)
    }
}
