import Foundation

/// A unified line diff of two texts: Myers' O((N+M)·D) algorithm in linear space (the middle-snake
/// recursion), so the edit is minimal and the added and removed counts are the ones `git diff --numstat`
/// prints. Lines are split after each `\n` and compared with their terminator, so a last line that
/// gains or loses its newline is a change, as in git. Pure. `sportstime diff` shows text outputs with it,
/// and the tests' golden-file comparer (`SportsTimeTestSupport.Golden`) prints its mismatches with it.
public struct LineDiff: Sendable, Hashable {
    /// One line of a hunk.
    public enum Line: Sendable, Hashable {
        case context(String)
        case removed(String)
        case added(String)
    }

    /// A run of changes with up to `context` unchanged lines around it.
    public struct Hunk: Sendable, Hashable {
        /// 1-based first line and line count in the old and the new text (git's `@@ -a,b +c,d @@`).
        public var oldStart: Int
        public var oldCount: Int
        public var newStart: Int
        public var newCount: Int
        public var lines: [Line]

        /// `@@ -12,7 +12,8 @@` as git writes it (a count of 1 left out; an empty side starts one line earlier).
        public var header: String {
            func range(_ start: Int, _ count: Int) -> String {
                count == 1 ? "\(start)" : "\(count == 0 ? start - 1 : start),\(count)"
            }
            return "@@ -\(range(oldStart, oldCount)) +\(range(newStart, newCount)) @@"
        }
    }

    public var added: Int
    public var removed: Int
    public var hunks: [Hunk]
    /// Whether the old or the new text ends without a newline (shown as git does).
    public var oldLacksNewline: Bool
    public var newLacksNewline: Bool
    /// How many lines each text has.
    public var oldLineCount: Int
    public var newLineCount: Int

    /// The diff of `old` and `new` with `context` unchanged lines around each change.
    public static func compare(_ old: Data, _ new: Data, context: Int = 3) -> LineDiff {
        let a = lines(old)
        let b = lines(new)
        let ops = editScript(a, b)
        var hunks: [Hunk] = []
        var index = 0
        var addedCount = 0, removedCount = 0
        var oldBefore = 0, newBefore = 0
        while index < ops.count {
            guard let firstChange = ops[index...].firstIndex(where: { if case .keep = $0 { false } else { true } }) else { break }
            let start = max(index, firstChange - context)
            let stop = min(ops.count, lastChange(in: ops, from: firstChange, context: context) + 1 + context)
            // Where each side stands before the hunk, for a side with no lines in it.
            for op in ops[index..<start] {
                switch op {
                case .keep: oldBefore += 1; newBefore += 1
                case .delete: oldBefore += 1
                case .insert: newBefore += 1
                }
            }
            let hunk = Self.hunk(ops[start..<stop], a, b, oldBefore: oldBefore, newBefore: newBefore)
            for line in hunk.lines {
                if case .added = line { addedCount += 1 }
                if case .removed = line { removedCount += 1 }
            }
            hunks.append(hunk)
            oldBefore += hunk.oldCount
            newBefore += hunk.newCount
            index = stop
        }
        return LineDiff(
            added: addedCount, removed: removedCount, hunks: hunks,
            oldLacksNewline: !old.isEmpty && old.last != 0x0A, newLacksNewline: !new.isEmpty && new.last != 0x0A,
            oldLineCount: a.count, newLineCount: b.count)
    }

    /// One step of the edit script: a line kept (its old and new index), deleted (old) or inserted (new).
    private enum Op { case keep(Int, Int), delete(Int), insert(Int) }

