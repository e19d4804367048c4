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
/// Per source, too (`sourceShrinks`): a source whose rows no longer reach some published game of a
/// season (read from the published lineage) lost rows from its batch — even when other sources still
/// list every game, what only it knew would be gone — and the merge fails the same way, unless that
/// source declares `allowShrink` or is retired (`retiredSources:` in an override file).
public enum ShrinkGuard {
    /// One sport-season of the published store (`out/merge/games/<sport>-<season>.json`).
    public struct PublishedSeason: Sendable, Hashable {
        /// `<sport>-<season>` (`mlb-2023`).
        public var key: String
        /// Repository-relative path of the published file, for the message.
        public var path: String
        /// Its games, in file order (read when its active ids or any season's rows differ from this merge's).
        public var games: [PublishedGame]
        /// The rows of its published lineage (read when its active ids or its rows differ from this merge's).
        public var rows: [SourceRow]
        /// Whether its header holds the digest of this merge's active ids of the season: no game is lost.
        public var hasSameActiveIds: Bool
        /// Whether its header holds the digest of this merge's rows of the season: every source still
        /// feeds the games it fed.
        public var hasSameRows: Bool
        public init(
            key: String, path: String, games: [PublishedGame], rows: [SourceRow] = [], hasSameActiveIds: Bool = false,
            hasSameRows: Bool = false
        ) {
            self.key = key; self.path = path; self.games = games; self.rows = rows
            self.hasSameActiveIds = hasSameActiveIds; self.hasSameRows = hasSameRows
        }
    }

    /// A published game: its id, the sources that listed it, and its 1-based line in the file.
    public struct PublishedGame: Sendable, Hashable {
        public var id: String
        public var sources: [String]
        public var line: Int?
        /// Not soft-deleted.
        public var isActive: Bool
        /// Its sources' own game ids, as `sourceKey(source:id:)`.
        public var sourceKeys: [String]
        /// The scraped rows that fed it, as `rowKey(source:row:)` (from the published lineage; filled in
        /// only for a game missing by id and source ids that no source id could identify).
        public var rows: [String]
        public init(
            id: String, sources: [String], line: Int? = nil, isActive: Bool = true, sourceKeys: [String] = [], rows: [String] = []
        ) {
            self.id = id; self.sources = sources; self.line = line; self.isActive = isActive; self.sourceKeys = sourceKeys
            self.rows = rows
        }
    }

    /// The merge that would be published.
    public struct Candidate: Sendable {
        public var games: [String: Game]
        public var lineage: MergeLineage
        /// Per source, the `allowShrink` reason its current batch declares.
        public var allowances: [String: String]
        /// The sources retired on purpose (`retiredSources:` in an override file).
        public var retired: [RetiredSource]
        /// The sources with a batch in this merge.
        public var batchSources: Set<String>
        public init(
            games: [String: Game], lineage: MergeLineage, allowances: [String: String], retired: [RetiredSource],
            batchSources: Set<String>
        ) {
            self.games = games; self.lineage = lineage; self.allowances = allowances; self.retired = retired
            self.batchSources = batchSources
        }
    }

    /// What the guard says of a merge: notes for the drops its sources declared, and a located error for
    /// each drop none declared (none: the merge may be published).
    public struct Verdict: Sendable {
        public var notes: [String]
        public var refusals: [Diagnostic]
        public var passes: Bool { refusals.isEmpty }
    }

    /// The verdict on publishing `candidate` over the `published` store: lost games per season
    /// (`shrinks`), then rows lost per source (`sourceShrinks`); a season that lost games is refused as
    /// such, not again for its sources' rows.
    public static func check(published: [PublishedSeason], candidate: Candidate) -> Verdict {
        // A source retired on purpose (no batch any more) may lose what only it gave; one that still has
        // a batch is held to its own allowShrink.
        var allowances = candidate.allowances
        for source in candidate.retired where !candidate.batchSources.contains(source.source) {
            allowances[source.source] = "retired (\(source.location)): \(source.reason)"
        }
        let shrinks = gameShrinks(published: published, candidate: candidate, allowances: allowances)
        let sourceShrinks = rowShrinks(published: published, candidate: candidate, allowances: allowances)
        let refused = shrinks.filter { !$0.isAllowed }
        let refusedSources = sourceShrinks.filter { shrink in
            !shrink.isAllowed && !refused.contains { $0.season == shrink.season && $0.sources.contains(shrink.source) }
        }
        return Verdict(
            notes: shrinks.filter(\.isAllowed).map(note(for:)) + sourceShrinks.filter(\.isAllowed).map(note(for:)),
            refusals: refused.map { diagnostic(for: $0, batchSources: candidate.batchSources) }
                + refusedSources.map { diagnostic(for: $0, batchSources: candidate.batchSources) })
    }

