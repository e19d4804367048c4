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
    /// Bytes of the scalars of one YAML document counted with every alias expanded (a long value under
    /// an anchor, repeated by aliases, costs its length at every copy). Twice `yamlFileBytes`, so a file
    /// without aliases never reaches it.
    public static let yamlExpandedBytes = 8 << 20
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

    /// Bytes of one artifact, store file or map outline a stage reads: 50 times the largest committed
    /// (2.3 MB), and small enough that a store read whole and decoded stays within 300 MB of memory.
    public static let artifactFileBytes = 128 << 20
    /// Bytes of one scraped source file (CSV, iCalendar, JSON under `fixtures/scraped/`).
    public static let scrapedFileBytes = 64 << 20
    /// Bytes of one reference CSV file (`fixtures/reference/`).
    public static let referenceFileBytes = 16 << 20

    /// The kinds of file a stage reads, each with its size limit, checked before the file is read
    /// (`InputFiles.bytes(atPath:limit:)`).
    public enum Kind: Sendable {
        /// Requests, `pipeline.yaml`, `sources.yaml`, overrides, `sports.yaml`: `yamlFileBytes`.
        case yaml
        /// Artifacts and stores (JSON envelopes), map outlines: `artifactFileBytes`.
        case artifact
        /// A scraped source file: `scrapedFileBytes`.
        case scraped
        /// A reference CSV file: `referenceFileBytes`.
        case reference

        public var limit: Int {
            switch self {
            case .yaml: yamlFileBytes
            case .artifact: artifactFileBytes
            case .scraped: scrapedFileBytes
            case .reference: referenceFileBytes
            }
        }

        /// How a message names the kind.
        public var name: String {
            switch self {
            case .yaml: "a YAML file"
            case .artifact: "a JSON artifact or map"
            case .scraped: "a scraped source file"
            case .reference: "a reference CSV file"
            }
        }
    }
}
