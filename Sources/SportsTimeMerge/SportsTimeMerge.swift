/// The Merge stage library.
public enum MergeStage {}
