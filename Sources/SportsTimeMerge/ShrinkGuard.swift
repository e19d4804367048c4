import SportsTimeCore

/// Refuses a merge that would silently lose published games: a sport-season whose active (not
/// soft-deleted) games would be fewer than in the store published last, because some of those games
/// are in no batch at all any more (a file cut in half, a header-only file, a batch refused upstream).
///
/// Games a newer batch of the same source dropped are soft-deleted by the fold and stay in the store,
/// so they never count as lost. A published id counts as present when a new game has it as its id or
/// lists it among its former ids (a game whose id changed when sources were matched). A shrink is
/// allowed when every source of the lost games declares `allowShrink` in `pipeline/sources.yaml`.
///
/// Per source, too: each games file's meta counts the rows every source gave its games
/// (`rows.<source>`). A source that would give a season fewer rows than published lost rows from its
/// batch — even when other sources still list every game, what only it knew would be gone — and the
/// merge fails the same way, unless that source declares `allowShrink`.
public enum ShrinkGuard {
    /// One sport-season of the published store (`out/merge/games/<sport>-<season>.json`).
    public struct PublishedSeason: Sendable, Hashable {
        /// `<sport>-<season>` (`mlb-2023`).
        public var key: String
        /// Repository-relative path of the published file, for the message.
        public var path: String
        /// The active games, in file order.
        public var games: [PublishedGame]
        public init(key: String, path: String, games: [PublishedGame]) { self.key = key; self.path = path; self.games = games }
    }

    /// An active published game: its id, the sources that listed it, and its 1-based line in the file.
    public struct PublishedGame: Sendable, Hashable {
        public var id: String
        public var sources: [String]
        public var line: Int?
        public init(id: String, sources: [String], line: Int? = nil) { self.id = id; self.sources = sources; self.line = line }
    }

    /// A game of the new store as the guard sees it.
    public struct Candidate: Sendable, Hashable {
        public var id: String
        /// Ids the game had before (kept when cross-source matching renames a game).
        public var formerIds: [String]
        /// `<sport>-<season>`.
        public var season: String
        public var isActive: Bool
        public init(id: String, formerIds: [String] = [], season: String, isActive: Bool) {
            self.id = id; self.formerIds = formerIds; self.season = season; self.isActive = isActive
        }
    }

    /// A sport-season that shrinks.
    public struct Shrink: Sendable, Hashable {
        public var season: String
        public var path: String
        /// Active games published before, and active games after this merge.
        public var before: Int
        public var after: Int
        /// Published active ids present in no new game (by id or former id), sorted.
        public var lost: [String]
        /// The line of the first lost game in the published file.
        public var firstLostLine: Int?
        /// The sources that listed the lost games, sorted.
        public var sources: [String]
        /// The declared `allowShrink` reason per source that has one.
        public var reasons: [String: String]

        /// Whether every source of the lost games declared the shrink.
        public var isAllowed: Bool { sources.allSatisfy { reasons[$0] != nil } }
    }

    /// The new store's games as candidates. `formerIds` reads a game's former ids (the command passes
    /// `Game.formerIds`: a game another source re-dated is still the published one).
    public static func candidates(_ games: some Sequence<Game>, formerIds: (Game) -> [String] = { $0.formerIds ?? [] }) -> [Candidate] {
        games.map {
            Candidate(
                id: $0.id, formerIds: formerIds($0), season: "\($0.sport)-\($0.season)",
                isActive: $0.deprecatedAt == nil)
        }
    }

    /// The sport-seasons that shrink, sorted by season.
    /// - Parameter allowances: per source, the `allowShrink` reason its current batch declares.
    public static func shrinks(
        published: [PublishedSeason], candidates: [Candidate],
        allowances: [String: String]
    ) -> [Shrink] {
        var present = Set<String>()
        var activeAfter: [String: Int] = [:]
        for candidate in candidates {
            present.insert(candidate.id)
            present.formUnion(candidate.formerIds)
            if candidate.isActive { activeAfter[candidate.season, default: 0] += 1 }
        }
        var shrinks: [Shrink] = []
        for season in published.sorted(by: { $0.key < $1.key }) {
            let before = season.games.count
            let after = activeAfter[season.key] ?? 0
            let lostGames = season.games.filter { !present.contains($0.id) }
            guard after < before, !lostGames.isEmpty else { continue }
            let sources = Set(lostGames.flatMap(\.sources)).sorted()
            shrinks.append(
                Shrink(
                    season: season.key, path: season.path, before: before, after: after,
                    lost: lostGames.map(\.id).sorted(), firstLostLine: lostGames.first?.line, sources: sources,
                    reasons: allowances.filter { sources.contains($0.key) }))
        }
        return shrinks
    }

