import Foundation

/// Orders of records by text keys (ids, then provenance), as `<` orders the keys, ties by position.
///
/// When every key is ASCII, `<` on them is the byte order of their UTF-8 (Swift compares the Unicode
/// scalars of the canonical form, and ASCII text is its own canonical form, one byte a scalar), and the
/// keys are copied into one byte buffer and compared with `memcmp`: a `String` comparison of two ids
/// costs several times that, and a sort of n records makes about n·log₂n of them. Any other key sorts
/// the keys with `<` itself.
public enum TextOrder {
    /// The positions of `keys` in ascending order of the key, then of `secondary`'s key at the same
    /// position (when given; as long as `keys`), then of the position.
    public static func positions(of keys: [String], then secondary: [String]? = nil) -> [Int] {
        reordering(of: keys, then: secondary) ?? Array(keys.indices)
    }

    /// `positions`, or nil when the keys are in that order already.
    public static func reordering(of keys: [String], then secondary: [String]? = nil) -> [Int]? {
        precondition(secondary == nil || secondary?.count == keys.count, "TextOrder: key arrays of different lengths")
        // Most arrays of records are in order already (a stage writes its records sorted by id): n − 1
        // comparisons of strings say so, as many as a sort of them would make.
        if isAscending(keys, secondary) { return nil }
        guard let first = FlatKeys(keys) else { return comparingStrings(keys, secondary) }
        var second: FlatKeys?
        if let secondary {
            guard let flat = FlatKeys(secondary) else { return comparingStrings(keys, secondary) }
            second = flat
        }
        var order = Array(keys.indices)
        first.withPointers { firstBytes, firstStarts in
            guard let second else {
                order.sort { a, b in
                    let c = FlatKeys.compare(firstBytes, firstStarts, a, b)
                    return c != 0 ? c < 0 : a < b
                }
                return
            }
            second.withPointers { secondBytes, secondStarts in
                order.sort { a, b in
                    var c = FlatKeys.compare(firstBytes, firstStarts, a, b)
                    if c == 0 { c = FlatKeys.compare(secondBytes, secondStarts, a, b) }
                    return c != 0 ? c < 0 : a < b
                }
            }
        }
        return order
    }

    /// Whether no key (with its secondary key) is below the one before it.
    private static func isAscending(_ keys: [String], _ secondary: [String]?) -> Bool {
        guard keys.count > 1 else { return true }
        for i in 1..<keys.count {
            if keys[i] < keys[i - 1] { return false }
            if let secondary, keys[i] == keys[i - 1], secondary[i] < secondary[i - 1] { return false }
        }
        return true
    }

    /// `positions` for keys that are not all ASCII: compared as strings.
    private static func comparingStrings(_ keys: [String], _ secondary: [String]?) -> [Int] {
        guard let secondary else { return keys.indices.sorted { (keys[$0], $0) < (keys[$1], $1) } }
        return keys.indices.sorted { (keys[$0], secondary[$0], $0) < (keys[$1], secondary[$1], $1) }
    }

    /// ASCII strings laid end to end: key i is `bytes[starts[i]..<starts[i + 1]]`.
    private struct FlatKeys {
        let bytes: [UInt8]
        let starts: [Int]

        /// nil when a key is not ASCII.
        init?(_ keys: [String]) {
            var starts: [Int] = []
            starts.reserveCapacity(keys.count + 1)
            starts.append(0)
            var total = 0
            for key in keys {
                total += key.utf8.count
                starts.append(total)
            }
            // Copied straight into a buffer of the total size, each key's bytes from its contiguous UTF-8.
            var ascii = true
            let bytes = [UInt8](unsafeUninitializedCapacity: total) { buffer, initialized in
                var at = 0
                for var key in keys {
                    key.withUTF8 { utf8 in
                        guard ascii, !utf8.isEmpty, let from = utf8.baseAddress else { return }
                        if !utf8.isAllASCII { ascii = false; return }
                        (buffer.baseAddress! + at).initialize(from: from, count: utf8.count)
                        at += utf8.count
                    }
                }
                initialized = at
            }
            guard ascii else { return nil }
            self.bytes = bytes
            self.starts = starts
        }

        func withPointers<R>(_ body: (UnsafePointer<UInt8>, UnsafePointer<Int>) -> R) -> R {
            // An empty buffer may have no address: one byte stands in (no key reads it; all are empty).
            let bytes = self.bytes.isEmpty ? [0] : self.bytes
            return bytes.withUnsafeBufferPointer { b in starts.withUnsafeBufferPointer { s in body(b.baseAddress!, s.baseAddress!) } }
        }

        /// memcmp's sign for keys `a` and `b`, a shorter key first when one begins the other.
        @inline(__always)
        static func compare(_ bytes: UnsafePointer<UInt8>, _ starts: UnsafePointer<Int>, _ a: Int, _ b: Int) -> Int32 {
            let (startA, countA) = (starts[a], starts[a + 1] - starts[a])
            let (startB, countB) = (starts[b], starts[b + 1] - starts[b])
            let common = min(countA, countB)
            if common > 0 {
                let c = memcmp(bytes + startA, bytes + startB, common)
                if c != 0 { return c }
            }
            return countA == countB ? 0 : (countA < countB ? -1 : 1)
        }
    }
}
