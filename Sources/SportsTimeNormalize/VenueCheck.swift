import SportsTimeCore

/// The consistency check between a game's venue and its home team.
///
/// A game is *checked* when it is a regular-season or postseason game whose source named the venue
/// (preseason and exhibition games often travel). A checked game is *inconsistent* when its venue is
/// no home of the home team on the game's date (its home or an alternate home), the source does not call
/// it neutral, and the venue is the home of another team of the same sport on that date — a known neutral
/// or one-off site (London, Field of Dreams) is home to no team of the sport and passes. Homes are dated
/// (`team-homes.csv`): a 2021 Blue Jays game in Buffalo is at their home. Inconsistent games are kept
/// and warned about (at the away team's home: a home game of the listed team, the columns perhaps swapped;
/// elsewhere: a neutral site); when more than `share` of a batch's checked games are inconsistent, the
/// batch is refused as corrupt.
struct VenueCheck {
    private let checkedCount: Int
    /// The inconsistent games, by row.
    private let inconsistent: [ResolvedGame]
    private let resolver: AliasResolver

    init(games: [ResolvedGame], resolver: AliasResolver) {
        self.resolver = resolver
        func isChecked(_ game: ResolvedGame) -> Bool {
            game.venueGiven && (game.raw.kind == .regular || game.raw.kind == .postseason)
        }
        checkedCount = games.count(where: isChecked)
        let found = games.filter { game in
            isChecked(game) && !game.isAtHome && game.raw.neutralSite != true
                && !resolver.homeTeams(of: game.stadium.id, sport: game.raw.sport, on: game.schedule.localDate).isEmpty
        }
        let places = found.map { Provenance($0.raw.provenance) }
        inconsistent = found.indices.sorted {
            (places[$0].file, places[$0].line ?? 0, $0) < (places[$1].file, places[$1].line ?? 0, $1)
        }.map { found[$0] }
    }

    /// What refuses the batch, when more than `share` of its checked games are inconsistent, located at the first
    /// inconsistent game's row in the scraped file. A warning: the run goes on (exit 0), and a successful run
    /// prints no `error:` line; every record of the batch is in rejects.jsonl with the reason.
    func refusal(share: Double) -> Diagnostic? {
        guard checkedCount > 0, Double(inconsistent.count) > share * Double(checkedCount),
            let example = inconsistent.first
        else { return nil }
        let percent = Int((100 * Double(inconsistent.count) / Double(checkedCount)).rounded())
        return Diagnostic(
            .warning, at: Provenance(example.raw.provenance).location,
            "\(NumberText.grouped(inconsistent.count)) of \(NumberText.grouped(checkedCount)) regular-season and postseason games "
                + "(\(percent) %) are at a venue that is not the home team's (e.g. \(describe(example)), \(example.raw.provenance))",
            fix: "The file looks corrupt; fix the scrape or remove the source")
    }

    /// One warning per inconsistent game, at its provenance.
    func warnings() -> [Diagnostic] {
        inconsistent.map { game in
            game.isAtAwayTeamsHome
                ? Diagnostic(
                    .warning, at: Provenance(game.raw.provenance).location,
                    "\(describe(game)); it is the away team's home: kept as a home game of \(game.home.id) there",
                    fix: "If the source swapped the home and away teams, fix the game with an override")
                : Diagnostic(
                    .warning, at: Provenance(game.raw.provenance).location,
                    "\(describe(game)); stored as a neutral-site game",
                    fix: "If the source is wrong, fix it with an override; if the team played a home game there, "
                        + "add a dated alternate row to fixtures/reference/team-homes.csv")
        }
    }

    /// `EDM at FLA on 2024-06-24 at 'Honda Center' (honda-center), the home of nhl-ana, not of nhl-fla (amerant-bank-arena)`.
    private func describe(_ game: ResolvedGame) -> String {
        let raw = game.raw
        let owners = resolver.homeTeams(of: game.stadium.id, sport: raw.sport, on: game.schedule.localDate)
            .joined(separator: ", ")
        return "\(raw.awayTeam) at \(raw.homeTeam) on \(raw.date.iso8601) at '\(raw.venue ?? game.stadium.name)' "
            + "(\(game.stadium.id)), the home of \(owners), not of \(game.home.id) (\(game.homeStadiumId))"
    }
}
