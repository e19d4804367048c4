import Foundation
import SportsTimeCore
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where the runner prints: summaries on standard output, stage output and problems on standard error.
/// Thread-safe. On a terminal, a status line at the bottom of standard error shows running stages.
public final class Console: @unchecked Sendable {
    private let lock = NSLock()
    private let writeOut: @Sendable (String) -> Void
    private let writeErr: @Sendable (String) -> Void
    /// Whether standard error is a terminal (live status line allowed).
    public let isInteractive: Bool
    private var statusText = ""

    public init(out: @escaping @Sendable (String) -> Void, err: @escaping @Sendable (String) -> Void, isInteractive: Bool = false) {
        writeOut = out
        writeErr = err
        self.isInteractive = isInteractive
    }

    /// The process's own standard output and error.
    public static func standard() -> Console {
        Console(
            out: { FileHandle.standardOutput.write(Data($0.utf8)) },
            err: { FileHandle.standardError.write(Data($0.utf8)) },
            isInteractive: isatty(STDERR_FILENO) == 1 && getenv("CI") == nil)
    }

    /// A console that keeps everything, for tests.
    public static func capturing() -> (Console, CapturedOutput) {
        let captured = CapturedOutput()
        return (Console(out: { captured.append($0, error: false) }, err: { captured.append($0, error: true) }), captured)
    }

    public func out(_ line: String, terminator: String = "\n") {
        lock.lock(); defer { lock.unlock() }
        clearStatus()
        writeOut(line + terminator)
        drawStatus()
    }

    public func err(_ line: String) {
        lock.lock(); defer { lock.unlock() }
        clearStatus()
        writeErr(line + "\n")
        drawStatus()
    }

    /// Several standard-error lines printed together (one stage's output).
    public func errBlock(_ lines: [String]) {
        guard !lines.isEmpty else { return }
        lock.lock(); defer { lock.unlock() }
        clearStatus()
        writeErr(lines.map { $0 + "\n" }.joined())
        drawStatus()
    }

    /// Replaces the live status line (terminals only; ignored otherwise).
    public func status(_ text: String) {
        guard isInteractive else { return }
        lock.lock(); defer { lock.unlock() }
        clearStatus()
        statusText = text
        drawStatus()
    }

    private func clearStatus() {
        if isInteractive && !statusText.isEmpty { writeErr("\r\u{1B}[K") }
    }

    private func drawStatus() {
        if isInteractive && !statusText.isEmpty { writeErr(String(statusText.prefix(160))) }
    }
}

/// Output kept by a capturing console.
public final class CapturedOutput: Sendable {
    private let text = Locked((out: "", err: ""))

    func append(_ line: String, error: Bool) {
        text.withLock { if error { $0.err += line } else { $0.out += line } }
    }

    public var stdout: String { text.current.out }
    public var stderr: String { text.current.err }
}
