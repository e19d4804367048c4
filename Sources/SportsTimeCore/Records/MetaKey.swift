/// A key of an envelope's `meta`: the header facts a stage hands to the next one beside the records. Each
/// key is declared here once; its text is used only where the envelope is written and read.
public struct MetaKey: Hashable, Sendable, Comparable, CustomStringConvertible, CodingKeyRepresentable {
    /// The key as written in the envelope.
    public let name: String

    init(_ name: String) { self.name = name }

    public var description: String { name }
    public static func < (a: Self, b: Self) -> Bool { a.name < b.name }

    public var codingKey: any CodingKey { AnyCodingKey(name) }
    public init?<T: CodingKey>(codingKey: T) { self.init(codingKey.stringValue) }

    // A games batch (ingest's raw games, normalize's games), from `pipeline/sources.yaml`.
    public static let source = MetaKey("source")
    public static let system = MetaKey("system")
    public static let sport = MetaKey("sport")
    public static let season = MetaKey("season")
    public static let scope = MetaKey("scope")
    public static let scrapedAt = MetaKey("scrapedAt")
    public static let priority = MetaKey("priority")
    /// The source's rank for one field group (`trust.<group>`).
    public static func trust(_ group: FieldGroup) -> MetaKey { MetaKey("trust.\(group.rawValue)") }
    /// The field group a `trust.<group>` key names (nil for any other key; a name that is no group is
    /// returned as written, for the merge to refuse).
    public var trustedGroup: String? { name.hasPrefix("trust.") ? String(name.dropFirst("trust.".count)) : nil }
    /// The source's `allowShrink.reason`: its batch may hold fewer games than merge published before.
    public static let allowShrink = MetaKey("allowShrink")
    /// The source's `rejectThreshold` (`RejectThreshold.metaValue`): normalize refuses a batch whose rows
    /// it cannot resolve beyond it, as ingest fails a source whose rows it cannot read beyond it.
    public static let rejectThreshold = MetaKey("rejectThreshold")
    /// The source's `expectedGames.perTeam`: the season's regular-season games per team, when the batch
    /// lists fewer on purpose; merge reports the difference per team as pending.
    public static let expectedGamesPerTeam = MetaKey("expectedGames.perTeam")
    /// The source's `expectedGames.reason`: why the batch lists fewer.
    public static let expectedGamesReason = MetaKey("expectedGames.reason")

    // Ingest's row counts.
    public static let rowsRead = MetaKey("rowsRead")
    public static let rowsFiltered = MetaKey("rowsFiltered")
    public static let rowsFolded = MetaKey("rowsFolded")
    public static let rowsRejected = MetaKey("rowsRejected")
    public static let recordsWritten = MetaKey("recordsWritten")

    // A merged games file (`sport`, `season` too).
    public static let firstDate = MetaKey("firstDate")
    public static let lastDate = MetaKey("lastDate")
    /// How many active games the file holds.
    public static let activeGames = MetaKey("activeGames")
    /// The digest of the file's active ids, sorted (`ShrinkGuard.idsText`).
    public static let activeIdsSha256 = MetaKey("activeIdsSha256")
    /// The digest of the file's rows: each source and game (`ShrinkGuard.rowsText`).
    public static let rowsSha256 = MetaKey("rowsSha256")
    /// How many rows of one source the file holds (`rows.<source>`).
    public static func rows(of source: String) -> MetaKey { MetaKey("rows.\(source)") }

    // The merge's sync state and report.
    public static let mergeVersion = MetaKey("mergeVersion")
    /// A digest of the override patches.
    public static let overrides = MetaKey("overrides")
    /// One source's priority (`priority.<source>`).
    public static func priority(of source: String) -> MetaKey { MetaKey("priority.\(source)") }
    /// The source a `priority.<source>` key names; nil for any other key.
    public var prioritySource: String? { name.hasPrefix("priority.") ? String(name.dropFirst("priority.".count)) : nil }
    /// Full or incremental.
    public static let mode = MetaKey("mode")
    /// Why an incremental merge ran as a full one.
    public static let incrementalFallback = MetaKey("incrementalFallback")

    // A plan.
    public static let request = MetaKey("request")
}

/// A meta key as a value of its own is its name (as a dictionary key it is an object's key).
extension MetaKey: Codable {
    public init(from decoder: any Decoder) throws { self.init(try decoder.singleValueContainer().decode(String.self)) }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(name)
    }
}
