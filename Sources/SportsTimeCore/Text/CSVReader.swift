import Foundation

/// One parsed CSV row with the 1-based physical line it starts on.
public struct CSVRow: Sendable, Hashable {
    public var line: Int
    public var fields: [String]
    /// The first field longer than the reader's `maxFieldBytes`, whose text was cut to that length.
    public var overlongField: OverlongField?
    public init(line: Int, fields: [String], overlongField: OverlongField? = nil) {
        self.line = line; self.fields = fields; self.overlongField = overlongField
    }
}

/// A field past the reader's limit: its 0-based column and its full length in bytes.
public struct OverlongField: Sendable, Hashable {
    public var column: Int
    public var bytes: Int
    public init(column: Int, bytes: Int) { self.column = column; self.bytes = bytes }
}

/// An RFC 4180 reader that also accepts what real scrapes contain: a UTF-8 BOM, CR-only, CRLF or LF
/// line ends, quoted fields with commas, quotes and newlines, and bytes that are not UTF-8
/// (decoded with U+FFFD; `hadInvalidUTF8` says so). A file saved as UTF-16 or UTF-32 is not parsed at
/// all: `wideEncoding` names the encoding (see `TextEncoding`) and the caller refuses the file.
public struct CSVReader: Sendable {
    public var delimiter: UInt8
    /// Bytes kept of one field; the rest is counted, not stored, and the row says so (`overlongField`),
    /// so a 50 MB field costs no more memory than the file itself. nil keeps every byte.
    public var maxFieldBytes: Int?
    public init(delimiter: Character = ",", maxFieldBytes: Int? = nil) {
        self.delimiter = delimiter.asciiValue ?? UInt8(ascii: ",")
        self.maxFieldBytes = maxFieldBytes
    }

    public struct Result: Sendable {
        public var rows: [CSVRow]
        /// Whether some bytes were not valid UTF-8 and were replaced.
        public var hadInvalidUTF8: Bool
        /// Lines where a quoted field was still open at the end of the file.
        public var unterminatedQuoteLine: Int?
        /// "UTF-16" or "UTF-32" when the file is text in that encoding (then `rows` is empty).
        public var wideEncoding: String?
    }

    /// Parses all rows. Blank lines are skipped; line numbers count CR, LF and CRLF as one break each.
    public func read(_ data: Data) -> Result {
        if let wide = TextEncoding.wideEncoding(of: data) {
            return Result(rows: [], hadInvalidUTF8: false, unterminatedQuoteLine: nil, wideEncoding: wide)
        }
        var (text, invalid) = Self.decodeText(data)
        // Native strings are contiguous UTF-8: read them in place rather than copying every byte again.
        text.makeContiguousUTF8()
        if let result = text.utf8.withContiguousStorageIfAvailable({ read(bytes: $0, hadInvalidUTF8: invalid) }) {
            return result
        }
        return Array(text.utf8).withUnsafeBufferPointer { read(bytes: $0, hadInvalidUTF8: invalid) }
    }

    private func read(bytes: UnsafeBufferPointer<UInt8>, hadInvalidUTF8 invalid: Bool) -> Result {
        var scan = Scan(bytes: bytes, limit: maxFieldBytes ?? Int.max)
        let unterminated = scan.run(delimiter: delimiter)
        return Result(rows: scan.rows, hadInvalidUTF8: invalid, unterminatedQuoteLine: unterminated, wideEncoding: nil)
    }

    /// One pass over a file's bytes. Its state is stored properties and its steps methods, not local
    /// variables captured by nested functions: those would be boxed and every access to them checked
    /// for exclusivity at run time, once or more per field.
    private struct Scan {
        let bytes: UnsafeBufferPointer<UInt8>
        let limit: Int
        var rows: [CSVRow] = []
        var fields: [String] = []
        /// A field is read in place (`bytes[fieldStart..<i]`) until a quote makes it need unescaping;
        /// from then on its bytes are copied into `field` (`buffered`).
        var field: [UInt8] = []
        var buffered = false
        var fieldStart = 0
        /// Where a quoted field read in place ends (its closing quote); nil for any other field.
        var quotedEnd: Int?
        var rowLine = 1
        var fieldWasQuoted = false
        var fieldBytes = 0
        var overlong: OverlongField?

