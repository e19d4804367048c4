import Foundation
import SportsTimeCore

// The documented shape of `pipeline/params.yaml` (docs/yaml-reference.md, the editor schema
// pipeline/schemas/params.yaml.schema.json).

extension SharedParams {
    /// The reference of `pipeline/params.yaml`: names the user chooses, each to a scalar.
    public static let reference = YAMLFileReference(
        title: "pipeline/params.yaml",
        files: [SharedParams.path],
        schemaFile: "params.yaml.schema.json",
        readBy: "the runner `sportstime` (Sources/SportsTimeRunner/Spec/SharedParams.swift), optional",
        summary:
            "Params every stage can use in its cmd or its own params as `${params.NAME}` (names: letters, digits, `-`, `_`); a stage's own param of the same name wins. Only the shared params a stage uses are part of its content key, so changing one re-runs exactly the stages that read it.",
        root: .map(.either([.string, .number(), .boolean])))
}
