import Foundation

extension ReferenceData {
    /// The sport with `id`: a built-in sport first, then one defined in data; nil when neither has it.
    public func sport(withId id: String) -> Sport? {
        if let builtIn = BuiltInSport(rawValue: id) { return builtIn.sport }
        return sports.first { $0.id == id }
    }
}