        init(bytes: UnsafeBufferPointer<UInt8>, limit: Int) {
            self.bytes = bytes
            self.limit = limit
        }

        mutating func append(_ byte: UInt8) {
            fieldBytes += 1
            if fieldBytes <= limit { field.append(byte) }
        }

        /// `append` of each byte of `bytes[start..<end]`, in one copy.
        mutating func appendRun(_ start: Int, _ end: Int) {
            let room = min(end - start, max(0, limit - fieldBytes))
            if room > 0 { field.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<(start + room)])) }
            fieldBytes += end - start
        }

        /// The index of the first byte at or after `start` that is `a`, `b`, `c` or `d`, or `bytes.count`:
        /// eight bytes at a time (a byte equal to one of them is a zero byte of the word xor it, found by the
        /// borrow of subtracting one from each byte; the lowest flagged byte is always a true one).
        @inline(__always)
        func next(from start: Int, _ a: UInt8, _ b: UInt8, _ c: UInt8, _ d: UInt8) -> Int {
            guard let base = bytes.baseAddress else { return start }
            let raw = UnsafeRawPointer(base)
            let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
            let (pa, pb, pc, pd) = (UInt64(a) &* ones, UInt64(b) &* ones, UInt64(c) &* ones, UInt64(d) &* ones)
            @inline(__always) func zeros(_ x: UInt64) -> UInt64 { (x &- ones) & ~x & highs }
            var at = start
            while at + 8 <= bytes.count {
                let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: at, as: UInt64.self))
                let found = zeros(word ^ pa) | zeros(word ^ pb) | zeros(word ^ pc) | zeros(word ^ pd)
                if found != 0 { return at + found.trailingZeroBitCount / 8 }
                at += 8
            }
            while at < bytes.count {
                let byte = base[at]
                if byte == a || byte == b || byte == c || byte == d { return at }
                at += 1
            }
            return at
        }

        mutating func endField(at fieldEnd: Int) {
            let end = quotedEnd ?? fieldEnd
            quotedEnd = nil
            let length = buffered ? fieldBytes : end - fieldStart
            if length > limit, overlong == nil { overlong = OverlongField(column: fields.count, bytes: length) }
            if buffered {
                fields.append(String(decoding: field, as: UTF8.self))
                field.removeAll(keepingCapacity: true)
            } else {
                fields.append(
                    String(decoding: UnsafeBufferPointer(rebasing: bytes[fieldStart..<(fieldStart + min(length, limit))]), as: UTF8.self))
            }
            buffered = false
            fieldBytes = 0
            fieldWasQuoted = false
        }

        mutating func endRow(at end: Int) {
            endField(at: end)
            let isBlank = fields.count == 1 && fields[0].allSatisfy { $0 == " " || $0 == "\t" }
            if !isBlank { rows.append(CSVRow(line: rowLine, fields: fields, overlongField: overlong)) }
            fields.removeAll(keepingCapacity: true)
            overlong = nil
        }

        /// Whether the field read so far, up to `i`, is empty or spaces only (a quote may open it).
        func onlySpacesSoFar(_ i: Int) -> Bool {
            buffered ? field.allSatisfy { $0 == 0x20 } : bytes[fieldStart..<i].allSatisfy { $0 == 0x20 }
        }

        /// Reads every row into `rows`; the line of a quoted field still open at the end, if any.
        mutating func run(delimiter: UInt8) -> Int? {
            var line = 1
            var inQuotes = false
            var i = 0
            let count = bytes.count
            if count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { i = 3 }
            fieldStart = i
            while i < count {
                let byte = bytes[i]
                if inQuotes {
                    if byte == UInt8(ascii: "\"") {
                        if i + 1 < count, bytes[i + 1] == UInt8(ascii: "\"") {
                            append(byte); i += 2; continue
                        }
                        inQuotes = false; i += 1; continue
                    }
                    if byte == 0x0D {
                        line += 1
                        append(0x0A)
                        if i + 1 < count, bytes[i + 1] == 0x0A { i += 1 }
                        i += 1; continue
                    }
                    if byte == 0x0A {
                        line += 1
                        append(byte); i += 1; continue
                    }
                    // A run of the field's bytes up to its next quote or line end, copied at once.
                    let end = next(from: i, UInt8(ascii: "\""), 0x0D, 0x0A, UInt8(ascii: "\""))
                    appendRun(i, end)
                    i = end
                    continue
                }
                switch byte {
                case UInt8(ascii: "\"") where !buffered && i == fieldStart:
                    // A quoted field on one line with no quote inside, closed right before a delimiter or
                    // a line end (nearly every one), is read in place like an unquoted field.
                    let close = next(from: i + 1, UInt8(ascii: "\""), 0x0D, 0x0A, UInt8(ascii: "\""))
                    if close < count, bytes[close] == UInt8(ascii: "\""),
                        close + 1 == count || bytes[close + 1] == delimiter || bytes[close + 1] == 0x0D || bytes[close + 1] == 0x0A
                    {
                        fieldStart = i + 1
                        quotedEnd = close
                        fieldWasQuoted = true
                        i = close + 1
                        continue
                    }
                    field.removeAll(keepingCapacity: true); fieldBytes = 0; inQuotes = true; fieldWasQuoted = true; buffered = true
                case UInt8(ascii: "\"") where !fieldWasQuoted && onlySpacesSoFar(i):
                    field.removeAll(keepingCapacity: true); fieldBytes = 0; inQuotes = true; fieldWasQuoted = true; buffered = true
                case delimiter:
                    endField(at: i)
                    fieldStart = i + 1
                case 0x0D, 0x0A:
                    endRow(at: i)
                    if byte == 0x0D, i + 1 < count, bytes[i + 1] == 0x0A { i += 1 }
                    line += 1
                    rowLine = line
                    fieldStart = i + 1
                default:
                    if buffered {
                        append(byte)
                    } else {
                        // An unquoted field's bytes are read in place: on to the next byte that matters.
                        i = next(from: i + 1, delimiter, UInt8(ascii: "\""), 0x0D, 0x0A)
                        continue
                    }
                }
                i += 1
            }
            let unterminated = inQuotes ? rowLine : nil
            let pending = buffered ? !field.isEmpty : fieldStart < count
            if pending || !fields.isEmpty || fieldWasQuoted { endRow(at: count) }
            return unterminated
        }
    }

    /// UTF-8 text of `data`, replacing invalid sequences with U+FFFD.
    public static func decodeText(_ data: Data) -> (String, hadInvalidUTF8: Bool) {
        if let text = String(data: data, encoding: .utf8) { return (text, false) }
        return (String(decoding: data, as: UTF8.self), true)
    }
}

