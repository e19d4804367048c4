import Foundation
import SportsTimeCore

/// Runs the PDF engine, reading its output pipes while it runs so a chatty engine cannot block.
public enum PDFEngine {
    public struct Result: Sendable { public var status: Int32; public var outputText: String; public var errorText: String }

    /// One HTML file to turn into a PDF at `scratch`.
    struct Job: Sendable {
        var html: URL
        var scratch: URL
        /// The PDF's file identifier, fixed so the same HTML gives the same bytes.
        var identifier: String
    }

    /// Runs the engine for every job, up to one process per core at a time; results in job order.
    static func runAll(_ engine: URL, _ jobs: [Job]) -> [Swift.Result<Result, Error>] {
        jobs.parallelMap { job in
            Swift.Result {
                try run(engine, arguments: ["--quiet", "--pdf-identifier", job.identifier, job.html.path, job.scratch.path])
            }
        }
    }

    /// Runs the engine once (standard input from `/dev/null`, both outputs read while it runs);
    /// `status` is its exit status, or the signal that killed it.
    static func run(_ executable: URL, arguments: [String]) throws -> Result {
        let finished = try ChildProcess.run(
            executable.path, arguments, options: ChildProcess.Options(environment: ProcessInfo.processInfo.environment))
        let status: Int32
        switch finished.termination {
        case .exited(let code): status = code
        case .signalled(let signal): status = signal
        }
        return Result(
            status: status, outputText: String(decoding: finished.output, as: UTF8.self),
            errorText: String(decoding: finished.errors, as: UTF8.self))
    }
}
