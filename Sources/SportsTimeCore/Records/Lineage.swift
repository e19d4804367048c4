import Foundation

/// The parts of a game that the merge decides one by one: each takes the best *stated* value of the
/// sources of the game, so a source that does not know a part never erases another's.
///
/// - `date`: the stadium-local date and game number, and so the game's id;
/// - `start`: the start instant, or a day/night flag, or nothing;
/// - `venue`: the stadium and the neutral-site flag;
/// - `status`: status and makeup date;
/// - `kind`: preseason, regular, postseason or exhibition.
public enum FieldGroup: String, Codable, Sendable, CaseIterable, Comparable {
    case date, start, venue, status, kind

    public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }
}

/// One record of `out/merge/lineage/<sport>-<season>.json` (kind `sportstime.lineage`): every source row
/// that fed one merged game, and which row each part of the game came from and by which rule.
/// `sportstime explain <id>` prints it.
public struct GameLineage: Codable, Sendable, Hashable, Identifiable {
    /// The merged game's id.
    public var id: String
    /// The game's other ids (sources that dated it differently), sorted; nil when none.
    public var formerIds: [String]?
    /// The rows, oldest first (by `lastModified`, then source, then row).
    public var rows: [LineageRow]
    /// Per field group (`FieldGroup` raw value), the row it came from and the rule that chose it.
    public var fields: FieldOrigins

    public init(id: String, formerIds: [String]?, rows: [LineageRow], fields: FieldOrigins) {
        self.id = id; self.formerIds = formerIds; self.rows = rows; self.fields = fields
    }
}

/// One normalized record (one scraped row) of a merged game, with the values it stated.
public struct LineageRow: Codable, Sendable, Hashable {
    public var source: String
    /// The scraped row, `fixtures/scraped/<source>/<file>:<line>`, when the batch carries it.
    public var row: String?
    /// The normalized batch it was read from (`out/normalize/games/<source>.json`, with `:line` when known).
    public var batch: String
    /// The id the record had in its batch (its own date).
    public var recordId: String
    public var sourceGameId: String?
    public var lastModified: Instant
    public var priority: Int
    public var localDate: LocalDate
    public var gameNumber: Int?
    public var startUTC: Instant?
    public var startKnowledge: StartKnowledge
    public var stadiumId: String
    public var status: GameStatus
    public var kind: GameKind
    /// Fields the source did not state (normalize filled them in), sorted; nil when none.
    public var inferred: [InferredField]?

    public init(
        source: String, row: String?, batch: String, recordId: String, sourceGameId: String?,
        lastModified: Instant, priority: Int, localDate: LocalDate, gameNumber: Int?, startUTC: Instant?,
        startKnowledge: StartKnowledge, stadiumId: String, status: GameStatus, kind: GameKind, inferred: [InferredField]?
    ) {
        self.source = source; self.row = row; self.batch = batch; self.recordId = recordId
        self.sourceGameId = sourceGameId; self.lastModified = lastModified; self.priority = priority
        self.localDate = localDate; self.gameNumber = gameNumber; self.startUTC = startUTC
        self.startKnowledge = startKnowledge; self.stadiumId = stadiumId; self.status = status; self.kind = kind
        self.inferred = inferred
    }
}

/// Where one part of a merged game came from.
public struct FieldOrigin: Codable, Sendable, Hashable {
    /// Index into `GameLineage.rows`.
    public var row: Int
    /// The rule that chose it, in words (`newest stated value`, `trusted source (rank 2)`, …).
    public var rule: String

    public init(row: Int, rule: String) { self.row = row; self.rule = rule }
}

/// A lineage's `fields`: field group (`FieldGroup` raw value) → `FieldOrigin`, for the five groups at
/// most. One small array kept sorted by key, not a dictionary: a merge holds one per game (63k in ten
/// seasons), and a five-entry dictionary costs about 380 bytes where this costs about 230. Iterates in
/// key order, which is the order it is written in.
public struct FieldOrigins: Sendable, Hashable, Codable, Sequence, ExpressibleByDictionaryLiteral {
    public struct Entry: Sendable, Hashable {
        public var key: String
        public var value: FieldOrigin
    }

    private var entries: [Entry] = []

    public init() {}

    public init(_ origins: [String: FieldOrigin]) {
        entries = origins.map { Entry(key: $0.key, value: $0.value) }.sorted { $0.key < $1.key }
    }

    public init(dictionaryLiteral elements: (String, FieldOrigin)...) {
        for (key, value) in elements { self[key] = value }
    }

    /// Every field group from row 0 by the rule "only source": the lineage of a game of one record. One
    /// value shared by every such game (its storage too: comparing a game's origins with it is one check).
    public static let onlySource = FieldOrigins(
        Dictionary(uniqueKeysWithValues: FieldGroup.allCases.map { ($0.rawValue, FieldOrigin(row: 0, rule: "only source")) }))

    public var count: Int { entries.count }
    public var isEmpty: Bool { entries.isEmpty }

    /// The origin of `key`; setting nil removes it.
    public subscript(key: String) -> FieldOrigin? {
        get {
            for entry in entries where entry.key == key { return entry.value }
            return nil
        }
        set {
            let index = entries.firstIndex { !($0.key < key) } ?? entries.endIndex
            let present = index < entries.endIndex && entries[index].key == key
            switch (present, newValue) {
            case (true, let value?): entries[index].value = value
            case (true, nil): entries.remove(at: index)
            case (false, let value?):
                if entries.isEmpty { entries.reserveCapacity(FieldGroup.allCases.count) }
                entries.insert(Entry(key: key, value: value), at: index)
            case (false, nil): break
            }
        }
    }

    public func makeIterator() -> some IteratorProtocol<(key: String, value: FieldOrigin)> {
        entries.lazy.map { (key: $0.key, value: $0.value) }.makeIterator()
    }

    public init(from decoder: Decoder) throws {
        self.init(try [String: FieldOrigin](from: decoder))
    }

    public func encode(to encoder: Encoder) throws {
        try Dictionary(uniqueKeysWithValues: entries.map { ($0.key, $0.value) }).encode(to: encoder)
    }
}
