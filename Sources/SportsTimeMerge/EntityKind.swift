import SportsTimeCore

/// The kinds of canonical records the merge folds, in the order it folds them: each kind's
/// references point only at kinds folded before it.
public enum EntityKind: String, CaseIterable, Sendable, Hashable, Comparable {
    case sports
    case stadiums
    case teams
    case games
    case leagueStructures = "league-structures"
    case teamAliases = "team-aliases"
    case stadiumAliases = "stadium-aliases"

    /// The fold order: sports → stadiums → teams → games → league structures → team aliases → stadium aliases.
    public static let foldOrder: [EntityKind] = allCases

    public static func < (a: Self, b: Self) -> Bool {
        foldOrder.firstIndex(of: a)! < foldOrder.firstIndex(of: b)!
    }

    /// The name an override file uses for one record of this kind (`entity: game`).
    public var overrideName: String {
        switch self {
        case .sports: "sport"
        case .stadiums: "stadium"
        case .teams: "team"
        case .games: "game"
        case .leagueStructures: "league-structure"
        case .teamAliases: "team-alias"
        case .stadiumAliases: "stadium-alias"
        }
    }

    /// The kind for an override file's `entity:` value.
    public init?(overrideName: String) {
        guard let kind = Self.allCases.first(where: { $0.overrideName == overrideName }) else { return nil }
        self = kind
    }

    /// The reference file this kind is curated in, under `fixtures/reference/` (games have none).
    public var referenceFileName: String? {
        switch self {
        case .sports: "sports.yaml"
        case .stadiums: "stadiums.csv"
        case .teams: "teams.csv"
        case .games: nil
        case .leagueStructures: "league-structures.csv"
        case .teamAliases: "team-aliases.csv"
        case .stadiumAliases: "stadium-aliases.csv"
        }
    }

    /// The envelope kind of this entity's output file.
    public var artifactKind: ArtifactKind {
        switch self {
        case .sports: .sports
        case .stadiums: .stadiums
        case .teams: .teams
        case .games: .games
        case .leagueStructures: .leagueStructures
        case .teamAliases: .teamAliases
        case .stadiumAliases: .stadiumAliases
        }
    }

    /// The output file under `out/merge/` (games are split: see `MergeOutput.gamesFileName`).
    public var outputFileName: String { "\(rawValue).json" }
}
