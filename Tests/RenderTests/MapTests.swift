import Foundation
import SportsTimeCore
@testable import SportsTimeRender
import Testing

@Suite("Route map and print layout")
struct MapTests {
    @Test("Douglas–Peucker keeps corners and drops points within the tolerance")
    func simplify() {
        let line = [
            MapPoint(x: 0, y: 0), MapPoint(x: 1, y: 0.1), MapPoint(x: 2, y: -0.1), MapPoint(x: 3, y: 5),
            MapPoint(x: 4, y: 6), MapPoint(x: 5, y: 7),
        ]
        let simple = PlaneGeometry.simplify(line, tolerance: 0.5)
        #expect(simple.first == line.first && simple.last == line.last)
        #expect(simple.contains(MapPoint(x: 2, y: -0.1)))
        #expect(!simple.contains(MapPoint(x: 1, y: 0.1)))
        #expect(!simple.contains(MapPoint(x: 4, y: 6)))
        let square = [MapPoint(x: 0, y: 0), MapPoint(x: 5, y: 0.01), MapPoint(x: 10, y: 0), MapPoint(x: 10, y: 10), MapPoint(x: 0, y: 10)]
        #expect(PlaneGeometry.simplify(ring: square, tolerance: 0.5).count == 4)
    }

    @Test("Clipping keeps what is inside the view and cuts the rest at its edges")
    func clip() {
        let ring = [MapPoint(x: -5, y: -5), MapPoint(x: 5, y: -5), MapPoint(x: 5, y: 5), MapPoint(x: -5, y: 5), MapPoint(x: -5, y: -5)]
        let clipped = PlaneGeometry.clip(ring: ring, minX: 0, minY: 0, maxX: 10, maxY: 10)
        #expect(PlaneGeometry.area(clipped) == 25)
        #expect(clipped.allSatisfy { $0.x >= 0 && $0.y >= 0 })
        let outside = [MapPoint(x: 20, y: 20), MapPoint(x: 30, y: 20), MapPoint(x: 30, y: 30)]
        #expect(PlaneGeometry.clip(ring: outside, minX: 0, minY: 0, maxX: 10, maxY: 10).isEmpty)
    }

    @Test("The projection fits every stop inside the view with a margin")
    func projection() throws {
        let plan = try Fixtures.plan(Fixtures.feasibleCase)
        let outline = OptionOutline(option: plan.options[0], request: plan.request)
        let projection = MapProjection(fitting: outline.stops.map(\.coordinate), width: 680)
        #expect((0.5...0.8).contains(projection.height / projection.width))
        for stop in outline.stops {
            let point = projection.project(stop.coordinate)
            #expect(point.x > 30 && point.x < 650 && point.y > 30 && point.y < projection.height - 30)
        }
    }

    @Test("The HTML is self-contained and print-ready", arguments: Fixtures.cases)
    func printReady(caseName: String) throws {
        let html = try Fixtures.text(try Fixtures.render(caseName), "itinerary.html")
        for needle in [
            "@page", "size: Letter", "size: A4", "counter(page)", "counter(pages)", "@bottom-center", "break-inside: avoid", "margin:",
        ] {
            #expect(html.contains(needle), "missing \(needle)")
        }
        #expect(!html.contains("<script"))
        #expect(!html.contains("<link"))
        #expect(!html.contains("src=\""))
        #expect(!html.contains("http://") || !html.replacingOccurrences(of: "http://www.w3.org/2000/svg", with: "").contains("http://"))
        #expect(!html.contains("https://"))
    }

