import Foundation
import SportsTimeCore

/// Writes `itinerary.html`: one self-contained, print-ready page (no scripts, no external files)
/// with an inline SVG route map per option. The same file is what WeasyPrint turns into the PDF.
struct HTMLRenderer {
    var text: PlanText
    var paper: PaperSize
    var maps: RouteMapRenderer

    func render() -> Data {
        let plan = text.plan
        let h = Escape.html
        var out = "<!DOCTYPE html>\n"
        out += "<html lang=\"en\" class=\"paper-\(paper.rawValue)\">\n<head>\n<meta charset=\"utf-8\">\n"
        out += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        out += "<meta name=\"generator\" content=\"sportstime-render\">\n"
        out += "<meta name=\"description\" content=\"\(h(text.headline))\">\n"
        out += "<title>\(h(plan.request.title)) – SportsTime itinerary</title>\n"
        out += "<style>\n\(Stylesheet.css)\n\(sportStyles())</style>\n</head>\n<body>\n"

        out += "<header>\n"
        out += "<div class=\"kicker\">SportsTime itinerary · \(h(plan.id))</div>\n"
        out += "<h1>\(h(plan.request.title))</h1>\n"
        out += "<div class=\"lede\">\((text.subtitleParts + [text.route]).map(h).joined(separator: " · "))</div>\n"
        out += "<div class=\"headline\(plan.options.isEmpty ? " none" : "")\">\(h(text.headline))</div>\n"
        out += "</header>\n"

        if !plan.warnings.isEmpty {
            out += "<section class=\"warnings\">\n<h2>Warnings</h2>\n<ul>\n"
            for warning in plan.warnings { out += "<li>\(h(text.readable(warning)))</li>\n" }
            out += "</ul>\n</section>\n"
        }

        if plan.options.isEmpty {
            out += "<section>\n<h2>No trip found</h2>\n"
            out +=
                "<p class=\"infeasible\">\(h(text.readable(plan.infeasibility ?? "The planner found no trip and gave no reason.")))</p>\n"
            out += "</section>\n"
            // Each branch on its own page, its heading saying what it is (no heading left alone on a page).
            for (index, outline) in text.branchOutlines.enumerated() {
                out += option(
                    outline, isFirst: false, label: "Branch", id: "branch-\(index + 1)",
                    heading: "Branch \(outline.option.rank): best trip for a compatible set of must-see games")
            }
            out += conflicts()
        } else {
            out += overview()
            for (index, outline) in text.outlines.enumerated() { out += option(outline, isFirst: index == 0) }
            out += conflicts()
        }
        out += closing()
        out += "</body>\n</html>\n"
        return Data(out.utf8)
    }

    /// One class per sport in the plan, from its colour record: `.sport-nba { background: ...; color: ... }`.
    private func sportStyles() -> String {
        var ids = Set(text.plan.request.sports)
        for option in text.plan.options { for visit in option.visits { ids.insert(visit.sport) } }
        return ids.sorted().map { id in
            let color = text.catalog.color(ofSport: id)
            return ".sport-\(cssIdentifier(id)) { background: \(color); color: \(RouteMapRenderer.textColor(on: color)); }\n"
        }.joined()
    }

    private func overview() -> String {
        var out = "<section class=\"overview\">\n<h2>Options at a glance</h2>\n<table>\n<thead><tr>"
        out += "<th>Option</th><th>Dates</th><th class=\"num\">Games</th><th class=\"num\">Stadiums</th><th class=\"num\">Must-see</th>"
        out += "<th class=\"num\">Driving</th><th class=\"num\">Distance</th><th class=\"num\">Score</th></tr></thead>\n<tbody>\n"
        for outline in text.outlines {
            let s = outline.option.score
            let dates = outline.firstDate.flatMap { f in outline.lastDate.map { Format.dateRange(f, $0) } } ?? "–"
            let proven = outline.option.isProvenOptimal ? " <span class=\"note\">(optimal)</span>" : ""
            out += "<tr><td><a href=\"#option-\(outline.option.rank)\">Option \(outline.option.rank)</a>\(proven)</td>"
            out += "<td>\(Escape.html(dates))</td><td class=\"num\">\(s.games)</td><td class=\"num\">\(s.distinctStadiums)</td>"
            out +=
                "<td class=\"num\">\(s.mustSeeCovered) of \(s.mustSeeTotal)</td><td class=\"num\">\(Format.duration(hours: s.drivingHours))</td>"
            out +=
                "<td class=\"num\">\(Format.distance(kilometres: s.drivingKilometres))</td><td class=\"num\">\(NumberText.trimmed(s.total, 3))</td></tr>\n"
        }
        out += "</tbody>\n</table>\n</section>\n"
        return out
    }

