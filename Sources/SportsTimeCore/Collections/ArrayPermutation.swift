extension Array {
    /// Puts the elements in `order`: afterwards `self[i]` is the element that was at `order[i]`. `order`
    /// must hold each index of the array once (a permutation, as `indices.sorted(by:)` gives).
    ///
    /// For large elements (records of a dozen strings), sorting indices and then applying the order this
    /// way moves each element about once, along the permutation's cycles, where sorting the elements
    /// themselves moves each of them some log₂(n) times; and unlike building a new array it copies
    /// nothing (no retain of any string the elements hold).
    public mutating func permute(to order: [Int]) {
        precondition(order.count == count, "a permutation of every index")
        var placed = [Bool](repeating: false, count: count)
        // Swapped through the buffer: its `swapAt` moves the two elements' bytes, where the array's
        // copies each element out and back (a retain and a release of every string it holds).
        withUnsafeMutableBufferPointer { elements in
            for start in elements.indices where !placed[start] {
                // Along the cycle start → order[start] → …: each swap puts one element in its place.
                var position = start
                while true {
                    placed[position] = true
                    let source = order[position]
                    if source == start { break }
                    precondition(!placed[source], "a permutation of every index")
                    elements.swapAt(position, source)
                    position = source
                }
            }
        }
    }
}
