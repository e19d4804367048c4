import Foundation
import SportsTimeCore

/// Looks sports up the way every stage must: the seven built-in ids first, then the dynamic sports
/// defined in data. An unknown id is an error that lists the known ones.
public struct SportCatalog: Sendable {
    /// Merged sports by id (built-in and dynamic).
    public let sports: [String: Sport]

    public init(sports: [String: Sport]) { self.sports = sports }

    public init(sports: [Sport]) { self.sports = MergeStore.index(sports) }

    /// The sport for `id`. A built-in id resolves to its merged record when the data redefines it
    /// (a newer record can win the merge) and to the built-in definition otherwise.
    public func sport(_ id: String) throws(UnknownSport) -> Sport {
        if let builtIn = BuiltInSport(rawValue: id) { return sports[id] ?? builtIn.sport }
        if let dynamic = sports[id] { return dynamic }
        throw UnknownSport(id: id, known: knownIds)
    }

    /// Whether `id` names a sport, built-in or dynamic.
    public func isKnown(_ id: String) -> Bool { BuiltInSport(rawValue: id) != nil || sports[id] != nil }

    /// Built-in ids in their declared order, then dynamic ids sorted.
    public var knownIds: [String] {
        let builtIn = BuiltInSport.allCases.map(\.rawValue)
        return builtIn + sports.keys.filter { BuiltInSport(rawValue: $0) == nil }.sorted()
    }
}

/// A sport id that is neither built in nor defined in data.
public struct UnknownSport: Error, Sendable, Hashable, CustomStringConvertible {
    public var id: String
    public var known: [String]
    public var description: String { "unknown sport '\(id)' (known: \(known.joined(separator: ", ")))" }
}