    /// The seasons whose active ids changed that lose published games. A game missing by id and source
    /// id may have been renamed (a reference fix changes a team's id in a game's id): the scraped rows
    /// that fed it, from the published lineage, then tell.
    private static func gameShrinks(
        published: [PublishedSeason], candidate: Candidate, allowances: [String: String]
    ) -> [Shrink] {
        var seasons = published.filter { !$0.hasSameActiveIds }
        guard !seasons.isEmpty else { return [] }
        for index in seasons.indices { seasons[index].games.removeAll { !$0.isActive } }
        var candidates = Self.candidates(candidate.games.values)
        let missing = Self.missing(published: seasons, candidates: candidates)
        if !missing.isEmpty {
            for index in seasons.indices {
                guard let lost = missing[seasons[index].key] else { continue }
                let ids = Set(lost.map(\.id))
                var rows: [String: [String]] = [:]
                for row in seasons[index].rows where ids.contains(row.gameId) && row.sourceGameId == nil {
                    if let scraped = row.row { rows[row.gameId, default: []].append(rowKey(source: row.source, row: scraped)) }
                }
                for game in seasons[index].games.indices { seasons[index].games[game].rows = rows[seasons[index].games[game].id] ?? [] }
            }
            candidates = Self.candidates(candidate.games.values) { game in
                (candidate.lineage.sourceRows(of: game.id) ?? []).compactMap { row in
                    row.row.map { rowKey(source: row.source, row: $0) }
                }
            }
        }
        return shrinks(published: seasons, candidates: candidates, allowances: allowances)
    }

    /// The sources that no longer feed some published game of a season whose rows changed, each located
    /// at the first such game's line.
    private static func rowShrinks(
        published: [PublishedSeason], candidate: Candidate, allowances: [String: String]
    ) -> [SourceShrink] {
        let changed = published.filter { !$0.hasSameRows }
        guard !changed.isEmpty else { return [] }
        var current: [SourceRow] = []
        var formerIds: [String: [String]] = [:]
        for (id, game) in candidate.games {
            guard let rows = candidate.lineage.sourceRows(of: id, season: "\(game.sport)-\(game.season)") else { continue }
            current += rows
            if let former = game.formerIds { formerIds[id] = former }
        }
        var shrinks = sourceShrinks(
            published: Dictionary(changed.map { ($0.key, (path: $0.path, rows: $0.rows)) }) { _, last in last },
            current: current, formerIds: formerIds, publishedIds: Set(published.flatMap { $0.games.map(\.id) }),
            allowances: allowances)
        for index in shrinks.indices {
            guard let season = changed.last(where: { $0.key == shrinks[index].season }) else { continue }
            shrinks[index].line = season.games.first { $0.id == shrinks[index].lostGames.first }?.line
        }
        return shrinks
    }

    /// A game of the new store as the guard sees it.
    public struct CandidateGame: Sendable, Hashable {
        public var id: String
        /// Ids the game had before (kept when cross-source matching renames a game).
        public var formerIds: [String] = []
        /// `<sport>-<season>`.
        public var season: String
        public var isActive: Bool
        /// Its sources' own game ids and the scraped rows that fed it, keyed as for `PublishedGame`.
        public var sourceKeys: [String] = []
        public var rows: [String] = []
    }

    /// `source` and its own id for a game, as one key.
    public static func sourceKey(source: String, id: String) -> String { source + "\u{1F}" + id }
    /// `source` and a scraped row (`file:line`), as one key.
    public static func rowKey(source: String, row: String) -> String { source + "\u{1F}" + row }

    /// The text whose digest a season's games file keeps in its meta (`MetaKey.activeIdsSha256`):
    /// its active game ids, sorted, one a line. When a merge's digest is the published one, no published
    /// game can be missing and the published records need not be read.
    public static func idsText(_ ids: some Sequence<String>) -> String { ids.sorted().joined(separator: "\n") }

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

    /// The new store's games as candidates (a game another source re-dated keeps the published id among
    /// its former ids); `rows` gives the scraped rows that fed a game (as `rowKey`), when they are needed.
    public static func candidates(_ games: some Sequence<Game>, rows: (Game) -> [String] = { _ in [] }) -> [CandidateGame] {
        games.map { game in
            CandidateGame(
                id: game.id, formerIds: game.formerIds ?? [], season: "\(game.sport)-\(game.season)",
                isActive: game.deprecatedAt == nil,
                sourceKeys: game.sourceIds.map { sourceKey(source: $0.key, id: $0.value) }, rows: rows(game))
        }
    }

