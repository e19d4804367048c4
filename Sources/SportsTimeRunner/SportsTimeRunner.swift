/// The Runner stage library.
public enum RunnerStage {}
