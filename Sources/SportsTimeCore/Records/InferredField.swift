/// A field of a game that its source did not state and a stage filled in (`RawGame.inferred` by ingest,
/// `Game.inferred` by normalize). A merge never lets an inferred value replace a stated one.
public enum InferredField: String, Codable, Sendable, CaseIterable, Comparable {
    /// The kind, when the mapping has no kind column: `regular` (ingest).
    case kind
    /// The date at the stadium, when the source printed a date in another zone without a time (normalize).
    case localDate
    /// The neutral-site flag, when the source does not say (normalize works it out from the venue).
    case neutralSite
    /// The stadium, when the source names no venue: the home team's home on the date (normalize).
    case stadiumId
    /// The status, when the mapping has no status column: `scheduled` (ingest).
    case status
    /// The venue: the source printed a placeholder ("TBA", `placeholderVenues`) (ingest).
    case venue

    public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }
}
