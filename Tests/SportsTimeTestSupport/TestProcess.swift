import Foundation

/// What a finished process did.
public struct ProcessResult: Sendable {
    /// The exit status, or the signal number when `signalled`.
    public var status: Int32
    public var signalled: Bool
    public var stdout: String
    public var stderr: String

    /// The status a shell would report: 128 + the signal for a death by signal.
    public var code: Int32 { signalled ? 128 + status : status }
}

/// Runs processes for tests: output is collected through files, so a process that writes a lot to
/// both streams never blocks on a full pipe.
public enum TestProcess {
    /// Runs `executable` with `arguments` in `folder` and waits for it. `environment` nil keeps this
    /// process's; `input` nil gives it `/dev/null` as standard input.
    public static func run(
        _ executable: URL, _ arguments: [String], in folder: URL? = nil,
        environment: [String: String]? = nil, input: Data? = nil
    ) throws -> ProcessResult {
        let running = try start(executable, arguments, in: folder, environment: environment, input: input)
        return try running.wait()
    }

    /// Starts a process and returns at once (for tests that signal it while it runs).
    public static func start(
        _ executable: URL, _ arguments: [String], in folder: URL? = nil,
        environment: [String: String]? = nil, input: Data? = nil
    ) throws -> RunningProcess {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("test-process-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        let outURL = scratch.appendingPathComponent("stdout"), errURL = scratch.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let folder { process.currentDirectoryURL = folder }
        if let environment { process.environment = environment }
        process.standardOutput = try FileHandle(forWritingTo: outURL)
        process.standardError = try FileHandle(forWritingTo: errURL)
        if let input {
            let inURL = scratch.appendingPathComponent("stdin")
            try input.write(to: inURL)
            process.standardInput = try FileHandle(forReadingFrom: inURL)
        } else {
            process.standardInput = FileHandle.nullDevice
        }
        do { try process.run() } catch {
            try? FileManager.default.removeItem(at: scratch)
            throw TestSupportError("cannot start \(executable.path): \(error)")
        }
        return RunningProcess(process: process, scratch: scratch)
    }
}

/// A process started by `TestProcess.start`.
public final class RunningProcess: @unchecked Sendable {
    public let process: Process
    private let scratch: URL

    init(process: Process, scratch: URL) {
        self.process = process
        self.scratch = scratch
    }

    deinit { try? FileManager.default.removeItem(at: scratch) }

    /// The status a shell would report once it has ended: 128 + the signal for a death by signal.
    public var code: Int32 {
        process.terminationReason == .uncaughtSignal ? 128 + process.terminationStatus : process.terminationStatus
    }

    public var pid: Int32 { process.processIdentifier }

    /// Sends `signal` to the process.
    public func signal(_ signal: Int32) { kill(process.processIdentifier, signal) }

    /// What the process has written to standard error so far.
    public var standardErrorSoFar: String {
        (try? String(contentsOf: scratch.appendingPathComponent("stderr"), encoding: .utf8)) ?? ""
    }

    /// Waits until the process has written `text` to standard error (true), or has ended or `timeout`
    /// seconds passed without it (false): a test signals a process at a point it reached, not after a guess.
    public func waitForStandardError(containing text: String, timeout: Double = 60) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if standardErrorSoFar.contains(text) { return true }
            if !process.isRunning { return standardErrorSoFar.contains(text) }
            Thread.sleep(forTimeInterval: 0.005)
        }
        return false
    }

    /// Waits for the process to end and returns what it did.
    public func wait() throws -> ProcessResult {
        process.waitUntilExit()
        let stdout = (try? String(contentsOf: scratch.appendingPathComponent("stdout"), encoding: .utf8)) ?? ""
        let stderr = (try? String(contentsOf: scratch.appendingPathComponent("stderr"), encoding: .utf8)) ?? ""
        return ProcessResult(
            status: process.terminationStatus, signalled: process.terminationReason == .uncaughtSignal,
            stdout: stdout, stderr: stderr)
    }
}
