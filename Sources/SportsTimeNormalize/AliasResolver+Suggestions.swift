import SportsTimeCore

extension AliasResolver {
    /// The known team names of `sport` closest to `name`, best first, at most one per team:
    /// `Oakland Athletics (mlb-ath, valid until 2024-12-31)`. Names of other source systems are not offered.
    public func teamSuggestions(
        for name: String, sport: String, system: String?, first: [String] = [],
        limit: Int = 5
    ) -> [String] {
        Self.suggestions(
            for: name, among: teamEntriesBySport[sport] ?? [], system: system?.lowercased(),
            first: first, limit: limit)
    }

    /// The known stadium names closest to `name`, best first, at most one per stadium.
    public func stadiumSuggestions(for name: String, system: String?, first: [String] = [], limit: Int = 5) -> [String] {
        Self.suggestions(for: name, among: stadiumEntries, system: system?.lowercased(), first: first, limit: limit)
    }

    /// Scores every applicable entry against `name` and keeps each target's best name.
    ///
    /// - Parameter first: ids that must lead the list (the candidates of an ambiguous name), in this order.
    private static func suggestions(
        for name: String, among entries: [Entry], system: String?, first: [String],
        limit: Int
    ) -> [String] {
        let query = NameSimilarity.Prepared(name)
        var best: [String: (score: Double, label: String)] = [:]
        for entry in entries where entry.tier(for: system) != nil {
            let score = NameSimilarity.score(query, entry.prepared)
            let label = label(of: entry)
            if let current = best[entry.targetId],
                current.score > score || (current.score == score && current.label <= label)
            {
                continue
            }
            best[entry.targetId] = (score, label)
        }
        let leading = first.compactMap { id in best[id].map { (id, $0) } }
        let ranked =
            best
            .filter { !first.contains($0.key) && $0.value.score >= NameSimilarity.threshold }
            .sorted { ($1.value.score, $0.value.label) < ($0.value.score, $1.value.label) }
        return (leading + ranked).prefix(max(limit, leading.count)).map { $0.1.label }
    }

    /// `Name (target-id[, system][, valid …])`.
    static func label(of entry: Entry) -> String {
        var details = [entry.targetId]
        if case .alias(let system?) = entry.origin { details.append("\(system) only") }
        switch (entry.validFrom, entry.validUntil) {
        case (nil, nil): break
        case (let from?, nil): details.append("valid from \(from.iso8601)")
        case (nil, let until?): details.append("valid until \(until.iso8601)")
        case (let from?, let until?): details.append("valid \(from.iso8601) to \(until.iso8601)")
        }
        return "\(entry.name) (\(details.joined(separator: ", ")))"
    }
}

/// How alike two names are, from 0 (nothing shared) to 1 (same match key).
enum NameSimilarity {
    /// Scores below this are not worth suggesting.
    static let threshold = 0.4

    /// A name's match key (`Slug.matchKey`, also as bytes) and its words.
    struct Prepared: Sendable {
        var keyText: String
        var key: [UInt8]
        /// The slug's words, sorted, each once (a few words: an array, not a set).
        var words: [String]
        init(_ name: String) {
            // One slug gives both: the match key is the slug without its dashes (`Slug.matchKey`), and the
            // words are the runs between them. A slug is ASCII (letters, digits and single dashes): read as bytes.
            let slug = Slug.make(name)
            var key: [UInt8] = []
            key.reserveCapacity(slug.utf8.count)
            var words: [String] = []
            words.reserveCapacity(slug.utf8.count(where: { $0 == UInt8(ascii: "-") }) + 1)
            var wordStart = 0
            for byte in slug.utf8 {
                guard byte == UInt8(ascii: "-") else {
                    key.append(byte)
                    continue
                }
                if key.count > wordStart { words.append(String(decoding: key[wordStart...], as: UTF8.self)) }
                wordStart = key.count
            }
            if key.count > wordStart { words.append(String(decoding: key[wordStart...], as: UTF8.self)) }
            words.sort()
            var unique = 0
            for index in words.indices where unique == 0 || words[unique - 1] != words[index] {
                words.swapAt(unique, index)
                unique += 1
            }
            words.removeLast(words.count - unique)
            self.key = key
            self.keyText = String(decoding: key, as: UTF8.self)
            self.words = words
        }
    }

    /// The best of: edit similarity of the keys, word overlap (Jaccard), and containment of one key in the other.
    static func score(_ a: Prepared, _ b: Prepared) -> Double {
        guard !a.key.isEmpty, !b.key.isEmpty else { return 0 }
        let longest = Double(max(a.key.count, b.key.count))
        let edit = 1 - Double(editDistance(a.key, b.key)) / longest
        // |A ∩ B| by walking the two sorted word lists together, and |A ∪ B| = |A| + |B| − |A ∩ B|.
        var common = 0
        var (i, j) = (0, 0)
        while i < a.words.count, j < b.words.count {
            if a.words[i] == b.words[j] {
                common += 1; i += 1; j += 1
            } else if a.words[i] < b.words[j] {
                i += 1
            } else {
                j += 1
            }
        }
        let union = a.words.count + b.words.count - common
        let words = union == 0 ? 0 : Double(common) / Double(union)
        var containment = 0.0
        let (short, long) = a.key.count <= b.key.count ? (a.key, b.key) : (b.key, a.key)
        if short.count >= 3, contains(long, short) {
            containment = 0.5 + 0.5 * Double(short.count) / Double(long.count)
        }
        return max(edit, words, containment)
    }

    /// Levenshtein distance (insert, delete, substitute: cost 1 each).
    static func editDistance(_ a: [UInt8], _ b: [UInt8]) -> Int { EditDistance.between(a, b) }

    private static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard needle.count <= haystack.count else { return false }
        for start in 0...(haystack.count - needle.count) where haystack[start..<start + needle.count].elementsEqual(needle) {
            return true
        }
        return false
    }
}
