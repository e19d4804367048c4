import Foundation
import SportsTimeCore

/// One output file of a rendered request, named relative to its request folder.
public struct RenderedFile: Sendable, Hashable {
    public var name: String
    public var data: Data
    public init(name: String, data: Data) { self.name = name; self.data = data }
}

/// Everything rendered for one request, plus what render had to work around.
public struct RenderedItinerary: Sendable {
    /// In a fixed order: `itinerary.md`, `itinerary.html`, `trip.ics`, `route.geojson`.
    public var files: [RenderedFile]
    /// Warnings about the plan or the lookups (e.g. a game the merged store no longer has).
    public var diagnostics: [Diagnostic]

    public func file(named name: String) -> RenderedFile? { files.first { $0.name == name } }
}

/// The render stage: plans in, documents out. Pure: no disk, no clock, no environment.
public enum RenderStage {
    public static let markdownName = "itinerary.md"
    public static let htmlName = "itinerary.html"
    public static let calendarName = "trip.ics"
    public static let geoJSONName = "route.geojson"
    /// Made by the command from the HTML when a PDF engine is available; never committed.
    public static let pdfName = "itinerary.pdf"
    public static let indexName = "README.md"

    /// Renders one plan into its four text documents.
    ///
    /// - Parameter planPath: where the plan came from, for diagnostics.
    public static func render(_ input: TripPlan, context: RenderContext, planPath: String? = nil) -> RenderedItinerary {
        // Options in rank order whatever order the file lists them in (ties by their games, so still stable).
        var plan = input
        plan.options.sort {
            ($0.rank, $0.visits.map(\.gameId).joined(separator: " ")) < ($1.rank, $1.visits.map(\.gameId).joined(separator: " "))
        }
        let outlines = plan.options.map { OptionOutline(option: $0, request: plan.request) }
        let branchOutlines = plan.options.isEmpty ? (plan.branches ?? []).map { OptionOutline(option: $0, request: plan.request) } : []
        let text = PlanText(plan: plan, catalog: context.catalog, outlines: outlines, branchOutlines: branchOutlines)
        let maps = RouteMapRenderer(catalog: context.catalog, baseMap: context.baseMap)
        let calendar = ICalendarRenderer(catalog: context.catalog).render(plan)

        var diagnostics: [Diagnostic] = []
        let location = planPath.map { SourceLocation(path: $0) }
        // Render notes are inconsistencies inside the plan file, which the planner does not write: re-running
        // plan with the same inputs gives the same file, so the action that works is restoring the file.
        let planFile = planPath ?? "the plan file"
        for note in text.renderNotes {
            diagnostics.append(
                Diagnostic(
                    .warning, at: location, note,
                    fix: "If \(planFile) was edited by hand, restore it (git checkout -- \(planFile)); otherwise report it as a planner bug"
                ))
        }
        for problem in calendar.problems { diagnostics.append(Diagnostic(.warning, at: location, problem, fix: "Re-run merge and plan")) }
        var unknownSports: [String] = []
        for id in Set(plan.request.sports + plan.options.flatMap { $0.visits.map(\.sport) }).sorted()
        where context.catalog.sport(id) == nil {
            unknownSports.append(id)
        }
        for id in unknownSports {
            diagnostics.append(
                Diagnostic(
                    .warning, at: location, "sport '\(id)' is not in the sports records; drawn in grey",
                    fix: "Add it to fixtures/reference/sports.yaml and re-run merge"))
        }

        let files = [
            RenderedFile(name: markdownName, data: MarkdownRenderer(text: text).render()),
            RenderedFile(name: htmlName, data: HTMLRenderer(text: text, paper: context.paper, maps: maps).render()),
            RenderedFile(name: calendarName, data: calendar.data),
            RenderedFile(name: geoJSONName, data: RouteGeoJSONRenderer(catalog: context.catalog).render(plan, outlines: outlines)),
        ]
        return RenderedItinerary(files: files, diagnostics: diagnostics)
    }

    /// `out/render/README.md`: every itinerary, sorted by request id, with links to its files.
    public static func index(of plans: [TripPlan], catalog: RenderCatalog) -> Data {
        IndexRenderer(catalog: catalog).render(plans.sorted { $0.id < $1.id })
    }

    /// Whether `id` can name a folder under `out/render/` (no separators, not `.` or `..`, not hidden).
    public static func isSafeFolderName(_ id: String) -> Bool {
        !id.isEmpty && id != "." && id != ".." && !id.hasPrefix(".") && !id.contains("/") && !id.contains("\\")
            && !id.unicodeScalars.contains { $0.value < 0x20 }
    }
}