    private func option(
        _ outline: OptionOutline, isFirst: Bool, label: String = "Option", id: String? = nil,
        heading: String? = nil
    ) -> String {
        let h = Escape.html
        let option = outline.option
        let s = option.score
        var out = "<section class=\"option\(isFirst ? " first" : "")\" id=\"\(id ?? "option-\(option.rank)")\">\n"
        out += "<h2>\(Escape.html(heading ?? "\(label) \(option.rank)"))</h2>\n"
        var facts: [String] = []
        if let first = outline.firstDate, let last = outline.lastDate {
            facts.append("<strong>\(h(Format.dateRange(first, last)))</strong>")
        }
        facts.append(Format.count(s.games, "game"))
        facts.append(Format.count(s.distinctStadiums, "stadium"))
        facts.append("\(Format.distance(kilometres: s.drivingKilometres)) of driving")
        facts.append("\(Format.duration(hours: s.drivingHours)) behind the wheel")
        facts.append(Format.count(s.restDays, "rest day"))
        out += "<p class=\"facts\">\(facts.joined(separator: " · "))</p>\n"
        out += "<p class=\"optimality\">\(h(text.optimality(of: option)))</p>\n"

        out += "<figure class=\"map\">\n"
        out += maps.svg(for: outline, ariaLabel: "Route map of \(label.lowercased()) \(option.rank): \(Format.list(outline.cities))")
        out += "\n<figcaption>"
        var sports: [String] = []
        for visit in option.visits where !sports.contains(visit.sport) { sports.append(visit.sport) }
        out += sports.map { id in
            "<span class=\"swatch sport-\(cssIdentifier(id))\"></span>\(h(text.catalog.abbreviation(ofSport: id))) game"
        }.joined(separator: " ")
        // The legend lists only what the map draws.
        if outline.paths.contains(where: { !$0.touchesStartOrEnd }) { out += " <span class=\"swatch drive\"></span>drive" }
        if outline.paths.contains(where: \.touchesStartOrEnd) {
            out += " <span class=\"swatch dashed\"></span>drive from the start or to the finish"
        }
        out += "."
        out += " Numbers are the games in order; nearby stops share one label.</figcaption>\n</figure>\n"

        out += "<h3>Day by day</h3>\n<div class=\"days\">\n"
        for day in outline.days { out += self.day(day, visits: option.visits) }
        out += "</div>\n"

        out += "<div class=\"pair\">\n<div>\n<h3>Score breakdown</h3>\n<table>\n<tbody>\n"
        for (label, value) in text.scoreRows(option) { out += "<tr><td>\(h(label))</td><td class=\"num\">\(h(value))</td></tr>\n" }
        out += "</tbody>\n</table>\n</div>\n<div>\n"
        out += "<h3>Warnings</h3>\n"
        if option.warnings.isEmpty {
            out += "<p class=\"note\">None for this \(label.lowercased()).</p>\n"
        } else {
            out += "<ul>\n" + option.warnings.map { "<li>\(h(text.readable($0)))</li>\n" }.joined() + "</ul>\n"
        }
        out += "</div>\n</div>\n</section>\n"
        return out
    }

