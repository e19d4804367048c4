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

/// Runs one stage command: argv without a shell, in the repository root, in a process group of its
/// own, reading both output pipes while the child runs (a full pipe would block it) and handing over
/// each line as it arrives.
///
/// Descriptors the stage gets: 0 is `/dev/null`, 1 and 2 are the pipes, and 3 is the workspace lock
/// (`.pipeline/lock`, an open `flock`ed file; see `WorkspaceLock`), so a stage — and whatever it
/// starts — that a killed runner left running keeps the workspace locked until it ends. Nothing else
/// is inherited. It is started by `ChildProcess` (SportsTimeCore), with `posix_spawn`: Foundation's
/// `Process` closes every descriptor above 2, which would drop the lock.
public final class StageProcess: @unchecked Sendable {
    private let lock = NSLock()
    /// The running stage's pid (also its process group), until it is reaped.
    private var pid: pid_t?
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
                manager.isExecutableFile(atPath: candidate.path)
            {
                return candidate.standardizedFileURL
            }
        }
        return nil
    }

    /// Runs `executable` with `arguments`; `onLine(text, isError)` is called for every output line.
    /// `lockDescriptor` (the workspace lock) becomes the stage's descriptor 3.
    public func run(
        executable: URL, arguments: [String], root: URL, environment: [String: String],
        lockDescriptor: Int32?, onStart: (Int32) -> Void,
        onLine: @escaping @Sendable (String, Bool) -> Void
    ) -> ProcessEnd {
        let options = ChildProcess.Options(
            environment: environment, directory: root.path, descriptor3: lockDescriptor, ownProcessGroup: true)
        lock.lock()
        if stopRequested {
            lock.unlock()
            return .signalled(15)
        }
        let child: ChildProcess
        do {
            child = try ChildProcess.spawn(executable.path, arguments, options: options)
        } catch {
            lock.unlock()
            return .couldNotStart(error.reason)
        }
        pid = child.pid
        lock.unlock()
        onStart(child.pid)
        let readers = child.readLines(onLine)
        // Wait for the stage itself without reaping it (so its pid, the group's id, stays taken), stop
        // what it left running in its group — that would hold the pipes and the lock — then reap it.
        child.waitUntilEnded()
        _ = kill(-child.pid, SIGKILL)
        // Reaped under the lock (it has ended, so this does not block), so `stop` never signals a
        // process group whose id was handed out again.
        lock.lock()
        let end = child.reap()
        pid = nil
        lock.unlock()
        _ = readers.wait(timeout: .now() + 10)
        switch end {
        case .exited(let code): return .exited(code)
        case .signalled(let signal): return .signalled(signal)
        }
    }

    /// Asks a running stage to stop: SIGTERM to its process group (each stage runs in a group of its
    /// own, so programs the stage started stop too). A stage not started yet will not start.
    public func stop() {
        lock.lock(); defer { lock.unlock() }
        stopRequested = true
        if let pid { _ = kill(-pid, SIGTERM) }
    }

    /// Ends a stage that did not stop when asked: SIGKILL to its process group.
    public func forceStop() {
        lock.lock(); defer { lock.unlock() }
        stopRequested = true
        if let pid { _ = kill(-pid, SIGKILL) }
    }

    /// Whether its process was started and not reaped yet.
    public var isRunning: Bool {
        lock.lock(); defer { lock.unlock() }
        return pid != nil
    }
}
