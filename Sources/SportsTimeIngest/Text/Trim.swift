extension String {
    /// The text without leading and trailing white space (Unicode: spaces, tabs, line breaks, NBSP).
    /// Returns quickly when there is nothing to trim, which is almost always (Foundation's
    /// `trimmingCharacters(in:)` bridges through NSString and dominated ingest time).
    var trimmed: String {
        guard let first = utf8.first, let last = utf8.last else { return "" }
        if first > 0x20, first < 0x80, last > 0x20, last < 0x80 { return self }
        return Self.trimScalars(unicodeScalars[...])
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
        return String.trimScalars(unicodeScalars)
    }
}
