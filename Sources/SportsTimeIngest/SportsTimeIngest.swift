/// The Ingest stage library.
public enum IngestStage {}
