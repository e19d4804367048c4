import Foundation

/// A point on the earth in decimal degrees.
public struct Coordinate: Hashable, Sendable, Codable {
    public var latitude: Double
    public var longitude: Double
    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude; self.longitude = longitude
    }

    /// Whether the values are real coordinates (not 0/0, inside ±90/±180).
    public var isPlausible: Bool {
        latitude.isFinite && longitude.isFinite && abs(latitude) <= 90 && abs(longitude) <= 180
            && !(latitude == 0 && longitude == 0)
    }
}

/// Great-circle geometry on a spherical earth (haversine).
public enum GreatCircle {
    /// Mean earth radius used by the haversine formula.
    public static let earthRadiusKilometres = 6371.0088
    public static let kilometresPerMile = 1.609344

    /// Great-circle distance in kilometres.
    public static func kilometres(from a: Coordinate, to b: Coordinate) -> Double {
        let phi1 = a.latitude * .pi / 180, phi2 = b.latitude * .pi / 180
        let dPhi = phi2 - phi1
        let dLambda = (b.longitude - a.longitude) * .pi / 180
        let h = sin(dPhi / 2) * sin(dPhi / 2) + cos(phi1) * cos(phi2) * sin(dLambda / 2) * sin(dLambda / 2)
        return 2 * earthRadiusKilometres * asin(min(1, h.squareRoot()))
    }

    /// Great-circle distance in statute miles.
    public static func miles(from a: Coordinate, to b: Coordinate) -> Double {
        kilometres(from: a, to: b) / kilometresPerMile
    }
}

extension Double {
    /// This value rounded to `places` decimals, so the canonical JSON form is fixed.
    public func rounded(toPlaces places: Int) -> Double {
        let scale = pow(10.0, Double(places))
        let value = (self * scale).rounded() / scale
        return value == 0 ? 0 : value // never -0
    }
}
