import Foundation
import SportsTimeCore
import SportsTimePlan

/// The command's file work: read the merged store and the requests, plan, write the plans.
struct PlanRun {
    let merged: String
    let requests: String
    let out: String
    let only: [String]
    /// Where to write the paths the plans depend on (`--depfile`), or nil.
    var depfile: String?
    let context: CommandContext

    private var root: URL { context.paths.root }
    private func url(_ path: String) -> URL { context.paths.url(path) }
    private func display(_ url: URL) -> String { context.paths.display(url) }
    private func say(_ text: String) { context.say(text) }

    func run() throws {
        let clockStart = DispatchTime.now()
        let requestDir = url(requests)
        // Request files directly in the folder; links inside the repository are followed, one that leads
        // outside is an error (RepositoryConfinement).
        var requestFiles = try RepositoryConfinement(root: root).inputFiles(under: requestDir, suffix: ".yaml")
            .filter { !$0.contains("/") }.map { requestDir.appendingPathComponent($0) }
        let known = requestFiles.map { $0.deletingPathExtension().lastPathComponent }
        if !only.isEmpty {
            for id in only where !known.contains(id) {
                // --request takes an id, never a path: nothing outside the requests folder can be named.
                throw PipelineError.usage(
                    "no request '\(id)' in \(display(requestDir)) (known: \(known.joined(separator: ", ")))."
                        + " Pass a request id: the name of a .yaml file in \(display(requestDir)), without the folder or .yaml")
            }
            requestFiles = requestFiles.filter { only.contains($0.deletingPathExtension().lastPathComponent) }
        }

        // Load only the games files the requests can need (their sports and dates); when a request does
        // not resolve against that, resolve everything against the whole store, so messages never depend
        // on what was skipped.
        var requestData: [(URL, Data)] = []
        var problems: [Diagnostic] = []
        for file in requestFiles {
            guard let data = try InputFiles.readIfPresent(file, path: display(file), kind: .yaml) else {
                problems.append(
                    Diagnostic(
                        .error, at: SourceLocation(path: display(file)), "cannot read the request",
                        fix: "Check the file's permissions"))
                continue
            }
            requestData.append((file, data))
        }
        if !problems.isEmpty { throw PipelineError.invalidInputs(problems) }
        let scopes = requestData.map { RequestResolver.scope(data: $0.1, path: display($0.0)) }
        var store = try readStore(scopes.contains(nil) ? nil : scopes.compactMap { $0 })
        var resolved: [(PlanRequest, URL, Data)] = []
        func resolveAll() throws {
            resolved = []
            problems = []
            for (file, data) in requestData {
                do {
                    resolved.append((try RequestResolver.resolve(data: data, path: display(file), catalog: store.catalog), file, data))
                } catch let error as PipelineError {
                    problems += error.diagnostics
                }
            }
        }
        try resolveAll()
        if !problems.isEmpty, store.isPartial {
            store = try readStore(nil)
            try resolveAll()
        }
        if !problems.isEmpty { throw PipelineError.invalidInputs(problems) }
        // The search state each request implies, bounded before any search is built.
        problems = resolved.compactMap { request, file, data in
            PlanBudget.check(request, catalog: store.catalog) {
                YAMLLocator(text: String(decoding: data, as: UTF8.self), path: display(file)).location(["firstDate"])
            }
        }
        if !problems.isEmpty { throw PipelineError.invalidInputs(problems) }

        let outDir = url(out)
        var written: Set<String> = []
        // The requests are planned on every core (each plan is a pure function of its request and the
        // store), then written and reported one by one in request order.
        let catalog = store.catalog
        let planned = resolved.map(\.0).parallelMap { request -> (plan: TripPlan, ms: Double, cpuMs: Double) in
            let started = DispatchTime.now()
            let cpuStarted = Self.cpuSeconds()
            let plan = TripPlanner.plan(request, catalog: catalog)
            let cpuMs = (Self.cpuSeconds() - cpuStarted) * 1000
            let ms = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e6
            return (plan, ms, cpuMs)
        }
        for ((request, file, data), (plan, ms, cpuMs)) in zip(resolved, planned) {
            var inputs = [InputReference(path: display(file), sha256: ArtifactFiles.sha256(data))]
            inputs += store.fixedInputs
            inputs += store.gameInputs(for: request)
            let envelope = Envelope(
                kind: .tripPlan, producer: Producer(stage: "plan"), inputs: inputs,
                meta: [.request: request.id], records: [plan])
            let target = outDir.appendingPathComponent("\(request.id).json")
            let changed = try ArtifactFiles.write(try envelope.canonicalData(), to: target)
            written.insert(target.lastPathComponent)
            let summary: String
            if let best = plan.options.first {
                summary =
                    "\(plan.options.count) option\(plan.options.count == 1 ? "" : "s"), best \(best.score.games) games at "
                    + "\(best.score.distinctStadiums) stadiums, \(best.score.drivingHours) h driving"
                    + (best.isProvenOptimal ? " (proven optimal)" : "")
            } else {
                summary = "no trip: \(plan.infeasibility ?? "")"
            }
            say(
                "plan: \(request.id): \(summary) [\(plan.search.method), \(plan.search.candidateGames) games, "
                    + "\(plan.search.arcs) arcs, \(String(format: "%.1f", ms)) ms, \(String(format: "%.1f", cpuMs)) ms cpu]\(changed ? "" : " (unchanged)")"
            )
        }

        // A full run removes plans of requests that no longer exist.
        if only.isEmpty {
            for stale in OutputPruning.staleFiles(in: outDir, suffix: ".json", keeping: written, directly: true) {
                guard let data = (try? InputFiles.readIfPresent(stale, path: display(stale), kind: .artifact)) ?? nil,
                    (try? EnvelopeReader.header(of: data, path: display(stale), expecting: .tripPlan)) != nil
                else { continue }
                try FileManager.default.removeItem(at: stale)
                say("plan: removed \(display(stale)) (no request \(stale.deletingPathExtension().lastPathComponent) any more)")
            }
        }
        if let depfile {
            // What the plans depend on, for the runner (its Depfile): the request files (the folder when every
            // request was planned, since stale plans are removed by its listing), the store's fixed files, and
            // the games files the requests' scopes can reach, as one glob per sport so that a new season of a
            // sport counts too.
            var reads = only.isEmpty ? [display(requestDir)] : requestData.map { display($0.0) }
            reads += store.fixedInputs.map(\.path) + store.gameReads
            _ = try ArtifactFiles.write(Data((reads.sorted().joined(separator: "\n") + "\n").utf8), to: url(depfile))
        }
        let total = Double(DispatchTime.now().uptimeNanoseconds - clockStart.uptimeNanoseconds) / 1e6
        say("plan: \(resolved.count) request\(resolved.count == 1 ? "" : "s") planned in \(String(format: "%.0f", total)) ms")
    }