    /// The edit script from `a` to `b`: runs of kept lines between changes.
    private static func editScript(_ a: [Substring], _ b: [Substring]) -> [Op] {
        // Lines become numbers so the search compares integers; equal means equal bytes, as in git.
        var numbers: [[UInt8]: Int] = [:]
        func number(_ line: Substring) -> Int {
            let bytes = Array(line.utf8)
            if let known = numbers[bytes] { return known }
            let next = numbers.count
            numbers[bytes] = next
            return next
        }
        let x = a.map(number)
        let y = b.map(number)
        var keepA = [Bool](repeating: false, count: x.count)
        var keepB = [Bool](repeating: false, count: y.count)
        Myers(a: x, b: y).match(0, x.count, 0, y.count, &keepA, &keepB)
        var ops: [Op] = []
        var i = 0, j = 0
        while i < x.count || j < y.count {
            if i < x.count && !keepA[i] {
                ops.append(.delete(i)); i += 1
            } else if j < y.count && !keepB[j] {
                ops.append(.insert(j)); j += 1
            } else {
                ops.append(.keep(i, j)); i += 1; j += 1
            }
        }
        return ops
    }

    /// The last change of the hunk that starts at `firstChange`: it extends over changes closer than
    /// 2 × context lines to the previous one.
    private static func lastChange(in ops: [Op], from firstChange: Int, context: Int) -> Int {
        var end = firstChange
        var lastChange = firstChange
        while end < ops.count {
            if case .keep = ops[end] {
                if end - lastChange > 2 * context { break }
            } else {
                lastChange = end
            }
            end += 1
        }
        return lastChange
    }

    /// The hunk of `ops`; `oldBefore` and `newBefore` are where each side stands before it.
    private static func hunk(_ ops: ArraySlice<Op>, _ a: [Substring], _ b: [Substring], oldBefore: Int, newBefore: Int) -> Hunk {
        var hunk = Hunk(oldStart: 0, oldCount: 0, newStart: 0, newCount: 0, lines: [])
        var oldFirst: Int?, newFirst: Int?
        for op in ops {
            switch op {
            case .keep(let p, let q):
                hunk.lines.append(.context(withoutTerminator(a[p])))
                oldFirst = oldFirst ?? p; newFirst = newFirst ?? q
                hunk.oldCount += 1; hunk.newCount += 1
            case .delete(let p):
                hunk.lines.append(.removed(withoutTerminator(a[p])))
                oldFirst = oldFirst ?? p
                hunk.oldCount += 1
            case .insert(let q):
                hunk.lines.append(.added(withoutTerminator(b[q])))
                newFirst = newFirst ?? q
                hunk.newCount += 1
            }
        }
        hunk.oldStart = (oldFirst ?? oldBefore) + 1
        hunk.newStart = (newFirst ?? newBefore) + 1
        return hunk
    }

    /// A line without its `\n` or `\r\n` (as bytes: Swift takes `\r\n` for one character).
    public static func withoutTerminator(_ line: Substring) -> String {
        var bytes = Array(line.utf8)
        if bytes.last == 0x0A { bytes.removeLast() }
        if bytes.last == 0x0D { bytes.removeLast() }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The lines of a text, each with its `\n` (the last one may lack it).
    public static func lines(_ data: Data) -> [Substring] {
        let text = String(decoding: data, as: UTF8.self)
        var result: [Substring] = []
        var start = text.startIndex
        var cursor = text.utf8.startIndex
        while let newline = text.utf8[cursor...].firstIndex(of: 0x0A) {
            let next = text.utf8.index(after: newline)
            result.append(text[start..<next])
            start = next
            cursor = next
        }
        if start < text.endIndex { result.append(text[start...]) }
        return result
    }
}

/// Myers' middle-snake recursion over two sequences of line numbers, marking the lines of a longest
/// common subsequence.
private struct Myers {
    let a: [Int]
    let b: [Int]

    func match(_ aLow: Int, _ aHigh: Int, _ bLow: Int, _ bHigh: Int, _ keepA: inout [Bool], _ keepB: inout [Bool]) {
        var aLow = aLow, aHigh = aHigh, bLow = bLow, bHigh = bHigh
        while aLow < aHigh && bLow < bHigh && a[aLow] == b[bLow] {
            keepA[aLow] = true; keepB[bLow] = true
            aLow += 1; bLow += 1
        }
        while aLow < aHigh && bLow < bHigh && a[aHigh - 1] == b[bHigh - 1] {
            keepA[aHigh - 1] = true; keepB[bHigh - 1] = true
            aHigh -= 1; bHigh -= 1
        }
        guard aLow < aHigh && bLow < bHigh else { return }
        guard let (x, y) = split(aLow, aHigh, bLow, bHigh) else { return }
        match(aLow, aLow + x, bLow, bLow + y, &keepA, &keepB)
        match(aLow + x, aHigh, bLow + y, bHigh, &keepA, &keepB)
    }

