import Foundation

// `stadiums.csv`: one row a stadium, with coordinates that must agree with its time zone and country.

extension ReferenceLoader {
    static let stadiumColumns = [
        "id", "name", "city", "region", "country", "latitude", "longitude", "time_zone",
        "capacity", "opened_year", "last_modified", "source_note",
    ]
}

extension ReferenceParser {
    mutating func parseStadiums(_ data: Data?) -> ReferenceFile<Stadium> {
        readRows("stadiums.csv", data, columns: ReferenceLoader.stadiumColumns) { row, fields in
            let (id, owner) = fields.id(row, "id", what: "stadium")
            fields.required(row, ["name", "city", "country", "time_zone"], owner: owner)
            let (country, zone) = (row["country"], row["time_zone"])
            let latitude = fields.double(row, "latitude", owner: owner)
            let longitude = fields.double(row, "longitude", owner: owner)
            let isPlace = latitude.flatMap { lat in longitude.map { Coordinate(latitude: lat, longitude: $0).isPlausible } }
            if isPlace == false {
                fields.fail(
                    row, "\(owner): coordinates \(row["latitude"]),\(row["longitude"]) are not a place on earth",
                    fix: "Use decimal degrees: latitude -90...90, longitude -180...180, not 0,0")
            }
            let isZone = !zone.isEmpty && ZonedTime.isValidZone(zone)
            if !zone.isEmpty, !isZone {
                fields.fail(
                    row, "\(owner): time_zone '\(zone)' is not an IANA time zone",
                    fix: "Use a tzdata name such as America/New_York or Europe/Berlin")
            }
            if let latitude, let longitude, isPlace == true, isZone, !country.isEmpty,
                let problem = StadiumPlacement.problem(latitude: latitude, longitude: longitude, timeZone: zone, country: country)
            {
                fields.fail(
                    row, "\(owner): \(problem)",
                    fix:
                        "Check the signs and the order of latitude and longitude (west and south are negative), the time_zone and the country"
                )
            }
            let capacity = fields.optionalInt(row, "capacity", owner: owner, range: 1...250_000)
            let opened = fields.optionalInt(row, "opened_year", owner: owner, range: 1800...2100)
            let modified = fields.instant(row, "last_modified", owner: owner)
            guard let latitude, let longitude, let modified else { return nil }
            // Coordinates are kept to six places (about 0.1 m) from here on.
            return Stadium(
                id: id, name: row["name"], city: row["city"], region: row["region"], country: country,
                latitude: latitude.rounded(toPlaces: 6), longitude: longitude.rounded(toPlaces: 6), timeZone: zone,
                capacity: capacity ?? nil, openedYear: opened ?? nil,
                lastModified: modified, schemaVersion: 1, source: ReferenceLoader.recordSource)
        }
    }
}
