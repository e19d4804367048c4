import Foundation

/// One record of `out/merge/merge-report.json` (kind `sportstime.merge-report`).
///
/// The report mixes four shapes; each is written as one JSON object with a `type` field and an `id`
/// whose prefix is the type, so records sort into groups:
/// - `counts:<entity>` — what the merge did with one entity kind (`MergeEntityCounts`);
/// - `conflict:<game id>` — a game whose sources disagree (`MergeConflict`);
/// - `incompatible:<entity>:<record id>:<source>` — a record from a newer schema (`MergeIncompatibleRecord`);
/// - `override:<entity>:<record id>:<field>` — one field patch and what became of it (`MergeOverrideOutcome`);
/// - `ambiguous:<game id>` — games of two sources that may be one game but pair in more than one way
///   (`MergeAmbiguousMatch`); they are kept apart;
/// - `conflicts` — how many conflicts of each class, and how many games were matched across dates
///   (`MergeConflictSummary`);
/// - `pending:<sport>-<season>` — regular-season games a source declares the season has but does not list yet
///   (`MergePendingGames`).
public enum MergeReportRecord: Codable, Sendable, Hashable, Identifiable {
    case counts(MergeEntityCounts)
    case conflict(MergeConflict)
    case incompatible(MergeIncompatibleRecord)
    case override(MergeOverrideOutcome)
    case ambiguous(MergeAmbiguousMatch)
    case summary(MergeConflictSummary)
    case pending(MergePendingGames)

    public var id: String {
        switch self {
        case .counts(let r): r.id
        case .conflict(let r): r.id
        case .incompatible(let r): r.id
        case .override(let r): r.id
        case .ambiguous(let r): r.id
        case .summary(let r): r.id
        case .pending(let r): r.id
        }
    }

    private enum TypeKey: String, CodingKey { case type }
    private enum RecordType: String, Codable { case counts, conflict, incompatible, override, ambiguous, summary, pending }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: TypeKey.self)
        switch try container.decode(RecordType.self, forKey: .type) {
        case .counts: self = .counts(try MergeEntityCounts(from: decoder))
        case .conflict: self = .conflict(try MergeConflict(from: decoder))
        case .incompatible: self = .incompatible(try MergeIncompatibleRecord(from: decoder))
        case .override: self = .override(try MergeOverrideOutcome(from: decoder))
        case .ambiguous: self = .ambiguous(try MergeAmbiguousMatch(from: decoder))
        case .summary: self = .summary(try MergeConflictSummary(from: decoder))
        case .pending: self = .pending(try MergePendingGames(from: decoder))
        }
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: TypeKey.self)
        switch self {
        case .counts(let r): try container.encode(RecordType.counts, forKey: .type); try r.encode(to: encoder)
        case .conflict(let r): try container.encode(RecordType.conflict, forKey: .type); try r.encode(to: encoder)
        case .incompatible(let r): try container.encode(RecordType.incompatible, forKey: .type); try r.encode(to: encoder)
        case .override(let r): try container.encode(RecordType.override, forKey: .type); try r.encode(to: encoder)
        case .ambiguous(let r): try container.encode(RecordType.ambiguous, forKey: .type); try r.encode(to: encoder)
        case .summary(let r): try container.encode(RecordType.summary, forKey: .type); try r.encode(to: encoder)
        case .pending(let r): try container.encode(RecordType.pending, forKey: .type); try r.encode(to: encoder)
        }
    }
}

/// What the merge did with the records of one entity kind. The counts add up:
/// `read == applied + skippedOlder + skippedIncompatible + rejected + skippedBelowMark`
/// and `applied == inserted + replaced`.
public struct MergeEntityCounts: Codable, Sendable, Hashable, Identifiable {
    /// `counts:<entity>`, e.g. `counts:games`.
    public var id: String
    /// The entity kind, e.g. `games`, `league-structures`.
    public var entity: String
    /// Records in the inputs (readable or not).
    public var read: Int
    /// Records that went into the store (inserted or replaced an older one).
    public var applied: Int
    public var inserted: Int
    public var replaced: Int
    /// Records the store already held at the same or a newer `lastModified`.
    public var skippedOlder: Int
    /// Records whose `schemaVersion` is newer than this build reads.
    public var skippedIncompatible: Int
    /// Records refused (bad value or unresolved reference); each is in `rejects.jsonl`.
    public var rejected: Int
    /// Incremental mode only: records below the high-water mark that the store already reflects.
    public var skippedBelowMark: Int
    /// Records in the store after the merge (deprecated ones included).
    public var stored: Int
    /// Records in the store that are soft-deleted (`deprecatedAt` set); games only.
    public var deprecated: Int

