import SportsTimeCore

/// Applies override patches to the merged store, after the fold: so a pinned field keeps its value
/// whatever a later scrape says, while the record's other fields still follow newest-wins.
///
/// A patch whose record does not exist is reported (status `unmatched`, plus a warning) and does
/// nothing. A patch that sets a reference (a game's `stadiumId`) to an id the store does not hold is
/// an input error (exit 2): an override must not break referential integrity. So is a patch of a game's
/// `homeTeamId` or `awayTeamId` that leaves both the same team.
public enum OverrideApplier {
    public struct Outcome: Sendable {
        public var outcomes: [MergeOverrideOutcome]
        public var warnings: [Diagnostic]
    }

    public static func apply(_ patches: [OverridePatch], to store: inout MergeStore) throws -> Outcome {
        var outcome = Outcome(outcomes: [], warnings: [])
        var errors: [Diagnostic] = []
        // A game override may name an id the game had before it was matched across dates.
        var formerGameIds: [String: String] = [:]
        for (id, game) in store.games { for former in game.formerIds ?? [] { formerGameIds[former] = id } }
        let patches = patches.map { patch in
            var patch = patch
            if patch.entity == .games, store.games[patch.recordId] == nil, let current = formerGameIds[patch.recordId] {
                patch.recordId = current
            }
            return patch
        }
        for kind in EntityKind.foldOrder {
            let forKind = patches.filter { $0.entity == kind }
            guard !forKind.isEmpty else { continue }
            switch kind {
            case .sports: apply(forKind, Sport.self, to: &store, outcome: &outcome, errors: &errors)
            case .stadiums: apply(forKind, Stadium.self, to: &store, outcome: &outcome, errors: &errors)
            case .teams: apply(forKind, Team.self, to: &store, outcome: &outcome, errors: &errors)
            case .games: apply(forKind, Game.self, to: &store, outcome: &outcome, errors: &errors)
            case .leagueStructures: apply(forKind, LeagueStructure.self, to: &store, outcome: &outcome, errors: &errors)
            case .teamAliases: apply(forKind, TeamAlias.self, to: &store, outcome: &outcome, errors: &errors)
            case .stadiumAliases: apply(forKind, StadiumAlias.self, to: &store, outcome: &outcome, errors: &errors)
            }
        }
        errors += teamPlayingItself(patches, in: store)
        if !errors.isEmpty {
            throw errors.count == 1 ? PipelineError.invalidInput(errors[0]) : PipelineError.invalidInputs(errors)
        }
        outcome.outcomes.sort { $0.id < $1.id }
        outcome.warnings.sort { ($0.location ?? SourceLocation(path: "")) < ($1.location ?? SourceLocation(path: "")) }
        return outcome
    }

    /// Errors for the games whose patched teams are one team (home = away), at the patch of each field.
    static func teamPlayingItself(_ patches: [OverridePatch], in store: MergeStore) -> [Diagnostic] {
        let teamFields: Set<String> = ["homeTeamId", "awayTeamId"]
        var byGame: [String: [OverridePatch]] = [:]
        for patch in patches where patch.entity == .games && teamFields.contains(patch.field) {
            byGame[patch.recordId, default: []].append(patch)
        }
        var errors: [Diagnostic] = []
        for (id, gamePatches) in byGame.sorted(by: { $0.key < $1.key }) {
            guard let game = store.games[id], game.homeTeamId == game.awayTeamId else { continue }
            let patch = gamePatches.sorted { $0.location < $1.location }[0]
            let other = patch.field == "homeTeamId" ? "awayTeamId" : "homeTeamId"
            errors.append(
                Diagnostic(
                    .error, at: patch.location,
                    "override of game '\(id)' sets \(patch.field) to '\(game.homeTeamId)', which is also its \(other): a team cannot play itself",
                    fix: "Set the team that really played, or override \(other) too"))
        }
        return errors
    }

    private static func apply<Record: MergeableRecord>(
        _ patches: [OverridePatch], _ type: Record.Type, to store: inout MergeStore,
        outcome: inout Outcome, errors: inout [Diagnostic]
    ) {
        let fields = Record.overrideFields
        // Unmatched patches by record and file: one override sets several fields, and is warned about once.
        var unmatched: [String: [OverridePatch]] = [:]
        defer {
            for key in unmatched.keys.sorted() {
                let group = unmatched[key]!.sorted { $0.location < $1.location }
                let first = group[0]
                let fieldList = group.map(\.field).joined(separator: ", ")
                outcome.warnings.append(
                    Diagnostic(
                        .warning, at: first.location,
                        "override of \(first.entity.overrideName) '\(first.recordId)' matches no record (it sets \(fieldList))",
                        fix: "Fix the id, or remove the override if the data no longer needs it"))
            }
        }
        for patch in patches {
            let name = patch.entity.overrideName
            guard let field = fields[patch.field] else {
                errors.append(
                    Diagnostic(
                        .error, at: patch.location, "unknown field '\(patch.field)' for entity \(name)",
                        fix: "Use one of: \(fields.keys.sorted().joined(separator: ", "))"))
                continue
            }
            guard var record = store[keyPath: Record.storeKeyPath][patch.recordId] else {
                outcome.outcomes.append(
                    MergeOverrideOutcome(
                        entity: name, recordId: patch.recordId, field: patch.field, value: patch.value, foldedValue: nil,
                        status: .unmatched, reason: patch.reason, location: patch.location.description))
                unmatched["\(patch.recordId)\u{1F}\(patch.location.path)", default: []].append(patch)
                continue
            }
            if let target = field.references, case .string(let id) = patch.value,
                !store.contains(id, of: target) || (target == Record.entityKind && id == patch.recordId)
            {
                errors.append(
                    Diagnostic(
                        .error, at: patch.location,
                        "override of \(name) '\(patch.recordId)' sets \(patch.field) to '\(id)', which is not a known \(target.overrideName)",
                        fix: "Use the id of an existing \(target.overrideName)"))
                continue
            }
            let folded = field.value(of: record)
            guard field.set(patch.value, on: &record) else {
                errors.append(
                    Diagnostic(
                        .error, at: patch.location, "value \(patch.value) does not fit field '\(patch.field)'",
                        fix: "Fix the value"))
                continue
            }
            store[keyPath: Record.storeKeyPath][patch.recordId] = record
            outcome.outcomes.append(
                MergeOverrideOutcome(
                    entity: name, recordId: patch.recordId, field: patch.field, value: patch.value, foldedValue: folded,
                    status: folded == patch.value ? .unchanged : .applied, reason: patch.reason,
                    location: patch.location.description))
        }
    }
}