    /// Where a shortest edit path crosses its middle (relative to the low corner): the end of the forward
    /// path's snake where it meets the reverse path. Nil when the two parts share no line.
    private func split(_ aLow: Int, _ aHigh: Int, _ bLow: Int, _ bHigh: Int) -> (Int, Int)? {
        let n = aHigh - aLow, m = bHigh - bLow
        let maxD = (n + m + 1) / 2
        let offset = maxD
        let length = 2 * maxD + 2
        var forward = [Int](repeating: -1, count: length)
        var reverse = [Int](repeating: -1, count: length)
        forward[offset + 1] = 0
        reverse[offset + 1] = 0
        let delta = n - m
        let oddDelta = delta % 2 != 0
        var k1Start = 0, k1End = 0, k2Start = 0, k2End = 0
        for d in 0..<maxD {
            var k1 = -d + k1Start
            while k1 <= d - k1End {
                let index = offset + k1
                var x1 = (k1 == -d || (k1 != d && forward[index - 1] < forward[index + 1])) ? forward[index + 1] : forward[index - 1] + 1
                var y1 = x1 - k1
                while x1 < n && y1 < m && a[aLow + x1] == b[bLow + y1] { x1 += 1; y1 += 1 }
                forward[index] = x1
                if x1 > n {
                    k1End += 2
                } else if y1 > m {
                    k1Start += 2
                } else if oddDelta {
                    let other = offset + delta - k1
                    if other >= 0 && other < length && reverse[other] != -1 && x1 >= n - reverse[other] {
                        return (x1, y1)
                    }
                }
                k1 += 2
            }
            var k2 = -d + k2Start
            while k2 <= d - k2End {
                let index = offset + k2
                var x2 = (k2 == -d || (k2 != d && reverse[index - 1] < reverse[index + 1])) ? reverse[index + 1] : reverse[index - 1] + 1
                var y2 = x2 - k2
                while x2 < n && y2 < m && a[aHigh - x2 - 1] == b[bHigh - y2 - 1] { x2 += 1; y2 += 1 }
                reverse[index] = x2
                if x2 > n {
                    k2End += 2
                } else if y2 > m {
                    k2Start += 2
                } else if !oddDelta {
                    let other = offset + delta - k2
                    if other >= 0 && other < length && forward[other] != -1 {
                        let x1 = forward[other]
                        let y1 = x1 - (other - offset)
                        if x1 >= n - x2 { return (x1, y1) }
                    }
                }
                k2 += 2
            }
        }
        return nil
    }
}

extension LineDiff {
    /// The diff's lines: `@@ … @@` headers, then ` `, `-` and `+` lines (and git's
    /// `\ No newline at end of file` after a last line without one).
    public var unifiedLines: [String] {
        var lines: [String] = []
        let marker = "\\ No newline at end of file"
        for hunk in hunks {
            lines.append(hunk.header)
            var oldLine = hunk.oldStart - 1
            var newLine = hunk.newStart - 1
            for line in hunk.lines {
                switch line {
                case .context(let text):
                    lines.append(" " + text)
                    oldLine += 1
                    newLine += 1
                    if oldLacksNewline && oldLine == oldLineCount { lines.append(marker) }
                case .removed(let text):
                    lines.append("-" + text)
                    oldLine += 1
                    if oldLacksNewline && oldLine == oldLineCount { lines.append(marker) }
                case .added(let text):
                    lines.append("+" + text)
                    newLine += 1
                    if newLacksNewline && newLine == newLineCount { lines.append(marker) }
                }
            }
        }
        return lines
    }
}
