/// The Normalize stage library.
public enum NormalizeStage {}
