import Foundation
import SportsTimeCore

/// `sportstime-render`'s work, the command layer of the render stage (the only part that touches the
/// disk and starts processes; `RenderStage` is the pure rendering): read the plans and the merged store,
/// render, write, prune folders no plan produces, then make PDFs. Callable from tests without a subprocess.
public struct RenderRun: Sendable {
    /// Where the PDFs come from.
    public enum PDFChoice: Sendable, Equatable {
        /// `--no-pdf`.
        case none
        /// `--pdf-engine PATH`.
        case engine(String)
        /// The project's own WeasyPrint (`.venv/bin/weasyprint`), when installed.
        case installed
    }

    /// The command's options, paths as given (relative to the current folder: `CommandPaths`).
    public struct Options: Sendable {
        public var plans = "out/plan"
        public var merged = "out/merge"
        public var out = "out/render"
        public var geo = "fixtures/geo"
        public var paper = PaperSize.letter
        public var pdf = PDFChoice.installed
        public init() {}
    }

    let command: Options
    let paths: CommandPaths
    /// Where progress lines, notes and warnings go (standard error in the executable).
    let say: @Sendable (String) -> Void

    public init(_ options: Options, paths: CommandPaths = CommandPaths(), say: @escaping @Sendable (String) -> Void) {
        self.command = options
        self.paths = paths
        self.say = say
    }

    func url(_ path: String) -> URL { paths.url(path) }
    func display(_ url: URL) -> String { paths.display(url) }
    private func printError(_ text: String) { say(text) }

    public func execute() throws {
        let plansURL = url(command.plans), mergedURL = url(command.merged), outURL = url(command.out)
        // The map outlines parsed on another core while the store and the plans are read; a problem with
        // them is still reported first.
        let geoURL = url(command.geo)
        let baseMapLoad = Background { () throws -> BaseMap in try self.loadBaseMap(geoURL) }
        let read = Result { () throws -> ([Sport], [Stadium], [(plan: TripPlan, path: String)], [String: Instant]) in
            let sports: [Sport] = try readEnvelope(Sport.self, mergedURL.appendingPathComponent("sports.json"), .sports)
            let stadiums: [Stadium] = try readEnvelope(Stadium.self, mergedURL.appendingPathComponent("stadiums.json"), .stadiums)
            let loaded = try loadPlans(plansURL)
            let lastModified = try loadGameStamps(mergedURL.appendingPathComponent("games"), plans: loaded.map(\.plan))
            return (sports, stadiums, loaded, lastModified)
        }
        let baseMap = try baseMapLoad.value()
        let (sports, stadiums, loaded, lastModified) = try read.get()
        let catalog = RenderCatalog(sports: sports, stadiums: stadiums, gameLastModified: lastModified)
        let context = RenderContext(catalog: catalog, baseMap: baseMap, paper: command.paper)

        var changed = 0, written = 0
        var htmlChanged: Set<String> = []
        // Each plan rendered on its own core (rendering is pure: plan and context in, files out), its files
        // handed to the write queue (their flushes to disk overlap the rendering of the next);
        // diagnostics and counts taken in plan order.
        let writes = FileWriteQueue()
        let itineraries = loaded.parallelMap { item in
            let itinerary = RenderStage.render(item.plan, context: context, planPath: item.path)
            let folder = outURL.appendingPathComponent(item.plan.id, isDirectory: true)
            let numbers = itinerary.files.map { file in writes.write(file.data, to: folder.appendingPathComponent(file.name)) }
            return (itinerary, numbers)
        }
        let index = writes.write(
            RenderStage.index(of: loaded.map(\.plan), catalog: catalog), to: outURL.appendingPathComponent(RenderStage.indexName))
        let changedWrites = try finish(writes, into: outURL)
        for ((plan, _), (itinerary, numbers)) in zip(loaded, itineraries) {
            for diagnostic in itinerary.diagnostics { printError(diagnostic.description) }
            for (file, number) in zip(itinerary.files, numbers) {
                written += 1
                if changedWrites.contains(number) {
                    changed += 1
                    if file.name == RenderStage.htmlName { htmlChanged.insert(plan.id) }
                }
            }
        }
        if changedWrites.contains(index) { changed += 1 }
        written += 1
        try pruneStaleFolders(in: outURL, keeping: Set(loaded.map(\.plan.id)))
        printError(
            "sportstime-render: \(loaded.count) itinerar\(loaded.count == 1 ? "y" : "ies") in \(display(outURL)) "
                + "(\(written) files, \(changed) changed)")
        try makePDFs(for: loaded.map(\.plan), in: outURL, htmlChanged: htmlChanged)
    }

