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
}
