import Foundation
import Testing

@testable import SportsTimeNormalize

/// Putting sorted games in place by swapping along the permutation's cycles (`permute(by:)`) gives what
/// picking them out by the sorted indices gives.
@Suite struct PermuteTests {
    @Test func permutingEqualsPickingByIndex() {
        var generator = SystemRandomNumberGenerator()
        for count in [0, 1, 2, 3, 7, 64, 500] {
            for _ in 0..<20 {
                // Strings, so that a lost or doubled element would also show as a leak or a crash.
                let original = (0..<count).map { "element \($0) " + String(repeating: "x", count: $0 % 40) }
                let order = Array(0..<count).shuffled(using: &generator)
                var permuted = original
                permuted.withUnsafeMutableBufferPointer { $0.permute(by: order) }
                #expect(permuted == order.map { original[$0] }, "count \(count), order \(order)")
            }
        }
    }

    @Test func sortedIndicesThenPermutingEqualsSorting() {
        var generator = SystemRandomNumberGenerator()
        let ids = (0..<300).map { _ in "g-\(Int.random(in: 0..<100, using: &generator))" }
        var games = ids
        let byId = games.indices.sorted { games[$0] < games[$1] }
        games.withUnsafeMutableBufferPointer { $0.permute(by: byId) }
        #expect(games == ids.sorted())
    }
}
