import ArgumentParser
import Foundation
import SportsTimeCore

/// A command of the SportsTime executables: its work is `execute(in:)`, which reads and writes through
/// its context and reports problems by throwing `PipelineError`. The executable's entry (`run()`) and a
/// test's (`invoke(_:in:)`) both print such an error the same way and exit with its status.
public protocol PipelineCommand: ParsableCommand {
    func execute(in context: CommandContext) throws
}

extension PipelineCommand {
    /// ArgumentParser's entry: `execute` in this process. A `PipelineError` is printed and becomes the exit
    /// status; any other error (a `ValidationError`, an `ExitCode`) is ArgumentParser's to print.
    public func run() throws {
        StageLifetime.bindToRunner()
        let context = CommandContext.process()
        do {
            try execute(in: context)
        } catch let error as PipelineError {
            throw ExitCode(context.report(error))
        }
    }
}

extension ParsableCommand {
    /// Parses `arguments` as this command's (a root command's subcommands included), runs it in `context`
    /// and returns its exit status, printing what the executable would print: usage errors and help as
    /// ArgumentParser words them (64 for a usage error), problems as diagnostics. For tests: no process.
    public static func invoke(_ arguments: [String], in context: CommandContext) -> Int32 {
        do {
            var command = try parseAsRoot(arguments)
            if let command = command as? any PipelineCommand {
                try command.execute(in: context)
            } else {
                try command.run()
            }
            return ExitStatus.ok
        } catch let error as PipelineError {
            return context.report(error)
        } catch {
            let code = exitCode(for: error)
            let message = fullMessage(for: error)
            if !message.isEmpty {
                if code == .success { context.writeOutput(message + "\n") } else { context.say(message) }
            }
            return code.rawValue
        }
    }
}