    /// The published games that are nowhere in the new store, by season: a game is there when a new game
    /// has its id (or had it: `formerIds`), carries one of its sources' own game ids (a game renamed by a
    /// data fix, or a duplicate joined into another game, is still that source's game), or — for what
    /// no source id tells — was fed by one of its scraped rows while having an id the published store
    /// did not (a rename: a row that moved to a published game's id is that game's now, not this one's).
    public static func missing(published: [PublishedSeason], candidates: [CandidateGame]) -> [String: [PublishedGame]] {
        var publishedIds = Set<String>()
        for season in published { for game in season.games { publishedIds.insert(game.id) } }
        var present = Set<String>()
        var keys = Set<String>()
        var renamedRows = Set<String>()
        for candidate in candidates {
            present.insert(candidate.id)
            present.formUnion(candidate.formerIds)
            keys.formUnion(candidate.sourceKeys)
            if !publishedIds.contains(candidate.id) { renamedRows.formUnion(candidate.rows) }
        }
        var missing: [String: [PublishedGame]] = [:]
        for season in published {
            let lost = season.games.filter { game in
                !present.contains(game.id) && !game.sourceKeys.contains(where: keys.contains)
                    && !game.rows.contains(where: renamedRows.contains)
            }
            if !lost.isEmpty { missing[season.key] = lost }
        }
        return missing
    }

    /// The sport-seasons that lose published games (`missing(published:candidates:)`), sorted by season:
    /// a lost game is refused whatever the counts do, since new games in its place (a placeholder filled
    /// in) do not bring it back.
    /// - Parameter allowances: per source, the `allowShrink` reason its current batch declares.
    public static func shrinks(
        published: [PublishedSeason], candidates: [CandidateGame],
        allowances: [String: String]
    ) -> [Shrink] {
        var activeAfter: [String: Int] = [:]
        for candidate in candidates where candidate.isActive { activeAfter[candidate.season, default: 0] += 1 }
        let missing = Self.missing(published: published, candidates: candidates)
        var shrinks: [Shrink] = []
        for season in published.sorted(by: { $0.key < $1.key }) {
            let before = season.games.count
            let after = activeAfter[season.key] ?? 0
            guard let lostGames = missing[season.key] else { continue }
            let sources = Set(lostGames.flatMap(\.sources)).sorted()
            shrinks.append(
                Shrink(
                    season: season.key, path: season.path, before: before, after: after,
                    lost: lostGames.map(\.id).sorted(), firstLostLine: lostGames.first?.line, sources: sources,
                    reasons: allowances.filter { sources.contains($0.key) }))
        }
        return shrinks
    }

    /// A source that no longer gives rows to some published games of a sport-season: its batch lost rows
    /// (a file cut short, a re-scrape missing games, a row replaced by another game), although other
    /// sources may still list every game. What only it knew — a kickoff, a score, a status — would go
    /// with them.
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
        /// Published game ids that `source`'s rows no longer reach, sorted.
        public var lostGames: [String] = []
        /// The line of the first of them in the published games file (filled in by the command).
        public var line: Int?

