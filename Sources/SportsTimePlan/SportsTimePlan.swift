/// The Plan stage library.
public enum PlanStage {}
