import Foundation
import SportsTimeCore

/// Writes `itinerary.md`: a GitHub-readable itinerary with the options at a glance, a day-by-day
/// table and score breakdown per option, warnings, conflicts, and why there is no trip when there is none.
struct MarkdownRenderer {
    var text: PlanText

    func render() -> Data {
        let plan = text.plan
        let md = Escape.markdown
        var out: [String] = []
        out.block("# \(md(plan.request.title))")
        out.block((text.subtitleParts + [text.route]).map(md).joined(separator: " · "))
        out.block("**\(md(text.headline))**")
        out.block(
            "Times are local to each stadium. Files: [printable itinerary (HTML)](itinerary.html) · "
                + "[calendar](trip.ics) · [route map](route.geojson). A PDF of the HTML is made by `make pdf` "
                + "(into `.pipeline/pdf/<request>/itinerary.pdf`, not committed).")

        if !plan.warnings.isEmpty {
            out.block("## Warnings")
            for warning in plan.warnings { out.append("- \(md(text.readable(warning)))") }
            out.append("")
        }

        if plan.options.isEmpty {
            out.block("## No trip found")
            out.block("> \(md(text.readable(plan.infeasibility ?? "The planner found no trip and gave no reason.")))")
            for outline in text.branchOutlines { out += option(outline, label: "Branch") }
        } else {
            out.block("## Options at a glance")
            out.append("| Option | Dates | Games | Stadiums | Must-see | Driving | Distance | Score |")
            out.append("|---|---|--:|--:|--:|--:|--:|--:|")
            for outline in text.outlines {
                let s = outline.option.score
                let dates = outline.firstDate.flatMap { f in outline.lastDate.map { Format.dateRange(f, $0) } } ?? "–"
                let proven = outline.option.isProvenOptimal ? " (optimal)" : ""
                out.append(
                    "| [Option \(outline.option.rank)](#option-\(outline.option.rank))\(proven) | \(dates) | \(s.games) | "
                        + "\(s.distinctStadiums) | \(s.mustSeeCovered) of \(s.mustSeeTotal) | \(Format.duration(hours: s.drivingHours)) | "
                        + "\(Format.distance(kilometres: s.drivingKilometres)) | \(NumberText.trimmed(s.total, 3)) |")
            }
            out.append("")
            for outline in text.outlines { out += option(outline) }
        }

        out.block("## Conflicts")
        if plan.conflicts.isEmpty {
            out.append("None: every wanted game can be reached from the others.")
        } else {
            for conflict in plan.conflicts {
                let games = conflict.gameIds.map { id in
                    text.describeGame(id).map { "\(md($0)) (\(Escape.markdownCode(id)))" } ?? Escape.markdownCode(id)
                }
                out.append("- \(Format.list(games)): \(md(text.readable(conflict.reason)))")
            }
        }
        out.append("")

        if !text.renderNotes.isEmpty {
            out.block("## Render notes")
            out.block("The plan had inconsistencies; the itinerary shows them as follows.")
            for note in text.renderNotes { out.append("- \(md(note))") }
            out.append("")
        }

        out.block("## How this was planned")
        out.append("- Search: \(md(text.searchSummary)).")
        out.block("- \(md(text.searchFigures))")
        out.block("## Request")
        out.block("Request id \(Escape.markdownCode(plan.id)).")
        out.append("| Setting | Value |")
        out.append("|---|---|")
        for row in text.requestRows {
            let value = row.isIdList ? row.values.map(Escape.markdownCode).joined(separator: ", ") : md(row.values.joined(separator: ", "))
            out.append("| \(md(row.label)) | \(value) |")
        }
        out.append("")
        if !text.constantRows.isEmpty {
            out.block("Travel model in effect:")
            out.append("| Constant | Value |")
            out.append("|---|--:|")
            for (label, value) in text.constantRows { out.append("| \(Escape.markdownCode(label)) | \(value) |") }
            out.append("")
        }
        return Data((out.joined(separator: "\n")).utf8)
    }

    private func option(_ outline: OptionOutline, label: String = "Option") -> [String] {
        let md = Escape.markdown
        let option = outline.option
        let s = option.score
        var out: [String] = []
        out.block(
            label == "Option"
                ? "## Option \(option.rank)"
                : "## \(label) \(option.rank): best trip for a compatible set of must-see games")
        var facts: [String] = []
        if let first = outline.firstDate, let last = outline.lastDate { facts.append("**\(Format.dateRange(first, last))**") }
        facts.append(Format.count(s.games, "game"))
        facts.append(Format.count(s.distinctStadiums, "stadium"))
        facts.append("\(Format.distance(kilometres: s.drivingKilometres)) of driving")
        facts.append("\(Format.duration(hours: s.drivingHours)) behind the wheel")
        facts.append(Format.count(s.restDays, "rest day"))
        out.block(facts.joined(separator: " · "))
        out.block(md(text.optimality(of: option)))
        out.block("### Day by day")
        out.append("| Day | Date | Games (local time) | Drives | Driving |")
        out.append("|--:|---|---|---|--:|")
        for day in outline.days {
            let games = day.games.map { index, visit in
                let must = visit.isMustSee ? " **must-see**" : ""
                return "**\(index + 1)** \(md(text.catalog.abbreviation(ofSport: visit.sport))) \(md(text.title(of: visit))), "
                    + "\(md(Format.gameTime(visit))), \(md(text.venue(of: visit)))\(must)"
            }
            let drives = day.driveEvents.compactMap { event -> String? in
                switch event {
                case .drive(_, let leg):
                    let note = Format.assumedStartNote(leg, visits: option.visits).map { ", \(md($0))" } ?? ""
                    return "\(md(text.driveTitle(leg))), \(md(text.driveDetail(leg, on: day.date)))\(note)"
                case .drivePart(_, let leg, let part):
                    let note = part.part == 1 ? Format.assumedStartNote(leg, visits: option.visits).map { ", \(md($0))" } ?? "" : ""
                    return "\(md(text.drivePartTitle(leg, part))), \(md(text.drivePartDetail(leg, part, on: day.date)))\(note)"
                case .game:
                    return nil
                }
            }
            let gameCell =
                !games.isEmpty
                ? games.joined(separator: "<br>")
                : day.isRestDay ? "Rest day" : (drives.isEmpty && day.drivingHours <= 0 ? "Nothing planned" : "Travel day")
            let driveCell = drives.isEmpty ? "–" : drives.joined(separator: "<br>")
            let hours = day.drivingHours > 0 ? Format.duration(hours: day.drivingHours) : "–"
            out.append("| \(day.number) | \(Format.shortDate(day.date)) | \(gameCell) | \(driveCell) | \(hours) |")
        }
        out.append("")
        out.block("### Score breakdown")
        out.append("| Component | Value |")
        out.append("|---|--:|")
        for (label, value) in text.scoreRows(option) { out.append("| \(md(label)) | \(md(value)) |") }
        out.append("")
        if !option.warnings.isEmpty {
            out.block("### Warnings for \(label.lowercased()) \(option.rank)")
            for warning in option.warnings { out.append("- \(md(text.readable(warning)))") }
            out.append("")
        }
        return out
    }
}

extension [String] {
    /// A Markdown block: `line` and the blank line that ends it.
    fileprivate mutating func block(_ line: String) {
        append(line)
        append("")
    }
}
