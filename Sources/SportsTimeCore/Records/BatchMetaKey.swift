/// Envelope meta keys that a games batch carries from `pipeline/sources.yaml` through ingest and
/// normalize to merge (besides source, system, sport, season, scope, scrapedAt and priority).
public enum BatchMetaKey {
    /// The source's `allowShrink.reason`: its batch may hold fewer games than merge published before.
    public static let allowShrink = "allowShrink"
    /// The source's `rejectThreshold` (`RejectThreshold.metaValue`): normalize refuses a batch whose rows
    /// it cannot resolve beyond it, as ingest fails a source whose rows it cannot read beyond it.
    public static let rejectThreshold = "rejectThreshold"
    /// The source's `expectedGames.perTeam`: the season's regular-season games per team, when the batch
    /// lists fewer on purpose; merge reports the difference per team as pending.
    public static let expectedGamesPerTeam = "expectedGames.perTeam"
    /// The source's `expectedGames.reason`: why the batch lists fewer.
    public static let expectedGamesReason = "expectedGames.reason"
}
