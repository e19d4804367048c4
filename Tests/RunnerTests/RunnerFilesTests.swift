import Foundation
import SportsTimeTestSupport
import Testing
@testable import SportsTimeRunner
import SportsTimeCore
#if canImport(Glibc)
    import Glibc
#endif

/// The runner's own files and the paths it reads (issue 45): caches under `.pipeline/` are never read
/// through a link, paths with NUL or other control characters are refused where they are read, and the
/// spec, the lock, the journal and the caches are sized by `fstat` before a byte is read. Each case runs
/// the built `sportstime` with a deadline, since on a build without these checks some of them read
/// without end, block or crash.
@Suite(.serialized) struct RunnerFilesTests {
    let spec = """
        stages:
          copy:
            cmd: [/bin/sh, -c, 'mkdir -p "$1" && cat fixtures/in/*.txt > "$1/all.txt"', sh, "${out}"]
            deps: [fixtures/in]
            outs: [out/copy]

        """

    /// A repository whose one stage ran, with a file outside it (`victim`, last read in 2000).
    func ranRepository() throws -> (TestRepository, victim: URL) {
        let repo = try TestRepository()
        try repo.spec(spec)
        try repo.write("fixtures/in/a.txt", "a\n")
        try repo.write("fixtures/in/b.txt", "b\n")
        #expect(repo.run().code == 0)
        let victim = repo.root.deletingLastPathComponent().appendingPathComponent("victim-\(UUID().uuidString).txt")
        try Data("outside\n".utf8).write(to: victim)
        try Self.setAccessTime(of: victim, to: 946_684_800)
        return (repo, victim)
    }

    static func setAccessTime(of url: URL, to seconds: Int) throws {
        // The access time set, the modification time left (UTIME_OMIT).
        var times = [timespec(tv_sec: seconds, tv_nsec: 0), timespec(tv_sec: 0, tv_nsec: (1 << 30) - 2)]
        guard utimensat(AT_FDCWD, url.path, &times, 0) == 0 else { throw TestFailure("cannot set the access time of \(url.path)") }
    }

    /// Seconds since 1970 of the last read of `url` (the file system updates it: its mtime is later).
    static func accessTime(of url: URL) -> Int {
        var info = stat()
        return stat(url.path, &info) == 0 ? Int(info.st_atim.tv_sec) : -1
    }

    /// Runs the built `sportstime ARGS` in `repo`; killed, and the test failed, after `seconds`.
    static func sportstime(_ arguments: [String], in repo: TestRepository, seconds: Double = 30) throws -> ProcessResult {
        let running = try TestProcess.start(try TestRepository.runnerExecutable(), arguments, in: repo.root)
        let deadline = Date().addingTimeInterval(seconds)
        while running.process.isRunning && Date() < deadline { usleep(5000) }
        if running.process.isRunning {
            running.signal(SIGKILL)
            _ = try running.wait()
            throw TestFailure("sportstime \(arguments.joined(separator: " ")) still ran after \(seconds) s")
        }
        return try running.wait()
    }

    func replaceWithSparseFile(_ repo: TestRepository, _ path: String, bytes: UInt64) throws {
        try? repo.remove(path)
        try repo.write(path, "")
        let handle = try FileHandle(forWritingTo: repo.url(path))
        try handle.truncate(atOffset: bytes)
        try handle.close()
    }

    // MARK: links

