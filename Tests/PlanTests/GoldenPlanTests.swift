import Foundation
import Testing
import SportsTimeCore
@testable import SportsTimePlan

/// The whole plan stage on one real request, byte for byte. Re-record with `RECORD_GOLDENS=1`
/// (which also fails the run on purpose).
@Suite struct GoldenPlanTests {
    static let cases = ["golden-mlb-must-see-pair", "golden-northeast-winter"]

    @Test(arguments: cases)
    func planMatchesTheRecordedBytes(name: String) throws {
        let folder = RealData.fixtures.appendingPathComponent(name)
        let requestData = try Data(contentsOf: folder.appendingPathComponent("request.yaml"))
        let path = "fixtures/requests/\(try StrictYAML.decode(RequestFile.self, from: String(decoding: requestData, as: UTF8.self), path: name).id).yaml"
        let request = try RequestResolver.resolve(text: String(decoding: requestData, as: UTF8.self), path: path, catalog: RealData.shared)
        let plan = TripPlanner.plan(request, catalog: RealData.shared)
        let envelope = Envelope(kind: .tripPlan, producer: Producer(stage: "plan"),
                                inputs: [InputReference(path: path, sha256: ArtifactFiles.sha256(requestData))],
                                meta: ["request": request.id], records: [plan])
        let actual = try envelope.canonicalData()
        let expectedURL = folder.appendingPathComponent("expected.json")
        if ProcessInfo.processInfo.environment["RECORD_GOLDENS"] == "1" {
            try actual.write(to: expectedURL)
            Issue.record("recorded \(name)/expected.json; run again without RECORD_GOLDENS to check it")
            return
        }
        let expected = try Data(contentsOf: expectedURL)
        if actual != expected {
            let actualURL = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-actual.json")
            try actual.write(to: actualURL)
            Issue.record("plan differs from \(name)/expected.json:\n\(diff(expectedURL, actualURL))\nRe-record with RECORD_GOLDENS=1 if the change is intended.")
        }
    }

    func diff(_ a: URL, _ b: URL) -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["git", "diff", "--no-index", "--word-diff", a.path, b.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try? process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data.prefix(8000), as: UTF8.self)
    }
}