    // MARK: Reading

    private func readEnvelope<Record: Codable & Sendable>(_ type: Record.Type, _ file: URL, _ kind: ArtifactKind) throws -> [Record] {
        guard FileManager.default.fileExists(atPath: file.path) else {
            throw PipelineError.invalidInput(
                Diagnostic(
                    .error, at: SourceLocation(path: display(file)),
                    "missing (render needs the merged \(kind.rawValue) records)",
                    fix: "Run merge first (make merge), or pass --merged"))
        }
        return try EnvelopeReader.read(type, at: file, displayPath: display(file), expecting: kind).records
    }

    private func loadBaseMap(_ folder: URL) throws -> BaseMap {
        try InputFiles.confine(folder)
        @Sendable func shapes(_ name: String) throws -> [BaseMap.Shape] {
            let file = folder.appendingPathComponent(name)
            guard let data = try InputFiles.readIfPresent(file, path: display(file), kind: .artifact) else {
                throw PipelineError.invalidInput(
                    Diagnostic(
                        .error, at: SourceLocation(path: display(file)),
                        "map outlines missing",
                        fix: "Pass --geo with the folder holding us-states.json and countries.geojson (fixtures/geo)"))
            }
            do { return try BaseMap.shapes(fromGeoJSON: data) } catch {
                throw PipelineError.invalidInput(
                    Diagnostic(
                        .error, at: SourceLocation(path: display(file)),
                        "not usable map outlines: \(error)", fix: "Restore the file from fixtures/geo"))
            }
        }
        // The two outline files parsed at the same time (the countries on this thread).
        let regions = Background { try shapes("us-states.json") }
        let countries = Result { try shapes("countries.geojson") }
        return BaseMap(countries: try countries.get(), regions: try regions.value())
    }

