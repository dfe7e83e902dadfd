/// Picks the `k` best of `n` scores without sorting them all: a bounded min-heap whose root is the
/// worst kept entry, O(n log k). "Better" is the higher score, then the lower row (rows are in id
/// order, so ties go to the smaller id, as a stable sort of the whole list would give).
public enum TopK {
    /// A row of the scored list and its score.
    public struct Entry: Sendable, Equatable {
        public var row: Int
        public var score: Float
    }

    @inline(__always)
    static func isBetter(_ a: Entry, than b: Entry) -> Bool {
        a.score != b.score ? a.score > b.score : a.row < b.row
    }

    /// The best `k` entries of `scores` (rows where `isAllowed` is true, when given), best first.
    public static func select(_ k: Int, from scores: UnsafeBufferPointer<Float>,
                              rowOffset: Int = 0, where isAllowed: ((Int) -> Bool)? = nil) -> [Entry] {
        guard k > 0 else { return [] }
        var heap: [Entry] = []
        heap.reserveCapacity(min(k, scores.count))
        for index in 0..<scores.count {
            let row = index + rowOffset
            if let isAllowed, !isAllowed(row) { continue }
            let entry = Entry(row: row, score: scores[index])
            if heap.count < k {
                heap.append(entry)
                siftUp(&heap, heap.count - 1)
            } else if isBetter(entry, than: heap[0]) {
                heap[0] = entry
                siftDown(&heap, 0)
            }
        }
        return heap.sorted { isBetter($0, than: $1) }
    }

    /// The best `k` of several best-first lists (each from a block of rows), best first.
    static func merge(_ lists: [[Entry]], k: Int) -> [Entry] {
        Array(lists.joined().sorted { isBetter($0, than: $1) }.prefix(k))
    }

    // The root is the worst entry: a parent is never better than its children.
    private static func siftUp(_ heap: inout [Entry], _ start: Int) {
        var child = start
        while child > 0 {
            let parent = (child - 1) / 2
            guard isBetter(heap[parent], than: heap[child]) else { return }
            heap.swapAt(parent, child)
            child = parent
        }
    }

    private static func siftDown(_ heap: inout [Entry], _ start: Int) {
        var parent = start
        while true {
            var worst = parent
            for child in [2 * parent + 1, 2 * parent + 2] where child < heap.count {
                if isBetter(heap[worst], than: heap[child]) { worst = child }
            }
            guard worst != parent else { return }
            heap.swapAt(parent, worst)
            parent = worst
        }
    }
}
