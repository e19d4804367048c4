import Foundation
import SportsTimeCore
import Testing

/// The project's parallel helpers: results in the elements' order whatever order the cores finish in.
@Suite struct ParallelTests {
    struct Failure: Error, Equatable { var index: Int }

    /// Elements whose work takes longer the earlier they come, so later ones finish first.
    static func slowFirst(_ index: Int) -> Int {
        Thread.sleep(forTimeInterval: Double(12 - index % 12) / 2000)
        return index * index
    }

    @Test func parallelMapKeepsTheElementsOrder() {
        let values = Array(0..<200)
        #expect(values.parallelMap { $0 * 3 } == values.map { $0 * 3 })
        #expect(values.parallelMapInRuns(minimumRun: 16) { $0 * 3 } == values.map { $0 * 3 })
    }

    @Test func forEachMappedInOrderHandsOverEveryResultInOrder() throws {
        let values = Array(0..<60)
        var handed: [Int] = []
        try values.forEachMappedInOrder(window: 4, Self.slowFirst) { handed.append($0) }
        #expect(handed == values.map { $0 * $0 })
    }

    @Test func noMoreThanTheWindowWaitsToBeHandedOver() throws {
        let started = Locked(0)
        var handed = 0
        var mostAhead = 0
        try Array(0..<80).forEachMappedInOrder(
            window: 3,
            { index in
                started.withLock { $0 += 1 }
                return Self.slowFirst(index)
            },
            consume: { _ in
                handed += 1
                // Started but not handed over (this one included): at most the window.
                mostAhead = max(mostAhead, started.current - handed + 1)
            })
        #expect(handed == 80)
        #expect(mostAhead <= 3)
    }

    @Test func aFailureStopsTheHandOverThereAndIsRethrown() {
        for failing in [0, 7, 39] {
            var handed: [Int] = []
            #expect(throws: Failure(index: failing)) {
                try Array(0..<40).forEachMappedInOrder(
                    window: 4,
                    { index in
                        if index == failing || index == failing + 5 { throw Failure(index: index) }
                        return Self.slowFirst(index)
                    },
                    consume: { handed.append($0) })
            }
            #expect(handed == (0..<failing).map { $0 * $0 })
        }
    }

    @Test func aFailureInTheHandOverIsRethrownAndNothingAfterIsHandedOver() {
        var handed: [Int] = []
        #expect(throws: Failure(index: 10)) {
            try Array(0..<30).forEachMappedInOrder(window: 2, Self.slowFirst) { value in
                if value == 100 { throw Failure(index: 10) }
                handed.append(value)
            }
        }
        #expect(handed == (0..<10).map { $0 * $0 })
    }

    @Test func oneElementOrNoneRunsOnTheCallingThread() throws {
        var handed: [Int] = []
        try [5].forEachMappedInOrder(window: 1, { $0 + 1 }) { handed.append($0) }
        try [Int]().forEachMappedInOrder(window: 1, { $0 + 1 }) { handed.append($0) }
        #expect(handed == [6])
    }
}
