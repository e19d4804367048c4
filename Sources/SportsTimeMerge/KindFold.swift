import SportsTimeCore

/// Folds every batch of one entity kind into the store's records of that kind.
///
/// Per record, in this order:
/// 1. `schemaVersion` newer than this build reads → *skippedIncompatible* (listed in the report);
/// 2. incremental mode only: `lastModified` below the high-water mark and not newer than the stored
///    record (so the store already reflects it) → *skippedBelowMark*;
/// 3. a stored record whose version is not lower (`MergeRules`) → *skippedOlder*;
/// 4. a bad value or an unresolved reference → *rejected* (written to `rejects.jsonl`);
/// 5. otherwise *applied*: inserted, or replacing the stored record.
/// Losing records that are valid still contribute what `absorb` takes (games: their source ids).
struct KindFold<Record: MergeableRecord> {
    let kind: EntityKind
    /// Every kind folded before this one, for references.
    let context: MergeStore
    let priorities: SourcePriorities
    /// The high-water mark of an earlier merge (incremental mode).
    let mark: Instant?
    private(set) var records: [String: Record]
    private(set) var counts: MergeEntityCounts
    private(set) var rejects: [Reject] = []
    private(set) var incompatible: [MergeIncompatibleRecord] = []
    /// The newest `lastModified` among the records read (and the earlier mark).
    private(set) var highWater: Instant?
    /// Where each record applied in this run came from, for a refusal after the fold.
    private var appliedThisRun: [String: (file: String, line: Int?, inserted: Bool)] = [:]

    init(kind: EntityKind, records: [String: Record], context: MergeStore, priorities: SourcePriorities, mark: Instant?) {
        self.kind = kind; self.records = records; self.context = context; self.priorities = priorities; self.mark = mark
        self.counts = MergeEntityCounts(entity: kind.rawValue)
        self.highWater = mark
    }

    mutating func fold(_ batches: [RecordBatch<Record>]) {
        for batch in batches.sorted(by: { MergeRules.folds($0.origin, before: $1.origin) }) {
            fold(batch)
        }
        refuseUnresolvedSelfReferences()
    }

    private mutating func fold(_ batch: RecordBatch<Record>) {
        let supported = Record.artifactKind.currentVersion
        for stub in batch.unreadable.sorted(by: { ($0.id, $0.schemaVersion) < ($1.id, $1.schemaVersion) }) {
            counts.read += 1
            counts.skippedIncompatible += 1
            incompatible.append(
                MergeIncompatibleRecord(
                    entity: kind.rawValue, recordId: stub.id, source: batch.origin.source, file: batch.origin.path,
                    schemaVersion: stub.schemaVersion, supportedVersion: supported))
        }
        let order = batch.records.indices.sorted { a, b in
            let (x, y) = (batch.records[a].id, batch.records[b].id)
            return x != y ? x < y : a < b
        }
        for index in order {
            let record = batch.records[index]
            counts.read += 1
            highWater = max(highWater ?? record.lastModified, record.lastModified)

            if record.schemaVersion > supported {
                counts.skippedIncompatible += 1
                incompatible.append(
                    MergeIncompatibleRecord(
                        entity: kind.rawValue, recordId: record.id, source: batch.origin.source, file: batch.origin.path,
                        schemaVersion: record.schemaVersion, supportedVersion: supported))
                continue
            }
            let existing = records[record.id]
            let wins = existing.map { priorities.version(of: record) > priorities.version(of: $0) } ?? true
            if let mark, record.lastModified < mark, !wins {
                counts.skippedBelowMark += 1
                absorbIfValid(record, from: batch)
                continue
            }
            if !wins {
                counts.skippedOlder += 1
                absorbIfValid(record, from: batch)
                continue
            }
            switch check(record, from: batch) {
            case .failure(let refusal):
                counts.rejected += 1
                rejects.append(reject(record, from: batch, index: index, reason: refusal.reason))
            case .success(let valid):
                records[record.id] = valid.merged(replacing: existing)
                counts.applied += 1
                if existing == nil { counts.inserted += 1 } else { counts.replaced += 1 }
                appliedThisRun[record.id] = (batch.origin.path, batch.firstRecordLine.map { $0 + index }, existing == nil)
            }
        }
    }

    /// A record's own checks plus, for source batches, that it names its batch's source.
    private func check(_ record: Record, from batch: RecordBatch<Record>) -> Result<Record, Refusal> {
        if batch.origin.source != MergeRules.referenceSource, record.source != batch.origin.source {
            return .failure(
                Refusal(
                    "\(kind.rawValue) record '\(record.id)' names source '\(record.source)' but its batch is from '\(batch.origin.source)'")
            )
        }
        return record.validated(against: context)
    }

    private mutating func absorbIfValid(_ record: Record, from batch: RecordBatch<Record>) {
        guard var stored = records[record.id], record.contributes(to: stored),
            case .success(let valid) = check(record, from: batch)
        else { return }
        let before = stored
        stored.absorb(valid)
        if stored != before { records[record.id] = stored }
    }

    private func reject(_ record: Record, from batch: RecordBatch<Record>, index: Int, reason: String) -> Reject {
        Reject(
            file: batch.origin.path, line: batch.firstRecordLine.map { $0 + index }, reason: reason,
            raw: try? CanonicalJSON.compact(record), recordId: record.id)
    }

    /// Refuses records whose references to their own kind do not resolve once the kind is folded.
    private mutating func refuseUnresolvedSelfReferences() {
        let refused = Record.unresolvedSelfReferences(in: records)
        for id in refused.keys.sorted() {
            let record = records.removeValue(forKey: id)
            counts.rejected += 1
            if let applied = appliedThisRun[id] {
                counts.applied -= 1
                if applied.inserted { counts.inserted -= 1 } else { counts.replaced -= 1 }
                rejects.append(
                    Reject(
                        file: applied.file, line: applied.line, reason: refused[id]!,
                        raw: record.flatMap { try? CanonicalJSON.compact($0) }, recordId: id))
            } else {
                // Held over from the earlier merge: it was read then, so count it as read now.
                counts.read += 1
                rejects.append(Reject(file: "(previous merge)", line: nil, reason: refused[id]!, recordId: id))
            }
        }
    }
}
