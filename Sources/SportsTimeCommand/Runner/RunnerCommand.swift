import ArgumentParser
import Foundation
import SportsTimeCore
import SportsTimeRunner

/// `sportstime`: runs the pipeline in `pipeline/pipeline.yaml` and explains it.
public struct RunnerCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "sportstime",
        abstract: "Run the SportsTime pipeline by content, and review what it changed.",
        discussion: """
            Run from inside the repository (the folder holding pipeline/pipeline.yaml).
            Exit status: 0 ok (status: everything up to date), 1 a stage failed (status: work pending), \
            2 invalid spec, lock or input, 64 usage, 130 stopped by SIGINT or SIGTERM.
            """,
        version: SportsTimeVersion.current,
        subcommands: [
            RunCommand.self, StatusCommand.self, DagCommand.self, DiffCommand.self, DiffFilesCommand.self,
            ExplainCommand.self, ValidateCommand.self,
        ])

    public init() {}
}

extension CommandContext {
    /// Where the runner prints: this process's console (with its live status line on a terminal), or the
    /// context's streams.
    var console: Console {
        ownsProcess ? .standard() : Console(out: writeOutput, err: writeError)
    }
}

struct RunCommand: PipelineCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run the stages whose inputs changed (all stages, or those named).",
        discussion: """
            STAGE runs just it, STAGE+ it and everything downstream, +STAGE it and everything upstream.
            A fan-out's name (plan) stands for all its instances; plan@mlb-week for one.
            """)

    @Argument(help: ArgumentHelp("Stages to run: STAGE, STAGE+ or +STAGE.", valueName: "stage"))
    var targets: [String] = []

    @Flag(help: "Run the selected stages even when they are up to date.")
    var force = false

    @Flag(help: "After a stage fails, keep running the stages that do not depend on it.")
    var keepGoing = false

    @Option(name: [.short, .long], help: "How many independent stages to run at once.")
    var jobs = 1

    func validate() throws {
        guard jobs >= 1 else { throw ValidationError("--jobs must be at least 1.") }
    }

    func execute(in context: CommandContext) throws {
        let runner = PipelineRunner(root: context.paths.root, console: context.console, environment: context.environment)
        let stop = context.ownsProcess ? InterruptWatcher { runner.interrupt(endingProcess: true) } : nil
        let code = runner.run(
            RunOptions(
                targets: targets, force: force, keepGoing: keepGoing, jobs: jobs,
                commandLine: ["sportstime"] + Array(CommandLine.arguments.dropFirst())))
        stop?.cancel()
        throw ExitCode(code)
    }
}

struct StatusCommand: PipelineCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Say for each stage whether it would run and exactly why.",
        discussion: "Exit status: 0 everything up to date, 1 work pending, 2 the spec or lock is invalid.")

    func execute(in context: CommandContext) throws {
        let runner = PipelineRunner(root: context.paths.root, console: context.console, environment: context.environment)
        throw ExitCode(runner.printStatus())
    }
}

struct DagCommand: PipelineCommand {
    static let configuration = CommandConfiguration(
        commandName: "dag", abstract: "Print the stage graph as a Mermaid flowchart.")

    @Flag(help: "Leave out the input files and folders; show stages only.")
    var stagesOnly = false

    func execute(in context: CommandContext) throws {
        let graph = try Workspace(root: context.paths.root).loadGraph()
        context.writeOutput(MermaidGraph.render(graph, showInputs: !stagesOnly))
    }
}

struct DiffCommand: PipelineCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Show record-level changes of the outputs against a git revision.",
        discussion: """
            Envelopes are compared record by record (matched by id; a game that moved to another date is \
            matched by its former or source ids), JSON Lines line by line, and any other text file (Markdown, \
            HTML, iCalendar, GeoJSON) as a unified line diff. A counts table comes first; files whose only \
            change is the hashes of their inputs are summed in one line. A trip plan leads with what the \
            traveller sees (games, days, driving, score); its search statistics are shown only with --all.
            Exit status: 0 ok (with or without changes), 1 git failed, 2 invalid spec, 64 usage (e.g. an unknown revision).
            """)

    @Argument(help: "The git revision to compare with.")
    var revision = "HEAD"

    @Option(name: .long, help: "Only this stage's outputs (repeatable; STAGE+ and +STAGE work too).")
    var stage: [String] = []

    @Flag(help: "Markdown for a pull-request comment: counts first, long lists shortened.")
    var md = false

    @Option(help: "With --md, at most this many lines per file.")
    var limit = 25

    @OptionGroup var searchStatistics: SearchStatisticsOption

    func execute(in context: CommandContext) throws {
        let diff = OutputDiff(root: context.paths.root)
        let paths = try diff.paths(stages: stage)
        let files = try diff.compare(revision: revision, paths: paths)
        let scope = OutputDiff.scope(of: paths)
        let text =
            md
            ? DiffRenderer.markdown(files, scope: scope, revision: revision, perFile: max(1, limit), showAll: searchStatistics.all)
            : DiffRenderer.plain(files, scope: scope, revision: revision, showAll: searchStatistics.all)
        context.writeOutput(text)
    }
}

