import Foundation
import SportsTimeCore
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The one way the project starts a program: what the child gets (arguments, folder, input,
/// descriptors, process group) and what comes back (output, errors, how it ended).
@Suite struct ChildProcessTests {
    let environment = ProcessInfo.processInfo.environment

    func shell(_ script: String, _ options: ChildProcess.Options? = nil) throws -> ChildProcess.Finished {
        try ChildProcess.run("/bin/sh", ["-c", script], options: options ?? ChildProcess.Options(environment: environment))
    }

    @Test func outputErrorsAndExitStatusComeBackApart() throws {
        let finished = try shell("echo out; echo err >&2; exit 3")
        #expect(finished.termination == .exited(3))
        #expect(String(decoding: finished.output, as: UTF8.self) == "out\n")
        #expect(String(decoding: finished.errors, as: UTF8.self) == "err\n")
    }

    @Test func aSignalThatKillsItIsReported() throws {
        #expect(try shell("kill -TERM $$").termination == .signalled(SIGTERM))
    }

    @Test func inputIsWrittenWhileBothOutputsAreRead() throws {
        // More than a pipe holds each way: the input is fed on its own thread while both outputs drain.
        let input = Data((0..<600_000).map { UInt8(truncatingIfNeeded: $0 % 251) })
        let finished = try ChildProcess.run(
            "/bin/sh", ["-c", "tee /dev/stderr"], options: ChildProcess.Options(environment: environment, input: input))
        #expect(finished.termination == .exited(0))
        #expect(finished.output == input)
        #expect(finished.errors == input)
    }

    @Test func withoutInputItReadsDevNull() throws {
        let finished = try shell("cat; echo done")
        #expect(String(decoding: finished.output, as: UTF8.self) == "done\n")
    }

    @Test func theEnvironmentAndFolderAreTheOnesGiven() throws {
        let options = ChildProcess.Options(environment: ["GREETING": "hello"], directory: "/")
        let finished = try ChildProcess.run("/bin/sh", ["-c", "echo \"$GREETING $(pwd)\"; echo \"${HOME:-none}\""], options: options)
        #expect(String(decoding: finished.output, as: UTF8.self) == "hello /\nnone\n")
    }

    @Test func aMissingProgramIsALaunchFailure() {
        #expect(throws: LaunchFailure.self) {
            try ChildProcess.run("/nonexistent/program", [], options: ChildProcess.Options(environment: environment))
        }
    }

    #if os(Linux)
        @Test func onlyTheChosenDescriptorIsInheritedAsThree() throws {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("child-process-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let chosen = open(folder.appendingPathComponent("three").path, O_WRONLY | O_CREAT, 0o644)
            let other = open(folder.appendingPathComponent("other").path, O_WRONLY | O_CREAT, 0o644)
            // A high number, not close-on-exec: only the close-all keeps it from the child.
            let high = fcntl(other, F_DUPFD, 200)
            defer { for fd in [chosen, other, high] { close(fd) } }
            let options = ChildProcess.Options(environment: environment, descriptor3: chosen)
            let finished = try ChildProcess.run(
                "/bin/sh", ["-c", "echo written >&3; if [ -e /proc/self/fd/\(high) ]; then echo open; else echo closed; fi"],
                options: options)
            #expect(String(decoding: finished.output, as: UTF8.self) == "closed\n")
            #expect(try String(contentsOf: folder.appendingPathComponent("three"), encoding: .utf8) == "written\n")
        }

        @Test func aProcessGroupOfItsOwnWhenAsked() throws {
            let script = "cut -d' ' -f5 /proc/$$/stat"
            let own = try ChildProcess.spawn(
                "/bin/sh", ["-c", script], options: ChildProcess.Options(environment: environment, ownProcessGroup: true))
            let (ownOutput, _) = own.readAll()
            #expect(own.reap() == .exited(0))
            #expect(String(decoding: ownOutput, as: UTF8.self) == "\(own.pid)\n")
            let shared = try shell(script)
            #expect(String(decoding: shared.output, as: UTF8.self) == "\(getpgrp())\n")
        }
    #endif

    @Test func linesArriveWithWhereTheyCameFrom() throws {
        let child = try ChildProcess.spawn(
            "/bin/sh", ["-c", "echo one; echo two >&2; printf three"], options: ChildProcess.Options(environment: environment))
        let lines = Locked<[String]>([])
        let readers = child.readLines { text, isError in lines.withLock { $0.append((isError ? "err " : "out ") + text) } }
        child.waitUntilEnded()
        #expect(child.reap() == .exited(0))
        readers.wait()
        #expect(lines.current.sorted() == ["err two", "out one", "out three"])
    }
}
