import Foundation
import SportsTimeCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How a stage's process ended.
public enum ProcessEnd: Sendable, Hashable, CustomStringConvertible {
    case exited(Int32)
    case signalled(Int32)
    case couldNotStart(String)

    public var isSuccess: Bool { self == .exited(0) }

    public var description: String {
        switch self {
        case .exited(let code): return "exited with status \(code)"
        case .signalled(let signal): return "was killed by signal \(signal)\(signal == 9 ? " (SIGKILL)" : signal == 15 ? " (SIGTERM)" : "")"
        case .couldNotStart(let why): return "could not start: \(why)"
        }
    }
}

/// Runs one stage command: argv without a shell, in the repository root, reading both output pipes
/// while the child runs (a full pipe would block it) and handing over each line as it arrives.
public final class StageProcess: @unchecked Sendable {
    private let lock = NSLock()
    private var process: Process?
    private var stopRequested = false

    public init() {}

    /// Finds `program`: a path with `/` is taken relative to `root`; a bare name is looked up in
    /// `siblingFolder` (where the runner itself lives, e.g. `.build/release`), then on `PATH`.
    public static func resolve(_ program: String, root: URL, siblingFolder: URL?, path: String?) -> URL? {
        let manager = FileManager.default
        if program.contains("/") {
            let url = program.hasPrefix("/") ? URL(fileURLWithPath: program) : root.appendingPathComponent(program)
            return manager.isExecutableFile(atPath: url.path) ? url : nil
        }
        var folders: [URL] = []
        if let siblingFolder { folders.append(siblingFolder) }
        for entry in (path ?? "").split(separator: ":") where !entry.isEmpty {
            folders.append(URL(fileURLWithPath: String(entry), relativeTo: root))
        }
        for folder in folders {
            let candidate = folder.appendingPathComponent(program)
            var isFolder: ObjCBool = false
            if manager.fileExists(atPath: candidate.path, isDirectory: &isFolder), !isFolder.boolValue,
               manager.isExecutableFile(atPath: candidate.path) {
                return candidate.standardizedFileURL
            }
        }
        return nil
    }

    /// Runs `executable` with `arguments`; `onLine(text, isError)` is called for every output line.
    public func run(executable: URL, arguments: [String], root: URL, environment: [String: String],
                    standardInput: FileHandle?, onStart: (Int32) -> Void,
                    onLine: @escaping @Sendable (String, Bool) -> Void) -> ProcessEnd {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = root
        process.environment = environment
        process.standardInput = standardInput ?? FileHandle.nullDevice
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        lock.lock()
        if stopRequested {
            lock.unlock()
            return .signalled(15)
        }
        do {
            try process.run()
        } catch {
            lock.unlock()
            return .couldNotStart(error.localizedDescription)
        }
        self.process = process
        lock.unlock()
        onStart(process.processIdentifier)

        let readers = DispatchGroup()
        for (pipe, isError) in [(out, false), (err, true)] {
            readers.enter()
            let handle = pipe.fileHandleForReading
            Thread.detachNewThread {
                var pending = Data()
                while true {
                    let chunk = handle.availableData
                    if chunk.isEmpty { break }
                    pending.append(chunk)
                    while let newline = pending.firstIndex(of: 0x0A) {
                        let line = pending[pending.startIndex..<newline]
                        onLine(String(decoding: line, as: UTF8.self), isError)
                        pending.removeSubrange(pending.startIndex...newline)
                    }
                }
                if !pending.isEmpty { onLine(String(decoding: pending, as: UTF8.self), isError) }
                readers.leave()
            }
        }
        let pid = process.processIdentifier
        #if os(Linux)
        // Foundation on Linux learns that a child ended only when every copy of a descriptor the child
        // inherited is closed, so a program the stage left running would keep it (and the pipes and the
        // workspace lock) waiting. Watch for the stage's own exit instead, without reaping it.
        Thread.detachNewThread {
            while true {
                var info = siginfo_t()
                let result = waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT | WNOHANG)
                if result != 0 { return }
                if info._sifields._sigchld.si_pid == pid {
                    Self.endLeftovers(of: pid)
                    return
                }
                usleep(10_000)
            }
        }
        process.waitUntilExit()
        #else
        process.waitUntilExit()
        Self.endLeftovers(of: pid)
        #endif
        _ = readers.wait(timeout: .now() + 10)
        lock.lock()
        self.process = nil
        lock.unlock()
        switch process.terminationReason {
        case .uncaughtSignal: return .signalled(process.terminationStatus)
        default: return .exited(process.terminationStatus)
        }
    }

    /// The stage is over: what it left running in its process group (Foundation starts each child in
    /// a group of its own) would hold the pipes and the workspace lock, so it goes too.
    private static func endLeftovers(of pid: Int32) {
        _ = kill(-pid, SIGKILL)
    }

    /// Asks a running stage to stop: SIGTERM to its process group (Foundation starts each child in a
    /// group of its own, so programs the stage started stop too). A stage not started yet will not start.
    public func stop() {
        lock.lock(); defer { lock.unlock() }
        stopRequested = true
        if let process, process.isRunning {
            if kill(-process.processIdentifier, SIGTERM) != 0 { process.terminate() }
        }
    }
}
