import Foundation
import SportsTimeCore

/// Outlines drawn under a route map: countries, then first-level regions (US states) over them.
public struct BaseMap: Sendable, Hashable {
    /// One named area made of polygons; each polygon is an outer ring followed by its holes,
    /// each ring a list of `[longitude, latitude]` points.
    public struct Shape: Sendable, Hashable {
        public var name: String
        public var polygons: [[[MapPoint]]]
        /// Longitude/latitude bounds of all rings.
        public var minLongitude: Double, maxLongitude: Double, minLatitude: Double, maxLatitude: Double

        public init(name: String, polygons: [[[MapPoint]]]) {
            self.name = name
            self.polygons = polygons
            var minLon = Double.infinity, maxLon = -Double.infinity, minLat = Double.infinity, maxLat = -Double.infinity
            for polygon in polygons {
                for ring in polygon {
                    for point in ring {
                        minLon = min(minLon, point.x); maxLon = max(maxLon, point.x)
                        minLat = min(minLat, point.y); maxLat = max(maxLat, point.y)
                    }
                }
            }
            self.minLongitude = minLon; self.maxLongitude = maxLon; self.minLatitude = minLat; self.maxLatitude = maxLat
        }
    }

    public var countries: [Shape]
    public var regions: [Shape]

    public init(countries: [Shape], regions: [Shape]) { self.countries = countries; self.regions = regions }

    /// A map with no outlines (routes are still drawn).
    public static let empty = BaseMap(countries: [], regions: [])

    /// Reads the `Polygon` and `MultiPolygon` features of a GeoJSON FeatureCollection, named by their
    /// `name` property (else the feature id). Other geometry types are skipped.
    ///
    /// - Throws: `BaseMapError` naming what is wrong with the document.
    public static func shapes(fromGeoJSON data: Data) throws -> [Shape] {
        guard data.count <= InputLimits.jsonFileBytes else {
            throw BaseMapError(message: "the file is \(data.count) bytes, more than the limit of \(InputLimits.jsonFileBytes)")
        }
        let root: JSONValue
        do { root = try JSONParser.parse(data) } catch let error as JSONSyntaxError {
            if error.message.hasPrefix(JSONParser.nestingMessagePrefix) {
                throw BaseMapError(message: "arrays and objects nest deeper than \(InputLimits.jsonDepth) levels")
            }
            throw BaseMapError(message: "not JSON (\(error))")
        }
        guard root["type"]?.stringValue == "FeatureCollection", let features = root["features"]?.arrayValue else {
            throw BaseMapError(message: "not a GeoJSON FeatureCollection")
        }
        var shapes: [Shape] = []
        for (index, feature) in features.enumerated() {
            guard let geometry = feature["geometry"], let type = geometry["type"]?.stringValue else { continue }
            let name = feature["properties"]?["name"]?.stringValue ?? feature["id"]?.stringValue ?? "feature \(index + 1)"
            let polygons: [[[MapPoint]]]
            switch type {
            case "Polygon":
                guard let rings = geometry["coordinates"]?.arrayValue else {
                    throw BaseMapError(message: "feature '\(name)': Polygon without coordinates")
                }
                polygons = [try parsePolygon(rings, name: name)]
            case "MultiPolygon":
                guard let list = geometry["coordinates"]?.arrayValue else {
                    throw BaseMapError(message: "feature '\(name)': MultiPolygon without coordinates")
                }
                polygons = try list.map { item in
                    guard let rings = item.arrayValue else { throw BaseMapError(message: "feature '\(name)': bad MultiPolygon") }
                    return try parsePolygon(rings, name: name)
                }
            default:
                continue
            }
            shapes.append(Shape(name: name, polygons: polygons))
        }
        return shapes
    }

    private static func parsePolygon(_ rings: [JSONValue], name: String) throws -> [[MapPoint]] {
        try rings.map { ring in
            guard let points = ring.arrayValue else { throw BaseMapError(message: "feature '\(name)': ring is not a list") }
            return try points.map { point in
                guard let pair = point.arrayValue, pair.count >= 2,
                    let lon = pair[0].doubleValue, let lat = pair[1].doubleValue, lon.isFinite, lat.isFinite
                else {
                    throw BaseMapError(message: "feature '\(name)': a point is not [longitude, latitude]")
                }
                return MapPoint(x: lon, y: lat)
            }
        }
    }
}

/// A problem reading map outlines.
public struct BaseMapError: Error, CustomStringConvertible, Sendable {
    public var message: String
    public var description: String { message }
}

/// A 2-D point: longitude/latitude before projection, SVG user units after.
public struct MapPoint: Sendable, Hashable {
    public var x: Double
    public var y: Double
    public init(x: Double, y: Double) { self.x = x; self.y = y }
}
