import ArgumentParser
import Foundation
import SportsTimeCore
import SportsTimeRender

extension PaperSize: ExpressibleByArgument {}

/// `sportstime-render`: turns every plan in `--plans` into an itinerary folder under `--out`.
public struct RenderCommand: PipelineCommand {
    public static let configuration = CommandConfiguration(
        commandName: "sportstime-render",
        abstract: "Render trip plans as Markdown, print-ready HTML, iCalendar, GeoJSON and (with WeasyPrint) PDF.",
        discussion: """
            Writes out/render/<request-id>/{itinerary.md,itinerary.html,trip.ics,route.geojson} and out/render/README.md.
            itinerary.pdf is made from the HTML when a PDF engine is found (--pdf-engine PATH, else .venv/bin/weasyprint,
            installed by `make pdf`); without one, everything else is written and a note says no PDF was made.
            Exit status: 0 ok, 1 failure (an output could not be written, or the PDF engine failed), 2 invalid plan or \
            merged store, 64 usage.
            """,
        version: SportsTimeVersion.current)

    @Option(help: "Folder of plans (sportstime.trip-plan envelopes).")
    var plans: String = "out/plan"

    @Option(help: "Folder of the merged store (sports.json, stadiums.json, games/).")
    var merged: String = "out/merge"

    @Option(help: "Folder to write the itineraries into.")
    var out: String = "out/render"

    @Option(help: "Folder with us-states.json and countries.geojson for the map outlines.")
    var geo: String = "fixtures/geo"

    @Option(help: "Paper size the HTML and PDF ask for: letter or a4.")
    var paper: PaperSize = .letter

    @Option(name: .customLong("pdf-engine"), help: "WeasyPrint executable to make itinerary.pdf with.")
    var pdfEngine: String?

    @Flag(name: .customLong("no-pdf"), help: "Do not make PDFs, even when an engine is available.")
    var noPDF = false

    public init() {}

    public func validate() throws {
        if noPDF && pdfEngine != nil { throw ValidationError("--no-pdf and --pdf-engine contradict each other; pass one.") }
        if let pdfEngine, !FileManager.default.isExecutableFile(atPath: pdfEngine) {
            throw ValidationError(
                "--pdf-engine \(pdfEngine): no executable there. Run `make pdf` to install WeasyPrint into .venv/, or give its path.")
        }
    }

    public func execute(in context: CommandContext) throws {
        var options = RenderRun.Options()
        (options.plans, options.merged, options.out, options.geo, options.paper) = (plans, merged, out, geo, paper)
        options.pdf = noPDF ? .none : pdfEngine.map(RenderRun.PDFChoice.engine) ?? .installed
        try RenderRun(options, paths: context.paths, say: context.say).execute()
    }
}
