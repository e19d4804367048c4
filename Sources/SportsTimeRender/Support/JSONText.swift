import Foundation

/// A small JSON value with a fixed serialization: object keys sorted, numbers printed with a fixed
/// maximum of decimals (no exponent, no `-0`), `/` unescaped. Used for GeoJSON, where coordinates
/// must be rounded the same way on every platform.
indirect enum JSONText: Sendable {
    case string(String)
    case number(Double, places: Int)
    case int(Int)
    case bool(Bool)
    case null
    case array([JSONText])
    case object([String: JSONText])

    /// Compact text.
    var compact: String {
        var out = ""
        write(to: &out)
        return out
    }

    func write(to out: inout String) {
        switch self {
        case .string(let text): JSONText.writeString(text, to: &out)
        case .number(let value, let places): out += Format.trimmed(value, places)
        case .int(let value): out += String(value)
        case .bool(let value): out += value ? "true" : "false"
        case .null: out += "null"
        case .array(let items):
            out += "["
            for (index, item) in items.enumerated() {
                if index > 0 { out += "," }
                item.write(to: &out)
            }
            out += "]"
        case .object(let fields):
            out += "{"
            for (index, key) in fields.keys.sorted().enumerated() {
                if index > 0 { out += "," }
                JSONText.writeString(key, to: &out)
                out += ":"
                fields[key]!.write(to: &out)
            }
            out += "}"
        }
    }

    static func writeString(_ text: String, to out: inout String) {
        out += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        out += "\""
    }
}
