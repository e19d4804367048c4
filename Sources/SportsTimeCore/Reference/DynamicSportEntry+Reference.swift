import Foundation

// The documented keys of `fixtures/reference/sports.yaml` (docs/yaml-reference.md, the editor schema
// pipeline/schemas/sports.yaml.schema.json). A key added to DynamicSportEntry must be added to its
// CodingKeys here and documented in its table: the reference tests fail otherwise.

extension DynamicSportEntry {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case id, abbreviation, displayName, iconName, colorHex, seasonStartMonth, seasonEndMonth, isActive, lastModified
    }
}

extension ReferenceLoader {
    /// The reference of `fixtures/reference/sports.yaml`.
    public static let sportsReference = YAMLFileReference(
        title: "fixtures/reference/sports.yaml",
        files: ["fixtures/reference/sports.yaml"],
        schemaFile: "sports.yaml.schema.json",
        readBy: "the reference loader of normalize, merge and plan (Sources/SportsTimeCore/Reference/ReferenceLoader.swift)",
        summary:
            "The dynamic sports, defined only in data. The built-in sports (\(BuiltInSport.allCases.map(\.rawValue).joined(separator: " "))) are in code and cannot be redefined here; patch them through fixtures/overrides.",
        root: .list(
            .record(
                YAMLRecord(
                    "sport", reader: DynamicSportEntry.self, codingKeys: DynamicSportEntry.CodingKeys.self,
                    summary: "One dynamic sport. Bump `lastModified` whenever the entry changes (merge is newest-wins).",
                    keys: [
                        .required(
                            "id", .matching("^[a-z0-9]+(-[a-z0-9]+)*$", example: "ufl"), "A lowercase slug, not a built-in sport's id."),
                        .required("abbreviation", .string, "Short name (`UFL`)."),
                        .required("displayName", .string, "Full name (`United Football League`)."),
                        .required("iconName", .string, "Icon shown with the sport (`football`)."),
                        .required("colorHex", .string, "The sport's colour: \(ColorHex.acceptedForms); stored as #RRGGBB (quote it)."),
                        .required(
                            "seasonStartMonth", .integer(minimum: 1, maximum: 12), "The month the season starts (may wrap the year end)."),
                        .required("seasonEndMonth", .integer(minimum: 1, maximum: 12), "The month the season ends."),
                        .required("isActive", .boolean, "Whether requests may plan trips for it."),
                        .required("lastModified", .instant, "When the entry last changed (quote it)."),
                    ]))))
}
