import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A stage started by the runner ends with it. The runner names itself in `SPORTSTIME_RUNNER_PID`; a
/// stage seeing it asks the kernel (Linux) for SIGTERM when its parent dies (`PR_SET_PDEATHSIG`), then
/// checks the parent is still that runner — one killed before the request took effect would never send
/// it — and ends at once if not. So a stage whose runner was killed (even by `kill -9`) does not keep
/// running, holding the workspace lock (`.pipeline/lock`, its descriptor 3). A stage run by hand has no
/// such variable and is left alone.
public enum StageLifetime {
    public static let runnerVariable = "SPORTSTIME_RUNNER_PID"

    /// The runner that started this process, from the environment it was started with (one variable read,
    /// not the whole environment copied into a dictionary: every stage process starts here).
    public static let runner: pid_t? = getenv(runnerVariable).flatMap { pid_t(String(cString: $0)) }

    /// Whether this process was started by a runner that has ended (its parent is another process now).
    public static var isOrphaned: Bool { runner.map { getppid() != $0 } ?? false }

    /// Ties this process to its runner, when a runner started it (see above). Call first thing.
    public static func bindToRunner() {
        guard runner != nil else { return }
        #if os(Linux)
            // glibc's `prctl` is variadic, which Swift does not import; looked up by name.
            typealias Prctl = @convention(c) (Int32, UInt, UInt, UInt, UInt) -> Int32
            if let handle = dlopen(nil, RTLD_NOW), let symbol = dlsym(handle, "prctl") {
                let setParentDeathSignal: Int32 = 1 // PR_SET_PDEATHSIG
                _ = unsafeBitCast(symbol, to: Prctl.self)(setParentDeathSignal, UInt(SIGTERM), 0, 0, 0)
            }
        #endif
        if isOrphaned { _exit(128 + SIGTERM) }
    }
}
