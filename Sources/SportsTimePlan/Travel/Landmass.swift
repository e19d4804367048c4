import Foundation

/// Which landmass a place is on, from its IANA zone, so that legs across an ocean are not drivable.
///
/// The zone's continent prefix decides (`America/…` → North America); Europe, Asia and Africa are one
/// landmass joined by road; South American zones and island zones (Puerto Rico, Hawaii, Ireland,
/// Iceland, Caribbean islands, Japan, …) are their own. Great Britain counts as part of Europe
/// (cars cross the Channel Tunnel). Distance limits are a separate rule (`maxLegKilometres`).
public enum Landmass {
    public static func of(zone: String) -> String {
        if islandZones.contains(zone) { return zone }
        let parts = zone.split(separator: "/", maxSplits: 1)
        guard let prefix = parts.first.map(String.init) else { return zone }
        switch prefix {
        case "America":
            if parts.count == 2 {
                let rest = String(parts[1])
                if rest.hasPrefix("Argentina/") || southAmerica.contains(rest) { return "South America" }
            }
            return "North America"
        case "US", "Canada", "Mexico": return "North America"
        case "Europe", "Asia", "Africa": return "Afro-Eurasia"
        case "Australia": return "Australia"
        default:
            // Pacific/…, Atlantic/…, Indian/…: islands, each on its own; `UTC` and the like stay as named.
            return zone
        }
    }

    static let southAmerica: Set<String> = [
        "Araguaina", "Asuncion", "Bahia", "Belem", "Boa_Vista", "Bogota", "Campo_Grande", "Caracas", "Cayenne",
        "Cuiaba", "Eirunepe", "Fortaleza", "Guayaquil", "Guyana", "La_Paz", "Lima", "Maceio", "Manaus",
        "Montevideo", "Noronha", "Paramaribo", "Porto_Velho", "Punta_Arenas", "Recife", "Rio_Branco",
        "Santarem", "Santiago", "Sao_Paulo", "Buenos_Aires", "Cordoba", "Mendoza",
    ]

    static let islandZones: Set<String> = [
        "America/Puerto_Rico", "America/Havana", "America/Jamaica", "America/Santo_Domingo",
        "America/Port-au-Prince", "America/Nassau", "America/Barbados", "America/St_Thomas",
        "America/Curacao", "America/Aruba", "America/Port_of_Spain", "America/Martinique",
        "America/Guadeloupe", "America/Nuuk", "America/Godthab", "America/St_Johns",
        "Europe/Dublin", "Atlantic/Reykjavik", "Europe/Malta", "Asia/Tokyo", "Asia/Manila", "Asia/Taipei",
        "Asia/Jakarta", "Asia/Colombo", "Australia/Hobart", "Pacific/Auckland",
        "Pacific/Honolulu",
    ]
}
