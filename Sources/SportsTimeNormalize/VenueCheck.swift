import SportsTimeCore

/// The consistency check between a game's venue and its home team.
///
/// A game is *checked* when it is a regular-season or postseason game whose source named the venue
/// (preseason and exhibition games often travel). A checked game is *inconsistent* when its venue is
/// not the home team's home on the game's date, the source does not call it neutral, and the venue is
/// the home of another team of the same sport on that date — a known neutral or one-off site (London,
/// Field of Dreams) is home to no team of the sport and passes. Homes are dated (`team-homes.csv`):
/// a 2021 Blue Jays game in Buffalo is at their home. Inconsistent games are kept and warned about; when more than
/// `share` of a batch's checked games are inconsistent, the batch is refused as corrupt.
struct VenueCheck {
    private let checkedCount: Int
    private let inconsistent: [ResolvedGame]
    /// The batch's raw games, which `ResolvedGame.rawIndex` indexes.
    private let raws: [RawGame]
    private let resolver: AliasResolver

    init(games: [ResolvedGame], of raws: [RawGame], resolver: AliasResolver) {
        self.resolver = resolver; self.raws = raws
        // Games and records read in place (a copy of a record retains each of its strings).
        var checkedCount = 0
        var found: [ResolvedGame] = []
        for index in games.indices
        where games[index].venueGiven
            && (raws[games[index].rawIndex].kind == .regular || raws[games[index].rawIndex].kind == .postseason)
        {
            checkedCount += 1
            if games[index].stadium.id != games[index].homeStadiumId && raws[games[index].rawIndex].neutralSite != true
                && !resolver.homeTeams(
                    of: games[index].stadium.id, sport: raws[games[index].rawIndex].sport,
                    on: games[index].schedule.localDate
                ).isEmpty
            {
                found.append(games[index])
            }
        }
        self.checkedCount = checkedCount
        // Each row's place is parsed once, not once per comparison; its file compared with the others once
        // (as its rank among them), not in every comparison (a batch's rows share one file).
        let places = found.map { Provenance(raws[$0.rawIndex].provenance) }
        // When they all share one (most batches), every rank is 0: no set or index of the files is made.
        var rankOfFile: [String: Int] = [:]
        if let first = places.first?.file, !places.allSatisfy({ $0.file == first }) {
            for (rank, file) in Set(places.map(\.file)).sorted().enumerated() { rankOfFile[file] = rank }
        }
        let keys = places.map { (rankOfFile.isEmpty ? 0 : rankOfFile[$0.file]!, $0.line ?? 0) }
        inconsistent = found.indices.sorted { (keys[$0].0, keys[$0].1, $0) < (keys[$1].0, keys[$1].1, $1) }.map { found[$0] }
    }

    /// What refuses `batch`, when more than `share` of its checked games are inconsistent, located at the first
    /// inconsistent game's row in the scraped file. A warning: the run goes on (exit 0), and a successful run
    /// prints no `error:` line; every record of the batch is in rejects.jsonl with the reason.
    func refusal(of batch: RawBatch, share: Double) -> Diagnostic? {
        guard checkedCount > 0, Double(inconsistent.count) > share * Double(checkedCount),
            let example = inconsistent.first
        else { return nil }
        let percent = Int((100 * Double(inconsistent.count) / Double(checkedCount)).rounded())
        return Diagnostic(
            .warning, at: Provenance(raws[example.rawIndex].provenance).location,
            "\(inconsistent.count.grouped) of \(checkedCount.grouped) regular-season and postseason games (\(percent) %) "
                + "are at a venue that is not the home team's (e.g. \(describe(example)), \(raws[example.rawIndex].provenance))",
            fix: "The file looks corrupt; fix the scrape or remove the source")
    }

    /// One warning per inconsistent game, at its provenance.
    func warnings() -> [Diagnostic] {
        inconsistent.map { game in
            Diagnostic(
                .warning, at: Provenance(raws[game.rawIndex].provenance).location,
                "\(describe(game)); the game is kept at that venue",
                fix: "If the source is wrong, fix it with an override; if the game really is there, "
                    + "mark it neutral with an override")
        }
    }

    /// `EDM at FLA on 2024-06-24 at 'Honda Center' (honda-center), the home of nhl-ana, not of nhl-fla (amerant-bank-arena)`.
    private func describe(_ game: ResolvedGame) -> String {
        let raw = raws[game.rawIndex]
        let owners = resolver.homeTeams(of: game.stadium.id, sport: raw.sport, on: game.schedule.localDate)
            .joined(separator: ", ")
        return "\(raw.awayTeam) at \(raw.homeTeam) on \(raw.date.iso8601) at '\(raw.venue ?? game.stadium.name)' "
            + "(\(game.stadium.id)), the home of \(owners), not of \(game.home.id) (\(game.homeStadiumId))"
    }
}
