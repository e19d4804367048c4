/// The Render stage library.
public enum RenderStage {}