    public init(
        entity: String, read: Int = 0, applied: Int = 0, inserted: Int = 0, replaced: Int = 0,
        skippedOlder: Int = 0, skippedIncompatible: Int = 0, rejected: Int = 0, skippedBelowMark: Int = 0,
        stored: Int = 0, deprecated: Int = 0
    ) {
        self.id = "counts:\(entity)"; self.entity = entity; self.read = read; self.applied = applied
        self.inserted = inserted; self.replaced = replaced; self.skippedOlder = skippedOlder
        self.skippedIncompatible = skippedIncompatible; self.rejected = rejected
        self.skippedBelowMark = skippedBelowMark; self.stored = stored; self.deprecated = deprecated
    }

    /// Whether every record read is accounted for exactly once.
    public var addsUp: Bool {
        read == applied + skippedOlder + skippedIncompatible + rejected + skippedBelowMark && applied == inserted + replaced
    }
}

/// The classes of a real contradiction between two sources' stated values for one game. Progress
/// (scheduled → final) and a source filling in what another left unknown are not conflicts.
public enum ConflictClass: String, Codable, Sendable, CaseIterable, Comparable {
    /// The sources date the game differently (they were matched as one game across dates).
    case dateMoved
    /// Same date, different exact starts, or an exact start that contradicts a day/night flag.
    case timeMoved
    /// Different stated venues (a venue filled in from the home team's home does not count).
    case venueDiffers
    /// One source says final and another cancelled, or postponed and final on the same date.
    case statusContradicts

    public static func < (a: Self, b: Self) -> Bool { allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)! }
}

/// A canonical game whose sources contradict each other.
public struct MergeConflict: Codable, Sendable, Hashable, Identifiable {
    /// `conflict:<game id>`.
    public var id: String
    public var gameId: String
    /// What contradicts, sorted.
    public var classes: [ConflictClass]
    /// Each source's newest record for the game, sorted by source id.
    public var sources: [MergeConflictSource]
    /// The source whose record is newest (newest `lastModified`, then priority, then source id); each
    /// field's own origin is in the game's lineage (`sportstime explain <id>`).
    public var winner: String

    public init(gameId: String, classes: [ConflictClass], sources: [MergeConflictSource], winner: String) {
        self.id = "conflict:\(gameId)"; self.gameId = gameId; self.classes = classes; self.sources = sources
        self.winner = winner
    }
}

/// One source's values for a game in a `MergeConflict`.
public struct MergeConflictSource: Codable, Sendable, Hashable {
    public var source: String
    public var lastModified: Instant
    public var priority: Int
    /// The id the source's record had (its own date).
    public var recordId: String
    public var localDate: LocalDate
    public var startUTC: Instant?
    public var startKnowledge: StartKnowledge
    public var stadiumId: String
    public var status: GameStatus

    public init(
        source: String, lastModified: Instant, priority: Int, recordId: String, localDate: LocalDate,
        startUTC: Instant?, startKnowledge: StartKnowledge, stadiumId: String, status: GameStatus
    ) {
        self.source = source; self.lastModified = lastModified; self.priority = priority; self.recordId = recordId
        self.localDate = localDate; self.startUTC = startUTC; self.startKnowledge = startKnowledge
        self.stadiumId = stadiumId; self.status = status
    }
}

/// Games that may be one game (same teams, dates within the sport's window, from sources of different
/// systems) but pair in more than one way; nothing is guessed: they stay apart and are listed here.
public struct MergeAmbiguousMatch: Codable, Sendable, Hashable, Identifiable {
    /// `ambiguous:<game id>`.
    public var id: String
    public var gameId: String
    /// The other games it could be, sorted.
    public var candidates: [String]
    public var reason: String

    public init(gameId: String, candidates: [String], reason: String) {
        self.id = "ambiguous:\(gameId)"; self.gameId = gameId; self.candidates = candidates; self.reason = reason
    }
}

/// Counts of the cross-source findings: conflicts per class, games matched across dates, ambiguous pairs.
public struct MergeConflictSummary: Codable, Sendable, Hashable, Identifiable {
    /// `conflicts`.
    public var id: String
    public var dateMoved: Int
    public var timeMoved: Int
    public var venueDiffers: Int
    public var statusContradicts: Int
    /// Games whose sources dated them differently and were matched into one record.
    public var matchedAcrossDates: Int
    /// Games left apart because they could pair more than one way.
    public var ambiguousMatches: Int

    public init(
        dateMoved: Int = 0, timeMoved: Int = 0, venueDiffers: Int = 0, statusContradicts: Int = 0,
        matchedAcrossDates: Int = 0, ambiguousMatches: Int = 0
    ) {
        self.id = "conflicts"; self.dateMoved = dateMoved; self.timeMoved = timeMoved; self.venueDiffers = venueDiffers
        self.statusContradicts = statusContradicts; self.matchedAcrossDates = matchedAcrossDates
        self.ambiguousMatches = ambiguousMatches
    }
}

