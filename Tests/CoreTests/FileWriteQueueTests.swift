import Foundation
import SportsTimeCore
import Testing

/// Writes handed to the background queue: every file lands with its bytes, unchanged files are not
/// counted as changed, and of several failures the one whose path sorts first is reported, after all writes.
@Suite struct FileWriteQueueTests {
    private func scratch() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("write-queue-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    @Test func everyFileIsWrittenAndChangesAreNumbered() throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        // File 3 already holds its bytes: written again, it does not change.
        try Data("three\n".utf8).write(to: folder.appendingPathComponent("f3.txt"))
        let queue = FileWriteQueue(maxPending: 2)
        var numbers: [Int] = []
        for index in 0..<40 {
            let text = index == 3 ? "three\n" : String(repeating: "line \(index)\n", count: 1 + index * 50)
            numbers.append(queue.write(Data(text.utf8), to: folder.appendingPathComponent("f\(index).txt")))
        }
        let changed = try queue.finish()
        #expect(numbers == Array(0..<40))
        #expect(changed == Set(0..<40).subtracting([3]))
        for index in 0..<40 {
            let expected = index == 3 ? "three\n" : String(repeating: "line \(index)\n", count: 1 + index * 50)
            let written = try String(contentsOf: folder.appendingPathComponent("f\(index).txt"), encoding: .utf8)
            #expect(written == expected)
        }
        // No temporary file is left beside them.
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(names.allSatisfy { !$0.hasSuffix(".tmp") })
    }

    @Test func theFirstFailureByPathIsReportedAfterEveryWrite() throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        // A file where a folder should be: writes under it fail.
        try Data("not a folder".utf8).write(to: folder.appendingPathComponent("blocked"))
        let queue = FileWriteQueue(maxPending: 3)
        for index in 0..<12 {
            let target =
                index == 5 || index == 9
                ? folder.appendingPathComponent("blocked/f\(index).txt") : folder.appendingPathComponent("f\(index).txt")
            queue.write(Data("\(index)\n".utf8), to: target)
        }
        do {
            _ = try queue.finish()
            Issue.record("expected a failure")
        } catch let error as PipelineError {
            #expect(error.diagnostics.first?.location?.path.hasSuffix("blocked/f5.txt") == true, "\(error)")
        }
        for index in 0..<12 where index != 5 && index != 9 {
            #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("f\(index).txt").path))
        }
    }

    /// Files handed over from every Dispatch worker at once, with room for one: the queue's own threads
    /// write them, so the waiting workers do not stall it.
    @Test func workersWaitingForRoomDoNotStallTheQueue() throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let queue = FileWriteQueue(maxPending: 1, threads: 1)
        let numbers = Array(0..<64).parallelMap { index in
            queue.write(Data("\(index)\n".utf8), to: folder.appendingPathComponent("f\(index).txt"))
        }
        #expect(Set(numbers) == Set(0..<64))
        #expect(try queue.finish() == Set(0..<64))
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(names.count == 64)
    }

    @Test func aQueueGivenNothingFinishesAtOnce() throws {
        #expect(try FileWriteQueue().finish().isEmpty)
    }
}
