import Foundation
import SportsTimeCore
import struct SportsTimeTestSupport.SplitMix64
import Testing

/// The CSV reader's scan, which skips over the plain bytes of a field eight at a time, reads a quoted field
/// on one line in place and copies the runs of any other quoted field at once, against a byte-at-a-time
/// reading of the same rules.
@Suite struct CSVScanTests {
    /// The rules one byte at a time: what the reader did before it skipped plain runs.
    struct ByteAtATime {
        var rows: [CSVRow] = []
        var fields: [String] = []
        var field: [UInt8] = []
        var buffered = false, inQuotes = false, fieldWasQuoted = false
        var fieldStart = 0, rowLine = 1, line = 1, fieldBytes = 0
        var overlong: OverlongField?
        let bytes: [UInt8]
        let limit: Int

        init(_ bytes: [UInt8], limit: Int) { self.bytes = bytes; self.limit = limit }

        mutating func append(_ byte: UInt8) {
            fieldBytes += 1
            if fieldBytes <= limit { field.append(byte) }
        }

        mutating func endField(at end: Int) {
            let length = buffered ? fieldBytes : end - fieldStart
            if length > limit, overlong == nil { overlong = OverlongField(column: fields.count, bytes: length) }
            let kept = buffered ? field : Array(bytes[fieldStart..<(fieldStart + min(length, limit))])
            fields.append(String(decoding: kept, as: UTF8.self))
            field = []
            (buffered, fieldBytes, fieldWasQuoted) = (false, 0, false)
        }

        mutating func endRow(at end: Int) {
            endField(at: end)
            if !(fields.count == 1 && fields[0].allSatisfy { $0 == " " || $0 == "\t" }) {
                rows.append(CSVRow(line: rowLine, fields: fields, overlongField: overlong))
            }
            fields = []
            overlong = nil
        }

        mutating func run(delimiter: UInt8) -> Int? {
            var i = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
            fieldStart = i
            while i < bytes.count {
                let byte = bytes[i]
                if inQuotes {
                    if byte == UInt8(ascii: "\"") {
                        if i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: "\"") { append(byte); i += 2; continue }
                        inQuotes = false; i += 1; continue
                    }
                    if byte == 0x0D {
                        line += 1
                        append(0x0A)
                        if i + 1 < bytes.count, bytes[i + 1] == 0x0A { i += 1 }
                        i += 1; continue
                    }
                    if byte == 0x0A { line += 1 }
                    append(byte); i += 1; continue
                }
                let onlySpaces = buffered ? field.allSatisfy { $0 == 0x20 } : bytes[fieldStart..<i].allSatisfy { $0 == 0x20 }
                if byte == UInt8(ascii: "\""), !fieldWasQuoted, onlySpaces {
                    field = []; fieldBytes = 0; inQuotes = true; fieldWasQuoted = true; buffered = true
                } else if byte == delimiter {
                    endField(at: i)
                    fieldStart = i + 1
                } else if byte == 0x0D || byte == 0x0A {
                    endRow(at: i)
                    if byte == 0x0D, i + 1 < bytes.count, bytes[i + 1] == 0x0A { i += 1 }
                    line += 1
                    rowLine = line
                    fieldStart = i + 1
                } else if buffered {
                    append(byte)
                }
                i += 1
            }
            let unterminated = inQuotes ? rowLine : nil
            let pending = buffered ? !field.isEmpty : fieldStart < bytes.count
            if pending || !fields.isEmpty || fieldWasQuoted { endRow(at: bytes.count) }
            return unterminated
        }
    }

    /// Random text of the pieces that matter (delimiters, quotes, doubled quotes, every line end, spaces,
    /// long plain runs that cross eight-byte words, accents), every delimiter and several field limits.
    @Test func skippingPlainRunsReadsAsByteAtATime() {
        var random = SplitMix64(seed: 17)
        let pieces = [
            "a", "bc", "defghijklmnopq", ",", ";", "\t", "\"", "\"\"", "\r", "\n", "\r\n", " ", "  ", "é", "Montréal",
            "2023-04-01", "\u{FEFF}",
        ]
        for round in 0..<4000 {
            let text = (0..<Int(random.next() % 40)).map { _ in pieces[Int(random.next() % UInt64(pieces.count))] }.joined()
            let delimiter = [",", ";", "\t"][Int(random.next() % 3)]
            let limit = [nil, 1, 3, 8, 9][Int(random.next() % 5)]
            let read = CSVReader(delimiter: Character(delimiter), maxFieldBytes: limit).read(Data(text.utf8))
            // The bytes the reader scans: the text as decoded (a byte order mark at the start dropped).
            var reference = ByteAtATime(Array(CSVReader.decodeText(Data(text.utf8)).0.utf8), limit: limit ?? Int.max)
            let unterminated = reference.run(delimiter: delimiter.utf8.first!)
            #expect(read.rows == reference.rows, "round \(round): \(text.debugDescription)")
            #expect(read.unterminatedQuoteLine == unterminated, "round \(round): \(text.debugDescription)")
        }
    }
}
