import SportsTimeCore
import struct SportsTimeTestSupport.SplitMix64
import Testing

@Suite("Array.permute(to:)")
struct ArrayPermutationTests {
    /// For every permutation the element at `i` is the one that was at `order[i]`: what
    /// `order.map { original[$0] }` builds, in place.
    @Test func permuteEqualsBuildingTheArrayInThatOrder() {
        var generator = SplitMix64(seed: 42)
        for count in [0, 1, 2, 3, 7, 64, 1000] {
            for _ in 0..<20 {
                let original = (0..<count).map { "record \($0) " + String(repeating: "x", count: Int(generator.next() % 40)) }
                let order = Array(original.indices).shuffled(using: &generator)
                var permuted = original
                permuted.permute(to: order)
                #expect(permuted == order.map { original[$0] })
            }
        }
    }

    /// Sorting indices and permuting keeps records of equal keys in their order, like a stable sort.
    @Test func sortedIndicesThenPermuteIsAStableSort() {
        var generator = SplitMix64(seed: 7)
        let records = (0..<500).map { index in (key: Int(generator.next() % 20), index: index) }
        var permuted = records
        permuted.permute(to: records.indices.sorted { records[$0].key < records[$1].key })
        #expect(permuted.map(\.index) == records.sorted { ($0.key, $0.index) < ($1.key, $1.index) }.map(\.index))
    }
}
