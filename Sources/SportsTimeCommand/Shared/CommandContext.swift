import Foundation
import SportsTimeCore

/// Where a command runs: its folder (and so its paths, `CommandPaths`), its environment and its two
/// output streams. An executable runs in `.process()`; a test runs a command in a context of its own
/// (`capturing`), without starting a process.
public struct CommandContext: Sendable {
    public var paths: CommandPaths
    public var environment: [String: String]
    /// Whether the command owns its process, and so may take over its signals (merge's cancellation,
    /// the runner's interrupt watcher). False in tests that run a command inside the test process.
    public var ownsProcess: Bool
    /// Text for standard output, as is.
    public var writeOutput: @Sendable (String) -> Void
    /// Text for standard error, as is.
    public var writeError: @Sendable (String) -> Void

    /// This process: its current folder, environment, standard output and standard error.
    public static func process() -> CommandContext {
        CommandContext(
            paths: CommandPaths(), environment: ProcessInfo.processInfo.environment, ownsProcess: true,
            writeOutput: { FileHandle.standardOutput.write(Data($0.utf8)) },
            writeError: { FileHandle.standardError.write(Data($0.utf8)) })
    }

    /// A command run in `folder` inside this process, with `environment` and both streams kept.
    public static func capturing(in folder: URL, environment: [String: String] = [:]) -> (CommandContext, CapturedStreams) {
        let streams = CapturedStreams()
        let context = CommandContext(
            paths: CommandPaths(cwd: folder), environment: environment, ownsProcess: false,
            writeOutput: { text in streams.text.withLock { $0.output += text } },
            writeError: { text in streams.text.withLock { $0.error += text } })
        return (context, streams)
    }

    /// Keeps `value` (a stage's records and results) alive until the process exits, when the command
    /// owns its process: the process ends right after the command and gives its memory back at once,
    /// where freeing a store of games object by object takes a tenth of a large merge's main thread.
    /// Inside a test process the value is freed as usual.
    public func keepUntilExit<Value>(_ value: Value) {
        guard ownsProcess else { return }
        _ = Unmanaged.passRetained(KeptUntilExit(value))
    }

    /// One line on standard error: progress, notes, warnings and errors.
    public func say(_ line: String) { writeError(line + "\n") }

    /// Prints `error`'s diagnostics, one a line in the house format (`path:line:col: error: what. what to
    /// do.`), and returns the exit status it maps to (1 failure, 2 invalid spec or input, 64 usage).
    public func report(_ error: PipelineError) -> Int32 {
        for diagnostic in error.reported { say(diagnostic.description) }
        return error.exitCode
    }
}

/// A value `CommandContext.keepUntilExit` never frees.
private final class KeptUntilExit<Value> {
    let value: Value
    init(_ value: Value) { self.value = value }
}

/// What a command run with `CommandContext.capturing` wrote.
public final class CapturedStreams: Sendable {
    let text = Locked((output: "", error: ""))
    public var output: String { text.current.output }
    public var error: String { text.current.error }
}
