extension Int {
    /// `1359` → `1,359`: counts in messages, independent of the machine's locale.
    var grouped: String {
        let digits = String(magnitude)
        var out = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { out.append(",") }
            out.append(digit)
        }
        return self < 0 ? "-" + out : out
    }
}
