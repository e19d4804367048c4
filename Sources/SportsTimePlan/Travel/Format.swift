import Foundation
import SportsTimeCore

/// Number formatting for messages: fixed, locale-independent, deterministic.
enum Format {
    /// `1,210` (whole kilometres with thousands separators).
    static func kilometres(_ km: Double) -> String { NumberText.grouped(Int64(km.rounded())) }

    /// `8`, `7.5`, `13.25` — hours with at most two decimals, no trailing zeros.
    static func hours(_ hours: Double) -> String { NumberText.decimal(hours, places: 2) }

    static func hours(seconds: Int64) -> String { hours(Double(seconds) / 3600) }

    /// `09:00` from minutes after midnight.
    static func clock(minutes: Int) -> String {
        let h = minutes / 60, m = minutes % 60
        return (h < 10 ? "0\(h)" : "\(h)") + ":" + (m < 10 ? "0\(m)" : "\(m)")
    }
}
