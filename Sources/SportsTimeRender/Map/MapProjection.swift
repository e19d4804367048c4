import Foundation
import SportsTimeCore

/// An equirectangular projection scaled by cos(latitude) at the view's centre: good enough for a
/// region the size of a road trip, and simple enough to reason about.
struct MapProjection: Sendable {
    let minLongitude: Double, maxLongitude: Double, minLatitude: Double, maxLatitude: Double
    let cosLatitude: Double
    /// SVG units per degree of latitude.
    let scale: Double
    let width: Double
    let height: Double

    /// Fits `points` with a margin into a view `width` units wide; the height follows from the
    /// area, with the aspect ratio (height / width) kept in `aspect`.
    init(
        fitting points: [Coordinate], width: Double, margin: Double = 0.16, minimumSpanDegrees: Double = 2.4,
        aspect: ClosedRange<Double> = 0.5...0.8
    ) {
        var minLon = points.map(\.longitude).min() ?? -75, maxLon = points.map(\.longitude).max() ?? -73
        var minLat = points.map(\.latitude).min() ?? 40, maxLat = points.map(\.latitude).max() ?? 42
        // Margin around the stops, and a minimum area so a one-city trip still shows its surroundings.
        let padLat = max((maxLat - minLat) * margin, 0.3), padLon = max((maxLon - minLon) * margin, 0.4)
        minLat -= padLat; maxLat += padLat; minLon -= padLon; maxLon += padLon
        if maxLat - minLat < minimumSpanDegrees {
            let grow = (minimumSpanDegrees - (maxLat - minLat)) / 2
            minLat -= grow; maxLat += grow
        }
        let cosLat = cos((minLat + maxLat) / 2 * .pi / 180)
        if (maxLon - minLon) * cosLat < minimumSpanDegrees {
            let grow = (minimumSpanDegrees / cosLat - (maxLon - minLon)) / 2
            minLon -= grow; maxLon += grow
        }
        // Keep the aspect ratio in range by widening the short side.
        let projectedWidth = (maxLon - minLon) * cosLat, projectedHeight = maxLat - minLat
        let ratio = projectedHeight / projectedWidth
        if ratio < aspect.lowerBound {
            let grow = (aspect.lowerBound * projectedWidth - projectedHeight) / 2
            minLat -= grow; maxLat += grow
        } else if ratio > aspect.upperBound {
            let grow = (projectedHeight / aspect.upperBound - projectedWidth) / cosLat / 2
            minLon -= grow; maxLon += grow
        }
        self.minLongitude = minLon; self.maxLongitude = maxLon; self.minLatitude = minLat; self.maxLatitude = maxLat
        self.cosLatitude = cosLat
        self.scale = width / ((maxLon - minLon) * cosLat)
        self.width = width
        self.height = ((maxLat - minLat) * scale).rounded()
    }

    func project(longitude: Double, latitude: Double) -> MapPoint {
        MapPoint(x: (longitude - minLongitude) * cosLatitude * scale, y: (maxLatitude - latitude) * scale)
    }

    func project(_ coordinate: Coordinate) -> MapPoint {
        project(longitude: coordinate.longitude, latitude: coordinate.latitude)
    }

    /// Whether a shape's bounds touch the view.
    func overlaps(_ shape: BaseMap.Shape) -> Bool {
        shape.maxLongitude >= minLongitude && shape.minLongitude <= maxLongitude
            && shape.maxLatitude >= minLatitude && shape.minLatitude <= maxLatitude
    }

    /// SVG units per statute mile at the view's centre.
    var unitsPerMile: Double { scale / 69.05 }
}
