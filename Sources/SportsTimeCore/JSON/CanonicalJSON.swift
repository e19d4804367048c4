import Foundation

/// The one place that turns values into bytes for artifacts.
///
/// Canonical form: UTF-8, sorted keys, `/` unescaped, header pretty-printed with two-space indent,
/// each record compact on one line, records in a declared order, trailing newline.
public enum CanonicalJSON {
    /// A fresh encoder with the canonical settings (encoders are not Sendable: one per use).
    public static func makeEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.nonConformingFloatEncodingStrategy = .throw
        return encoder
    }

    /// A fresh decoder matching `makeEncoder()`.
    public static func makeDecoder() -> JSONDecoder { JSONDecoder() }

    /// One value, compact, no trailing newline.
    public static func compact<T: Encodable>(_ value: T) throws -> String {
        String(decoding: try makeEncoder().encode(value), as: UTF8.self)
    }

    /// A whole document: an object whose top-level keys are printed one per line (sorted), and whose
    /// array values are printed one element per line. Nested values are compact.
    ///
    /// - Parameter fields: top-level keys and their values; array values listed in `arrays` are
    ///   written element per line in the given order.
    public static func document(fields: [String: any Encodable], arrays: [String: [any Encodable]] = [:]) throws -> Data {
        let encoder = makeEncoder()
        var out = "{\n"
        let keys = (Array(fields.keys) + Array(arrays.keys)).sorted()
        for (index, key) in keys.enumerated() {
            let keyText = String(decoding: try encoder.encode(key), as: UTF8.self)
            out += "  \(keyText): "
            if let elements = arrays[key] {
                if elements.isEmpty {
                    out += "[]"
                } else {
                    out += "[\n"
                    for (i, element) in elements.enumerated() {
                        out += "    " + String(decoding: try encoder.encode(AnyEncodable(element)), as: UTF8.self)
                        out += i == elements.count - 1 ? "\n" : ",\n"
                    }
                    out += "  ]"
                }
            } else if let value = fields[key] {
                out += String(decoding: try encoder.encode(AnyEncodable(value)), as: UTF8.self)
            }
            out += index == keys.count - 1 ? "\n" : ",\n"
        }
        out += "}\n"
        return Data(out.utf8)
    }

    /// JSON Lines: one compact value per line, each line ending in a newline.
    public static func lines<T: Encodable>(_ values: [T]) throws -> Data {
        let encoder = makeEncoder()
        var data = Data()
        for value in values {
            data.append(try encoder.encode(value))
            data.append(0x0A)
        }
        return data
    }
}

/// Type-erases an `Encodable` so heterogeneous values can be encoded.
struct AnyEncodable: Encodable {
    let value: any Encodable
    init(_ value: any Encodable) { self.value = value }
    func encode(to encoder: Encoder) throws { try value.encode(to: encoder) }
}
