import Foundation
import SportsTimeCore

/// Writes `.pipeline/runs/<n>/report.md` and `report.json` as stages end, and each stage's log
/// beside them. Keeps the last 20 runs.
final class RunReportWriter: @unchecked Sendable {
    private let folder: URL
    private let folderPath: String
    private let lock = NSLock()
    private var report: RunReport

    static let kept = 20

    /// `writeNow`: write the report at once, so a run that dies leaves one (a run confirmed as a no-op
    /// writes it once, when it finishes). Runs beyond the last `kept` go to `trash` (deleted off this
    /// thread while the run goes on).
    init(root: URL, command: [String], started: Date, selected: [String], writeNow: Bool = true, trash: Trash) {
        let runs = root.appendingPathComponent(".pipeline/runs")
        let manager = FileManager.default
        let numbers = ((try? manager.contentsOfDirectory(atPath: runs.path)) ?? []).compactMap(Int.init).sorted()
        let number = (numbers.last ?? 0) + 1
        for old in numbers.dropLast(Self.kept - 1) { trash.discard(".pipeline/runs/\(old)") }
        folder = runs.appendingPathComponent(String(number))
        folderPath = ".pipeline/runs/\(number)"
        // `logs/` is made by the first stage that runs (a run of skips has none: less to make and prune).
        try? manager.createDirectory(at: folder, withIntermediateDirectories: true)
        report = RunReport(run: number, command: command, started: Instant(started).iso8601, selected: selected)
        if writeNow { write() }
    }

    var markdownPath: String { folderPath + "/report.md" }

    func logPath(for stage: String) -> URL {
        let logs = folder.appendingPathComponent("logs")
        _ = mkdir(logs.path, 0o777)
        return logs.appendingPathComponent("\(stage).log")
    }

    /// Adds a stage's outcome; the files are rewritten when a stage did work (ran, failed, removed
    /// outputs), so a crash leaves a report, while a run of skips costs one write at the end.
    func record(_ outcome: StageOutcome) {
        lock.lock(); defer { lock.unlock() }
        report.stages.append(outcome)
        if outcome.status != .skipped && outcome.status != .notRun { write() }
    }

    func finish(_ status: RunReport.Status, seconds: Double) {
        lock.lock(); defer { lock.unlock() }
        report.status = status
        report.seconds = seconds
        write()
    }

    private func write() {
        if let json = try? CanonicalJSON.encode(report) {
            ScratchFile.replace(json + Data("\n".utf8), at: folder.appendingPathComponent("report.json"))
        }
        ScratchFile.replace(Data(report.markdown().utf8), at: folder.appendingPathComponent("report.md"))
    }
}
