import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// How a child process ended.
public enum ProcessTermination: Sendable, Hashable {
    case exited(Int32)
    case signalled(Int32)
}

/// Why a program could not be started, in the system's words.
public struct LaunchFailure: Error, Sendable, CustomStringConvertible, LocalizedError {
    public var reason: String
    public init(_ reason: String) { self.reason = reason }
    public var description: String { reason }
    public var errorDescription: String? { reason }
}

/// The one way the project starts a program: `posix_spawn` with an argv (no shell), standard input
/// from `/dev/null` or from bytes given, standard output and error into pipes this process reads, and
/// no other descriptor inherited but, when asked, one chosen descriptor as the child's 3. The child
/// starts with no signal blocked and SIGPIPE at its default action; in a process group of its own when
/// asked (its pid is the group's id, so whatever it starts can be signalled with it).
///
/// Foundation's `Process` is not used: it closes every descriptor above 2, which a stage holding the
/// workspace lock as descriptor 3 needs kept. A started child must be reaped (`reap`, or `run`).
public struct ChildProcess: Sendable {
    public struct Options: Sendable {
        /// The folder the program starts in; nil: this process's.
        public var directory: String?
        /// The program's whole environment (the caller's command layer reads its own: the core does not).
        public var environment: [String: String]
        /// Written to its standard input, which is then closed; nil: `/dev/null`.
        public var input: Data?
        /// A descriptor of this process the program gets as its descriptor 3.
        public var descriptor3: Int32?
        /// Start it in a process group of its own.
        public var ownProcessGroup: Bool

        public init(
            environment: [String: String], directory: String? = nil, input: Data? = nil,
            descriptor3: Int32? = nil, ownProcessGroup: Bool = false
        ) {
            self.directory = directory
            self.environment = environment
            self.input = input
            self.descriptor3 = descriptor3
            self.ownProcessGroup = ownProcessGroup
        }
    }

    /// What `run` collected from a program that ended.
    public struct Finished: Sendable {
        public var termination: ProcessTermination
        public var output: Data
        public var errors: Data
    }

    public let pid: Int32
    /// The read ends of its standard output and standard error.
    private let outputDescriptor: Int32
    private let errorDescriptor: Int32

    /// Starts `executable` (a path) with `arguments`, waits for it and returns what it wrote.
    public static func run(_ executable: String, _ arguments: [String], options: Options) throws(LaunchFailure) -> Finished {
        let child = try spawn(executable, arguments, options: options)
        let (output, errors) = child.readAll()
        return Finished(termination: child.reap(), output: output, errors: errors)
    }

    /// Starts `executable` (a path) with `arguments`. Read both pipes (`readLines`, `readAll`) while it
    /// runs — a full pipe blocks it — and reap it.
    public static func spawn(_ executable: String, _ arguments: [String], options: Options) throws(LaunchFailure)
        -> ChildProcess
    {
        var pipes = try Pipes(withInput: options.input != nil)
        var actions = SpawnActions()
        defer { actions.destroy() }
        if let directory = options.directory, let failure = actions.changeDirectory(to: directory) {
            pipes.closeAll()
            throw failure
        }
        actions.arrange(pipes, descriptor3: options.descriptor3)
        var attributes = SpawnAttributes(ownProcessGroup: options.ownProcessGroup)
        defer { attributes.destroy() }
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = options.environment.sorted { $0.key < $1.key }.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var child: pid_t = 0
        let code = posix_spawn(&child, executable, &actions.value, &attributes.value, argv, envp)
        pipes.closeChildEnds()
        guard code == 0 else {
            pipes.closeParentEnds()
            throw LaunchFailure(String(cString: strerror(code)))
        }
        if let input = options.input, let writer = pipes.inputWriter { Self.feed(input, to: writer) }
        return ChildProcess(pid: child, outputDescriptor: pipes.output[0], errorDescriptor: pipes.errors[0])
    }

    /// Reads standard output and standard error to their ends on two threads, handing over each line
    /// (without its `\n`) and whether it came from standard error. The group is left when both ended.
    public func readLines(_ onLine: @escaping @Sendable (String, Bool) -> Void) -> DispatchGroup {
        let group = DispatchGroup()
        for (descriptor, isError) in [(outputDescriptor, false), (errorDescriptor, true)] {
            group.enter()
            Thread.detachNewThread {
                var pending = Data()
                Self.drain(descriptor) { chunk in
                    pending.append(chunk)
                    while let newline = pending.firstIndex(of: 0x0A) {
                        onLine(String(decoding: pending[pending.startIndex..<newline], as: UTF8.self), isError)
                        pending.removeSubrange(pending.startIndex...newline)
                    }
                }
                if !pending.isEmpty { onLine(String(decoding: pending, as: UTF8.self), isError) }
                group.leave()
            }
        }
        return group
    }

    /// Reads standard output and standard error to their ends: their bytes.
    public func readAll() -> (output: Data, errors: Data) {
        let errors = Locked(Data())
        let group = DispatchGroup()
        group.enter()
        Thread.detachNewThread { [errorDescriptor] in
            Self.drain(errorDescriptor) { chunk in errors.withLock { $0.append(chunk) } }
            group.leave()
        }
        var output = Data()
        Self.drain(outputDescriptor) { output.append($0) }
        group.wait()
        return (output, errors.current)
    }