    /// A source that gives fewer rows to a sport-season than in the store published last: its batch lost
    /// rows (a file cut short, a re-scrape missing games), although other sources may still list every
    /// game. What only it knew — a kickoff, a score, a status — would go with them.
    public struct SourceShrink: Sendable, Hashable {
        public var season: String
        /// Repository-relative path of the published games file, for the message.
        public var path: String
        public var source: String
        /// Rows of `source` in the season's games before, and in this merge.
        public var before: Int
        public var after: Int
        /// The source's `allowShrink` reason, when it declares one.
        public var reason: String?
        /// Published game ids whose rows from `source` are gone, sorted (filled in by the command from
        /// the published lineage; empty when it could not be read).
        public var lostGames: [String] = []
        /// The line of the first of them in the published games file.
        public var line: Int?

        public var isAllowed: Bool { reason != nil }
    }

    /// The sources that give a sport-season fewer rows than before, sorted by season and source.
    /// - Parameters:
    ///   - published: per season key, the published file's path and its `rows.<source>` counts (a file
    ///     written before the counts existed has none and is not compared);
    ///   - current: this merge's counts (`MergeResult.rowsBySource()`).
    public static func sourceShrinks(
        published: [String: (path: String, rows: [String: Int])], current: [String: [String: Int]],
        allowances: [String: String]
    ) -> [SourceShrink] {
        var shrinks: [SourceShrink] = []
        for season in published.keys.sorted() {
            let (path, rows) = published[season]!
            for source in rows.keys.sorted() {
                let before = rows[source]!
                let after = current[season]?[source] ?? 0
                guard after < before else { continue }
                shrinks.append(
                    SourceShrink(
                        season: season, path: path, source: source, before: before, after: after,
                        reason: allowances[source]))
            }
        }
        return shrinks
    }

    /// The error for a source that lost rows: `out/merge/games/nfl-2017.json:12: error: ...`.
    public static func diagnostic(for shrink: SourceShrink, batchSources: Set<String>) -> Diagnostic {
        let lost = shrink.before - shrink.after
        let origin =
            batchSources.contains(shrink.source)
            ? "" : " (no batch from it in this merge: ingest or normalize refused or removed it)"
        let examples =
            shrink.lostGames.isEmpty
            ? "" : " (" + shrink.lostGames.prefix(3).joined(separator: ", ") + (shrink.lostGames.count > 3 ? ", ..." : "") + ")"
        return Diagnostic(
            .error, at: SourceLocation(path: shrink.path, line: shrink.line),
            "source '\(shrink.source)'\(origin) would give \(shrink.season) \(shrink.after) rows where the published games have "
                + "\(shrink.before): \(lost) game\(lost == 1 ? "" : "s") would lose what it says of \(lost == 1 ? "it" : "them")\(examples), "
                + "even where other sources still list \(lost == 1 ? "it" : "them") (a kickoff, a score, a status only it gives); nothing was written",
            fix:
                "Fix the source's files (a file cut short, a scrape missing games) and run again, or, if the drop is intended, declare it on the source in pipeline/sources.yaml: allowShrink: {reason: ...}"
        )
    }

    /// The note printed for a source's declared drop.
    public static func note(for shrink: SourceShrink) -> String {
        "note: source '\(shrink.source)' gives \(shrink.season) \(shrink.after) rows where the published games have \(shrink.before), as declared by allowShrink: \(shrink.reason ?? "")"
    }

    /// The error for a shrink no source declared: `out/merge/games/mlb-2023.json:5: error: ...`.
    public static func diagnostic(for shrink: Shrink, batchSources: Set<String>) -> Diagnostic {
        let undeclared = shrink.sources.filter { shrink.reasons[$0] == nil }
        let named = undeclared.map { source in
            "'\(source)'"
                + (batchSources.contains(source) ? "" : " (no batch from it in this merge: ingest or normalize refused or removed it)")
        }.joined(separator: ", ")
        let examples = shrink.lost.prefix(3).joined(separator: ", ") + (shrink.lost.count > 3 ? ", ..." : "")
        return Diagnostic(
            .error, at: SourceLocation(path: shrink.path, line: shrink.firstLostLine),
            "\(shrink.season) would go from \(shrink.before) to \(shrink.after) active games: \(publishedGames(shrink.lost.count)) in no batch and no newer batch soft-deleted \(shrink.lost.count == 1 ? "it" : "them") (\(examples)); from source \(named); nothing was written",
            fix:
                "Fix the source's files (a file cut short, a header-only file, a batch refused upstream) and run again, or, if the drop is intended, declare it on the source in pipeline/sources.yaml: allowShrink: {reason: ...}"
        )
    }

    /// The note printed for a declared shrink.
    public static func note(for shrink: Shrink) -> String {
        let reasons = shrink.sources.map { "'\($0)': \(shrink.reasons[$0] ?? "")" }.joined(separator: "; ")
        return
            "note: \(shrink.season) goes from \(shrink.before) to \(shrink.after) active games (\(shrink.lost.count) published game\(shrink.lost.count == 1 ? "" : "s") dropped), as declared by allowShrink of \(reasons)"
    }

    /// "1 published game is" / "3 published games are".
    private static func publishedGames(_ count: Int) -> String {
        count == 1 ? "1 published game is" : "\(count) published games are"
    }
}
