import Foundation
import SportsTimeCore

/// Writes `out/render/README.md`, the index GitHub shows for the folder.
struct IndexRenderer {
    var catalog: RenderCatalog

    func render(_ plans: [TripPlan]) -> Data {
        let md = Escape.markdown
        var out: [String] = []
        out.append("# Trip itineraries")
        out.append("")
        out.append(
            "Rendered by `sportstime-render` from `out/plan/` and `out/merge/`; do not edit by hand. "
                + "Each folder holds the itinerary as Markdown and print-ready HTML, a calendar of the best option's games "
                + "(`trip.ics`) and the routes as GeoJSON. PDFs are build products, not committed: `make pdf` "
                + "renders every itinerary with its `itinerary.pdf` into `.pipeline/pdf/<request>/`.")
        out.append("")
        if plans.isEmpty {
            out.append("No plans were found in `out/plan/`.")
            out.append("")
            return Data(out.joined(separator: "\n").utf8)
        }
        out.append("| Request | Sports | Dates | Best option | Files |")
        out.append("|---|---|---|---|---|")
        for plan in plans {
            let folder = pathComponent(plan.id)
            let sports = Format.sports(plan.request.sports, catalog: catalog)
            let dates = Format.dateRange(plan.request.firstDate, plan.request.lastDate)
            let best: String
            if let option = plan.options.min(by: { $0.rank < $1.rank }) {
                let s = option.score
                best =
                    "\(Format.count(s.games, "game")), \(Format.count(s.distinctStadiums, "stadium")), "
                    + "\(Format.distance(kilometres: s.drivingKilometres)) (\(Format.count(plan.options.count, "option")))"
            } else {
                best = "No trip: " + md(plan.infeasibility ?? "no reason given")
            }
            let files = "[HTML](\(folder)/itinerary.html) · [calendar](\(folder)/trip.ics) · [map](\(folder)/route.geojson)"
            out.append(
                "| [\(md(plan.request.title))](\(folder)/itinerary.md)<br>\(Escape.markdownCode(plan.id)) | \(md(sports)) | "
                    + "\(dates) | \(best) | \(files) |")
        }
        out.append("")
        return Data(out.joined(separator: "\n").utf8)
    }

    /// A request id as a link path (spaces and the like percent-encoded).
    private func pathComponent(_ id: String) -> String {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "()[]")
        return id.addingPercentEncoding(withAllowedCharacters: allowed) ?? id
    }
}