    /// CPU time of this thread, so timings stay meaningful on a busy machine.
    static func cpuSeconds() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }

    struct Store {
        var catalog: PlanCatalog
        var fixedInputs: [InputReference]
        /// Per games file: its input reference and the (sport, first date, last date) it covers.
        var gameFiles: [(input: InputReference, sports: Set<String>, first: LocalDate, last: LocalDate)]
        /// Whether some games files were left unread (they cannot hold a game the requests need).
        var isPartial = false
        /// The games files the plans depend on, as `--depfile` lists them: the games folder when it was
        /// read whole; else per sport of the scopes a glob `games/<sport>-*.json` (every file whose name
        /// could pass `nameMayBeNeeded`, present or added later) and each named season's file.
        var gameReads: [String] = []

        func gameInputs(for request: PlanRequest) -> [InputReference] {
            gameFiles.filter { file in
                !file.sports.isDisjoint(with: request.sports) && file.first <= request.lastDate && request.firstDate <= file.last
            }.map(\.input)
        }
    }

    /// The merged store; with `scopes`, only the games files that one of them can need (by the dates in
    /// the file's meta, or the season a must-see game names). A file whose header does not say is read.
    func readStore(_ scopes: [RequestResolver.Scope]?) throws -> Store {
        let dir = url(merged)
        try InputFiles.confine(dir)
        let paths = context.paths
        @Sendable func load<R: Codable & Sendable>(_ type: R.Type, _ name: String, _ kind: ArtifactKind) throws -> ([R], InputReference) {
            let file = dir.appendingPathComponent(name)
            let (envelope, input) = try InputFiles.envelope(
                type, at: file, path: paths.display(file), expecting: kind, problem: "cannot read the merged store file",
                fix: "Run sportstime-merge first (or pass --merged)")
            return (envelope.records, input)
        }
        // The alias files give the names teams and stadiums had on a game's date; a store without them (one
        // assembled by hand) plans with today's names.
        @Sendable func aliases<R: Codable & Sendable>(_ type: R.Type, _ name: String, _ kind: ArtifactKind) throws -> (
            [R], [InputReference]
        ) {
            guard FileManager.default.fileExists(atPath: dir.appendingPathComponent(name).path) else { return ([], []) }
            let (records, input) = try load(type, name, kind)
            return (records, [input])
        }
        // Sports, stadiums and teams are read on another core while the games files are read.
        let fixed = Background {
            (
                try load(Sport.self, "sports.json", .sports), try load(Stadium.self, "stadiums.json", .stadiums),
                try load(Team.self, "teams.json", .teams), try aliases(TeamAlias.self, "team-aliases.json", .teamAliases),
                try aliases(StadiumAlias.self, "stadium-aliases.json", .stadiumAliases)
            )
        }
        let gamesRead = Result { try readGames(dir, scopes) }
        let (
            (sports, sportsInput), (stadiums, stadiumsInput), (teams, teamsInput), (teamAliases, teamAliasesInput),
            (stadiumAliases, stadiumAliasesInput)
        ) = try fixed.value()
        let (games, gameFiles, skipped, readsWholeFolder) = try gamesRead.get()
        let catalog = PlanCatalog(
            sports: sports, stadiums: stadiums, teams: teams, games: games, teamAliases: teamAliases,
            stadiumAliases: stadiumAliases)
        let gamesDir = dir.appendingPathComponent("games")
        var gameReads = [display(gamesDir)]
        if let scopes, !readsWholeFolder {
            let sports = Set(scopes.flatMap(\.sports)), seasons = Set(scopes.flatMap(\.seasonsNamed))
            gameReads =
                sports.sorted().map { display(gamesDir) + "/\($0)-*.json" }
                + seasons.filter { season in !sports.contains { season.hasPrefix($0 + "-") } }.sorted().map {
                    display(gamesDir) + "/\($0).json"
                }
        }
        return Store(
            catalog: catalog,
            fixedInputs: [sportsInput, stadiumsInput, teamsInput] + teamAliasesInput + stadiumAliasesInput, gameFiles: gameFiles,
            isPartial: skipped > 0, gameReads: gameReads)
    }

    /// The games files of the store under `dir` that `scopes` can need (all with nil): their games, each
    /// file's input reference and span, how many were skipped, and whether the folder was read whole.
    private func readGames(_ dir: URL, _ scopes: [RequestResolver.Scope]?) throws -> (
        games: [Game], files: [(input: InputReference, sports: Set<String>, first: LocalDate, last: LocalDate)],
        skipped: Int, readsWholeFolder: Bool
    ) {
        var games: [Game] = []
        var gameFiles: [(InputReference, Set<String>, LocalDate, LocalDate)] = []
        var skipped = 0
        let gamesDir = dir.appendingPathComponent("games")
        var readsWholeFolder = scopes == nil
        for file in ArtifactFiles.files(under: gamesDir, suffix: ".json") {
            let path = display(file)
            if let scopes {
                // By name first: a file the name rules out is never opened, so what the plans depend on is
                // exactly the files the names let through (gameReads).
                let isDirect = file.deletingLastPathComponent().standardizedFileURL.path == gamesDir.standardizedFileURL.path
                if isDirect && !Self.nameMayBeNeeded(file.lastPathComponent, by: scopes) { skipped += 1; continue }
                if !isDirect { readsWholeFolder = true }
                if !Self.mayBeNeeded(file, by: scopes) { skipped += 1; continue }
            }
            guard let data = try InputFiles.readIfPresent(file, path: path, kind: .artifact) else { continue }
            // The file's digest worked out on another core while its records are decoded.
            let digest = Background { ArtifactFiles.sha256(data) }
            let envelope = try EnvelopeReader.read(Game.self, from: data, path: path, expecting: .games)
            // The span and sports of its live games, read in place (a filtered copy retained every string).
            var span: (first: LocalDate, last: LocalDate)?
            var sports: Set<String> = []
            for index in envelope.records.indices where envelope.records[index].deprecatedAt == nil {
                let date = envelope.records[index].localDate
                span = span.map { (min($0.first, date), max($0.last, date)) } ?? (date, date)
                sports.insert(envelope.records[index].sport)
            }
            if let span { gameFiles.append((InputReference(path: path, sha256: digest.value()), sports, span.first, span.last)) }
            if games.isEmpty { games = envelope.records } else { games += envelope.records }
        }
        return (games, gameFiles, skipped, readsWholeFolder)
    }

    /// Whether a games file named `name` (`<sport>-<season>.json`, as merge names them) can hold a game
    /// one of `scopes` needs: its sport is one of a scope's, or it is the season a must-see game names.
    static func nameMayBeNeeded(_ name: String, by scopes: [RequestResolver.Scope]) -> Bool {
        let stem = name.hasSuffix(".json") ? String(name.dropLast(5)) : name
        return scopes.contains { scope in
            scope.seasonsNamed.contains(stem) || scope.sports.contains { stem.hasPrefix($0 + "-") }
        }
    }

    /// Whether a games file may hold a game one of `scopes` needs: its meta (on the header line before the
    /// records, read from the first 4 KiB) names a sport of the scope and dates that overlap its window,
    /// or the file is the sport-season a must-see game names. Unknown → needed.
    static func mayBeNeeded(_ file: URL, by scopes: [RequestResolver.Scope]) -> Bool {
        // A file that may not be read is "needed", so reading it reports the link.
        guard InputFiles.isConfined(file), let handle = try? FileHandle(forReadingFrom: file) else { return true }
        defer { try? handle.close() }
        let head = String(decoding: (try? handle.read(upToCount: 4096)) ?? Data(), as: UTF8.self)
        guard let line = head.split(separator: "\n").first(where: { $0.hasPrefix("  \"meta\": {") }),
            let meta = try? CanonicalJSON.decode(
                [MetaKey: String].self, from: Data(line.dropFirst("  \"meta\": ".count).dropLast(line.hasSuffix(",") ? 1 : 0).utf8)),
            let sport = meta[.sport], let season = meta[.season],
            let first = meta[.firstDate].flatMap(LocalDate.init(iso8601:)),
            let last = meta[.lastDate].flatMap(LocalDate.init(iso8601:))
        else { return true }
        return scopes.contains { scope in
            scope.seasonsNamed.contains("\(sport)-\(season)")
                || (scope.sports.contains(sport) && first <= scope.last && scope.first <= last)
        }
    }
}
