import Foundation

// sportstime-records: writes the generated part of every record declared in Sources/ (a `public struct`
// whose body starts with `// codec:`). `make records` runs it after a record's fields change;
// `--check` (run by `make lint`) only says which files are not as it would write them.
//
//   sportstime-records [--check] [ROOT]     ROOT defaults to the current directory.

let arguments = Array(CommandLine.arguments.dropFirst())
let check = arguments.contains("--check")
let unknown = arguments.filter { $0.hasPrefix("-") && $0 != "--check" }
let roots = arguments.filter { !$0.hasPrefix("-") }
guard unknown.isEmpty, roots.count <= 1 else {
    FileHandle.standardError.write(Data("usage: sportstime-records [--check] [ROOT]\n".utf8))
    exit(64)
}
let root = URL(fileURLWithPath: roots.first ?? FileManager.default.currentDirectoryPath)
let sources = root.appendingPathComponent("Sources")

var files: [String] = []
if let walker = FileManager.default.enumerator(atPath: sources.path) {
    for case let path as String in walker where path.hasSuffix(".swift") && !path.hasPrefix("sportstime-records/") {
        files.append(path)
    }
}

var stale: [String] = []
var failed = false
for path in files.sorted() {
    let url = sources.appendingPathComponent(path)
    guard let text = try? String(contentsOf: url, encoding: .utf8), text.contains("// codec:") else { continue }
    let display = "Sources/" + path
    do {
        let generated = try RecordFile(path: display, text: text).regenerated()
        guard generated != text else { continue }
        if check {
            stale.append(display)
        } else {
            try Data(generated.utf8).write(to: url, options: .atomic)
            print("wrote \(display)")
        }
    } catch {
        FileHandle.standardError.write(Data("\(error)\n".utf8))
        failed = true
    }
}
for path in stale {
    FileHandle.standardError.write(
        Data("\(path): error: the generated record code is not as its declarations say. Run 'make records' and commit.\n".utf8))
}
exit(failed ? 2 : stale.isEmpty ? 0 : 1)