    /// Waits until the program has ended without reaping it, so its pid (and group id) stays taken.
    public func waitUntilEnded() {
        var info = siginfo_t()
        while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) != 0 && errno == EINTR {}
    }

    /// Waits for the program to end and reaps it.
    public func reap() -> ProcessTermination {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let signal = status & 0x7f
        if signal != 0 && signal != 0x7f { return .signalled(signal) }
        return .exited((status >> 8) & 0xff)
    }

    /// Reads `descriptor` until every writer closed it, then closes it.
    private static func drain(_ descriptor: Int32, _ onChunk: (Data) -> Void) {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }
            onChunk(Data(buffer[0..<count]))
        }
        close(descriptor)
    }

    /// Writes `data` to the child's standard input on a thread of its own, then closes it. SIGPIPE is
    /// blocked on that thread: a child that stops reading ends the write, not this process.
    private static func feed(_ data: Data, to descriptor: Int32) {
        Thread.detachNewThread {
            var blocked = sigset_t()
            sigemptyset(&blocked)
            sigaddset(&blocked, SIGPIPE)
            pthread_sigmask(SIG_BLOCK, &blocked, nil)
            data.withUnsafeBytes { bytes in
                var offset = 0
                while offset < bytes.count {
                    let written = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                    if written < 0 && errno == EINTR { continue }
                    if written <= 0 { break }
                    offset += written
                }
            }
            close(descriptor)
        }
    }
}

/// The pipes of a child: [read end, write end] each, close-on-exec in this process.
private struct Pipes {
    var output: [Int32] = [-1, -1]
    var errors: [Int32] = [-1, -1]
    var input: [Int32]?

    init(withInput: Bool) throws(LaunchFailure) {
        guard pipe(&output) == 0 else { throw Self.failure(errno) }
        guard pipe(&errors) == 0 else {
            let code = errno
            closeAll()
            throw Self.failure(code)
        }
        if withInput {
            var ends: [Int32] = [-1, -1]
            guard pipe(&ends) == 0 else {
                let code = errno
                closeAll()
                throw Self.failure(code)
            }
            input = ends
        }
        // Close-on-exec: a program another thread starts meanwhile must not hold them.
        for fd in output + errors + (input ?? []) { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
    }

    /// The end this process writes the child's input to.
    var inputWriter: Int32? { input?[1] }

    mutating func closeChildEnds() {
        close(output[1])
        close(errors[1])
        if let input { close(input[0]) }
    }

    mutating func closeParentEnds() {
        close(output[0])
        close(errors[0])
        if let input { close(input[1]) }
    }

    mutating func closeAll() {
        for fd in output + errors + (input ?? []) where fd >= 0 { close(fd) }
    }

    private static func failure(_ code: Int32) -> LaunchFailure { LaunchFailure(String(cString: strerror(code))) }
}

#if canImport(Darwin)
    private typealias FileActionsValue = posix_spawn_file_actions_t?
    private typealias AttributesValue = posix_spawnattr_t?
#else
    private typealias FileActionsValue = posix_spawn_file_actions_t
    private typealias AttributesValue = posix_spawnattr_t
#endif

/// What happens in the child between fork and exec: its descriptors and folder.
private struct SpawnActions {
    var value = FileActionsValue()

    private typealias AddChdir = @convention(c) (UnsafeMutablePointer<FileActionsValue>, UnsafePointer<CChar>) -> Int32
    private typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<FileActionsValue>, Int32) -> Int32

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

    init() { posix_spawn_file_actions_init(&value) }

    mutating func destroy() { posix_spawn_file_actions_destroy(&value) }

    mutating func changeDirectory(to folder: String) -> LaunchFailure? {
        guard let addChdir = Self.addChdir else {
            return LaunchFailure("this C library cannot start a program in a folder (posix_spawn_file_actions_addchdir_np)")
        }
        _ = folder.withCString { addChdir(&value, $0) }
        return nil
    }

    /// 0 from `/dev/null` or the input pipe, 1 and 2 the output pipes, 3 the chosen descriptor; the
    /// pipes are close-on-exec, so their originals go, and every other descriptor is closed.
    mutating func arrange(_ pipes: Pipes, descriptor3: Int32?) {
        if let input = pipes.input {
            posix_spawn_file_actions_adddup2(&value, input[0], 0)
        } else {
            posix_spawn_file_actions_addopen(&value, 0, "/dev/null", O_RDONLY, 0)
        }
        posix_spawn_file_actions_adddup2(&value, pipes.output[1], 1)
        posix_spawn_file_actions_adddup2(&value, pipes.errors[1], 2)
        var firstClosed: Int32 = 3
        if let descriptor3, descriptor3 >= 0 {
            posix_spawn_file_actions_adddup2(&value, descriptor3, 3)
            firstClosed = 4
        }
        if let addCloseFrom = Self.addCloseFrom {
            _ = addCloseFrom(&value, firstClosed)
        } else if let names = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd") {
            for fd in names.compactMap({ Int32($0) })
            where fd >= firstClosed && fcntl(fd, F_GETFD) >= 0 && fcntl(fd, F_GETFD) & FD_CLOEXEC == 0 {
                posix_spawn_file_actions_addclose(&value, fd)
            }
        }
    }
}

/// The child's signal state and process group.
private struct SpawnAttributes {
    var value = AttributesValue()

    /// No signal blocked and SIGPIPE at its default action (handlers reset on exec by themselves, and a
    /// signal ignored by whoever started this process stays ignored); a group of its own when asked.
    init(ownProcessGroup: Bool) {
        posix_spawnattr_init(&value)
        var emptyMask = sigset_t()
        sigemptyset(&emptyMask)
        posix_spawnattr_setsigmask(&value, &emptyMask)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGPIPE)
        posix_spawnattr_setsigdefault(&value, &defaults)
        var flags = POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF
        if ownProcessGroup {
            posix_spawnattr_setpgroup(&value, 0)
            flags |= POSIX_SPAWN_SETPGROUP
        }
        posix_spawnattr_setflags(&value, Int16(flags))
    }

    mutating func destroy() { posix_spawnattr_destroy(&value) }
}
