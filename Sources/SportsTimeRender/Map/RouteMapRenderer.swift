import Foundation
import SportsTimeCore

/// Draws one option's route as an inline SVG: clipped, simplified outlines; drives as curved
/// `<path>`s with a direction mark; games as numbered discs in their sport's colour; city labels
/// placed to avoid each other; a scale bar.
///
/// Only `<path>`, `<rect>`, `<circle>` and `<text>` are used (no markers, no `<polyline>`), so PDF
/// engines draw it the same as browsers.
struct RouteMapRenderer {
    var width: Double = 680
    /// Outlines are simplified to this many SVG units (about 0.2 mm on paper).
    var tolerance: Double = 0.8
    var catalog: RenderCatalog
    var baseMap: BaseMap

    static let discRadius = 10.0
    /// CSS pixels per SVG unit for the width/height attributes.
    static let intrinsicScale = 1.125
    static let labelSize = 13.0

    /// A group of stops that would overlap on the map, drawn as one row of discs with one label.
    struct Cluster {
        var stops: [RouteStop]
        var position: MapPoint
        var games: [RouteStop] { stops.filter { $0.kind == .game } }
        var discCount: Int { max(games.count, 1) }
        var halfWidth: Double { Double(discCount) * RouteMapRenderer.discRadius + 1 }
    }

