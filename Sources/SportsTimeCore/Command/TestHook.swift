/// The test hooks: a pause at a known point of a run, so that a test can act there deterministically
/// (signal a merge between two entity kinds, kill the runner inside a publish). Every hook is set the
/// same way, by an environment variable holding milliseconds; none is a command-line option, so no
/// command's usage shows them. Unset means no pause.
public enum TestHook: String, Sendable, CaseIterable {
    /// `sportstime-merge`: pause before each entity kind and before publishing, printing
    /// `note: test pause before merging <kind>` first.
    case mergePause = "SPORTSTIME_MERGE_PAUSE_MS"
    /// `sportstime run`: pause after each rename or exchange of a publish.
    case publishPause = "SPORTSTIME_PUBLISH_PAUSE_MS"

    /// The pause in seconds (0 when the variable is unset or empty). A value that is not a whole number
    /// of milliseconds, 0 or more, is a usage error (exit 64).
    public func seconds(in environment: [String: String]) throws -> Double {
        guard let text = environment[rawValue], !text.isEmpty else { return 0 }
        guard let milliseconds = Int(text), milliseconds >= 0 else {
            throw PipelineError.usage("\(rawValue) must be a whole number of milliseconds, 0 or more (it is '\(text)')")
        }
        return Double(milliseconds) / 1000
    }
}
