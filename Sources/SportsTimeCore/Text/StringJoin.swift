extension String {
    /// `"\(head)\(separator)\(tail)"` built at its final size in one allocation (an interpolation grows
    /// its buffer as it appends; ingest builds two such ids for every row).
    public static func joining(_ head: String, _ separator: UInt8, _ tail: String) -> String {
        var head = head, tail = tail
        return head.withUTF8 { a in
            tail.withUTF8 { b in
                String(unsafeUninitializedCapacity: a.count + 1 + b.count) { out in
                    guard let to = out.baseAddress else { return 0 }
                    if let from = a.baseAddress { to.update(from: from, count: a.count) }
                    to[a.count] = separator
                    if let from = b.baseAddress { (to + a.count + 1).update(from: from, count: b.count) }
                    return a.count + 1 + b.count
                }
            }
        }
    }
}

extension String {
    /// The text followed by spaces up to `width` characters (the text itself when it is that wide already):
    /// a console column, without bridging to `NSString`.
    public func padded(to width: Int) -> String {
        let count = count
        return count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
