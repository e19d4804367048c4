import Foundation

/// Planar helpers for the route map: clipping to the view and line simplification.
enum PlaneGeometry {
    /// Clips a closed ring to an axis-aligned rectangle (Sutherland–Hodgman). The result may run
    /// along the rectangle's edges; it is empty when the ring lies outside.
    static func clip(ring: [MapPoint], minX: Double, minY: Double, maxX: Double, maxY: Double) -> [MapPoint] {
        var output = ring
        if output.count > 1, output.first == output.last { output.removeLast() }
        // Each edge: is a point inside, and where does a segment cross the edge.
        let edges: [(inside: (MapPoint) -> Bool, cross: (MapPoint, MapPoint) -> MapPoint)] = [
            ({ $0.x >= minX }, { a, b in MapPoint(x: minX, y: a.y + (b.y - a.y) * (minX - a.x) / (b.x - a.x)) }),
            ({ $0.x <= maxX }, { a, b in MapPoint(x: maxX, y: a.y + (b.y - a.y) * (maxX - a.x) / (b.x - a.x)) }),
            ({ $0.y >= minY }, { a, b in MapPoint(x: a.x + (b.x - a.x) * (minY - a.y) / (b.y - a.y), y: minY) }),
            ({ $0.y <= maxY }, { a, b in MapPoint(x: a.x + (b.x - a.x) * (maxY - a.y) / (b.y - a.y), y: maxY) }),
        ]
        for edge in edges {
            guard !output.isEmpty else { break }
            let input = output
            output = []
            var previous = input[input.count - 1]
            for current in input {
                let currentInside = edge.inside(current), previousInside = edge.inside(previous)
                if currentInside {
                    if !previousInside { output.append(edge.cross(previous, current)) }
                    output.append(current)
                } else if previousInside {
                    output.append(edge.cross(previous, current))
                }
                previous = current
            }
        }
        return output
    }

    /// Douglas–Peucker simplification of an open polyline: keeps the end points and every point
    /// farther than `tolerance` from the simplified line. Iterative, so long rings cannot overflow the stack.
    static func simplify(_ points: [MapPoint], tolerance: Double) -> [MapPoint] {
        guard points.count > 2 else { return points }
        var keep = [Bool](repeating: false, count: points.count)
        keep[0] = true
        keep[points.count - 1] = true
        var stack: [(Int, Int)] = [(0, points.count - 1)]
        while let (first, last) = stack.popLast() {
            guard last > first + 1 else { continue }
            var farthest = -1
            var farthestDistance = tolerance
            for index in (first + 1)..<last {
                let distance = distanceToSegment(points[index], points[first], points[last])
                if distance > farthestDistance { farthestDistance = distance; farthest = index }
            }
            if farthest >= 0 {
                keep[farthest] = true
                stack.append((first, farthest))
                stack.append((farthest, last))
            }
        }
        return points.indices.filter { keep[$0] }.map { points[$0] }
    }

    /// Simplifies a closed ring (first point not repeated at the end): split at the point farthest
    /// from the first so both halves are simplified as open lines.
    static func simplify(ring: [MapPoint], tolerance: Double) -> [MapPoint] {
        guard ring.count > 3 else { return ring }
        var split = 0
        var best = -1.0
        for (index, point) in ring.enumerated() {
            let d = hypot(point.x - ring[0].x, point.y - ring[0].y)
            if d > best { best = d; split = index }
        }
        let firstHalf = simplify(Array(ring[0...split]), tolerance: tolerance)
        let secondHalf = simplify(Array(ring[split...]) + [ring[0]], tolerance: tolerance)
        return firstHalf + secondHalf.dropFirst().dropLast()
    }

    static func distanceToSegment(_ p: MapPoint, _ a: MapPoint, _ b: MapPoint) -> Double {
        let dx = b.x - a.x, dy = b.y - a.y
        let lengthSquared = dx * dx + dy * dy
        guard lengthSquared > 0 else { return hypot(p.x - a.x, p.y - a.y) }
        let t = max(0, min(1, ((p.x - a.x) * dx + (p.y - a.y) * dy) / lengthSquared))
        return hypot(p.x - (a.x + t * dx), p.y - (a.y + t * dy))
    }

    /// Absolute area of a ring (shoelace).
    static func area(_ ring: [MapPoint]) -> Double {
        guard ring.count > 2 else { return 0 }
        var sum = 0.0
        var previous = ring[ring.count - 1]
        for point in ring {
            sum += previous.x * point.y - point.x * previous.y
            previous = point
        }
        return abs(sum) / 2
    }
}
