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
/// Descriptors the stage gets: 0 is `/dev/null`, 1 and 2 are the pipes, and (on Linux) 3 is the
/// workspace lock (`.pipeline/lock`, an open `flock`ed file; see `WorkspaceLock`), so a stage — and
/// whatever it starts — that a killed runner left running keeps the workspace locked until it ends.
/// Nothing else is inherited. On Linux the process is started with `posix_spawn` directly: Foundation's
/// `Process` closes every descriptor above 2, which would drop the lock.
public final class StageProcess: @unchecked Sendable {
    private let lock = NSLock()
    /// The running stage's pid (also its process group), until it is reaped.
    private var pid: pid_t?
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
        #if os(Linux)
            return runSpawned(
                executable: executable, arguments: arguments, root: root, environment: environment,
                lockDescriptor: lockDescriptor, onStart: onStart, onLine: onLine)
        #else
            return runFoundation(
                executable: executable, arguments: arguments, root: root, environment: environment,
                onStart: onStart, onLine: onLine)
        #endif
    }

    /// Reads a pipe until every writer closed it, handing over whole lines.
    private static func readLines(
        _ fd: Int32, isError: Bool, _ onLine: @escaping @Sendable (String, Bool) -> Void,
        group: DispatchGroup
    ) {
        group.enter()
        Thread.detachNewThread {
            var pending = Data()
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                if count <= 0 { break }
                pending.append(contentsOf: buffer[0..<count])
                while let newline = pending.firstIndex(of: 0x0A) {
                    onLine(String(decoding: pending[pending.startIndex..<newline], as: UTF8.self), isError)
                    pending.removeSubrange(pending.startIndex...newline)
                }
            }
            if !pending.isEmpty { onLine(String(decoding: pending, as: UTF8.self), isError) }
            close(fd)
            group.leave()
        }
    }

    #if os(Linux)
        private typealias AddChdir = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32
        private typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32

        /// glibc's `posix_spawn_file_actions_addchdir_np` (2.29) and `…_addclosefrom_np` (2.34), which Swift
        /// does not import; looked up once.
        private static let addChdir: AddChdir? = {
            guard let handle = dlopen(nil, RTLD_NOW), let symbol = dlsym(handle, "posix_spawn_file_actions_addchdir_np") else { return nil }
            return unsafeBitCast(symbol, to: AddChdir.self)
        }()
        private static let addCloseFrom: AddCloseFrom? = {
            guard let handle = dlopen(nil, RTLD_NOW), let symbol = dlsym(handle, "posix_spawn_file_actions_addclosefrom_np") else {
                return nil
            }
            return unsafeBitCast(symbol, to: AddCloseFrom.self)
        }()

        private func runSpawned(
            executable: URL, arguments: [String], root: URL, environment: [String: String],
            lockDescriptor: Int32?, onStart: (Int32) -> Void,
            onLine: @escaping @Sendable (String, Bool) -> Void
        ) -> ProcessEnd {
            func failure(_ code: Int32) -> ProcessEnd { .couldNotStart(String(cString: strerror(code))) }
            guard let addChdir = Self.addChdir else {
                return .couldNotStart("this C library cannot start a program in a folder (posix_spawn_file_actions_addchdir_np)")
            }
            var outPipe: [Int32] = [-1, -1], errPipe: [Int32] = [-1, -1]
            guard pipe(&outPipe) == 0 else { return failure(errno) }
            guard pipe(&errPipe) == 0 else {
                let code = errno
                close(outPipe[0]); close(outPipe[1])
                return failure(code)
            }
            // Close-on-exec (a stage started meanwhile by another thread closes them anyway: see below).
            for fd in outPipe + errPipe { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            var attributes = posix_spawnattr_t()
            posix_spawnattr_init(&attributes)
            defer { posix_spawnattr_destroy(&attributes) }
            // 0 from /dev/null, 1 and 2 the pipes, 3 the lock; the pipes are close-on-exec, so their
            // originals go, and every other descriptor is closed.
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
            posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
            posix_spawn_file_actions_adddup2(&actions, errPipe[1], 2)
            var firstClosed: Int32 = 3
            if let lockDescriptor, lockDescriptor >= 0 {
                posix_spawn_file_actions_adddup2(&actions, lockDescriptor, 3)
                firstClosed = 4
            }
            if let addCloseFrom = Self.addCloseFrom {
                _ = addCloseFrom(&actions, firstClosed)
            } else if let names = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd") {
                for fd in names.compactMap({ Int32($0) })
                where fd >= firstClosed && fcntl(fd, F_GETFD) >= 0
                    && fcntl(fd, F_GETFD) & FD_CLOEXEC == 0
                {
                    posix_spawn_file_actions_addclose(&actions, fd)
                }
            }
            _ = root.path.withCString { addChdir(&actions, $0) }
            // A group of its own (so leftovers can be stopped together), default signal mask; handlers
            // reset on exec by themselves, and a SIGINT ignored by whoever started the runner stays ignored.
            var emptyMask = sigset_t()
            sigemptyset(&emptyMask)
            posix_spawnattr_setsigmask(&attributes, &emptyMask)
            var defaults = sigset_t()
            sigemptyset(&defaults)
            sigaddset(&defaults, SIGPIPE)
            posix_spawnattr_setsigdefault(&attributes, &defaults)
            posix_spawnattr_setpgroup(&attributes, 0)
            posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

            let argv = ([executable.path] + arguments).map { strdup($0) } + [nil]
            let envp = environment.sorted { $0.key < $1.key }.map { strdup("\($0.key)=\($0.value)") } + [nil]
            defer {
                for pointer in argv { free(pointer) }
                for pointer in envp { free(pointer) }
            }
            lock.lock()
            if stopRequested {
                lock.unlock()
                for fd in outPipe + errPipe { close(fd) }
                return .signalled(15)
            }
            var child: pid_t = 0
            let code = posix_spawn(&child, executable.path, &actions, &attributes, argv, envp)
            close(outPipe[1]); close(errPipe[1])
            guard code == 0 else {
                lock.unlock()
                close(outPipe[0]); close(errPipe[0])
                return failure(code)
            }
            pid = child
            lock.unlock()
            onStart(child)

            let readers = DispatchGroup()
            Self.readLines(outPipe[0], isError: false, onLine, group: readers)
            Self.readLines(errPipe[0], isError: true, onLine, group: readers)
            // Wait for the stage itself without reaping it (so its pid, the group's id, stays taken), stop
            // what it left running in its group — that would hold the pipes and the lock — then reap it.
            var info = siginfo_t()
            while waitid(P_PID, id_t(child), &info, WEXITED | WNOWAIT) != 0 && errno == EINTR {}
            _ = kill(-child, SIGKILL)
            // Reaped under the lock (it has exited, so this does not block), so `stop` never signals a
            // process group whose id was handed out again.
            var status: Int32 = 0
            lock.lock()
            while waitpid(child, &status, 0) < 0 && errno == EINTR {}
            pid = nil
            lock.unlock()
            _ = readers.wait(timeout: .now() + 10)
            let signal = status & 0x7f
            if signal != 0 && signal != 0x7f { return .signalled(signal) }
            return .exited((status >> 8) & 0xff)
        }
    #endif

    /// Where `posix_spawn` with a kept descriptor is not used: Foundation's `Process` (which closes
    /// every descriptor above 2, so a stage left running does not hold the lock there).
    private func runFoundation(
        executable: URL, arguments: [String], root: URL, environment: [String: String],
        onStart: (Int32) -> Void, onLine: @escaping @Sendable (String, Bool) -> Void
    ) -> ProcessEnd {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = root
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
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
        Self.readLines(dup(out.fileHandleForReading.fileDescriptor), isError: false, onLine, group: readers)
        Self.readLines(dup(err.fileHandleForReading.fileDescriptor), isError: true, onLine, group: readers)
        process.waitUntilExit()
        _ = kill(-process.processIdentifier, SIGKILL)
        _ = readers.wait(timeout: .now() + 10)
        lock.lock()
        self.process = nil
        lock.unlock()
        switch process.terminationReason {
        case .uncaughtSignal: return .signalled(process.terminationStatus)
        default: return .exited(process.terminationStatus)
        }
    }

    /// Asks a running stage to stop: SIGTERM to its process group (each stage runs in a group of its
    /// own, so programs the stage started stop too). A stage not started yet will not start.
    public func stop() {
        lock.lock(); defer { lock.unlock() }
        stopRequested = true
        if let pid {
            _ = kill(-pid, SIGTERM)
        } else if let process, process.isRunning {
            if kill(-process.processIdentifier, SIGTERM) != 0 { process.terminate() }
        }
    }
}
