import Foundation
import SportsTimeCore

/// libFuzzer harness: the core CSV reader and header on arbitrary bytes (BOM, CR/LF mixes, quotes,
/// invalid UTF-8), with both the comma and the tab delimiter. Checks the reader's own promises.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCSV(_ start: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    let empty: [UInt8] = [0]
    return empty.withUnsafeBufferPointer { fallback in
        fuzzCSVBody(count > 0 ? start ?? fallback.baseAddress! : fallback.baseAddress!, start == nil ? 0 : count)
    }
}

func fuzzCSVBody(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> Int32 {
    let data = Data(bytes: bytes, count: count)
    for delimiter in [Character(","), Character("\t")] {
        let result = CSVReader(delimiter: delimiter).read(data)
        var previous = 0
        for row in result.rows {
            // Rows come in file order with 1-based physical lines; never an empty field list.
            precondition(row.line >= 1 && row.line >= previous, "CSV row lines go backwards")
            precondition(!row.fields.isEmpty, "CSV row without fields")
            previous = row.line
        }
        if let first = result.rows.first {
            let header = CSVHeader(first.fields)
            precondition(header.names.count == first.fields.count, "CSVHeader lost a column")
            precondition(Set(header.names).count == header.names.count, "CSVHeader names are not unique")
            for (index, name) in header.names.enumerated() {
                precondition(header.column(name) == index, "CSVHeader index disagrees with names")
            }
            for row in result.rows.dropFirst().prefix(64) {
                for name in header.names { _ = header.value(name, in: row) }
            }
        }
    }
    return 0
}

/// SwiftPM links an executable with `main` = `<module>_main`; hand the process to libFuzzer's driver.
@_cdecl("fuzz_csv_main")
public func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
    var argc = argc
    var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = argv
    return LLVMFuzzerRunDriver(&argc, &argv, fuzzCSV)
}

@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<Int32>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
) -> Int32
