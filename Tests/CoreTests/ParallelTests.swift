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

    /// A result that counts how many of its kind are alive.
    final class Tracked: Sendable {
        let value: Int
        let live: Locked<Int>
        init(_ value: Int, _ live: Locked<Int>) {
            self.value = value; self.live = live
            live.withLock { $0 += 1 }
        }
        deinit { live.withLock { $0 -= 1 } }
    }

    /// The results are written in place by the tasks: each exactly once, in its element's place, none
    /// leaked or released twice, for empty, tiny, uneven and large arrays, also when later ones finish first.
    @Test func parallelMapsPlaceEveryResultOnceAndLeakNone() {
        let live = Locked(0)
        for count in [0, 1, 2, 3, 17, 40, 1001] {
            do {
                let values = Array(0..<count)
                let mapped = values.parallelMap { Tracked($0, live) }
                let inRuns = values.parallelMapInRuns(minimumRun: 4) { Tracked($0, live) }
                let slow = values.prefix(40).map { $0 }.parallelMap { [Self.slowFirst($0)].map { Tracked($0, live) } }
                #expect(mapped.map(\.value) == values)
                #expect(inRuns.map(\.value) == values)
                #expect(slow.map { $0[0].value } == values.prefix(40).map { $0 * $0 })
                #expect(live.current == 2 * count + min(count, 40))
                #expect(
                    values.parallelMapInRuns(minimumRun: 4) { "\($0)-" + String(repeating: "x", count: $0 % 30) }
                        == values.map { "\($0)-" + String(repeating: "x", count: $0 % 30) })
            }
            #expect(live.current == 0, "\(count) elements: results leaked or released twice")
        }
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
