import SportsTimeCore
import SportsTimeNormalize
import Testing

@Suite struct AliasResolverTests {
    let resolver = AliasResolver(reference: TestReference.data)
    let d = TestReference.date

    @Test func recordNamesResolveInEverySpelling() {
        for name in ["BOS", "bos", "Red Sox", "Boston Red Sox", "boston red-sox", "  Boston  Red Sox ", "Boston"] {
            #expect(
                resolver.resolveTeam(name, sport: "mlb", system: "espn", on: d("2024-05-01")) == .resolved("mlb-bos"),
                "\(name)")
        }
    }

    @Test func namesAreLookedUpWithinTheSport() {
        // "Giants" is an MLB team and an NFL team; the sport decides.
        #expect(resolver.resolveTeam("Giants", sport: "mlb", system: nil, on: d("2024-05-01")) == .resolved("mlb-sf"))
        #expect(resolver.resolveTeam("Giants", sport: "nfl", system: nil, on: d("2024-05-01")) == .resolved("nfl-nyg"))
        #expect(resolver.resolveTeam("Red Sox", sport: "nfl", system: nil, on: d("2024-05-01")) == .unresolved)
    }

    @Test func sourceCodesApplyOnlyToTheirSourceSystem() {
        #expect(resolver.resolveTeam("CHN", sport: "mlb", system: "retrosheet", on: d("2023-04-01")) == .resolved("mlb-chc"))
        #expect(resolver.resolveTeam("CHN", sport: "mlb", system: "espn", on: d("2023-04-01")) == .unresolved)
        #expect(resolver.resolveTeam("LA", sport: "nfl", system: "nflverse", on: d("2022-09-08")) == .resolved("nfl-lar"))
        #expect(resolver.resolveTeam("LA", sport: "nfl", system: "espn", on: d("2022-09-08")) == .unresolved)
        #expect(resolver.resolveTeam("PHX (Suns)", sport: "nba", system: "nba-cdn", on: d("2025-10-22")) == .resolved("nba-phx"))
    }

    @Test func teamRenameEdgesAreInclusive() {
        // "Cleveland Indians" is valid until 2021-11-18 inclusive.
        #expect(resolver.resolveTeam("Cleveland Indians", sport: "mlb", system: nil, on: d("2021-11-17")) == .resolved("mlb-cle"))
        #expect(resolver.resolveTeam("Cleveland Indians", sport: "mlb", system: nil, on: d("2021-11-18")) == .resolved("mlb-cle"))
        #expect(resolver.resolveTeam("Cleveland Indians", sport: "mlb", system: nil, on: d("2021-11-19")) == .unresolved)
        #expect(resolver.resolveTeam("Indians", sport: "mlb", system: nil, on: d("2021-11-19")) == .unresolved)
        // The current name is a record name: valid on every date (sources print today's names on old games).
        #expect(resolver.resolveTeam("Cleveland Guardians", sport: "mlb", system: nil, on: d("2019-06-01")) == .resolved("mlb-cle"))
    }

    @Test func athleticsInOaklandUntil2024AndSacramentoFrom2025() {
        #expect(resolver.resolveTeam("Athletics", sport: "mlb", system: "espn", on: d("2024-09-26")) == .resolved("mlb-oak"))
        #expect(resolver.resolveTeam("Athletics", sport: "mlb", system: "espn", on: d("2024-09-29")) == .resolved("mlb-oak"))
        #expect(resolver.resolveTeam("Athletics", sport: "mlb", system: "espn", on: d("2025-03-28")) == .resolved("mlb-ath"))
        #expect(resolver.resolveTeam("Sacramento Athletics", sport: "mlb", system: "espn", on: d("2025-03-28")) == .resolved("mlb-ath"))
        #expect(resolver.resolveTeam("Sacramento Athletics", sport: "mlb", system: "espn", on: d("2024-09-26")) == .unresolved)
        // Between the two validity ranges both records are named "Athletics": ambiguous, never guessed.
        #expect(
            resolver.resolveTeam("Athletics", sport: "mlb", system: "espn", on: d("2024-12-01"))
                == .ambiguous(["mlb-ath", "mlb-oak"]))
    }

    @Test func arizonaToUtahHockey() {
        #expect(resolver.resolveTeam("Arizona Coyotes", sport: "nhl", system: nil, on: d("2024-04-17")) == .resolved("nhl-ari"))
        #expect(resolver.resolveTeam("Utah Hockey Club", sport: "nhl", system: nil, on: d("2024-04-17")) == .unresolved)
        #expect(resolver.resolveTeam("Utah Hockey Club", sport: "nhl", system: nil, on: d("2024-04-18")) == .resolved("nhl-uta"))
        #expect(resolver.resolveTeam("Utah Hockey Club", sport: "nhl", system: nil, on: d("2025-05-08")) == .unresolved)
        #expect(resolver.resolveTeam("Utah Mammoth", sport: "nhl", system: nil, on: d("2025-10-08")) == .resolved("nhl-uta"))
    }

    @Test func sharedMarketsAreAmbiguous() {
        #expect(resolver.resolveTeam("New York", sport: "nfl", system: nil, on: d("2025-10-05")) == .ambiguous(["nfl-nyg", "nfl-nyj"]))
        #expect(resolver.resolveTeam("Los Angeles", sport: "nfl", system: nil, on: d("2025-10-05")) == .ambiguous(["nfl-lac", "nfl-lar"]))
        // One team of the sport in the market: the market alone is enough.
        #expect(resolver.resolveTeam("Los Angeles", sport: "nhl", system: nil, on: d("2025-10-05")) == .resolved("nhl-lak"))
    }

    @Test func stadiumRenameEdges() {
        #expect(resolver.resolveStadium("PNC Arena", city: nil, system: nil, on: d("2025-02-27")) == .resolved("lenovo-center"))
        #expect(resolver.resolveStadium("PNC Arena", city: nil, system: nil, on: d("2025-02-28")) == .resolved("lenovo-center"))
        #expect(resolver.resolveStadium("PNC Arena", city: nil, system: nil, on: d("2025-03-01")) == .unresolved)
        #expect(resolver.resolveStadium("Lenovo Center", city: nil, system: nil, on: d("2023-01-10")) == .resolved("lenovo-center"))
        #expect(resolver.resolveStadium("O.co Coliseum", city: nil, system: "espn", on: d("2015-05-01")) == .resolved("oakland-coliseum"))
        #expect(resolver.resolveStadium("O.co Coliseum", city: nil, system: "retrosheet", on: d("2015-05-01")) == .unresolved)
    }

    @Test func sharedStadiumNamesNeedACityOrTheHomeTeam() {
        let day = d("2024-10-01")
        #expect(
            resolver.resolveStadium("Memorial Stadium", city: nil, system: nil, on: day)
                == .ambiguous(["memorial-stadium-champaign", "memorial-stadium-lincoln"]))
        #expect(
            resolver.resolveStadium("Memorial Stadium", city: "Champaign", system: nil, on: day)
                == .resolved("memorial-stadium-champaign"))
        #expect(
            resolver.resolveStadium("Memorial Stadium", city: "lincoln", system: nil, on: day)
                == .resolved("memorial-stadium-lincoln"))
        #expect(
            resolver.resolveStadium(
                "Memorial Stadium", city: "Omaha", system: nil, on: day,
                homeStadiumId: "memorial-stadium-lincoln") == .resolved("memorial-stadium-lincoln"))
        #expect(
            resolver.resolveStadium("Memorial Stadium", city: "Omaha", system: nil, on: day)
                == .ambiguous(["memorial-stadium-champaign", "memorial-stadium-lincoln"]))
    }

    @Test func suggestionsOfferTheClosestTeamFirst() {
        let suggestions = resolver.teamSuggestions(for: "PHX (Suns)", sport: "nba", system: "espn")
        #expect(suggestions.first?.contains("(nba-phx") == true, "\(suggestions)")
        // A name of another source system is never offered.
        #expect(!suggestions.contains { $0.contains("nba-cdn") })
        let truncated = resolver.teamSuggestions(for: "New York Jets (1p, ", sport: "nfl", system: nil)
        #expect(truncated.first == "New York Jets (nfl-nyj)", "\(truncated)")
    }

    @Test func suggestionsShowWhenAnExpiredAliasWasValid() {
        let suggestions = resolver.stadiumSuggestions(for: "PNC Arena", system: nil)
        #expect(suggestions.first == "PNC Arena (lenovo-center, valid until 2025-02-28)", "\(suggestions)")
    }

    @Test func suggestionsAreDeterministicAndBounded() {
        let first = resolver.stadiumSuggestions(for: "Stadium", system: nil, limit: 3)
        #expect(first.count <= 3)
        #expect(first == resolver.stadiumSuggestions(for: "Stadium", system: nil, limit: 3))
        #expect(resolver.teamSuggestions(for: "zzzz qqqq", sport: "mlb", system: nil).isEmpty)
    }

    @Test func ambiguousCandidatesLeadTheSuggestions() {
        let suggestions = resolver.teamSuggestions(for: "New York", sport: "nfl", system: nil, first: ["nfl-nyg", "nfl-nyj"], limit: 1)
        #expect(suggestions.count == 2)
        #expect(suggestions[0].contains("(nfl-nyg)") && suggestions[1].contains("(nfl-nyj)"), "\(suggestions)")
    }
}
