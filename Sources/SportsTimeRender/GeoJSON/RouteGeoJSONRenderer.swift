import Foundation
import SportsTimeCore

/// Writes every option's route as one GeoJSON FeatureCollection (RFC 7946), which GitHub draws as a map.
///
/// Features, in order: per option, the start, each game (a Point, `order` = game number), each
/// drive (a LineString, `order` = drive number), then the end. Properties carry the option, day,
/// date, game id and simplestyle keys (`marker-color`, `stroke`) GitHub understands. Coordinates
/// are `[longitude, latitude]` rounded to 6 decimals. One feature per line, keys sorted, so a
/// changed stop is a one-line diff.
struct RouteGeoJSONRenderer {
    var catalog: RenderCatalog

    static let driveColor = "#1E3A5F"

    func render(_ plan: TripPlan, outlines: [OptionOutline]) -> Data {
        var features: [JSONValue] = []
        if outlines.isEmpty {
            features.append(placeFeature(plan.request.start, kind: "start", option: nil, day: nil, date: plan.request.firstDate))
            if let end = plan.request.end {
                features.append(placeFeature(end, kind: "end", option: nil, day: nil, date: plan.request.lastDate))
            }
        }
        for outline in outlines {
            let option = outline.option.rank
            let firstDay = outline.days.first, lastDay = outline.days.last
            features.append(placeFeature(plan.request.start, kind: "start", option: option, day: firstDay?.number, date: firstDay?.date))
            let dayNumbers = Dictionary(outline.days.map { ($0.date, $0.number) }, uniquingKeysWith: { a, _ in a })
            for (index, visit) in outline.option.visits.enumerated() {
                let color = catalog.color(ofSport: visit.sport)
                var properties: [String: JSONValue] = [
                    "kind": .string("game"), "option": .int(option), "order": .int(index + 1),
                    "date": .string(visit.localDate.iso8601), "game": .string(visit.gameId),
                    "sport": .string(visit.sport), "stadium": .string(visit.stadiumName), "stadiumId": .string(visit.stadiumId),
                    "city": .string(visit.city), "localTime": .string(Format.gameTime(visit)),
                    "title": .string(
                        "\(index + 1). \(catalog.abbreviation(ofSport: visit.sport)): \(visit.awayTeamName) at \(visit.homeTeamName)"),
                    "description": .string(
                        "\(Format.longDate(visit.localDate)), \(Format.gameTime(visit)), \(visit.stadiumName), \(visit.city)"),
                    "mustSee": .bool(visit.isMustSee),
                    "marker-color": .string(color), "marker-size": .string("medium"),
                    "marker-symbol": .string(index < 9 ? String(index + 1) : "stadium"),
                ]
                if let day = dayNumbers[visit.localDate] { properties["day"] = .int(day) }
                features.append(
                    feature(
                        properties: properties,
                        geometry: .object([
                            "type": .string("Point"), "coordinates": position(visit.longitude, visit.latitude),
                        ])))
            }
            for path in outline.paths {
                let leg = path.leg
                var properties: [String: JSONValue] = [
                    "kind": .string("drive"), "option": .int(option), "order": .int(path.legIndex + 1),
                    "from": .string(leg.fromName), "to": .string(leg.toName),
                    "kilometres": .fixed(leg.kilometres, places: 1), "hours": .fixed(leg.hours, places: 2),
                    "depart": .string(leg.departLocal), "arrive": .string(leg.arriveLocal),
                    "title": .string("Drive \(leg.fromName) to \(leg.toName)"),
                    "description": .string(
                        "\(Format.distance(kilometres: leg.kilometres)), \(Format.duration(hours: leg.hours)), leaving \(leg.departLocal)"),
                    "stroke": .string(RouteGeoJSONRenderer.driveColor), "stroke-width": .int(option == 1 ? 3 : 2),
                    "stroke-opacity": .fixed(option == 1 ? 0.9 : 0.5, places: 2),
                ]
                if let day = path.dayNumber { properties["day"] = .int(day) }
                if let date = OptionOutline.localDate(of: leg.departLocal) { properties["date"] = .string(date.iso8601) }
                features.append(
                    feature(
                        properties: properties,
                        geometry: .object([
                            "type": .string("LineString"),
                            "coordinates": .array([
                                position(path.from.longitude, path.from.latitude), position(path.to.longitude, path.to.latitude),
                            ]),
                        ])))
            }
            if let end = plan.request.end {
                features.append(placeFeature(end, kind: "end", option: option, day: lastDay?.number, date: lastDay?.date))
            }
        }
        var out = "{\"type\":\"FeatureCollection\",\"features\":[\n"
        out += features.map(\.compactText).joined(separator: ",\n")
        out += features.isEmpty ? "]}\n" : "\n]}\n"
        return Data(out.utf8)
    }

    private func placeFeature(_ place: PlacePoint, kind: String, option: Int?, day: Int?, date: LocalDate?) -> JSONValue {
        var properties: [String: JSONValue] = [
            "kind": .string(kind), "name": .string(place.name),
            "title": .string(kind == "start" ? "Start: \(place.name)" : "Finish: \(place.name)"),
            "marker-color": .string("#FFFFFF"), "marker-size": .string("small"),
            "marker-symbol": .string(kind == "start" ? "s" : "f"),
        ]
        if let option { properties["option"] = .int(option) }
        if let day { properties["day"] = .int(day) }
        if let date { properties["date"] = .string(date.iso8601) }
        if let id = place.stadiumId { properties["stadiumId"] = .string(id) }
        return feature(
            properties: properties,
            geometry: .object([
                "type": .string("Point"), "coordinates": position(place.longitude, place.latitude),
            ]))
    }

    private func feature(properties: [String: JSONValue], geometry: JSONValue) -> JSONValue {
        .object(["type": .string("Feature"), "properties": .object(properties), "geometry": geometry])
    }

    private func position(_ longitude: Double, _ latitude: Double) -> JSONValue {
        .array([.fixed(longitude, places: 6), .fixed(latitude, places: 6)])
    }
}

private extension JSONValue {
    static func int(_ value: Int) -> JSONValue { .number(String(value)) }
    /// A number with at most `places` decimals (no exponent, no `-0`), the same on every platform.
    static func fixed(_ value: Double, places: Int) -> JSONValue { .number(NumberText.trimmed(value, places)) }
}