    @Test("Each option has an inline SVG map drawn with paths, small enough to inline")
    func maps() throws {
        let html = try Fixtures.text(try Fixtures.render(Fixtures.feasibleCase), "itinerary.html")
        let svgs = html.components(separatedBy: "<svg ").dropFirst()
        #expect(svgs.count == 2)
        #expect(!html.contains("<polyline"))
        #expect(!html.contains("marker-end"))
        for svg in svgs {
            let body = try #require(svg.components(separatedBy: "</svg>").first)
            #expect(body.utf8.count < 40_000, "map is \(body.utf8.count) bytes")
            #expect(body.contains("<path d=\"M"))
            #expect(body.contains("stroke-dasharray")) // the drive back to the finish
            // Stops numbered 1 to 7 in their sport's colour.
            for number in 1...7 { #expect(body.contains(">\(number)</text>")) }
            #expect(body.contains("fill=\"#C9082A\"")) // NBA red from the sports records
            #expect(body.contains("fill=\"#000000\"")) // NHL black
        }
        #expect(html.contains(">Montréal</text>"))
        #expect(html.contains("Boston (start, finish)"))
    }

    @Test("Paper size follows the context")
    func paper() throws {
        let letter = try Fixtures.text(try Fixtures.render(Fixtures.feasibleCase, paper: .letter), "itinerary.html")
        let a4 = try Fixtures.text(try Fixtures.render(Fixtures.feasibleCase, paper: .a4), "itinerary.html")
        #expect(letter.contains("<html lang=\"en\" class=\"paper-letter\">"))
        #expect(a4.contains("<html lang=\"en\" class=\"paper-a4\">"))
    }

    @Test("Every day of the option is a block that does not break across pages")
    func days() throws {
        let html = try Fixtures.text(try Fixtures.render(Fixtures.feasibleCase), "itinerary.html")
        #expect(html.components(separatedBy: "<div class=\"day\">").count - 1 == 14)
        #expect(html.contains(".day { display: flex; break-inside: avoid;"))
        #expect(html.contains("Drive KeyBank Center → TD Garden"))
        #expect(html.contains("7:00 PM EST · Centre Bell, Montréal, QC, Canada"))
        #expect(html.contains("1:00 PM EDT · TD Garden, Boston, MA"))
    }

    @Test("Plans with inconsistencies render anyway and say what was wrong")
    func inconsistentPlan() throws {
        var plan = try Fixtures.plan(Fixtures.feasibleCase)
        plan.options[0].days[1].visitIndices = [42]
        plan.options[0].days[2].visitIndices = []
        plan.options[0].legs[1].toStadiumId = nil
        plan.options[0].legs[1].toName = "Somewhere"
        let itinerary = RenderStage.render(plan, context: try Fixtures.context())
        let markdown = try Fixtures.text(itinerary, "itinerary.md")
        #expect(markdown.contains("## Render notes"))
        #expect(markdown.contains("lists game 43, but the option has 7 games"))
        #expect(markdown.contains("was on no day of the plan"))
        #expect(markdown.contains("not drawn on the map"))
        #expect(itinerary.diagnostics.count >= 3)
        // Every game still appears in the day table.
        for index in 1...7 { #expect(markdown.contains("**\(index)** ")) }
    }

    @Test("Number and date formatting is locale-free")
    func formatting() throws {
        #expect(NumberText.fixed(2.345, 2) == "2.35" || NumberText.fixed(2.345, 2) == "2.34")
        #expect(NumberText.fixed(-0.004, 2) == "0.00" || NumberText.fixed(-0.004, 2) == "-0.00")
        #expect(NumberText.trimmed(-0.00001, 3) == "0")
        #expect(NumberText.trimmed(42.3663030, 6) == "42.366303")
        #expect(NumberText.grouped(1234567) == "1,234,567")
        #expect(Format.duration(hours: 3.62) == "3 h 37 min")
        #expect(Format.duration(hours: 0.34) == "20 min")
        #expect(Format.duration(hours: 2) == "2 h")
        #expect(Format.clock("19:05") == "7:05 PM")
        #expect(Format.clock("00:30") == "12:30 AM")
        #expect(Format.clock("12:00") == "12:00 PM")
        let first = try #require(LocalDate(iso8601: "2025-12-30")), last = try #require(LocalDate(iso8601: "2026-01-02"))
        #expect(Format.dateRange(first, last) == "Dec 30, 2025 – Jan 2, 2026")
        #expect(Format.longDate(first) == "Tue, Dec 30, 2025")
        #expect(Format.legTime("2025-11-03 01:15 EST", on: LocalDate(iso8601: "2025-11-02")) == "Mon, Nov 3, 1:15 AM EST")
        #expect(Format.legTime("garbage", on: nil) == "garbage")
        #expect(RenderCatalog.normalizedColor("#abc") == "#AABBCC")
        #expect(RenderCatalog.normalizedColor("C9082A80") == "#C9082A")
        #expect(RenderCatalog.normalizedColor("#12345") == nil)
    }
}
