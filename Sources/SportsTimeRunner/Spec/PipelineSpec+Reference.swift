import Foundation
import SportsTimeCore

// The documented keys of `pipeline/pipeline.yaml` (docs/yaml-reference.md, the editor schema
// pipeline/schemas/pipeline.yaml.schema.json). A key added to SpecFile or StageFile must be added to its
// CodingKeys here and documented in its table: the reference tests fail otherwise.

extension SpecFile {
    enum CodingKeys: String, CodingKey, CaseIterable { case code, stages }
}

extension StageFile {
    enum CodingKeys: String, CodingKey, CaseIterable { case cmd, deps, outs, params, code, foreach, description }
}

extension PipelineSpec {
    /// The reference of `pipeline/pipeline.yaml`.
    public static let reference: YAMLFileReference = {
        let fanout = YAMLRecord(
            "foreach", reader: FanoutFile.self, codingKeys: FanoutFile.CodingKeys.self,
            summary: "Where a fan-out stage's items come from: exactly one of `items` or `glob`.",
            keys: [
                .optional("items", .list(.string), "The items, as `foreach: [a, b]` also gives them."),
                .optional(
                    "glob", .string,
                    "A folder glob with one `*`: `fixtures/requests/*.yaml` for files, `fixtures/scraped/*/` for folders; the `*` part is the item."
                ),
            ])
        let out = YAMLRecord(
            "out", reader: OutFile.self, codingKeys: OutFile.CodingKeys.self,
            summary: "An out that is not a SportsTime envelope, written as a mapping instead of a plain path.",
            keys: [
                .required("path", .string, "The file or folder, as a plain entry of `outs` gives it."),
                .optional(
                    "validate", .boolean, default: "true",
                    "`false`: publish its files as written, unchecked (they need not be envelopes)."),
                .optional(
                    "schema", .string, default: "none",
                    "A JSON Schema of the stage's own (repository-relative): every `.json` file, and every line of a `.jsonl` file, must be valid against it. Its content is part of the stage's key."
                ),
            ])
        let stage = YAMLRecord(
            "stage", reader: StageFile.self, codingKeys: StageFile.CodingKeys.self,
            summary: "One stage, or a family of stages `<stage>@<item>` when it has a `foreach`.",
            keys: [
                .required(
                    "cmd", .list(.string),
                    "The command as an argv list (no shell). A bare program name is looked up next to the sportstime executable first, then on PATH. Placeholders: `${out}`, `${outs.N}`, `${outs.N.dir}`, `${params.NAME}`, `${item}`, `${depfile}` (a file the stage writes listing the paths it read, one a line, each inside one of its deps, `*` allowed in a file name; the key then hashes those in place of the dep folders holding them); `$${` is a literal `${`."
                ),
                .optional(
                    "deps", .list(.string), default: "none",
                    "Files and folders it reads (repository-relative; may use `${item}` and the shared `${params.NAME}` of `pipeline/params.yaml`). A dep that is, contains or lies inside another stage's out makes that stage upstream."
                ),
                .required(
                    "outs", .list(.either([.string, .record(out)])),
                    "Files and folders it writes. Every path has exactly one writing stage. Each `.json` file must be a SportsTime envelope unless the out is written as `{path: P, validate: false}` or `{path: P, schema: S}`."
                ),
                .optional(
                    "params", .map(.string), default: "none",
                    "Name: value pairs; part of the stage's content key, used in cmd as `${params.NAME}`. A value may use `${item}` and the shared params of `pipeline/params.yaml`; an own param wins over a shared one of the same name."
                ),
                .optional(
                    "code", .list(.string), default: "the top-level `code` only",
                    "Source paths whose contents fingerprint the stage, added to the top-level `code`."),
                .optional(
                    "foreach", .either([.list(.string), .record(fanout)]), default: "one stage",
                    "Fan-out: one stage per item, named `<stage>@<item>`; a list, `{items: [...]}` or `{glob: ...}`."),
                .optional("description", .string, "One line saying what the stage does (not part of its content key)."),
            ])
        return YAMLFileReference(
            title: "pipeline/pipeline.yaml",
            files: ["pipeline/pipeline.yaml"],
            schemaFile: "pipeline.yaml.schema.json",
            readBy: "the runner `sportstime` (Sources/SportsTimeRunner/Spec/PipelineSpec.swift, checked by SpecParser)",
            summary: "The stage graph: what each stage runs, reads and writes; the runner decides from it what has to run.",
            root: .record(
                YAMLRecord(
                    "pipeline", reader: SpecFile.self, codingKeys: SpecFile.CodingKeys.self,
                    summary: "The file's top level.",
                    keys: [
                        .optional(
                            "code", .list(.string), default: "none",
                            "Source paths whose contents fingerprint every stage (`Package.swift`, the core library)."),
                        .required("stages", .map(.record(stage)), "The stages by name (a lowercase slug)."),
                    ])))
    }()
}