    /// Every trip plan in the folder (top level), sorted by id; other artifact kinds are skipped with a note.
    private func loadPlans(_ folder: URL) throws -> [(plan: TripPlan, path: String)] {
        try InputFiles.confine(folder)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw PipelineError.invalidInput(
                Diagnostic(
                    .error, at: SourceLocation(path: display(folder)),
                    "no plans folder", fix: "Run plan first (make plan), or pass --plans"))
        }
        let files = try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "json" && !$0.lastPathComponent.hasPrefix(".") }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
        var result: [(plan: TripPlan, path: String)] = []
        var seen: [String: String] = [:]
        var problems: [Diagnostic] = []
        // Each file read and decoded on its own core; what they hold is then taken in path order.
        let decoded = files.parallelMap { file in
            let path = display(file)
            let data: Data?
            do { data = try InputFiles.readIfPresent(file, path: path, kind: .artifact) } catch {
                return (path, PlanFile.read(.failure(error)))
            }
            guard let data else { return (path, PlanFile.unreadable) }
            if let header = try? CanonicalJSON.decode(EnvelopeHeader.self, from: data),
                header.kind != ArtifactKind.tripPlan.rawValue
            {
                return (path, PlanFile.otherKind(header.kind))
            }
            return (path, PlanFile.read(Result { try EnvelopeReader.read(TripPlan.self, from: data, path: path, expecting: .tripPlan) }))
        }
        for (path, file) in decoded {
            let read: Result<Envelope<TripPlan>, any Error>
            switch file {
            case .unreadable:
                problems.append(Diagnostic(.error, at: SourceLocation(path: path), "cannot read file", fix: "Check its permissions"))
                continue
            case .otherKind(let kind):
                printError("\(path): note: skipped, kind '\(kind)' is not a trip plan.")
                continue
            case .read(let outcome): read = outcome
            }
            do {
                let envelope = try read.get()
                for plan in envelope.records {
                    if let other = seen[plan.id] {
                        problems.append(
                            Diagnostic(
                                .error, at: SourceLocation(path: path),
                                "plan '\(plan.id)' is also in \(other)", fix: "Keep one plan per request id"))
                    } else if !RenderStage.isSafeFolderName(plan.id) {
                        problems.append(
                            Diagnostic(
                                .error, at: SourceLocation(path: path),
                                "plan id '\(plan.id)' cannot name a folder", fix: "Use a slug id for the request"))
                    } else {
                        seen[plan.id] = path
                        result.append((plan, path))
                    }
                }
            } catch let error as PipelineError {
                problems.append(contentsOf: error.diagnostics)
            }
        }
        if !problems.isEmpty { throw PipelineError.invalidInputs(problems) }
        return result.sorted { $0.plan.id < $1.plan.id }
    }

    /// A file of the plans folder, as read on its own core.
    private enum PlanFile: Sendable {
        case unreadable
        case otherKind(String)
        case read(Result<Envelope<TripPlan>, any Error>)
    }

    /// `lastModified` of the games the plans visit, read only from the games files that can hold them
    /// (`games/<sport>-<season>.json` is a prefix of its games' ids).
    private func loadGameStamps(_ folder: URL, plans: [TripPlan]) throws -> [String: Instant] {
        let wanted = Set(plans.flatMap { $0.options.flatMap { $0.visits.map(\.gameId) } })
        guard !wanted.isEmpty else { return [:] }
        var stamps: [String: Instant] = [:]
        let files = ArtifactFiles.files(under: folder, suffix: ".json").filter { file in
            let stem = file.deletingPathExtension().lastPathComponent + "-"
            return wanted.contains(where: { $0.hasPrefix(stem) })
        }.map { (url: $0, path: display($0)) }
        // The season files read on all cores, each decoding only the games the plans visit; the first
        // failure in path order is reported.
        let read = files.parallelMap { file in
            Result { try EnvelopeReader.records(Game.self, at: file.url, displayPath: file.path, expecting: .games, ids: wanted) }
        }
        for result in read {
            let games = try result.get()
            for game in games {
                if let existing = stamps[game.id] {
                    stamps[game.id] = max(existing, game.lastModified)
                } else {
                    stamps[game.id] = game.lastModified
                }
            }
        }
        return stamps
    }

    // MARK: Writing

    private func write(_ data: Data, to file: URL) throws -> Bool {
        do { return try ArtifactFiles.write(data, to: file) } catch let error as PipelineError { throw error } catch {
            throw PipelineError.failure(
                Diagnostic(
                    .error, at: SourceLocation(path: display(file)),
                    "cannot write (\(error.localizedDescription))", fix: "Check the output folder"))
        }
    }

    /// Waits for the queued writes: the numbers of those whose file changed, or the failure whose path sorts first.
    private func finish(_ writes: FileWriteQueue, into outURL: URL) throws -> Set<Int> {
        do { return try writes.finish() } catch let error as PipelineError { throw error } catch {
            throw PipelineError.failure(
                Diagnostic(
                    .error, at: SourceLocation(path: display(outURL)),
                    "cannot write (\(error.localizedDescription))", fix: "Check the output folder"))
        }
    }

    /// Removes request folders no plan produces any more, when they hold only render's own files.
    private func pruneStaleFolders(in outURL: URL, keeping ids: Set<String>) throws {
        let ownFiles: Set<String> = [
            RenderStage.markdownName, RenderStage.htmlName, RenderStage.calendarName,
            RenderStage.geoJSONName, RenderStage.pdfName,
        ]
        for folder in OutputPruning.staleFolders(in: outURL, keeping: ids, ownFiles: ownFiles) {
            if folder.holdsOnlyOwnFiles {
                try FileManager.default.removeItem(at: folder.url)
                printError("sportstime-render: removed \(display(folder.url))/ (its plan is gone)")
            } else {
                printError("\(display(folder.url)): warning: no plan renders this folder, but it holds other files; left in place.")
            }
        }
    }

    // MARK: PDF

    private func makePDFs(for plans: [TripPlan], in outURL: URL, htmlChanged: Set<String>) throws {
        let manager = FileManager.default
        if command.pdf == .none {
            try removeStalePDFs(plans, in: outURL, htmlChanged: htmlChanged)
            printError("sportstime-render: no PDF made (--no-pdf).")
            return
        }
        let engine: URL
        if case .engine(let path) = command.pdf {
            engine = url(path)
        } else {
            let candidate = paths.root.appendingPathComponent(".venv/bin/weasyprint")
            guard manager.isExecutableFile(atPath: candidate.path) else {
                try removeStalePDFs(plans, in: outURL, htmlChanged: htmlChanged)
                printError(
                    "sportstime-render: no PDF made: WeasyPrint was not found at \(display(candidate)). "
                        + "Run `make pdf` to install it (pipeline/tools/install-pdf-engine.sh) and make the PDFs, or pass --pdf-engine PATH."
                )
                return
            }
            engine = candidate
        }
        // One engine process per itinerary, as many at once as there are cores; written in plan order.
        let jobs = plans.map { plan -> PDFEngine.Job in
            let folder = outURL.appendingPathComponent(plan.id, isDirectory: true)
            return PDFEngine.Job(
                html: folder.appendingPathComponent(RenderStage.htmlName),
                scratch: manager.temporaryDirectory.appendingPathComponent(
                    "sportstime-render-\(ProcessInfo.processInfo.processIdentifier)-\(plan.id).pdf"),
                identifier: "sportstime-\(plan.id)")
        }
        let results = PDFEngine.runAll(engine, jobs)
        var failures: [Diagnostic] = []
        var failed: [TripPlan] = []
        var made = 0
        for (plan, (job, result)) in zip(plans, zip(jobs, results)) {
            defer { try? manager.removeItem(at: job.scratch) }
            guard case .success(let run) = result, run.status == 0,
                let data = manager.contents(atPath: job.scratch.path), !data.isEmpty
            else {
                let detail: String
                switch result {
                case .failure(let error): detail = "cannot start it (\(error.localizedDescription))"
                case .success(let run):
                    let text = run.errorText.trimmingCharacters(in: .whitespacesAndNewlines)
                    detail = "exited \(run.status)" + (text.isEmpty ? "" : ": \(text)")
                }
                failures.append(
                    Diagnostic(
                        .error, at: SourceLocation(path: display(job.html)), "\(display(engine)) \(detail)",
                        fix: "Check the engine with `\(display(engine)) --info`, or re-install it with `make pdf`"))
                failed.append(plan)
                continue
            }
            _ = try write(data, to: outURL.appendingPathComponent(plan.id).appendingPathComponent(RenderStage.pdfName))
            made += 1
        }
        if !failures.isEmpty {
            try removeStalePDFs(failed, in: outURL, htmlChanged: htmlChanged)
            if failures.count == 1 { throw PipelineError.failure(failures[0]) }
            for failure in failures { printError(failure.description) }
            throw PipelineError.failure(
                Diagnostic(
                    .error, "\(failures.count) of \(plans.count) PDFs were not made",
                    fix: "See the messages above; everything else was written"))
        }
        printError("sportstime-render: \(made) PDF\(made == 1 ? "" : "s") made with \(display(engine)).")
    }

    /// A PDF whose HTML just changed no longer matches it: remove it rather than leave it stale.
    private func removeStalePDFs(_ plans: [TripPlan], in outURL: URL, htmlChanged: Set<String>) throws {
        for plan in plans where htmlChanged.contains(plan.id) {
            let pdf = outURL.appendingPathComponent(plan.id).appendingPathComponent(RenderStage.pdfName)
            if FileManager.default.fileExists(atPath: pdf.path) {
                try FileManager.default.removeItem(at: pdf)
                printError("sportstime-render: removed \(display(pdf)) (its HTML changed).")
            }
        }
    }
}