    func svg(for outline: OptionOutline, ariaLabel: String) -> String {
        let projection = MapProjection(fitting: outline.stops.map(\.coordinate), width: width)
        let w = projection.width, h = projection.height
        var out = ""
        out += "<svg class=\"route-map\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(n(w)) \(n(h))\" "
        // Intrinsic size a little wider than a printed column, so CSS max-width/max-height decide.
        out +=
            "width=\"\(n(w * RouteMapRenderer.intrinsicScale))\" height=\"\(n(h * RouteMapRenderer.intrinsicScale))\" role=\"img\" aria-label=\"\(Escape.html(ariaLabel))\" "
        out += "font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\">\n"
        out += "<rect x=\"0\" y=\"0\" width=\"\(n(w))\" height=\"\(n(h))\" fill=\"#DCE7EF\"/>\n"
        out += outlines(baseMap.countries, projection, fill: "#ECE9E1", stroke: "#A8A192", strokeWidth: 0.9)
        out += outlines(baseMap.regions, projection, fill: "#F5F3EC", stroke: "#C3BCAC", strokeWidth: 0.6)

        let clusters = cluster(outline.stops, projection)
        func clusterIndex(of coordinate: Coordinate) -> Int? {
            let point = projection.project(coordinate)
            var best: (Int, Double)? = nil
            for (index, cluster) in clusters.enumerated() {
                for stop in cluster.stops {
                    let p = projection.project(stop.coordinate)
                    let d = hypot(p.x - point.x, p.y - point.y)
                    if d < 0.5, best == nil || d < best!.1 { best = (index, d) }
                }
            }
            return best?.0
        }
        out += "<g fill=\"none\" stroke=\"#1E3A5F\" stroke-width=\"2.2\" stroke-linecap=\"round\" stroke-opacity=\"0.85\">\n"
        var arrows = ""
        var legSamples: [MapPoint] = []
        for path in outline.paths {
            var a = projection.project(path.from), b = projection.project(path.to)
            if let i = clusterIndex(of: path.from) { a = clusters[i].position }
            if let j = clusterIndex(of: path.to) { b = clusters[j].position }
            let dx = b.x - a.x, dy = b.y - a.y
            let length = hypot(dx, dy)
            guard length > 2 * RouteMapRenderer.discRadius else { continue }
            // Bend to the left of the direction of travel, so a drive there and back shows as two lines.
            let bend = min(0.14 * length, 36)
            let normal = MapPoint(x: dy / length, y: -dx / length)
            let control = MapPoint(x: (a.x + b.x) / 2 + normal.x * bend, y: (a.y + b.y) / 2 + normal.y * bend)
            let dash = path.touchesStartOrEnd ? " stroke-dasharray=\"6 4\"" : ""
            for step in 1..<16 {
                let t = Double(step) / 16, u = 1 - t
                legSamples.append(
                    MapPoint(
                        x: u * u * a.x + 2 * u * t * control.x + t * t * b.x,
                        y: u * u * a.y + 2 * u * t * control.y + t * t * b.y))
            }
            out += "<path d=\"M\(n(a.x)) \(n(a.y))Q\(n(control.x)) \(n(control.y)) \(n(b.x)) \(n(b.y))\"\(dash)/>\n"
            if length > 48 {
                // Direction mark at the curve's midpoint, where the tangent is parallel to a→b.
                let mid = MapPoint(x: 0.25 * a.x + 0.5 * control.x + 0.25 * b.x, y: 0.25 * a.y + 0.5 * control.y + 0.25 * b.y)
                let u = MapPoint(x: dx / length, y: dy / length)
                let tip = MapPoint(x: mid.x + u.x * 5.5, y: mid.y + u.y * 5.5)
                let left = MapPoint(x: mid.x - u.x * 4.5 + u.y * 4.5, y: mid.y - u.y * 4.5 - u.x * 4.5)
                let right = MapPoint(x: mid.x - u.x * 4.5 - u.y * 4.5, y: mid.y - u.y * 4.5 + u.x * 4.5)
                arrows += "<path d=\"M\(n(tip.x)) \(n(tip.y))L\(n(left.x)) \(n(left.y))L\(n(right.x)) \(n(right.y))Z\"/>\n"
            }
        }
        out += "</g>\n"
        if !arrows.isEmpty { out += "<g fill=\"#1E3A5F\" stroke=\"none\">\n" + arrows + "</g>\n" }

        // Markers, then labels placed around them.
        var occupied: [Box] = clusters.map { cluster in
            Box(
                minX: cluster.position.x - cluster.halfWidth, minY: cluster.position.y - RouteMapRenderer.discRadius - 1,
                maxX: cluster.position.x + cluster.halfWidth, maxY: cluster.position.y + RouteMapRenderer.discRadius + 1)
        }
        var markers = ""
        var labels = ""
        for cluster in clusters { markers += marker(cluster) }
        for (index, cluster) in clusters.enumerated() {
            let text = label(cluster)
            let placed = place(text, around: occupied[index], avoiding: occupied, lines: legSamples, width: w, height: h)
            occupied.append(placed.box)
            let attributes = "x=\"\(n(placed.x))\" y=\"\(n(placed.y))\" text-anchor=\"\(placed.anchor)\""
            let escaped = Escape.html(text)
            labels +=
                "<text \(attributes) fill=\"none\" stroke=\"#FFFFFF\" stroke-width=\"3.2\" stroke-linejoin=\"round\">\(escaped)</text>\n"
            labels += "<text \(attributes) fill=\"#1F2933\">\(escaped)</text>\n"
        }
        out += "<g font-size=\"\(n(RouteMapRenderer.labelSize))\" font-weight=\"bold\">\n" + labels + "</g>\n"
        out += "<g font-size=\"11\" font-weight=\"bold\" text-anchor=\"middle\">\n" + markers + "</g>\n"
        out += scaleBar(projection)
        out +=
            "<text x=\"\(n(w - 6))\" y=\"\(n(h - 6))\" text-anchor=\"end\" font-size=\"9\" fill=\"#5B6573\">Outlines: US Census, Natural Earth</text>\n"
        out +=
            "<rect x=\"0.5\" y=\"0.5\" width=\"\(n(w - 1))\" height=\"\(n(h - 1))\" fill=\"none\" stroke=\"#8A94A3\" stroke-width=\"1\"/>\n"
        out += "</svg>"
        return out
    }

    // MARK: Outlines

    private func outlines(
        _ shapes: [BaseMap.Shape], _ projection: MapProjection, fill: String, stroke: String,
        strokeWidth: Double
    ) -> String {
        let pad = 3.0
        var paths = ""
        for shape in shapes where projection.overlaps(shape) {
            var d = ""
            for polygon in shape.polygons {
                for ring in polygon {
                    let projected = ring.map { projection.project(longitude: $0.x, latitude: $0.y) }
                    let clipped = PlaneGeometry.clip(
                        ring: projected, minX: -pad, minY: -pad,
                        maxX: projection.width + pad, maxY: projection.height + pad)
                    guard clipped.count >= 3 else { continue }
                    let simple = PlaneGeometry.simplify(ring: clipped, tolerance: tolerance)
                    guard simple.count >= 3, PlaneGeometry.area(simple) >= 2 else { continue }
                    d +=
                        "M"
                        + simple.enumerated().map { index, p in (index == 1 ? "L" : index > 1 ? " " : "") + "\(n(p.x)) \(n(p.y))" }.joined()
                        + "Z"
                }
            }
            guard !d.isEmpty else { continue }
            paths += "<path d=\"\(d)\"/>\n"
        }
        guard !paths.isEmpty else { return "" }
        return
            "<g fill=\"\(fill)\" stroke=\"\(stroke)\" stroke-width=\"\(n(strokeWidth))\" stroke-linejoin=\"round\" fill-rule=\"evenodd\">\n"
            + paths + "</g>\n"
    }

