import SportsTimeCore

extension Int {
    /// `1359` → `1,359`: counts in messages, independent of the machine's locale.
    var grouped: String { NumberText.grouped(self) }
}
