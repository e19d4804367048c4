import Foundation
import SportsTimeCore

/// What happened to one stage in a run.
public struct StageOutcome: Codable, Sendable, Hashable {
    public enum Status: String, Codable, Sendable {
        case ran
        case skipped
        case failed
        case notRun = "not run"
        case removed
    }

    public var stage: String
    public var status: Status
    /// Why it ran, why it was skipped, or why it failed.
    public var reason: String
    public var seconds: Double
    public var recordsIn: Int?
    public var recordsOut: Int?
    public var rejected: Int?
    /// Rows a stage's filters left out (lines of its `filtered*.jsonl` outputs); nil when it wrote none.
    public var filtered: Int?
    /// Out paths whose content changed when published.
    public var outputsChanged: [String]
    /// Problems found (exit status, validation errors).
    public var problems: [String]

    public init(
        stage: String, status: Status, reason: String, seconds: Double = 0, recordsIn: Int? = nil,
        recordsOut: Int? = nil, rejected: Int? = nil, outputsChanged: [String] = [], problems: [String] = []
    ) {
        self.stage = stage; self.status = status; self.reason = reason; self.seconds = seconds
        self.recordsIn = recordsIn; self.recordsOut = recordsOut; self.rejected = rejected
        self.outputsChanged = outputsChanged; self.problems = problems
    }
}

/// A run's report, rewritten as each stage ends (so a crash still leaves one):
/// `.pipeline/runs/<n>/report.json` and `report.md`. Not committed; it may carry times.
public struct RunReport: Codable, Sendable, Hashable {
    public enum Status: String, Codable, Sendable { case running, succeeded, failed, interrupted }

    public var run: Int
    public var command: [String]
    /// ISO-8601 UTC start time.
    public var started: String
    public var status: Status
    /// Stages selected for the run, in order.
    public var selected: [String]
    public var stages: [StageOutcome]
    public var seconds: Double

    public init(run: Int, command: [String], started: String, selected: [String]) {
        self.run = run; self.command = command; self.started = started; self.status = .running
        self.selected = selected; self.stages = []; self.seconds = 0
    }

    /// The report as Markdown: a table of stages, then problems and changed outputs.
    public func markdown() -> String {
        var text = "# Run \(run)\n\n"
        text += "- command: `\(command.joined(separator: " "))`\n"
        text += "- started: \(started)\n"
        text += "- status: **\(status.rawValue)** after \(Format.seconds(seconds))\n"
        let parts = [StageOutcome.Status.ran, .skipped, .failed, .notRun, .removed].compactMap { status in
            let count = stages.count { $0.status == status }
            return count == 0 ? nil : "\(count) \(status.rawValue)"
        }
        text += "- stages: \(selected.count) selected" + (parts.isEmpty ? "" : ", " + parts.joined(separator: ", ")) + "\n\n"
        text += "| stage | status | reason | time | in | out | rejected | outputs changed |\n"
        text += "|---|---|---|---:|---:|---:|---:|---|\n"
        for outcome in stages {
            let cells = [
                "`\(outcome.stage)`", outcome.status.rawValue, Format.cell(outcome.reason), Format.seconds(outcome.seconds),
                outcome.recordsIn.map(Format.count) ?? "", outcome.recordsOut.map(Format.count) ?? "",
                outcome.rejected.map(Format.count) ?? "",
                outcome.outputsChanged.map { "`\($0)`" }.joined(separator: ", "),
            ]
            text += "| " + cells.joined(separator: " | ") + " |\n"
        }
        let pending = selected.filter { name in !stages.contains { $0.stage == name } }
        for name in pending { text += "| `\(name)` | pending |  |  |  |  |  |  |\n" }
        let failures = stages.filter { !$0.problems.isEmpty }
        if !failures.isEmpty {
            text += "\n## Problems\n"
            for outcome in failures {
                text += "\n### \(outcome.stage)\n\n```\n" + outcome.problems.joined(separator: "\n") + "\n```\n"
            }
        }
        return text
    }
}

/// Number and time formats shared by the summary lines and reports.
public enum Format {
    /// `7,012`.
    public static func count(_ value: Int) -> String { NumberText.grouped(value) }

    /// `0.41s`.
    public static func seconds(_ value: Double) -> String {
        NumberText.fixed(value, 2) + "s"
    }

    /// Text safe inside a Markdown table cell (most text is already: then no search runs).
    public static func cell(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == UInt8(ascii: "|") || $0 == UInt8(ascii: "\n") }) else { return text }
        return text.replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "\n", with: " ")
    }
}

// The report is rewritten after every stage a run publishes: written and read by hand-written lines
// (`JSONLineCodable`), the same bytes as its Codable form.

extension StageOutcome: JSONLineCodable {
    public init(json: JSONValue, codingPath: [any CodingKey]) throws {
        let f = try JSONFields(json, codingPath: codingPath)
        self.init(
            stage: try f.string("stage"), status: try f.enumeration("status", as: Status.self), reason: try f.string("reason"),
            seconds: try f.double("seconds"), recordsIn: try f.optionalInt("recordsIn"),
            recordsOut: try f.optionalInt("recordsOut"), rejected: try f.optionalInt("rejected"),
            outputsChanged: try f.strings("outputsChanged"), problems: try f.strings("problems"))
        filtered = try f.optionalInt("filtered")
    }

    public func write(to w: inout JSONWriter) {
        w.beginObject()
        w.field("filtered", filtered)
        w.field("outputsChanged", outputsChanged)
        w.field("problems", problems)
        w.field("reason", reason)
        w.field("recordsIn", recordsIn)
        w.field("recordsOut", recordsOut)
        w.field("rejected", rejected)
        w.key("seconds")
        // A duration is finite; were it not, `null` keeps the line JSON (Codable would write no report).
        if !w.double(seconds) { w.null() }
        w.field("stage", stage)
        w.field("status", status)
        w.endObject()
    }
}

extension RunReport: JSONLineCodable {
    public init(json: JSONValue, codingPath: [any CodingKey]) throws {
        let f = try JSONFields(json, codingPath: codingPath)
        self.init(
            run: try f.int("run"), command: try f.strings("command"), started: try f.string("started"), selected: try f.strings("selected"))
        status = try f.enumeration("status", as: Status.self)
        stages = try f.objects("stages", as: StageOutcome.self)
        seconds = try f.double("seconds")
    }

    public func write(to w: inout JSONWriter) {
        w.beginObject()
        w.field("command", command)
        w.field("run", run)
        w.key("seconds")
        if !w.double(seconds) { w.null() }
        w.field("selected", selected)
        w.key("stages")
        w.beginArray()
        for stage in stages { stage.write(to: &w) }
        w.endArray()
        w.field("started", started)
        w.field("status", status)
        w.endObject()
    }
}
