import Foundation

/// The sizes past which an input is refused instead of read: one place for every reader, so a file
/// under a kilobyte cannot make a stage use gigabytes, and one huge field cannot be copied downstream.
///
/// Every committed input is far below these (the largest YAML file is under 8 KB, the largest scraped
/// file under 1 MB, the largest field a few hundred bytes).
public enum InputLimits {
    /// Bytes of one YAML file (requests, `pipeline.yaml`, `sources.yaml`, overrides, `sports.yaml`).
    public static let yamlFileBytes = 4 << 20
    /// Nodes of one YAML document counted with every alias expanded (`*name` repeats its anchor's
    /// content each time it appears, which is how a "billion laughs" file of 1 KB becomes gigabytes).
    public static let yamlNodes = 100_000
    /// Nesting of mappings and sequences in one YAML document.
    public static let yamlDepth = 64
    /// Nesting of arrays and objects in one JSON document (scraped JSON, artifacts, schemas).
    public static let jsonDepth = 256
    /// Bytes of one JSON document (`JSONParser`: scraped JSON, artifacts, schemas, the runner's files).
    public static let jsonFileBytes = 256 << 20
    /// Bytes of one field of a scraped row (a CSV cell, a JSON value, an iCalendar property). A row with a
    /// longer field is rejected with its reason; its text is not copied into any output.
    public static let scrapedFieldBytes = 4096
    /// Characters of a rejected row's raw text kept in `rejects.jsonl`.
    public static let rejectRawCharacters = 300
}