/// Regular-season games a source declares the season has (`expectedGames` in `pipeline/sources.yaml`) beyond
/// those the store lists for its scope: games scheduled later (the NBA Cup's), counted and named, not absent.
public struct MergePendingGames: Codable, Sendable, Hashable, Identifiable {
    /// `pending:<sport>-<season>`.
    public var id: String
    /// The source that declares the expectation.
    public var source: String
    public var sport: String
    public var season: String
    /// Regular-season games per team the season has.
    public var perTeam: Int
    /// Regular-season games the season has: `perTeam` × teams / 2.
    public var expected: Int
    /// Active regular-season games the store lists for the season.
    public var listed: Int
    /// `expected - listed`.
    public var pending: Int
    /// Per team id, how many of its games are pending (teams with none pending are left out).
    public var teams: [String: Int]
    /// Why the source lists fewer (its `expectedGames.reason`).
    public var reason: String

    public init(
        source: String, sport: String, season: String, perTeam: Int, expected: Int, listed: Int,
        teams: [String: Int], reason: String
    ) {
        self.id = "pending:\(sport)-\(season)"; self.source = source; self.sport = sport; self.season = season
        self.perTeam = perTeam; self.expected = expected; self.listed = listed; self.pending = expected - listed
        self.teams = teams; self.reason = reason
    }
}

/// A record skipped because its `schemaVersion` is newer than this build reads.
public struct MergeIncompatibleRecord: Codable, Sendable, Hashable, Identifiable {
    /// `incompatible:<entity>:<record id>:<source>`.
    public var id: String
    public var entity: String
    public var recordId: String
    public var source: String
    /// Repository-relative file the record was read from.
    public var file: String
    public var schemaVersion: Int
    /// The newest version this build reads.
    public var supportedVersion: Int

    public init(entity: String, recordId: String, source: String, file: String, schemaVersion: Int, supportedVersion: Int) {
        self.id = "incompatible:\(entity):\(recordId):\(source)"; self.entity = entity; self.recordId = recordId
        self.source = source; self.file = file; self.schemaVersion = schemaVersion; self.supportedVersion = supportedVersion
    }
}

/// One field patch from `fixtures/overrides/` and what it did.
public struct MergeOverrideOutcome: Codable, Sendable, Hashable, Identifiable {
    public enum Status: String, Codable, Sendable {
        /// The field had another value after the fold; the override replaced it.
        case applied
        /// The fold already produced the override's value (the override still pins it).
        case unchanged
        /// No record has this id: the override did nothing (reported as a warning).
        case unmatched
    }

    /// `override:<entity>:<record id>:<field>`.
    public var id: String
    /// Entity name as written in the override file, e.g. `game`.
    public var entity: String
    public var recordId: String
    public var field: String
    public var value: MergeFieldValue
    /// The value the fold produced before the override; nil when unmatched.
    public var foldedValue: MergeFieldValue?
    public var status: Status
    public var reason: String
    /// `fixtures/overrides/<file>.yaml:<line>:<column>` of the field.
    public var location: String

    public init(
        entity: String, recordId: String, field: String, value: MergeFieldValue, foldedValue: MergeFieldValue?,
        status: Status, reason: String, location: String
    ) {
        self.id = "override:\(entity):\(recordId):\(field)"; self.entity = entity; self.recordId = recordId
        self.field = field; self.value = value; self.foldedValue = foldedValue; self.status = status
        self.reason = reason; self.location = location
    }

    private enum CodingKeys: String, CodingKey {
        case id, entity, recordId, field, value, foldedValue, status, reason, location
    }

    /// Reads what `encode(to:)` writes: a present `"foldedValue": null` is the value null (the field was
    /// empty before the override), not a missing value.
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(String.self, forKey: .id)
        entity = try c.decode(String.self, forKey: .entity)
        recordId = try c.decode(String.self, forKey: .recordId)
        field = try c.decode(String.self, forKey: .field)
        value = try c.decode(MergeFieldValue.self, forKey: .value)
        foldedValue = c.contains(.foldedValue) ? try c.decode(MergeFieldValue.self, forKey: .foldedValue) : nil
        status = try c.decode(Status.self, forKey: .status)
        reason = try c.decode(String.self, forKey: .reason)
        location = try c.decode(String.self, forKey: .location)
    }
}

/// A field value in a report: JSON null, bool, integer, number or string (instants and dates as their
/// ISO-8601 text).
public enum MergeFieldValue: Codable, Sendable, Hashable, CustomStringConvertible {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)

    public init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int.self) {
            self = .int(value)
        } else if let value = try? container.decode(Double.self) {
            self = .double(value)
        } else {
            self = .string(try container.decode(String.self))
        }
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .int(let value): try container.encode(value)
        case .double(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        }
    }

    public var description: String {
        switch self {
        case .null: "null"
        case .bool(let value): "\(value)"
        case .int(let value): "\(value)"
        case .double(let value): "\(value)"
        case .string(let value): "'\(value)'"
        }
    }
}
