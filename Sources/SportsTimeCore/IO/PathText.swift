/// Paths joined as text.
public enum PathText {
    /// `URL(fileURLWithPath: base).appendingPathComponent(relative).path` for a `base` path as `URL.path`
    /// gives it, without building URLs (which parse and percent-encode every component: the runner joins
    /// thousands of paths a run). Trailing slashes of `relative` are dropped; an empty one gives `base`.
    public static func join(_ base: String, _ relative: String) -> String {
        var end = relative.endIndex
        while end > relative.startIndex, relative.utf8[relative.utf8.index(before: end)] == UInt8(ascii: "/") {
            end = relative.utf8.index(before: end)
        }
        let tail = relative[..<end]
        if tail.isEmpty { return base }
        switch (base.hasSuffix("/"), tail.hasPrefix("/")) {
        case (true, true): return base + tail.dropFirst()
        case (false, false): return base + "/" + tail
        default: return base + tail
        }
    }

    /// The first control character of `path` (NUL, a line break, DEL and the C1 range): a path holding
    /// one is refused where it is read, since the system would cut it at a NUL or it would break lines.
    public static func controlCharacter(in path: String) -> Unicode.Scalar? {
        path.unicodeScalars.first { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }
    }

    /// `path` without its last component and the component: `("/a/b/", "c.json")` for `/a/b/c.json`,
    /// `("", "c.json")` for `c.json`.
    public static func splitLast(_ path: String) -> (folder: Substring, name: Substring) {
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return (path[path.startIndex..<path.startIndex], path[...]) }
        let next = path.utf8.index(after: slash)
        return (path[..<next], path[next...])
    }
}
