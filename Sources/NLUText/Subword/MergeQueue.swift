/// The pending merges of one BPE word, lowest rank first and leftmost first among equal ranks: a binary
/// min-heap, as the Rust implementation's `BinaryHeap<Merge>` orders them. With it a word of n scalars
/// takes O(n log n) merges' work; scanning every adjacent pair for each merge took O(n²), and a 1 MB
/// run of digits (one byte-level word) did not finish.
struct MergeQueue {
    struct Merge {
        /// Where the left symbol of the pair started in the word (symbols keep their first index).
        var position: Int
        var rank: Int32
        /// The merged token's id.
        var id: Int32
    }

    private var heap: [Merge] = []

    init(capacity: Int) { heap.reserveCapacity(capacity) }

    private static func precedes(_ a: Merge, _ b: Merge) -> Bool {
        a.rank != b.rank ? a.rank < b.rank : a.position < b.position
    }

    mutating func push(_ merge: Merge) {
        heap.append(merge)
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard Self.precedes(heap[child], heap[parent]) else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    mutating func pop() -> Merge? {
        guard let last = heap.popLast() else { return nil }
        guard !heap.isEmpty else { return last }
        let top = heap[0]
        heap[0] = last
        var parent = 0
        while true {
            let left = 2 * parent + 1, right = left + 1
            var first = parent
            if left < heap.count, Self.precedes(heap[left], heap[first]) { first = left }
            if right < heap.count, Self.precedes(heap[right], heap[first]) { first = right }
            guard first != parent else { break }
            heap.swapAt(parent, first)
            parent = first
        }
        return top
    }
}
