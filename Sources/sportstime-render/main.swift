import ArgumentParser
import Foundation
import SportsTimeCore
import SportsTimeRender

extension PaperSize: ExpressibleByArgument {}

/// `sportstime-render`: turns every plan in `--plans` into an itinerary folder under `--out`.
@main
struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sportstime-render",
        abstract: "Render trip plans as Markdown, print-ready HTML, iCalendar, GeoJSON and (with WeasyPrint) PDF.",
        discussion: """
        Writes out/render/<request-id>/{itinerary.md,itinerary.html,trip.ics,route.geojson} and out/render/README.md.
        itinerary.pdf is made from the HTML when a PDF engine is found (--pdf-engine PATH, else .venv/bin/weasyprint,
        installed by `make pdf`); without one, everything else is written and a note says no PDF was made.
        Exit status: 0 ok, 1 failure (an output could not be written, or the PDF engine failed), 2 invalid plan or \
        merged store, 64 usage.
        """,
        version: SportsTimeVersion.current)

    @Option(help: "Folder of plans (sportstime.trip-plan envelopes).")
    var plans: String = "out/plan"

    @Option(help: "Folder of the merged store (sports.json, stadiums.json, games/).")
    var merged: String = "out/merge"

    @Option(help: "Folder to write the itineraries into.")
    var out: String = "out/render"

    @Option(help: "Folder with us-states.json and countries.geojson for the map outlines.")
    var geo: String = "fixtures/geo"

    @Option(help: "Paper size the HTML and PDF ask for: letter or a4.")
    var paper: PaperSize = .letter

    @Option(name: .customLong("pdf-engine"), help: "WeasyPrint executable to make itinerary.pdf with.")
    var pdfEngine: String?

    @Flag(name: .customLong("no-pdf"), help: "Do not make PDFs, even when an engine is available.")
    var noPDF = false

    func validate() throws {
        if noPDF && pdfEngine != nil { throw ValidationError("--no-pdf and --pdf-engine contradict each other; pass one.") }
        if let pdfEngine, !FileManager.default.isExecutableFile(atPath: pdfEngine) {
            throw ValidationError("--pdf-engine \(pdfEngine): no executable there. Run `make pdf` to install WeasyPrint into .venv/, or give its path.")
        }
    }

    func run() throws {
        do {
            try RenderRun(command: self).execute()
        } catch let error as PipelineError {
            for diagnostic in error.diagnostics { printError(diagnostic.description) }
            throw ExitCode(error.exitCode)
        }
    }
}

func printError(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
}

