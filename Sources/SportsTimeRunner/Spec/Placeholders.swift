import Foundation

/// `${name}` placeholders in the spec's strings. `$${` writes a literal `${` (for a `/bin/sh -c`
/// script that needs its own `${VAR}`).
public enum Placeholders {
    /// A piece of a template string: literal text or a placeholder name.
    enum Piece: Equatable {
        case text(String)
        case name(String)
    }

    /// Why a template string cannot be expanded.
    public enum Problem: Error, Equatable, Sendable {
        case unterminated
        case unknown(String)
    }

    static func pieces(of template: String) -> Result<[Piece], Problem> {
        var pieces: [Piece] = []
        var text = ""
        var rest = Substring(template)
        while let dollar = rest.firstIndex(of: "$") {
            text += rest[..<dollar]
            let after = rest[dollar...].dropFirst()
            if after.hasPrefix("${") {
                text += "${"
                rest = after.dropFirst(2)
            } else if after.hasPrefix("{") {
                guard let close = after.firstIndex(of: "}") else { return .failure(.unterminated) }
                if !text.isEmpty { pieces.append(.text(text)); text = "" }
                pieces.append(.name(String(after[after.index(after: after.startIndex)..<close])))
                rest = after[after.index(after: close)...]
            } else {
                text += "$"
                rest = after
            }
        }
        text += rest
        if !text.isEmpty { pieces.append(.text(text)) }
        return .success(pieces)
    }

    /// The placeholder names used in `template`, in order.
    public static func names(in template: String) -> Result<[String], Problem> {
        pieces(of: template).map { $0.compactMap { if case .name(let n) = $0 { n } else { nil } } }
    }

    /// `template` with every placeholder replaced by `value(name)`; fails on the first unknown name.
    public static func expand(_ template: String, _ value: (String) -> String?) -> Result<String, Problem> {
        switch pieces(of: template) {
        case .failure(let problem): return .failure(problem)
        case .success(let pieces):
            var out = ""
            for piece in pieces {
                switch piece {
                case .text(let text): out += text
                case .name(let name):
                    guard let replacement = value(name) else { return .failure(.unknown(name)) }
                    out += replacement
                }
            }
            return .success(out)
        }
    }
}
