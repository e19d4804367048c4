import Foundation
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Lines of a file's bytes without copying them (`Data.split` costs ~100 ns a line in exclusivity checks;
/// artifacts have tens of thousands of lines and are scanned on every run).
enum ByteLines {
    /// Calls `body` with each 1-based line number and the line's bytes (without `\n`) until it returns false.
    static func forEach(_ data: Data, _ body: (Int, UnsafeRawBufferPointer) -> Bool) {
        data.withUnsafeBytes { (all: UnsafeRawBufferPointer) in
            guard let base = all.baseAddress else { return }
            var start = 0
            var number = 1
            while start <= all.count {
                let remaining = all.count - start
                let newline = remaining > 0 ? memchr(base + start, 0x0A, remaining) : nil
                let end = newline.map { base.distance(to: UnsafeRawPointer($0)) } ?? all.count
                if start == all.count && newline == nil { return }
                if !body(number, UnsafeRawBufferPointer(rebasing: all[start..<end])) { return }
                start = end + 1
                number += 1
            }
        }
    }

    /// Whether `line` starts with `prefix`.
    static func hasPrefix(_ line: UnsafeRawBufferPointer, _ prefix: StaticString) -> Bool {
        let count = prefix.utf8CodeUnitCount
        guard line.count >= count else { return false }
        return memcmp(line.baseAddress!, prefix.utf8Start, count) == 0
    }

    /// Whether `line` holds only spaces and carriage returns.
    static func isBlank(_ line: UnsafeRawBufferPointer) -> Bool {
        line.allSatisfy { $0 == 0x20 || $0 == 0x0D }
    }
}