/// A header row turned into a name → column index lookup that survives real headers:
/// duplicate names get `.2`, `.3` suffixes and unnamed columns are named `column<N>` (1-based).
public struct CSVHeader: Sendable, Hashable {
    public private(set) var names: [String]
    private var index: [String: Int]

    public init(_ fields: [String]) {
        var names: [String] = []
        var seen: [String: Int] = [:]
        for (position, raw) in fields.enumerated() {
            // Foundation's trimming only for a name with an end it might trim (a few thousand instructions a name).
            var name = raw.hasPlainASCIIEnds ? raw : raw.trimmingCharacters(in: .whitespaces)
            if name.isEmpty { name = "column\(position + 1)" }
            // A repeat becomes `name.2`, `name.3`, ... skipping any spelling already taken (a header
            // `a,a,a.2` must not give two columns named `a.2`).
            var n = seen[name] ?? 0
            var unique = name
            repeat {
                n += 1
                unique = n == 1 ? name : "\(name).\(n)"
            } while n > 1 && seen[unique] != nil
            seen[name] = n
            if unique != name { seen[unique] = seen[unique] ?? 1 }
            names.append(unique)
        }
        self.names = names
        self.index = Dictionary(names.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
    }

    public func column(_ name: String) -> Int? { index[name] }

    /// The value of `name` in `row`, trimmed; nil when the column is missing or the row is short.
    public func value(_ name: String, in row: CSVRow) -> String? {
        guard let column = index[name], column < row.fields.count else { return nil }
        return row.fields[column].trimmingCharacters(in: .whitespaces)
    }
}