    @Test func aCacheListingLinkedOutsideIsNotReadAndIsRebuilt() throws {
        let (repo, victim) = try ranRepository()
        let listings = try FileManager.default.contentsOfDirectory(atPath: repo.url(".pipeline/cache/listings").path)
        try #require(!listings.isEmpty, "the run kept no folder listing")
        for name in listings {
            try repo.remove(".pipeline/cache/listings/" + name)
            try FileManager.default.createSymbolicLink(
                atPath: repo.url(".pipeline/cache/listings/" + name).path, withDestinationPath: victim.path)
        }
        try repo.write("fixtures/in/a.txt", "a2\n")
        // `status` names the changed file from the stored listing of the folder: here a stale cache.
        let status = try Self.sportstime(["status"], in: repo)
        #expect(status.code == 1, "\(status.stderr)")
        let run = try Self.sportstime(["run"], in: repo)
        #expect(run.code == 0, "\(run.stderr)")
        #expect(Self.accessTime(of: victim) == 946_684_800, "the linked listing's target outside the repository was read")
        for name in try FileManager.default.contentsOfDirectory(atPath: repo.url(".pipeline/cache/listings").path) {
            #expect(!RepositoryConfinement.isLink(repo.url(".pipeline/cache/listings/" + name).path), "\(name) is still a link")
        }
        #expect(try String(contentsOf: victim, encoding: .utf8) == "outside\n")
    }

