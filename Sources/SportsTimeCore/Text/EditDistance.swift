/// The one edit distance of the project, used for every "did you mean" (YAML keys, columns of an
/// expression, team and venue names, game ids).
public enum EditDistance {
    /// The fewest single-element insertions, deletions and substitutions (Levenshtein) that turn `a`
    /// into `b`; with `transpositions`, swapping two neighbours also counts as one (optimal string
    /// alignment, for ids where two typed characters change places).
    @inlinable
    public static func between<C: RandomAccessCollection>(_ a: C, _ b: C, transpositions: Bool = false) -> Int
    where C.Element: Equatable {
        let a = Array(a), b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        // Three rows: the one before the previous is needed only for a transposition.
        var beforePrevious = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                var best = min(substitution, previous[j] + 1, current[j - 1] + 1)
                if transpositions, i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    best = min(best, beforePrevious[j - 2] + 1)
                }
                current[j] = best
            }
            (beforePrevious, previous, current) = (previous, current, beforePrevious)
        }
        return previous[b.count]
    }
}
