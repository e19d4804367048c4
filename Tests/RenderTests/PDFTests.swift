import Foundation
import SportsTimeCore
@testable import SportsTimeRender
import Testing

@Suite("PDF through WeasyPrint")
struct PDFTests {
    private func makePDF(_ caseName: String, paper: PaperSize) throws -> (text: String, info: String) {
        let folder = try Tools.scratchFolder("pdf")
        defer { try? FileManager.default.removeItem(at: folder) }
        let html = folder.appendingPathComponent("itinerary.html"), pdf = folder.appendingPathComponent("itinerary.pdf")
        try #require(try Fixtures.render(caseName, paper: paper).file(named: "itinerary.html")).data.write(to: html)
        let engine = try #require(Tools.weasyprint)
        let made = try Tools.run(engine, ["--quiet", html.path, pdf.path])
        #expect(made.status == 0, "WeasyPrint failed: \(made.error)")
        let text = try Tools.run(try #require(Tools.pdftotext), ["-layout", pdf.path, "-"])
        #expect(text.status == 0)
        let info = try Tools.run(try #require(Tools.pdfinfo), [pdf.path])
        return (text.output, info.output)
    }

    @Test(
        "The feasible itinerary prints on Letter with page numbers, every game and every day",
        .enabled(
            if: Tools.canCheckPDFs,
            "needs WeasyPrint (pipeline/tools/install-pdf-engine.sh) and pdftotext/pdfinfo (pipeline/tools/install-test-tools.sh)"))
    func feasiblePDF() throws {
        let plan = try Fixtures.plan(Fixtures.feasibleCase)
        let (text, info) = try makePDF(Fixtures.feasibleCase, paper: .letter)
        #expect(info.contains("612 x 792 pts"))
        let pages = try #require(
            info.split(separator: "\n").first { $0.hasPrefix("Pages:") }.flatMap { Int($0.split(separator: " ").last ?? "") })
        #expect((2...8).contains(pages))
        for page in 1...pages { #expect(text.contains("Page \(page) of \(pages)")) }
        #expect(text.contains("Northeast Hoops & Hockey"))
        for option in plan.options {
            for visit in option.visits { #expect(text.contains("\(visit.awayTeamName) at \(visit.homeTeamName)")) }
        }
        for day in 1...7 { #expect(text.contains("DAY \(day)")) }
        #expect(text.contains("7:00 PM EST · Centre Bell, Montréal, QC, Canada"))
        #expect(text.contains("Montréal")) // the map's label is text, not outlines
        #expect(text.contains("100 mi") || text.contains("50 mi"))
    }

    @Test(
        "The infeasible itinerary prints on A4 and says why there is no trip",
        .enabled(
            if: Tools.canCheckPDFs,
            "needs WeasyPrint (pipeline/tools/install-pdf-engine.sh) and pdftotext/pdfinfo (pipeline/tools/install-test-tools.sh)"))
    func infeasiblePDF() throws {
        let (text, info) = try makePDF(Fixtures.infeasibleCase, paper: .a4)
        #expect(info.contains("595.276 x 841.89 pts") || info.contains("(A4)"))
        #expect(text.contains("No trip found"))
        #expect(text.contains("Page 1 of 1"))
        #expect(text.contains("6 h 14 min drive apart"))
    }
}
