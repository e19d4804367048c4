import Foundation

/// Every text input of the pipeline is UTF-8. A file saved as UTF-16 or UTF-32 (Excel's "Unicode
/// text", Windows Notepad's "Unicode") is recognised by its byte-order mark, or without one by the NUL
/// bytes that fill its first kilobyte, and refused with one message instead of a wall of garbled fields.
public enum TextEncoding {
    /// How many leading bytes are looked at when a file has no byte-order mark.
    static let sampleSize = 1024

    /// "UTF-16" or "UTF-32" when `data` is text in that encoding; nil otherwise (UTF-8, ASCII, a
    /// single-byte code page, or bytes that are no text at all).
    ///
    /// With a byte-order mark (`FF FE`, `FE FF`, `FF FE 00 00`, `00 00 FE FF`) the mark decides. Without
    /// one, a quarter or more NUL bytes among the first kilobyte means a wide encoding (ASCII text is half
    /// NULs in UTF-16 and three quarters in UTF-32; real UTF-8 text has none): UTF-32 from five eighths on.
    public static func wideEncoding(of data: Data) -> String? {
        let count = min(data.count, sampleSize)
        guard count >= 2 else { return nil }
        return data.withUnsafeBytes { raw -> String? in
            let bytes = raw.bindMemory(to: UInt8.self)
            if count >= 4 {
                if bytes[0] == 0xFF, bytes[1] == 0xFE, bytes[2] == 0, bytes[3] == 0 { return "UTF-32" }
                if bytes[0] == 0, bytes[1] == 0, bytes[2] == 0xFE, bytes[3] == 0xFF { return "UTF-32" }
            }
            if (bytes[0] == 0xFF && bytes[1] == 0xFE) || (bytes[0] == 0xFE && bytes[1] == 0xFF) { return "UTF-16" }
            var nuls = 0
            for index in 0..<count where bytes[index] == 0 { nuls += 1 }
            guard nuls * 4 >= count else { return nil }
            return nuls * 8 >= count * 5 ? "UTF-32" : "UTF-16"
        }
    }

    /// `path:1: error: the file is UTF-16 encoded. Save it as UTF-8 and re-run.`
    public static func wideEncodingDiagnostic(_ encoding: String, path: String) -> Diagnostic {
        Diagnostic(
            .error, at: SourceLocation(path: path, line: 1), "the file is \(encoding) encoded",
            fix: "Save it as UTF-8 and re-run")
    }

    /// Throws `PipelineError.invalidInput` (exit 2) when `data` is UTF-16 or UTF-32 text.
    public static func refuseWide(_ data: Data, path: String) throws {
        if let encoding = wideEncoding(of: data) {
            throw PipelineError.invalidInput(wideEncodingDiagnostic(encoding, path: path))
        }
    }

    /// The UTF-8 text of `data`; throws `PipelineError.invalidInput` (exit 2) for UTF-16/UTF-32 text
    /// and for bytes that are not valid UTF-8.
    public static func utf8Text(_ data: Data, path: String) throws -> String {
        try refuseWide(data, path: path)
        guard let text = String(data: data, encoding: .utf8) else {
            throw PipelineError.invalidInput(
                Diagnostic(
                    .error, at: SourceLocation(path: path, line: 1),
                    "the file is not valid UTF-8", fix: "Save it as UTF-8 and re-run"))
        }
        return text
    }
}