    private func day(_ day: DayOutline, visits: [GameVisit]) -> String {
        let h = Escape.html
        var out = "<div class=\"day\">\n<div class=\"day-date\"><span class=\"day-no\">Day \(day.number)</span>"
        out += "<span class=\"day-name\">\(h(Format.shortDate(day.date)))</span></div>\n<div class=\"day-body\">\n"
        if day.events.isEmpty {
            // As in the Markdown: a day with driving but no listed drive is a travel day, never "nothing".
            let what =
                day.isRestDay
                ? "Rest day: no games, no driving."
                : day.drivingHours > 0 ? "Travel day, \(Format.duration(hours: day.drivingHours)) of driving." : "Nothing planned."
            out += "<div class=\"rest\">\(what)</div>\n"
        }
        for event in day.events {
            switch event {
            case .game(let index, let visit):
                let sport = cssIdentifier(visit.sport)
                out += "<div class=\"event game\"><span class=\"stop sport-\(sport)\">\(index + 1)</span>"
                out += "<span class=\"sport sport-\(sport)\">\(h(text.catalog.abbreviation(ofSport: visit.sport)))</span>"
                out += "<strong>\(h(text.title(of: visit)))</strong>"
                if visit.isMustSee { out += "<span class=\"must\">Must-see</span>" }
                out += "<span class=\"meta\">\(h(Format.gameTime(visit))) · \(h(text.venue(of: visit)))</span></div>\n"
            case .drive(_, let leg):
                out += "<div class=\"event drive\"><span class=\"stop drive\">→</span>"
                out += "Drive \(h(text.driveTitle(leg)))"
                out += "<span class=\"meta\">\(h(text.driveDetail(leg, on: day.date).replacingOccurrences(of: ", ", with: " · ")))</span>"
                if let note = Format.assumedStartNote(leg, visits: visits) { out += "<span class=\"meta assumed\">\(h(note))</span>" }
                out += "</div>\n"
            case .drivePart(_, let leg, let part):
                out += "<div class=\"event drive\"><span class=\"stop drive\">→</span>"
                out += "Drive \(h(text.drivePartTitle(leg, part)))"
                out += "<span class=\"meta\">\(h(text.drivePartDetail(leg, part, on: day.date, separator: " · ")))</span>"
                if part.part == 1, let note = Format.assumedStartNote(leg, visits: visits) {
                    out += "<span class=\"meta assumed\">\(h(note))</span>"
                }
                out += "</div>\n"
            }
        }
        if day.drivingHours > 0 && day.driveEvents.count > 1 {
            out += "<div class=\"day-total\">Driving this day: \(Format.duration(hours: day.drivingHours))</div>\n"
        }
        out += "</div>\n</div>\n"
        return out
    }

    private func conflicts() -> String {
        let h = Escape.html
        var out = "<section class=\"conflicts closing\">\n<h2>Conflicts</h2>\n"
        if text.plan.conflicts.isEmpty {
            out += "<p class=\"note\">None: every wanted game can be reached from the others.</p>\n"
        } else {
            out += "<ul>\n"
            for conflict in text.plan.conflicts {
                let games = conflict.gameIds.map { id in
                    text.describeGame(id).map { "\(h($0)) (<code>\(h(id))</code>)" } ?? "<code>\(h(id))</code>"
                }
                out += "<li>\(Format.list(games)): \(h(text.readable(conflict.reason)))</li>\n"
            }
            out += "</ul>\n"
        }
        return out + "</section>\n"
    }

    private func closing() -> String {
        let h = Escape.html
        var out = ""
        if !text.renderNotes.isEmpty {
            out +=
                "<section class=\"closing\">\n<h2>Render notes</h2>\n<p>The plan had inconsistencies; the itinerary shows them as follows.</p>\n<ul>\n"
            for note in text.renderNotes { out += "<li>\(h(note))</li>\n" }
            out += "</ul>\n</section>\n"
        }
        out += "<section class=\"closing\">\n<h2>How this was planned</h2>\n"
        out += "<p>Search: \(h(text.searchSummary)). \(h(text.searchFigures))</p>\n"
        out += "<p class=\"note\">Times are local to each stadium, with its time zone. Distances are road estimates "
        out += "(great-circle distance times a circuity factor); driving times follow the travel model below. "
        out += "Map outlines: US Census and Natural Earth (public domain).</p>\n"
        out += "<div class=\"pair split\">\n<div>\n<h3>Request <code>\(h(text.plan.id))</code></h3>\n<table class=\"settings\">\n<tbody>\n"
        for row in text.requestRows {
            let value =
                row.isIdList ? row.values.map { "<code>\(h($0))</code>" }.joined(separator: "<br>") : h(row.values.joined(separator: ", "))
            out += "<tr><td>\(h(row.label))</td><td>\(value)</td></tr>\n"
        }
        out += "</tbody>\n</table>\n</div>\n<div>\n<h3>Travel model</h3>\n<table class=\"settings\">\n<tbody>\n"
        for (label, value) in text.constantRows {
            out += "<tr><td><code>\(h(label))</code></td><td class=\"num\">\(h(value))</td></tr>\n"
        }
        if text.constantRows.isEmpty { out += "<tr><td>The plan lists no constants.</td><td></td></tr>\n" }
        out += "</tbody>\n</table>\n</div>\n</div>\n</section>\n"
        return out
    }

    /// A sport id as a CSS class fragment: letters, digits and `-` only.
    private func cssIdentifier(_ id: String) -> String {
        let cleaned = id.lowercased().unicodeScalars.map { scalar -> String in
            scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar) || scalar == "-") ? String(scalar) : "-"
        }.joined()
        return cleaned.isEmpty ? "unknown" : cleaned
    }
}
