import Foundation

extension ReferenceData {
    /// The sport with `id`: a built-in sport first, then one defined in data; nil when neither has it.
    public func sport(withId id: String) -> Sport? {
        if let builtIn = BuiltInSport(rawValue: id) { return builtIn.sport }
        return sports.first { $0.id == id }
    }

    /// The sport with `id`, or an invalid-input error at `location` that lists every known sport id.
    public func requireSport(_ id: String, at location: SourceLocation? = nil) throws -> Sport {
        if let sport = sport(withId: id) { return sport }
        let known = Set(BuiltInSport.allCases.map(\.rawValue)).union(sports.map(\.id)).sorted()
        throw PipelineError.invalidInput(
            Diagnostic(
                .error, at: location, "unknown sport '\(id)'",
                fix: "Use one of: \(known.joined(separator: ", ")) (dynamic sports are defined in fixtures/reference/sports.yaml)"))
    }
}