    // MARK: Markers

    /// Groups stops whose markers would overlap (closer than two disc radii), in route order.
    func cluster(_ stops: [RouteStop], _ projection: MapProjection) -> [Cluster] {
        var clusters: [Cluster] = []
        var members: [[MapPoint]] = []
        for stop in stops {
            let point = projection.project(stop.coordinate)
            if let index = clusters.indices.first(where: { index in
                members[index].contains { hypot($0.x - point.x, $0.y - point.y) < 2.4 * RouteMapRenderer.discRadius }
            }) {
                clusters[index].stops.append(stop)
                members[index].append(point)
            } else {
                clusters.append(Cluster(stops: [stop], position: point))
                members.append([point])
            }
        }
        for index in clusters.indices {
            // Centre on the distinct places (a stadium visited twice counts once).
            var seen: Set<MapPoint> = []
            let distinct = members[index].filter { seen.insert($0).inserted }
            clusters[index].position = MapPoint(
                x: distinct.map(\.x).reduce(0, +) / Double(distinct.count),
                y: distinct.map(\.y).reduce(0, +) / Double(distinct.count))
        }
        return clusters
    }

    private func marker(_ cluster: Cluster) -> String {
        let r = RouteMapRenderer.discRadius
        let games = cluster.games
        var out = ""
        if games.isEmpty {
            // Start, end, or a stadium visited without a game, away from any game: a square.
            let p = cluster.position
            out +=
                "<rect x=\"\(n(p.x - r + 1))\" y=\"\(n(p.y - r + 1))\" width=\"\(n(2 * r - 2))\" height=\"\(n(2 * r - 2))\" fill=\"#FFFFFF\" stroke=\"#1E3A5F\" stroke-width=\"2\"/>\n"
            let letter =
                cluster.stops.contains { $0.kind == .start }
                ? "S"
                : cluster.stops.contains { $0.kind == .end } ? "F" : "V"
            out += "<text x=\"\(n(p.x))\" y=\"\(n(p.y + 4))\" fill=\"#1E3A5F\">\(letter)</text>\n"
            return out
        }
        let startX = cluster.position.x - Double(games.count - 1) * r
        for (offset, game) in games.enumerated() {
            let x = startX + Double(offset) * 2 * r
            let color = catalog.color(ofSport: game.sport ?? "")
            out +=
                "<circle cx=\"\(n(x))\" cy=\"\(n(cluster.position.y))\" r=\"\(n(r))\" fill=\"\(color)\" stroke=\"#FFFFFF\" stroke-width=\"1.5\"/>\n"
            let number = String(game.number ?? 0)
            let size = number.count > 1 ? " font-size=\"9.5\"" : ""
            out +=
                "<text x=\"\(n(x))\" y=\"\(n(cluster.position.y + 4))\" fill=\"\(RouteMapRenderer.textColor(on: color))\"\(size)>\(number)</text>\n"
        }
        return out
    }

    /// `Boston (start, finish)`, `New York, Brooklyn`.
    private func label(_ cluster: Cluster) -> String {
        var seen: Set<String> = []
        let names = cluster.stops.filter { $0.kind == .game }.map(\.city).filter { seen.insert($0).inserted }
        var roles: [String] = []
        if cluster.stops.contains(where: { $0.kind == .start }) { roles.append("start") }
        if cluster.stops.contains(where: { $0.kind == .end }) { roles.append("finish") }
        if cluster.stops.contains(where: { $0.kind == .stop }) { roles.append("visit, no game") }
        if names.isEmpty {
            let place = cluster.stops.first?.name ?? ""
            return roles.isEmpty ? place : "\(place) (\(roles.joined(separator: ", ")))"
        }
        let text = names.joined(separator: ", ")
        return roles.isEmpty ? text : "\(text) (\(roles.joined(separator: ", ")))"
    }

