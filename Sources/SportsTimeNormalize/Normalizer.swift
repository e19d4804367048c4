import Foundation
import SportsTimeCore

/// Tunables of the normalize stage.
public struct NormalizeOptions: Sendable, Hashable {
    /// A batch is refused when more than this share of its checked games (regular season and postseason,
    /// with a venue) are at another team's home venue.
    public var refusalShare: Double
    /// How many provenances an unresolved name lists.
    public var maxSeenAt: Int
    /// How many suggestions an unresolved name lists (the candidates of an ambiguous name always are).
    public var maxSuggestions: Int

    public init(refusalShare: Double = 0.5, maxSeenAt: Int = 10, maxSuggestions: Int = 5) {
        self.refusalShare = refusalShare; self.maxSeenAt = maxSeenAt; self.maxSuggestions = maxSuggestions
    }
}

/// Turns ingest batches into canonical games: names resolved by aliases valid on the game's date,
/// stadium-local dates, canonical ids. Pure: values in, values out.
///
/// - Throws: `PipelineError.invalidInputs` when two batches declare the same source id.
public func normalize(
    batches: [RawBatch], reference: ReferenceData,
    options: NormalizeOptions = NormalizeOptions()
) throws -> NormalizeResult {
    try Normalizer(reference: reference, options: options).normalize(batches)
}

/// The normalize stage over a fixed reference: build once, normalize any number of batch sets.
public struct Normalizer: Sendable {
    public let resolver: AliasResolver
    public let options: NormalizeOptions

    public init(reference: ReferenceData, options: NormalizeOptions = NormalizeOptions()) {
        self.init(resolver: AliasResolver(reference: reference), options: options)
    }

    public init(resolver: AliasResolver, options: NormalizeOptions = NormalizeOptions()) {
        self.resolver = resolver; self.options = options
    }

    /// Normalizes every batch on its own (a refused batch does not stop the others) and gathers the
    /// unresolved names of all of them. The order of `batches` and of their records does not matter.
    public func normalize(_ batches: [RawBatch]) throws -> NormalizeResult {
        let sorted = batches.sorted { ($0.source, $0.path) < ($1.source, $1.path) }
        var clashes: [Diagnostic] = []
        for (previous, next) in zip(sorted, sorted.dropFirst()) where previous.source == next.source {
            clashes.append(
                Diagnostic(
                    .error, at: SourceLocation(path: next.path, line: 1),
                    "source '\(next.source)' is also the source of \(previous.path)",
                    fix: "Give each source in pipeline/sources.yaml its own id and re-run ingest"))
        }
        guard clashes.isEmpty else { throw PipelineError.invalidInputs(clashes) }

        // Batches are independent: normalized on every core, gathered in source order.
        let resolver = self.resolver, options = self.options
        let done = sorted.parallelMap { batch in
            var work = BatchNormalization(batch: batch, resolver: resolver, options: options)
            let normalized = work.run()
            // Each batch's rejects sorted in its own task: the sort of them all below then meets sorted runs.
            return (normalized: normalized, rejects: normalized.rejects.sorted(), diagnostics: work.diagnostics, misses: work.misses)
        }
        var normalized: [NormalizedBatch] = []
        var diagnostics = Diagnostics()
        var unresolved = UnresolvedNames()
        var misses: [NameMiss] = []
        for work in done {
            normalized.append(work.normalized)
            diagnostics.append(contentsOf: work.diagnostics)
            // A batch the venue check refused keeps no misses (its names are not the problem); one refused
            // for its unresolved names lists them all.
            for miss in work.misses { unresolved.add(miss) }
            misses += work.misses
        }
        return NormalizeResult(
            batches: normalized,
            unresolved: unresolved.names(resolver: resolver, options: options),
            rejects: done.flatMap(\.rejects).sorted(),
            diagnostics: diagnostics.sorted,
            misses: misses)
    }
}

/// A raw name that did not resolve, where it was seen.
struct NameMiss: Hashable, Sendable {
    enum Field: String, Sendable { case team, venue }
    var source: String
    var system: String
    var sport: String
    var field: Field
    var value: String
    var provenance: String
    /// The candidates when the name was ambiguous.
    var candidates: [String]
    /// For a team: `home` or `away`, the side the name was printed for.
    var role: String? = nil
    /// The row's own game id and printed date: what tells whether a published game of the same
    /// `file:line` is this row or another one that moved there (`lostNames`).
    var sourceGameId: String? = nil
    var date: LocalDate? = nil
    /// The teams of the row that did resolve (nil for a side that did not).
    var homeTeamId: String? = nil
    var awayTeamId: String? = nil
}

/// Unresolved names gathered across batches, one entry per source, field and value.
struct UnresolvedNames {
    private struct Entry: Sendable {
        var miss: NameMiss
        var seenAt: [Provenance] = []
        var occurrences = 0
        var candidates: Set<String> = []
    }

    private var entries: [String: Entry] = [:]

    mutating func add(_ miss: NameMiss) {
        let id = "\(miss.source):\(miss.field.rawValue):\(miss.value)"
        var entry = entries[id] ?? Entry(miss: miss)
        entry.seenAt.append(Provenance(miss.provenance))
        entry.occurrences += 1
        entry.candidates.formUnion(miss.candidates)
        entries[id] = entry
    }

    /// The names sorted by id, each with its first provenances and its suggestions (each name's scored
    /// against every alias of its sport: on all cores).
    func names(resolver: AliasResolver, options: NormalizeOptions) -> [UnresolvedName] {
        let entries = self.entries
        return entries.keys.sorted().parallelMap { id -> UnresolvedName? in
            guard let entry = entries[id] else { return nil }
            let miss = entry.miss
            let first = entry.candidates.sorted()
            let suggestions =
                switch miss.field {
                case .team:
                    resolver.teamSuggestions(
                        for: miss.value, sport: miss.sport, system: miss.system,
                        first: first, limit: options.maxSuggestions)
                case .venue:
                    resolver.stadiumSuggestions(
                        for: miss.value, system: miss.system, first: first,
                        limit: options.maxSuggestions)
                }
            let seenAt = Array(Set(entry.seenAt)).sorted().prefix(options.maxSeenAt).map { provenance in
                provenance.line.map { "\(provenance.file):\($0)" } ?? provenance.file
            }
            return UnresolvedName(
                id: id, source: miss.source, sport: miss.sport, field: miss.field.rawValue,
                value: miss.value, seenAt: seenAt, occurrences: entry.occurrences,
                suggestions: suggestions)
        }.compactMap { $0 }
    }
}
