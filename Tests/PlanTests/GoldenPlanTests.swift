import Foundation
import SportsTimeTestSupport
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
        let path =
            "fixtures/requests/\(try StrictYAML.decode(RequestFile.self, from: String(decoding: requestData, as: UTF8.self), path: name).id).yaml"
        let request = try RequestResolver.resolve(text: String(decoding: requestData, as: UTF8.self), path: path, catalog: RealData.shared)
        let plan = TripPlanner.plan(request, catalog: RealData.shared)
        let envelope = Envelope(
            kind: .tripPlan, producer: Producer(stage: "plan"),
            inputs: [InputReference(path: path, sha256: ArtifactFiles.sha256(requestData))],
            meta: [.request: request.id], records: [plan])
        let actual = try envelope.canonicalData()
        try Golden.assertMatches(actual, expected: folder.appendingPathComponent("expected.json"), name: "\(name)/expected.json")
    }
}