/// The command's work: read, render, write, then make PDFs.
struct RenderRun {
    let command: RenderCommand
    let root = ArtifactFiles.repositoryRoot()
    let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)

    func url(_ path: String) -> URL { URL(fileURLWithPath: path, relativeTo: cwd).standardizedFileURL }
    func display(_ url: URL) -> String { ArtifactFiles.relativePath(of: url, to: root) }

    func execute() throws {
        let plansURL = url(command.plans), mergedURL = url(command.merged), outURL = url(command.out)
        let baseMap = try loadBaseMap(url(command.geo))
        let sports: [Sport] = try readEnvelope(Sport.self, mergedURL.appendingPathComponent("sports.json"), .sports)
        let stadiums: [Stadium] = try readEnvelope(Stadium.self, mergedURL.appendingPathComponent("stadiums.json"), .stadiums)
        let loaded = try loadPlans(plansURL)
        let lastModified = try loadGameStamps(mergedURL.appendingPathComponent("games"), plans: loaded.map(\.plan))
        let catalog = RenderCatalog(sports: sports, stadiums: stadiums, gameLastModified: lastModified)
        let context = RenderContext(catalog: catalog, baseMap: baseMap, paper: command.paper)

        var changed = 0, written = 0
        var htmlChanged: Set<String> = []
        for (plan, path) in loaded {
            let itinerary = RenderStage.render(plan, context: context, planPath: path)
            for diagnostic in itinerary.diagnostics { printError(diagnostic.description) }
            let folder = outURL.appendingPathComponent(plan.id, isDirectory: true)
            for file in itinerary.files {
                let didChange = try write(file.data, to: folder.appendingPathComponent(file.name))
                written += 1
                if didChange { changed += 1; if file.name == RenderStage.htmlName { htmlChanged.insert(plan.id) } }
            }
        }
        if try write(RenderStage.index(of: loaded.map(\.plan), catalog: catalog), to: outURL.appendingPathComponent(RenderStage.indexName)) {
            changed += 1
        }
        written += 1
        try pruneStaleFolders(in: outURL, keeping: Set(loaded.map(\.plan.id)))
        printError("sportstime-render: \(loaded.count) itinerar\(loaded.count == 1 ? "y" : "ies") in \(display(outURL)) "
            + "(\(written) files, \(changed) changed)")
        try makePDFs(for: loaded.map(\.plan), in: outURL, htmlChanged: htmlChanged)
    }

    // MARK: Reading

    private func readEnvelope<Record: Codable & Sendable>(_ type: Record.Type, _ file: URL, _ kind: ArtifactKind) throws -> [Record] {
        guard FileManager.default.fileExists(atPath: file.path) else {
            throw PipelineError.invalidInput(Diagnostic(.error, at: SourceLocation(path: display(file)),
                                                        "missing (render needs the merged \(kind.rawValue) records)",
                                                        fix: "Run merge first (make merge), or pass --merged"))
        }
        return try EnvelopeReader.read(type, at: file, displayPath: display(file), expecting: kind).records
    }

    private func loadBaseMap(_ folder: URL) throws -> BaseMap {
        func shapes(_ name: String) throws -> [BaseMap.Shape] {
            let file = folder.appendingPathComponent(name)
            guard let data = FileManager.default.contents(atPath: file.path) else {
                throw PipelineError.invalidInput(Diagnostic(.error, at: SourceLocation(path: display(file)),
                                                            "map outlines missing", fix: "Pass --geo with the folder holding us-states.json and countries.geojson (fixtures/geo)"))
            }
            do { return try BaseMap.shapes(fromGeoJSON: data) } catch {
                throw PipelineError.invalidInput(Diagnostic(.error, at: SourceLocation(path: display(file)),
                                                            "not usable map outlines: \(error)", fix: "Restore the file from fixtures/geo"))
            }
        }
        return BaseMap(countries: try shapes("countries.geojson"), regions: try shapes("us-states.json"))
    }

    /// Every trip plan in the folder (top level), sorted by id; other artifact kinds are skipped with a note.
    private func loadPlans(_ folder: URL) throws -> [(plan: TripPlan, path: String)] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw PipelineError.invalidInput(Diagnostic(.error, at: SourceLocation(path: display(folder)),
                                                        "no plans folder", fix: "Run plan first (make plan), or pass --plans"))
        }
        let files = try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "json" && !$0.lastPathComponent.hasPrefix(".") }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
        var result: [(plan: TripPlan, path: String)] = []
        var seen: [String: String] = [:]
        var problems: [Diagnostic] = []
        for file in files {
            let path = display(file)
            guard let data = FileManager.default.contents(atPath: file.path) else {
                problems.append(Diagnostic(.error, at: SourceLocation(path: path), "cannot read file", fix: "Check its permissions"))
                continue
            }
            if let header = try? CanonicalJSON.decode(EnvelopeHeader.self, from: data),
               header.kind != ArtifactKind.tripPlan.rawValue {
                printError("\(path): note: skipped, kind '\(header.kind)' is not a trip plan.")
                continue
            }
            do {
                let envelope = try EnvelopeReader.read(TripPlan.self, from: data, path: path, expecting: .tripPlan)
                for plan in envelope.records {
                    if let other = seen[plan.id] {
                        problems.append(Diagnostic(.error, at: SourceLocation(path: path),
                                                   "plan '\(plan.id)' is also in \(other)", fix: "Keep one plan per request id"))
                    } else if !RenderStage.isSafeFolderName(plan.id) {
                        problems.append(Diagnostic(.error, at: SourceLocation(path: path),
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

    /// `lastModified` of the games the plans visit, read only from the games files that can hold them
    /// (`games/<sport>-<season>.json` is a prefix of its games' ids).
    private func loadGameStamps(_ folder: URL, plans: [TripPlan]) throws -> [String: Instant] {
        let wanted = Set(plans.flatMap { $0.options.flatMap { $0.visits.map(\.gameId) } })
        guard !wanted.isEmpty else { return [:] }
        var stamps: [String: Instant] = [:]
        for file in ArtifactFiles.files(under: folder, suffix: ".json") {
            let stem = file.deletingPathExtension().lastPathComponent + "-"
            guard wanted.contains(where: { $0.hasPrefix(stem) }) else { continue }
            let games = try EnvelopeReader.read(Game.self, at: file, displayPath: display(file), expecting: .games).records
            for game in games where wanted.contains(game.id) {
                if let existing = stamps[game.id] { stamps[game.id] = max(existing, game.lastModified) } else { stamps[game.id] = game.lastModified }
            }
        }
        return stamps
    }

    // MARK: Writing

    private func write(_ data: Data, to file: URL) throws -> Bool {
        do { return try ArtifactFiles.write(data, to: file) } catch let error as PipelineError { throw error } catch {
            throw PipelineError.failure(Diagnostic(.error, at: SourceLocation(path: display(file)),
                                                   "cannot write (\(error.localizedDescription))", fix: "Check the output folder"))
        }
    }

    /// Removes request folders no plan produces any more, when they hold only render's own files.
    private func pruneStaleFolders(in outURL: URL, keeping ids: Set<String>) throws {
        let manager = FileManager.default
        guard let entries = try? manager.contentsOfDirectory(at: outURL, includingPropertiesForKeys: [.isDirectoryKey]) else { return }
        let ownFiles: Set<String> = [RenderStage.markdownName, RenderStage.htmlName, RenderStage.calendarName,
                                     RenderStage.geoJSONName, RenderStage.pdfName]
        for entry in entries.sorted(by: { $0.path < $1.path }) {
            guard (try? entry.resourceValues(forKeys: [.isDirectoryKey]).isDirectory) == true,
                  !entry.lastPathComponent.hasPrefix("."), !ids.contains(entry.lastPathComponent) else { continue }
            let contents = (try? manager.contentsOfDirectory(atPath: entry.path)) ?? []
            if contents.allSatisfy({ ownFiles.contains($0) }) {
                try manager.removeItem(at: entry)
                printError("sportstime-render: removed \(display(entry))/ (its plan is gone)")
            } else {
                printError("\(display(entry)): warning: no plan renders this folder, but it holds other files; left in place.")
            }
        }
    }

    // MARK: PDF

    private func makePDFs(for plans: [TripPlan], in outURL: URL, htmlChanged: Set<String>) throws {
        let manager = FileManager.default
        if command.noPDF {
            try removeStalePDFs(plans, in: outURL, htmlChanged: htmlChanged)
            printError("sportstime-render: no PDF made (--no-pdf).")
            return
        }
        let engine: URL
        if let path = command.pdfEngine {
            engine = url(path)
        } else {
            let candidate = root.appendingPathComponent(".venv/bin/weasyprint")
            guard manager.isExecutableFile(atPath: candidate.path) else {
                try removeStalePDFs(plans, in: outURL, htmlChanged: htmlChanged)
                printError("sportstime-render: no PDF made: WeasyPrint was not found at \(display(candidate)). "
                    + "Run `make pdf` to install it (pipeline/tools/install-pdf-engine.sh) and make the PDFs, or pass --pdf-engine PATH.")
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
                  let data = manager.contents(atPath: job.scratch.path), !data.isEmpty else {
                let detail: String
                switch result {
                case .failure(let error): detail = "cannot start it (\(error.localizedDescription))"
                case .success(let run):
                    let text = run.errorText.trimmingCharacters(in: .whitespacesAndNewlines)
                    detail = "exited \(run.status)" + (text.isEmpty ? "" : ": \(text)")
                }
                failures.append(Diagnostic(.error, at: SourceLocation(path: display(job.html)), "\(display(engine)) \(detail)",
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
            throw PipelineError.failure(Diagnostic(.error, "\(failures.count) of \(plans.count) PDFs were not made",
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

/// Runs the PDF engine, reading its output pipes while it runs so a chatty engine cannot block.
enum PDFEngine {
    struct Result: Sendable { var status: Int32; var outputText: String; var errorText: String }

    /// One HTML file to turn into a PDF at `scratch`.
    struct Job: Sendable {
        var html: URL
        var scratch: URL
        /// The PDF's file identifier, fixed so the same HTML gives the same bytes.
        var identifier: String
    }

    /// Runs the engine for every job, up to one process per core at a time; results in job order.
    static func runAll(_ engine: URL, _ jobs: [Job]) -> [Swift.Result<Result, Error>] {
        let results = Collected<Swift.Result<Result, Error>>()
        DispatchQueue.concurrentPerform(iterations: jobs.count) { index in
            let job = jobs[index]
            let result = Swift.Result { try run(engine, arguments: ["--quiet", "--pdf-identifier", job.identifier, job.html.path, job.scratch.path]) }
            results.set(index, result)
        }
        return jobs.indices.compactMap { results.get($0) }
    }

    static func run(_ executable: URL, arguments: [String]) throws -> Result {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let stdoutPipe = Pipe(), stderrPipe = Pipe()
        process.standardOutput = stdoutPipe
        process.standardError = stderrPipe
        process.standardInput = FileHandle.nullDevice
        let collected = Collected<Data>()
        let group = DispatchGroup()
        for (index, pipe) in [stdoutPipe, stderrPipe].enumerated() {
            group.enter()
            DispatchQueue.global().async {
                let data = pipe.fileHandleForReading.readDataToEndOfFile()
                collected.set(index, data)
                group.leave()
            }
        }
        do { try process.run() } catch {
            try? stdoutPipe.fileHandleForWriting.close()
            try? stderrPipe.fileHandleForWriting.close()
            group.wait()
            throw error
        }
        // Close our copies of the write ends so the readers see end-of-file when the child exits.
        try? stdoutPipe.fileHandleForWriting.close()
        try? stderrPipe.fileHandleForWriting.close()
        process.waitUntilExit()
        group.wait()
        return Result(status: process.terminationStatus,
                      outputText: String(decoding: collected.get(0) ?? Data(), as: UTF8.self),
                      errorText: String(decoding: collected.get(1) ?? Data(), as: UTF8.self))
    }

    /// Values filled in by concurrent workers, guarded by a lock.
    private final class Collected<Value: Sendable>: Sendable {
        private let values = Locked<[Int: Value]>([:])
        func set(_ index: Int, _ value: Value) { values.withLock { $0[index] = value } }
        func get(_ index: Int) -> Value? { values.withLock { $0[index] } }
    }
}
