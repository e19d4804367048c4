import Foundation

/// Whether a stadium's coordinates agree with its time zone and country, so a flipped sign (Fenway Park
/// at 71.1° E instead of 71.1° W, which puts it in Central Asia) is refused instead of planned around.
///
/// Three generous checks, each passed by every committed stadium with a wide margin:
/// - the zone's region: an `America/` zone lies west of Greenwich, `Europe/`, `Asia/`, `Africa/` and
///   `Australia/` zones in their continents' boxes;
/// - the zone's standard UTC offset is within 3.5 hours of the solar offset `longitude / 15` (the
///   widest committed gap is Madrid's 1.25 h; real zones stay within about 3 h, e.g. western China);
/// - the United States, Canada and Mexico: latitude and longitude within a box around the country
///   (Alaska, Hawaii and Puerto Rico included).
public enum StadiumPlacement {
    /// A latitude and longitude box, in degrees.
    struct Box {
        var latitude: ClosedRange<Double>
        var longitude: ClosedRange<Double>
        func contains(_ latitude: Double, _ longitude: Double) -> Bool {
            self.latitude.contains(latitude) && self.longitude.contains(longitude)
        }
        var text: String {
            "latitude \(Self.degrees(self.latitude, "N", "S")), longitude \(Self.degrees(self.longitude, "E", "W"))"
        }
        static func degrees(_ range: ClosedRange<Double>, _ positive: String, _ negative: String) -> String {
            func one(_ v: Double) -> String { "\(Int(abs(v)))°\(v < 0 ? negative : positive)" }
            return "\(one(range.lowerBound)) to \(one(range.upperBound))"
        }
    }

    /// Zone-name prefixes and the box their places lie in.
    static let regions: [(prefix: String, name: String, box: Box)] = [
        ("America/", "the Americas", Box(latitude: -60...84, longitude: -180...(-10))),
        ("Europe/", "Europe", Box(latitude: 34...82, longitude: -32...70)),
        ("Asia/", "Asia", Box(latitude: -12...82, longitude: 25...180)),
        ("Africa/", "Africa", Box(latitude: -36...38, longitude: -26...64)),
        ("Australia/", "Australia", Box(latitude: -45...(-9), longitude: 110...160)),
    ]

    /// Country names (as `stadiums.csv` writes them) and a box around the country.
    static let countries: [String: Box] = [
        "USA": Box(latitude: 17...72, longitude: -180...(-64)),
        "United States": Box(latitude: 17...72, longitude: -180...(-64)),
        "Canada": Box(latitude: 41...84, longitude: -142...(-52)),
        "Mexico": Box(latitude: 14...33, longitude: -119...(-86)),
    ]

    /// The widest gap, in hours, between a zone's standard offset and `longitude / 15`.
    static let maxOffsetGapHours = 3.5

    /// What is wrong with the placement, or nil when the coordinates agree with zone and country.
    public static func problem(latitude: Double, longitude: Double, timeZone: String, country: String) -> String? {
        // Worked out only for a problem: formatting every stadium's coordinates was most of the check.
        var position: String { String(format: "%.4f,%.4f", latitude, longitude) }
        if let box = countries[country], !box.contains(latitude, longitude) {
            return "coordinates \(position) are outside \(country) (\(box.text))"
        }
        if let region = regions.first(where: { timeZone.hasPrefix($0.prefix) }), !region.box.contains(latitude, longitude) {
            return "coordinates \(position) are not in \(region.name), where its time zone \(timeZone) is (\(region.box.text))"
        }
        if let zone = TimeZone(identifier: timeZone) {
            // Standard time on a fixed date: the offset without daylight saving.
            let date = Date(timeIntervalSince1970: 1_736_899_200) // 2025-01-15T00:00:00Z
            let offset = Double(zone.secondsFromGMT(for: date)) / 3600 - zone.daylightSavingTimeOffset(for: date) / 3600
            let solar = longitude / 15
            if abs(offset - solar) > maxOffsetGapHours {
                return String(
                    format: "longitude %.4f is %.1f hours of sun time from UTC, but its time zone %@ is UTC%+.1f",
                    longitude, solar, timeZone, offset)
            }
        }
        return nil
    }
}
