import Foundation

/// On a terminal, a live line under the output: which stages are running, for how long, and the last
/// line each printed (stages report records or requests done there). Plain lines only otherwise.
final class ProgressBoard: @unchecked Sendable {
    private let console: Console
    private let lock = NSLock()
    private var running: [String: (started: Date, last: String)] = [:]
    private var order: [String] = []
    private var isFinished = false

    init(console: Console) {
        self.console = console
        guard console.isInteractive else { return }
        Thread.detachNewThread { [self] in
            while true {
                Thread.sleep(forTimeInterval: 0.5)
                lock.lock()
                if isFinished { lock.unlock(); return }
                let now = Date()
                let parts = order.compactMap { name -> String? in
                    guard let entry = running[name] else { return nil }
                    let seconds = Int(now.timeIntervalSince(entry.started))
                    return "\(name) \(seconds)s" + (entry.last.isEmpty ? "" : ": \(entry.last)")
                }
                lock.unlock()
                console.status(parts.isEmpty ? "" : "running " + parts.joined(separator: " · "))
            }
        }
    }

    func started(_ stage: String) {
        lock.lock(); defer { lock.unlock() }
        running[stage] = (Date(), "")
        order.append(stage)
    }

    func line(_ stage: String, _ text: String) {
        guard console.isInteractive else { return }
        lock.lock(); defer { lock.unlock() }
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if !trimmed.isEmpty { running[stage]?.last = String(trimmed.prefix(80)) }
    }

    func ended(_ stage: String) {
        lock.lock(); defer { lock.unlock() }
        running[stage] = nil
        order.removeAll { $0 == stage }
    }

    func finish() {
        lock.lock()
        isFinished = true
        lock.unlock()
        console.status("")
    }
}
