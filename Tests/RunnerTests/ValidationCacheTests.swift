import Foundation
import SportsTimeCore
import Testing
@testable import SportsTimeRunner

/// A staged file whose bytes validated cleanly before, under the same rules and schemas, is not
/// validated again; a changed schema, a problem, or other bytes always are.
@Suite struct ValidationCacheTests {
    /// A repository with the real schemas and one sports envelope staged at `staged/sports.json`.
    func repository() throws -> (TestRepository, ParallelValidation.Item) {
        let repo = try TestRepository()
        try repo.spec("stages: {}\n")
        let envelope = Envelope(kind: .sports, producer: Producer(stage: "test"), records: BuiltInSport.allCases.map(\.sport))
        try FileManager.default.createDirectory(at: repo.url("staged"), withIntermediateDirectories: true)
        try envelope.canonicalData().write(to: repo.url("staged/sports.json"))
        return (repo, ParallelValidation.Item(file: repo.url("staged/sports.json").path, published: "out/merge/sports.json"))
    }

    func check(_ item: ParallelValidation.Item, root: URL) throws -> (ParallelValidation.Checked, ValidationCache) {
        let store = SchemaStore(root: root)
        let validator = ArtifactValidator(stage: "merge") { try store.schema(for: $0) }
        let checked = try #require(ParallelValidation.validate([item], with: validator, cache: store.validated).first ?? nil)
        return (checked, store.validated)
    }

    @Test func aCleanFileIsRememberedAndItsCountComesBackWithoutAnotherValidation() throws {
        let (repo, item) = try repository()
        let (first, cache) = try check(item, root: repo.root)
        #expect(first.validated.problems.isEmpty && first.validated.records == BuiltInSport.allCases.count)
        #expect(first.validated.kind == .sports)
        cache.save()
        #expect(first.count == BuiltInSport.allCases.count)
        let count = BuiltInSport.allCases.count
        #expect(repo.read(".pipeline/cache/validated.tsv")?.contains("j:\(first.hash)\t\(count)\tsportstime.sports\t\(count)\n") == true)

        // A remembered entry is what the next run answers with: counts no validation or scan would give
        // prove it (the record lines too are taken from the entry, not counted again).
        let key = try #require(ValidationCache.key(hash: first.hash, path: item.published))
        cache.remember(ValidationCache.Entry(records: 999, kind: .sports, recordLines: 998), for: key)
        cache.save()
        let (again, _) = try check(item, root: repo.root)
        #expect(again.validated.records == 999 && again.count == 998 && again.hash == first.hash)
    }

    @Test func aChangedSchemaOrFileIsValidatedAgain() throws {
        let (repo, item) = try repository()
        let (first, cache) = try check(item, root: repo.root)
        cache.remember(
            ValidationCache.Entry(records: 999, kind: .sports, recordLines: 999),
            for: try #require(ValidationCache.key(hash: first.hash, path: item.published)))
        cache.save()

        // Another schema: the cache's context no longer matches, and the file is checked against the new one.
        let schema = repo.url("pipeline/schemas/sportstime.sports.schema.json")
        let text = try String(contentsOf: schema, encoding: .utf8)
        try Data(
            text.replacingOccurrences(
                of: "\"required\": [", with: "\"required\": [\"nickname\", ", options: [], range: text.range(of: "\"required\": [")
            ).utf8
        )
        .write(to: schema)
        let (strict, strictCache) = try check(item, root: repo.root)
        #expect(!strict.validated.problems.isEmpty)
        #expect(strictCache.entry(for: try #require(ValidationCache.key(hash: first.hash, path: item.published))) == nil)

        // Other bytes: a new hash, validated (and refused) whatever the cache holds.
        try Data("{\"kind\": \"sportstime.sports\"}\n".utf8).write(to: URL(fileURLWithPath: item.file))
        let (broken, _) = try check(item, root: repo.root)
        #expect(broken.hash != first.hash && !broken.validated.problems.isEmpty)
    }
}