struct ExplainCommand: PipelineCommand {
    static let configuration = CommandConfiguration(
        commandName: "explain",
        abstract: "Show where one merged game, team or stadium came from.",
        discussion: """
            A game (by its id or any former id): every source row that fed it (file:line), which row each part \
            came from and by which rule, its conflicts and the overrides that touched it. A team or stadium: \
            its reference lines and overrides. Reads out/merge; exit 2 when no record has the id.
            """)

    @Argument(help: "A game, team or stadium id, e.g. nfl-2023-2024-01-06-hou-at-ind.")
    var id: String

    func execute(in context: CommandContext) throws {
        context.writeOutput(try RecordExplainer(root: context.paths.root).explain(id))
    }
}

struct ValidateCommand: PipelineCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check artifacts against pipeline/schemas (every .json envelope and .jsonl file).",
        discussion: "Exit status: 0 all valid, 2 a file is invalid.")

    @Argument(help: "Files or folders to check.")
    var paths: [String] = ["out"]

    func execute(in context: CommandContext) throws {
        let (problems, files) = ArtifactCheck(root: context.paths.root).check(paths)
        for problem in problems { context.say(problem.description) }
        context.writeOutput("\(files) file\(files == 1 ? "" : "s") checked, \(problems.count) problem\(problems.count == 1 ? "" : "s").\n")
        throw ExitCode(problems.isEmpty ? ExitStatus.ok : ExitStatus.invalidInput)
    }
}

/// `--all`, of `diff` and `diff-files`.
struct SearchStatisticsOption: ParsableArguments {
    @Flag(help: "Also show the search statistics of trip plans (search.*).")
    var all = false
}

/// `sportstime diff-files`: one artifact's two versions, compared as `sportstime diff` compares them;
/// with git's seven external-diff arguments, the diff driver `.gitattributes` names (`make diff-driver`).
struct DiffFilesCommand: PipelineCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff-files",
        abstract: "Compare two versions of one artifact the way diff does (also git's external diff driver).",
        discussion: """
            OLD NEW compares two files; PATH OLD NEW names the path the artifact has in the repository (shown, \
            and how it is read: envelope, JSON Lines or text). Given git's seven external-diff arguments \
            (PATH OLD-FILE OLD-HEX OLD-MODE NEW-FILE NEW-HEX NEW-MODE; /dev/null for a side that does not exist) \
            it is the diff driver that .gitattributes names for out/**/*.json and *.jsonl: make diff-driver \
            sets git config diff.sportstime.command to it.
            Exit status: 0 ok (with or without changes), 2 a file cannot be read, 64 usage.
            """)

    @Argument(help: ArgumentHelp("OLD NEW, PATH OLD NEW, or git's seven external-diff arguments.", valueName: "file"))
    var files: [String] = []

    @OptionGroup var searchStatistics: SearchStatisticsOption

    func validate() throws {
        guard [2, 3, 7].contains(files.count) else {
            throw ValidationError("Give OLD NEW, PATH OLD NEW, or git's seven external-diff arguments (got \(files.count)).")
        }
    }

    func execute(in context: CommandContext) throws {
        let (path, old, new): (String, String, String)
        switch files.count {
        case 2: (path, old, new) = (files[1], files[0], files[1])
        case 3: (path, old, new) = (files[0], files[1], files[2])
        default: (path, old, new) = (files[0], files[1], files[4])
        }
        func read(_ file: String) throws -> Data? {
            if file == "/dev/null" { return nil }
            return try InputFiles.read(
                context.paths.url(file), path: file, kind: .artifact, problem: "cannot read the file",
                fix: "Check the path and its permissions")
        }
        let before = try read(old), after = try read(new)
        let diffs = RecordDiff.compare(old: before.map { [path: $0] } ?? [:], new: after.map { [path: $0] } ?? [:])
        context.writeOutput(DiffRenderer.plain(diffs, scope: path, revision: "its other version", showAll: searchStatistics.all))
    }
}
