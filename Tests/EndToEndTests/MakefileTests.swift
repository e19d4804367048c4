import Foundation
import SportsTimeTestSupport
import Testing

/// The Makefile's own logic, with the build and the runner replaced by stand-ins (SWIFT=true, SPORTSTIME=a
/// script): `make status` with work pending succeeds with a hint instead of make's "Error 1", while an
/// invalid spec (exit 2) still fails the target; RUNFLAGS reaches `sportstime run`.
@Suite struct MakefileTests {
    static func make(_ arguments: [String], runnerExit: Int32) throws -> (Int32, String, String) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("makefile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let runner = folder.appendingPathComponent("sportstime")
        let log = folder.appendingPathComponent("argv")
        try Data(
            "#!/bin/sh\necho \"$@\" > '\(log.path)'\necho 'work pending: 1 to run, 0 waiting, 24 up to date.'\nexit \(runnerExit)\n".utf8
        ).write(to: runner)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: runner.path)
        let result = try TestProcess.run(
            URL(fileURLWithPath: "/usr/bin/env"),
            [
                "make", "--no-print-directory", "-C", BadInputTests.packageRoot.path, "SWIFT=true",
                "SPORTSTIME=\(runner.path)",
            ] + arguments)
        let argv = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        return (result.status, result.stdout + result.stderr, argv)
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/make"), "make is not installed"))
    func statusWithWorkPendingIsNoMakeError() throws {
        let (code, output, argv) = try Self.make(["status"], runnerExit: 1)
        #expect(code == 0, "\(output)")
        #expect(argv == "status\n")
        #expect(output.contains("Work is pending: run 'make' to bring out/ up to date"), "\(output)")
        #expect(!output.contains("Error"), "\(output)")
        let (invalid, invalidOutput, _) = try Self.make(["status"], runnerExit: 2)
        #expect(invalid != 0, "\(invalidOutput)")
        let (upToDate, upToDateOutput, _) = try Self.make(["status"], runnerExit: 0)
        #expect(upToDate == 0 && !upToDateOutput.contains("Work is pending"), "\(upToDateOutput)")
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/make"), "make is not installed"))
    func runFlagsReachTheRunner() throws {
        let (code, output, argv) = try Self.make(["RUNFLAGS=--force"], runnerExit: 0)
        #expect(code == 0, "\(output)")
        #expect(argv == "run --force\n")
    }
}
