import Foundation

/// The itinerary's stylesheet: print first (`@page` for Letter and A4, margins, running header,
/// "Page X of Y"), screen second (a centred column). Fonts are ones PDF engines here have (DejaVu).
enum Stylesheet {
    static let css = """
        @page {
          size: Letter;
          margin: 15mm 14mm 17mm 14mm;
          @top-right { content: string(trip-title); font: 7.5pt "DejaVu Sans", sans-serif; color: #5B6573; }
          @bottom-center { content: "Page " counter(page) " of " counter(pages); font: 7.5pt "DejaVu Sans", sans-serif; color: #5B6573; }
        }
        @page :first { @top-right { content: none; } }
        @page letter { size: Letter; }
        @page a4 { size: A4; }
        html.paper-letter body { page: letter; }
        html.paper-a4 body { page: a4; }

        html { font-family: "DejaVu Sans", "Helvetica Neue", Helvetica, Arial, sans-serif; font-size: 9pt; line-height: 1.38; color: #1F2933; }
        body { margin: 0; }
        @media screen {
          html { background: #E9EDF1; }
          body { max-width: 188mm; margin: 24px auto; padding: 14mm; background: #FFFFFF; box-shadow: 0 1px 4px rgba(0,0,0,0.15); }
        }
        h1 { font-size: 19pt; line-height: 1.15; margin: 0 0 1.5mm; string-set: trip-title content(); }
        h2 { font-size: 13pt; margin: 6mm 0 2mm; padding-bottom: 1mm; border-bottom: 0.5mm solid #1E3A5F; break-after: avoid; }
        h3 { font-size: 10pt; margin: 4mm 0 1.5mm; color: #1E3A5F; break-after: avoid; }
        p { margin: 0 0 2mm; }
        code { font-family: "DejaVu Sans Mono", monospace; font-size: 0.9em; }
        .kicker { font-size: 7.5pt; letter-spacing: 0.06em; text-transform: uppercase; color: #5B6573; margin-bottom: 1mm; }
        .lede { color: #3E4C59; margin-bottom: 2mm; }
        .headline { font-size: 10.5pt; font-weight: bold; margin: 3mm 0; padding: 2.5mm 3mm; background: #EEF3F8; border-left: 1.2mm solid #1E3A5F; }
        .headline.none { background: #FBEFEA; border-left-color: #B4441F; }
        .note { color: #5B6573; font-size: 8pt; }

        table { border-collapse: collapse; width: 100%; }
        th, td { text-align: left; vertical-align: top; padding: 1.1mm 1.8mm; border-bottom: 0.25mm solid #D5DBE2; }
        th { font-size: 7.5pt; font-weight: bold; color: #5B6573; text-transform: uppercase; letter-spacing: 0.03em; border-bottom: 0.4mm solid #9AA5B1; }
        th.num, td.num { text-align: right; white-space: nowrap; }
        tr { break-inside: avoid; }
        table.settings td:first-child { color: #3E4C59; width: 40%; }

        section.option { break-before: page; }
        section.option.first { break-before: auto; }
        .facts { margin: 0 0 2mm; color: #3E4C59; }
        .facts strong { color: #1F2933; }
        .optimality { font-size: 8pt; color: #5B6573; margin-bottom: 2mm; }

        figure.map { margin: 0 0 3mm; break-inside: avoid; }
        svg.route-map { display: block; width: auto; height: auto; max-width: 100%; max-height: 112mm; margin: 0 auto; }
        figcaption { font-size: 7.5pt; color: #3E4C59; margin-top: 1mm; }
        .swatch { display: inline-block; width: 2.6mm; height: 2.6mm; border-radius: 50%; vertical-align: -0.3mm; margin: 0 0.8mm 0 2.5mm; }
        .swatch.drive { border-radius: 0; height: 0.6mm; width: 6mm; vertical-align: 0.6mm; background: #1E3A5F; }
        .swatch.dashed { border-radius: 0; height: 0; width: 6mm; vertical-align: 0.6mm; border-top: 0.6mm dashed #1E3A5F; }

        .day { display: flex; break-inside: avoid; border-top: 0.25mm solid #D5DBE2; padding: 1.8mm 0; }
        .day:last-child { border-bottom: 0.25mm solid #D5DBE2; }
        .day-date { flex: 0 0 22mm; }
        .day-no { display: block; font-size: 7.5pt; text-transform: uppercase; letter-spacing: 0.05em; color: #5B6573; }
        .day-name { display: block; font-weight: bold; }
        .day-body { flex: 1 1 auto; }
        .event { margin: 0 0 1.2mm; padding-left: 7mm; position: relative; }
        .event:last-child { margin-bottom: 0; }
        .event .meta { display: block; color: #3E4C59; font-size: 8.3pt; }
        .stop { position: absolute; left: 0; top: 0.2mm; display: inline-block; width: 4.6mm; height: 4.6mm; line-height: 4.6mm; border-radius: 50%; text-align: center; font-size: 7pt; font-weight: bold; }
        .stop.drive { border-radius: 0; background: none; color: #1E3A5F; font-size: 9pt; }
        .sport { font-size: 7pt; font-weight: bold; letter-spacing: 0.04em; padding: 0.2mm 1mm; border-radius: 0.8mm; margin-right: 1mm; }
        .must { font-size: 7pt; font-weight: bold; text-transform: uppercase; color: #8A4B00; background: #FCEFD5; padding: 0.2mm 1mm; border-radius: 0.8mm; margin-left: 1mm; }
        .rest { color: #5B6573; font-style: italic; }
        .day-total { font-size: 7.5pt; color: #5B6573; margin-top: 0.8mm; }

        .pair { display: flex; gap: 6mm; break-inside: avoid; }
        .pair > div { flex: 1 1 0; }
        .pair.split { break-inside: auto; }
        .pair.split > div:first-child { flex: 1.25 1 0; }
        ul { margin: 0 0 2mm; padding-left: 5mm; }
        li { margin-bottom: 0.8mm; }
        .infeasible { font-size: 10pt; padding: 3mm; border: 0.4mm solid #B4441F; background: #FBEFEA; break-inside: avoid; }
        """
}
