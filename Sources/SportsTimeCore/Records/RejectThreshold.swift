import Foundation

/// When a source fails: more rejected rows than a count, or a larger share than a fraction.
public enum RejectThreshold: Hashable, Sendable, CustomStringConvertible {
    case count(Int)
    case fraction(Double)

    /// `5` → count; `0.02` or `2%` → fraction.
    public init?(_ text: String) {
        let t = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if t.hasSuffix("%") {
            guard let p = Double(t.dropLast()), p >= 0, p <= 100 else { return nil }
            self = .fraction(p / 100)
        } else if let n = Int(t), n >= 0 {
            self = .count(n)
        } else if let f = Double(t), f >= 0, f <= 1, t.contains(".") {
            self = .fraction(f)
        } else {
            return nil
        }
    }

    /// Whether `rejected` of `candidates` rows passes this threshold (the source then fails).
    public func isExceeded(rejected: Int, candidates: Int) -> Bool {
        switch self {
        case .count(let n): return rejected > n
        case .fraction(let f): return candidates > 0 && Double(rejected) > f * Double(candidates)
        }
    }

    /// The threshold as batch meta (`rejectThreshold`): `5` for a count, `0.02` for a fraction; read back
    /// by `init?(_:)`, so normalize holds a source to the threshold it declared.
    public var metaValue: String {
        switch self {
        case .count(let n): return String(n)
        case .fraction(let f): return f == 0 ? "0.0" : "\(f)"
        }
    }

    public var description: String {
        switch self {
        case .count(let n): return "\(n) rows"
        case .fraction(let f): return "\(f * 100)%"
        }
    }
}
