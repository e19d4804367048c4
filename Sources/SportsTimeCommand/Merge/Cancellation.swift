import Dispatch
import SportsTimeCore
import Foundation

/// SIGINT and SIGTERM set a flag; the merge checks it between entity kinds and before publishing, and
/// stops without writing anything.
final class Cancellation: @unchecked Sendable {
    private let lock = NSLock()
    private var received: Int32?
    private var sources: [DispatchSourceSignal] = []

    /// The signal received, if any.
    var signal: Int32? {
        lock.lock(); defer { lock.unlock() }
        return received
    }

    private func record(_ number: Int32) {
        // The runner that started it has died (its parent-death signal, see StageLifetime): it writes
        // only into the runner's staging, which nobody will publish, so it ends at once.
        if StageLifetime.isOrphaned { _exit(128 + number) }
        lock.lock(); defer { lock.unlock() }
        if received == nil { received = number }
    }

    /// Starts listening for SIGINT and SIGTERM (their default action, ending the process at once, is
    /// replaced: the merge ends itself at the next check).
    static func install() -> Cancellation {
        let cancellation = Cancellation()
        for number in [SIGINT, SIGTERM] {
            Foundation.signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [cancellation] in cancellation.record(number) }
            source.resume()
            cancellation.sources.append(source)
        }
        return cancellation
    }

    /// Throws `MergeCancelled` when a signal arrived; `stage` names where the merge stopped.
    func check(before stage: String) throws {
        if let signal { throw MergeCancelled(signal: signal, stage: stage) }
    }
}

/// The merge stopped on a signal before publishing anything.
struct MergeCancelled: Error {
    var signal: Int32
    var stage: String

    var signalName: String { signal == SIGINT ? "SIGINT" : signal == SIGTERM ? "SIGTERM" : "signal \(signal)" }
}