        public var isAllowed: Bool { reason != nil }
    }

    /// One row that fed a game: which source, its own id for the game, and the scraped `file:line`.
    public struct SourceRow: Sendable, Hashable {
        public var gameId: String
        public var source: String
        public var sourceGameId: String?
        public var row: String?
        /// `<sport>-<season>` of the game, for counting a season's rows (nil: counted in every season).
        public var season: String?
        public init(gameId: String, source: String, sourceGameId: String?, row: String?, season: String? = nil) {
            self.gameId = gameId; self.source = source; self.sourceGameId = sourceGameId; self.row = row
            self.season = season
        }
    }

    /// The text whose digest a season's games file keeps in its meta (`MetaKey.rowsSha256`): every
    /// row's source and game id, sorted, one a line. When a merge's digest is the published one, every
    /// source still feeds exactly the games it fed, and the published lineage need not be read.
    public static func rowsText(_ rows: some Sequence<(source: String, gameId: String)>) -> String {
        rows.map { $0.source + "\t" + $0.gameId }.sorted().joined(separator: "\n")
    }

    /// `idsText` and `rowsText` of one season at once, without a string per row or a sort of the rows.
    /// `games` are the season's game ids, each once, and whether each is active; `forEachSource` calls its
    /// body with the source of each row of a game. `order` is the positions of `games` in id order.
    ///
    /// The ids are sorted once. A row's line is `source⇥id`, so lines of one source sort as their ids do,
    /// and lines of two sources as `source⇥` does, provided no source holds a tab (then neither prefix
    /// can run into the other) and every source and id is ASCII (then Swift's order is byte order, in the
    /// line as in its parts). Anything else takes `idsText` and `rowsText` themselves.
    public static func seasonTexts(
        games: [(id: String, isActive: Bool)], forEachSource: (String, (String) -> Void) -> Void
    ) -> (ids: String, rows: String, order: [Int]) {
        let order = TextOrder.positions(of: games.map(\.id))
        let games = order.map { games[$0] }
        let sorted = games.map(\.id)
        var sourceNumber: [String: Int] = [:]
        var sources: [String] = []
        var buckets: [[Int]] = []
        var plain = true
        // Once a source or id is not plain, the rest of the rows as they are (before, every source was
        // ASCII, so a bucket's source is spelled as each of its rows spelled it).
        var rest: [(source: String, gameId: String)] = []
        var last: (source: String, number: Int)?
        for (index, id) in sorted.enumerated() {
            if plain && !id.isAllASCII { plain = false }
            forEachSource(id) { source in
                // The same bytes as the last source: Swift's `==` is canonical equivalence (the Kelvin sign
                // equals `K`), but a text `==` to an ASCII one and as long in UTF-8 is spelled the same (a
                // character that stands for an ASCII one takes more than one byte).
                if plain, let last, last.source.utf8.count == source.utf8.count, last.source == source {
                    buckets[last.number].append(index)
                    return
                }
                guard plain, source.isAllASCII, !source.utf8.contains(UInt8(ascii: "\t")) else {
                    plain = false
                    rest.append((source, id))
                    return
                }
                let number: Int
                if let known = sourceNumber[source] {
                    number = known
                } else {
                    number = sources.count
                    sourceNumber[source] = number
                    sources.append(source)
                    buckets.append([])
                }
                last = (source, number)
                buckets[number].append(index)
            }
        }
        let activeIds = games.filter(\.isActive).map(\.id)
        guard plain else {
            var rows = rest
            for (number, bucket) in buckets.enumerated() { for index in bucket { rows.append((sources[number], sorted[index])) } }
            return (idsText(activeIds), rowsText(rows), order)
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(buckets.reduce(0) { $0 + $1.count } * 40)
        for number in sources.indices.sorted(by: { sources[$0] + "\t" < sources[$1] + "\t" }) {
            for index in buckets[number] {
                if !bytes.isEmpty { bytes.append(UInt8(ascii: "\n")) }
                bytes.append(contentsOf: sources[number].utf8)
                bytes.append(UInt8(ascii: "\t"))
                bytes.append(contentsOf: sorted[index].utf8)
            }
        }
        return (activeIds.joined(separator: "\n"), String(decoding: bytes, as: UTF8.self), order)
    }

    /// The sources whose rows no longer reach some published game of a season, sorted by season and
    /// source. A published row of game G from source S still reaches it when a new game fed by S is G
    /// (same id, or G's id among its former ids), or S still gives a row with the same own game id, or —
    /// for a source with no game ids — the same scraped row now feeds a game under an id the published
    /// store did not have (a rename by a data fix).
    /// - Parameters:
    ///   - published: per season key, the published games file's path and its lineage rows;
    ///   - current: every row of this merge, with `formerIds` of the games they feed;
    ///   - publishedIds: every published game id (a row that moved onto one of them is not a rename).
    public static func sourceShrinks(
        published: [String: (path: String, rows: [SourceRow])], current: [SourceRow], formerIds: [String: [String]],
        publishedIds: Set<String>, allowances: [String: String]
    ) -> [SourceShrink] {
        var reached = Set<String>() // source + game id (and every former id of it)
        var ownIds = Set<String>() // source + own game id
        var renamedRows = Set<String>() // source + scraped row, of games with a new id
        var after: [String: [String: Int]] = [:] // season (nil: every season) → source → rows
        for row in current {
            reached.insert(rowKey(source: row.source, row: row.gameId))
            for former in formerIds[row.gameId] ?? [] { reached.insert(rowKey(source: row.source, row: former)) }
            if let own = row.sourceGameId { ownIds.insert(sourceKey(source: row.source, id: own)) }
            if let scraped = row.row, !publishedIds.contains(row.gameId) { renamedRows.insert(rowKey(source: row.source, row: scraped)) }
            after[row.season ?? "", default: [:]][row.source, default: 0] += 1
        }
        var shrinks: [SourceShrink] = []
        for season in published.keys.sorted() {
            let (path, rows) = published[season]!
            var lost: [String: Set<String>] = [:]
            var before: [String: Int] = [:]
            for row in rows {
                before[row.source, default: 0] += 1
                if reached.contains(rowKey(source: row.source, row: row.gameId)) { continue }
                if let own = row.sourceGameId {
                    if ownIds.contains(sourceKey(source: row.source, id: own)) { continue }
                } else if let scraped = row.row, renamedRows.contains(rowKey(source: row.source, row: scraped)) {
                    continue
                }
                lost[row.source, default: []].insert(row.gameId)
            }
            for source in lost.keys.sorted() {
                shrinks.append(
                    SourceShrink(
                        season: season, path: path, source: source, before: before[source] ?? 0,
                        after: (after[season]?[source] ?? 0) + (after[""]?[source] ?? 0), reason: allowances[source],
                        lostGames: lost[source]!.sorted()))
            }
        }
        return shrinks
    }

    /// The error for a source that lost rows: `out/merge/games/nfl-2017.json:12: error: ...`.
    public static func diagnostic(for shrink: SourceShrink, batchSources: Set<String>) -> Diagnostic {
        let lost = shrink.lostGames.count
        let origin =
            batchSources.contains(shrink.source)
            ? "" : " (no batch from it in this merge: ingest or normalize refused or removed it)"
        let examples = shrink.lostGames.prefix(3).joined(separator: ", ") + (lost > 3 ? ", ..." : "")
        let fix =
            batchSources.contains(shrink.source)
            ? "Fix the source's files (a file cut short, a scrape missing games or rows replaced) and run again, or, if the drop is intended, declare it on the source in pipeline/sources.yaml: allowShrink: {reason: ...}"
            : "Bring the source back, or, if it was removed on purpose, declare it in a file of fixtures/overrides: retiredSources: [{source: \(shrink.source), reason: ...}]"
        return Diagnostic(
            .error, at: SourceLocation(path: shrink.path, line: shrink.line),
            "source '\(shrink.source)'\(origin) would no longer give rows to \(lost) published game\(lost == 1 ? "" : "s") of "
                + "\(shrink.season) (\(examples)), though other sources may still list \(lost == 1 ? "it" : "them"): what only it says "
                + "(a kickoff, a score, a status) would be lost; nothing was written",
            fix: fix)
    }

    /// The note printed for a source's declared drop.
    public static func note(for shrink: SourceShrink) -> String {
        "note: source '\(shrink.source)' no longer gives rows to \(shrink.lostGames.count) published game\(shrink.lostGames.count == 1 ? "" : "s") of \(shrink.season), as declared: \(shrink.reason ?? "")"
    }

    /// The error for a shrink no source declared: `out/merge/games/mlb-2023.json:5: error: ...`.
    public static func diagnostic(for shrink: Shrink, batchSources: Set<String>) -> Diagnostic {
        let undeclared = shrink.sources.filter { shrink.reasons[$0] == nil }
        let named = undeclared.map { source in
            "'\(source)'"
                + (batchSources.contains(source) ? "" : " (no batch from it in this merge: ingest or normalize refused or removed it)")
        }.joined(separator: ", ")
        let examples = shrink.lost.prefix(3).joined(separator: ", ") + (shrink.lost.count > 3 ? ", ..." : "")
        let change =
            shrink.after < shrink.before
            ? "would go from \(shrink.before) to \(shrink.after) active games"
            : "would lose published games although other games keep it at \(shrink.after) active games"
        var fix =
            "Fix the source's files (a file cut short, a header-only file, a batch refused upstream) and run again, or, if the drop is intended, declare it on the source in pipeline/sources.yaml: allowShrink: {reason: ...}"
        if let gone = undeclared.first(where: { !batchSources.contains($0) }) {
            fix +=
                "; a source removed on purpose is declared in a file of fixtures/overrides: retiredSources: [{source: \(gone), reason: ...}]"
        }
        return Diagnostic(
            .error, at: SourceLocation(path: shrink.path, line: shrink.firstLostLine),
            "\(shrink.season) \(change): \(publishedGames(shrink.lost.count)) in no batch and no newer batch soft-deleted \(shrink.lost.count == 1 ? "it" : "them") (\(examples)); from source \(named); nothing was written",
            fix: fix)
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