    /// White text on dark colours, near-black on light ones (WCAG relative luminance).
    static func textColor(on hex: String) -> String {
        let digits = Array(hex.dropFirst())
        guard digits.count == 6 else { return "#FFFFFF" }
        func channel(_ i: Int) -> Double {
            let value = Double(Int(String(digits[i..<(i + 2)]), radix: 16) ?? 0) / 255
            return value <= 0.04045 ? value / 12.92 : pow((value + 0.055) / 1.055, 2.4)
        }
        let luminance = 0.2126 * channel(0) + 0.7152 * channel(2) + 0.0722 * channel(4)
        return luminance > 0.4 ? "#111111" : "#FFFFFF"
    }

    // MARK: Labels

    struct Box {
        var minX: Double, minY: Double, maxX: Double, maxY: Double
        func contains(_ point: MapPoint) -> Bool { point.x >= minX && point.x <= maxX && point.y >= minY && point.y <= maxY }
        func overlap(_ other: Box) -> Double {
            let w = min(maxX, other.maxX) - max(minX, other.minX)
            let h = min(maxY, other.maxY) - max(minY, other.minY)
            return w > 0 && h > 0 ? w * h : 0
        }
    }

    /// Tries right, left, above and below the marker; takes the first spot that overlaps nothing
    /// and stays inside the view, else the one with the least overlap.
    private func place(
        _ text: String, around marker: Box, avoiding occupied: [Box], lines: [MapPoint], width: Double,
        height: Double
    ) -> (x: Double, y: Double, anchor: String, box: Box) {
        let size = RouteMapRenderer.labelSize
        let textWidth = Double(text.count) * size * 0.62
        let centreY = (marker.minY + marker.maxY) / 2, centreX = (marker.minX + marker.maxX) / 2
        let candidates: [(x: Double, y: Double, anchor: String, box: Box)] = [
            (
                marker.maxX + 4, centreY + size * 0.36, "start",
                Box(minX: marker.maxX + 3, minY: centreY - size * 0.6, maxX: marker.maxX + 5 + textWidth, maxY: centreY + size * 0.6)
            ),
            (
                marker.minX - 4, centreY + size * 0.36, "end",
                Box(minX: marker.minX - 5 - textWidth, minY: centreY - size * 0.6, maxX: marker.minX - 3, maxY: centreY + size * 0.6)
            ),
            (
                centreX, marker.minY - 4, "middle",
                Box(minX: centreX - textWidth / 2, minY: marker.minY - 4 - size, maxX: centreX + textWidth / 2, maxY: marker.minY - 2)
            ),
            (
                centreX, marker.maxY + size + 2, "middle",
                Box(minX: centreX - textWidth / 2, minY: marker.maxY + 2, maxX: centreX + textWidth / 2, maxY: marker.maxY + size + 5)
            ),
        ]
        var best = candidates[0]
        var bestCost = Double.infinity
        for candidate in candidates {
            var cost = occupied.reduce(0) { $0 + candidate.box.overlap($1) }
            // Each point of a drive under the label costs a little: prefer spots clear of the lines.
            cost += Double(lines.filter { candidate.box.contains($0) }.count) * 6
            let outside =
                max(0, -candidate.box.minX + 2) + max(0, candidate.box.maxX - width + 2)
                + max(0, -candidate.box.minY + 2) + max(0, candidate.box.maxY - height + 14)
            cost += outside * size * 4
            if cost < bestCost { best = candidate; bestCost = cost }
            if cost == 0 { break }
        }
        return best
    }

    // MARK: Scale bar

    private func scaleBar(_ projection: MapProjection) -> String {
        let perMile = projection.unitsPerMile
        let target = projection.width * 0.2 / perMile
        let steps: [Double] = [5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000]
        let miles = steps.last { $0 <= target } ?? steps[0]
        let length = miles * perMile
        let x = 10.0, y = projection.height - 12
        var out = "<g stroke=\"#1F2933\" stroke-width=\"1.2\" fill=\"none\">\n"
        out += "<path d=\"M\(n(x)) \(n(y - 4))L\(n(x)) \(n(y))L\(n(x + length)) \(n(y))L\(n(x + length)) \(n(y - 4))\"/>\n"
        out += "</g>\n"
        out +=
            "<text x=\"\(n(x + length + 5))\" y=\"\(n(y + 1))\" font-size=\"10\" fill=\"#1F2933\">"
            + "\(NumberText.trimmed(miles, 0)) mi</text>\n"
        return out
    }

    /// A coordinate in SVG units, one decimal.
    private func n(_ value: Double) -> String { NumberText.trimmed(value, 1) }
}