    @Test func theValidationCacheLinkedOutsideIsRefusedUnread() throws {
        let (repo, victim) = try ranRepository()
        try? repo.remove(".pipeline/cache/validated.tsv")
        try FileManager.default.createSymbolicLink(atPath: repo.url(".pipeline/cache/validated.tsv").path, withDestinationPath: victim.path)
        let run = try Self.sportstime(["run", "--force"], in: repo)
        #expect(run.code == 2)
        #expect(
            run.stderr.contains(
                ".pipeline/cache/validated.tsv: error: cannot follow the symbolic link: it leads outside the repository."),
            "\(run.stderr)")
        #expect(Self.accessTime(of: victim) == 946_684_800, "the linked cache's target outside the repository was read")
    }

    @Test func aStageThatWritesALinkIsNotValidatedThroughItNorPublished() throws {
        let (repo, victim) = try ranRepository()
        let out = repo.snapshot("out")
        let linking = spec.replacingOccurrences(of: #"cat fixtures/in/*.txt > "$1/all.txt""#, with: #"ln -s "$2" "$1/all.json""#)
            .replacingOccurrences(of: #"sh, "${out}"]"#, with: #"sh, "${out}", "\#(victim.path)"]"#)
        #expect(linking.contains("ln -s") && linking.contains(victim.path))
        try repo.spec(linking)
        let run = try Self.sportstime(["run"], in: repo)
        #expect(run.code == 1)
        #expect(
            run.stderr.contains(
                "copy: error: the stage wrote a symbolic link at .pipeline/staging/copy/out/copy/all.json; outputs were not published."),
            "\(run.stderr)")
        #expect(Self.accessTime(of: victim) == 946_684_800, "the linked output's target outside the repository was read")
        #expect(repo.snapshot("out") == out)
    }

    // MARK: control characters

    @Test(arguments: ["status", "run"])
    func aNULInAnOutIsRefusedAtItsLine(_ command: String) throws {
        let repo = try TestRepository()
        try repo.spec(spec.replacingOccurrences(of: "outs: [out/copy]", with: #"outs: ["out/copy\0x"]"#))
        try repo.write("fixtures/in/a.txt", "a\n")
        let result = try Self.sportstime([command], in: repo)
        #expect(result.code == 2)
        #expect(
            result.stderr.contains(
                #"pipeline/pipeline.yaml:5:12: error: out 'out/copy\u{0}x' contains the control character U+0000."#),
            "\(result.stderr)")
        #expect(!repo.exists("out"))
    }

    @Test func aNULInALockedOutIsRefusedAtItsLine() throws {
        let (repo, _) = try ranRepository()
        let out = repo.snapshot("out")
        let lock = try #require(repo.read("pipeline/pipeline.lock.json"))
        // Cut at the NUL, 'out/copy\0x' is out/copy: a run would remove it as an out no longer written.
        try repo.write("pipeline/pipeline.lock.json", lock.replacingOccurrences(of: #""out/copy":"#, with: #""out/copy\u0000x":"#))
        let run = try Self.sportstime(["run"], in: repo)
        #expect(run.code == 2)
        #expect(run.stderr.contains(#"out 'out/copy\u{0}x' contains the control character U+0000"#), "\(run.stderr)")
        #expect(run.stderr.contains("pipeline/pipeline.lock.json:"), "\(run.stderr)")
        #expect(repo.snapshot("out") == out)
    }

    @Test func aNULInAJournalIsRefusedBeforeAnythingMoves() throws {
        let (repo, _) = try ranRepository()
        let out = repo.snapshot("out")
        let lock = repo.read("pipeline/pipeline.lock.json")
        try repo.write(".pipeline/staging/copy/out/copy/all.txt", "new\n")
        let journal = Publisher.Journal(
            stage: "copy",
            moves: [
                Publisher.Move(
                    staged: ".pipeline/staging/copy/out/copy", target: "out/..\u{0}/x", backup: ".pipeline/backup/copy/out/copy", inode: 1)
            ],
            lock: lock ?? "")
        try repo.write(".pipeline/journal.json", String(decoding: try CanonicalJSON.encode(journal), as: UTF8.self))
        let run = try Self.sportstime(["run"], in: repo)
        #expect(run.code == 2)
        #expect(run.stderr.contains(#".pipeline/journal.json:"#) && run.stderr.contains("U+0000"), "\(run.stderr)")
        #expect(repo.snapshot("out") == out)
        #expect(repo.read("pipeline/pipeline.lock.json") == lock)
        #expect(repo.exists(".pipeline/journal.json"))
    }

    // MARK: sizes

    @Test func aHugeLockIsAnErrorNamingItNotAMissingLock() throws {
        let (repo, _) = try ranRepository()
        try replaceWithSparseFile(repo, "pipeline/pipeline.lock.json", bytes: 5 << 30)
        for command in ["status", "run"] {
            let result = try Self.sportstime([command], in: repo)
            #expect(result.code == 2, "\(command): \(result.stdout)\(result.stderr)")
            #expect(
                result.stderr.contains(
                    "pipeline/pipeline.lock.json: error: cannot read the lock: it is 5368709120 bytes, more than the limit of 16777216. "
                        + "Restore it (git checkout pipeline/pipeline.lock.json), or delete it to run every stage again."),
                "\(command): \(result.stderr)")
        }
    }

    @Test func aHugeSpecIsRefusedBeforeItIsRead() throws {
        let (repo, _) = try ranRepository()
        try replaceWithSparseFile(repo, "pipeline/pipeline.yaml", bytes: 3 << 30)
        let result = try Self.sportstime(["status"], in: repo)
        #expect(result.code == 2)
        #expect(
            result.stderr.contains("pipeline/pipeline.yaml:1: error: the YAML file is 3221225472 bytes, more than the limit of 4194304."),
            "\(result.stderr)")
    }

    @Test func aHugeJournalIsRefusedAndHugeCachesAreRebuilt() throws {
        let (repo, _) = try ranRepository()
        for cache in [".pipeline/cache/file-hashes.tsv", ValidationCache.path, StatSnapshot.path] {
            try replaceWithSparseFile(repo, cache, bytes: 5 << 30)
        }
        let status = try Self.sportstime(["status"], in: repo)
        #expect(status.code == 0, "\(status.stderr)")
        try replaceWithSparseFile(repo, ".pipeline/journal.json", bytes: 5 << 30)
        let run = try Self.sportstime(["run"], in: repo)
        #expect(run.code == 2)
        #expect(
            run.stderr.contains(
                ".pipeline/journal.json: error: cannot read the journal: it is 5368709120 bytes, more than the limit of 16777216."),
            "\(run.stderr)")
        try repo.remove(".pipeline/journal.json")
        #expect(try Self.sportstime(["run", "--force"], in: repo).code == 0)
        // The hash cache is written again (this stage writes no file the validation cache keeps).
        let size =
            (try? FileManager.default.attributesOfItem(atPath: repo.url(".pipeline/cache/file-hashes.tsv").path)[.size] as? Int) ?? -1
        #expect(size >= 0 && size < 1 << 20, "the hash cache was not rebuilt: \(size) bytes")
    }
}
