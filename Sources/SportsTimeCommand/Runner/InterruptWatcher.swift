import Foundation
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The write end of the pipe the signal handler writes to (async-signal-safe), set once before the
/// handler is installed.
nonisolated(unsafe) private var interruptPipe: (read: Int32, write: Int32) = (-1, -1)

/// Turns SIGINT and SIGTERM into a call to `action` on a background thread, so the runner can stop
/// its stages and leave `out/` as it was. A handler (not SIG_IGN) is installed, so stages started
/// afterwards still get the default signal behaviour.
final class InterruptWatcher: Sendable {
    init(_ action: @escaping @Sendable () -> Void) {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { return }
        interruptPipe = (fds[0], fds[1])
        let handler: @convention(c) (Int32) -> Void = { _ in
            var byte: UInt8 = 1
            _ = write(interruptPipe.write, &byte, 1)
        }
        // Keep SIGINT ignored when whoever started us ignores it (a background job of a script).
        func bits<T>(_ value: T) -> Int { unsafeBitCast(value, to: Int.self) }
        if bits(signal(SIGINT, handler)) == bits(SIG_IGN) { signal(SIGINT, SIG_IGN) }
        signal(SIGTERM, handler)
        // A parent may have blocked them (the mask survives exec); stages inherit this mask too.
        var unblock = sigset_t()
        sigemptyset(&unblock)
        sigaddset(&unblock, SIGINT)
        sigaddset(&unblock, SIGTERM)
        pthread_sigmask(SIG_UNBLOCK, &unblock, nil)
        let readEnd = fds[0]
        Thread.detachNewThread {
            var byte: UInt8 = 0
            while read(readEnd, &byte, 1) == 1 {
                if byte == 0 { return }
                action()
            }
        }
    }

    /// Restores the default signal behaviour and ends the watching thread.
    func cancel() {
        signal(SIGINT, SIG_DFL)
        signal(SIGTERM, SIG_DFL)
        guard interruptPipe.write >= 0 else { return }
        var byte: UInt8 = 0
        _ = write(interruptPipe.write, &byte, 1)
    }
}
