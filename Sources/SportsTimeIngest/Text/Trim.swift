extension String {
    /// The text without leading and trailing white space (Unicode: spaces, tabs, line breaks, NBSP).
    /// Returns quickly when there is nothing to trim, which is almost always (Foundation's
    /// `trimmingCharacters(in:)` bridges through NSString and dominated ingest time).
    var trimmed: String {
        // The end bytes from the contiguous UTF-8 (every native string has it): `utf8.last` walks back
        // through the view's index machinery, which cost more than the rest of the check.
        if let plain = utf8.withContiguousStorageIfAvailable({ bytes in
            bytes.isEmpty || (bytes[0] > 0x20 && bytes[0] < 0x80 && bytes[bytes.count - 1] > 0x20 && bytes[bytes.count - 1] < 0x80)
        }) {
            if plain { return self }
            return Self.trimmedEnds(self[...])
        }
        guard let first = utf8.first, let last = utf8.last else { return "" }
        if first > 0x20, first < 0x80, last > 0x20, last < 0x80 { return self }
        return Self.trimmedEnds(self[...])
    }

    /// ASCII white space taken off both ends byte by byte; an end that is not ASCII is left to
    /// `trimScalars` (the Unicode White_Space property).
    static func trimmedEnds(_ text: Substring) -> String {
        func isASCIIWhite(_ byte: UInt8) -> Bool { byte == 0x20 || (0x09...0x0D).contains(byte) }
        let utf8 = text.utf8
        var start = utf8.startIndex, end = utf8.endIndex
        while start < end, isASCIIWhite(utf8[start]) { start = utf8.index(after: start) }
        while start < end, isASCIIWhite(utf8[utf8.index(before: end)]) { end = utf8.index(before: end) }
        guard start < end else { return "" }
        if utf8[start] < 0x80 && utf8[utf8.index(before: end)] < 0x80 { return String(text[start..<end]) }
        return trimScalars(text[start..<end].unicodeScalars)
    }

    static func trimScalars(_ view: Substring.UnicodeScalarView) -> String {
        var scalars = view
        while let s = scalars.first, s.properties.isWhitespace { scalars = scalars.dropFirst() }
        while let s = scalars.last, s.properties.isWhitespace { scalars = scalars.dropLast() }
        return String(String.UnicodeScalarView(scalars))
    }
}

extension Substring {
    /// See `String.trimmed`.
    var trimmed: String {
        guard let first = utf8.first, let last = utf8.last else { return "" }
        if first > 0x20, first < 0x80, last > 0x20, last < 0x80 { return String(self) }
        return String.trimmedEnds(self)
    }
}
