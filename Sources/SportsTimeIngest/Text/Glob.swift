/// Shell-style path patterns: `*` and `?` within one path segment, `**` across segments, `[abc]` sets.
public enum Glob {
    /// Whether the relative `path` matches `pattern` as a whole.
    public static func matches(_ pattern: String, _ path: String) -> Bool {
        match(Array(pattern.unicodeScalars), 0, Array(path.unicodeScalars), 0)
    }

    private static func match(_ p: [Unicode.Scalar], _ pi: Int, _ s: [Unicode.Scalar], _ si: Int) -> Bool {
        var pi = pi, si = si
        while pi < p.count {
            switch p[pi] {
            case "*":
                let doubled = pi + 1 < p.count && p[pi + 1] == "*"
                var next = pi + (doubled ? 2 : 1)
                if doubled, next < p.count, p[next] == "/" {
                    // `**/` also matches no folder at all.
                    if match(p, next + 1, s, si) { return true }
                    next += 0
                }
                var k = si
                while true {
                    if match(p, next, s, k) { return true }
                    guard k < s.count, doubled || s[k] != "/" else { return false }
                    k += 1
                }
            case "?":
                guard si < s.count, s[si] != "/" else { return false }
                pi += 1; si += 1
            case "[":
                guard si < s.count, let close = p[(pi + 1)...].firstIndex(of: "]") else { return false }
                var set = Array(p[(pi + 1)..<close])
                let negate = set.first == "!" || set.first == "^"
                if negate { set.removeFirst() }
                var hit = false
                var k = 0
                while k < set.count {
                    if k + 2 < set.count, set[k + 1] == "-" {
                        if set[k] <= s[si] && s[si] <= set[k + 2] { hit = true }
                        k += 3
                    } else {
                        if set[k] == s[si] { hit = true }
                        k += 1
                    }
                }
                guard hit != negate else { return false }
                pi = close + 1; si += 1
            default:
                guard si < s.count, s[si] == p[pi] else { return false }
                pi += 1; si += 1
            }
        }
        return si == s.count
    }
}
