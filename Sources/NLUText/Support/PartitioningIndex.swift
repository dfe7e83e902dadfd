extension RandomAccessCollection {
    /// The index of the first element for which `belongsToSecondPartition` is true, by binary search
    /// (`endIndex` when there is none). The collection must already be partitioned by the predicate:
    /// every element for which it is false comes before every element for which it is true (a
    /// lower bound in a sorted array: `offsets.partitioningIndex { $0 >= 42 }`). Inlinable, so that a caller in another
    /// module gets it specialized for its collection and predicate rather than the generic form (a phrase-table step
    /// of the built-ins runs it at every token).
    @inlinable
    public func partitioningIndex(where belongsToSecondPartition: (Element) throws -> Bool) rethrows -> Index {
        var low = startIndex
        var count = self.count
        while count > 0 {
            let half = count / 2
            let middle = index(low, offsetBy: half)
            if try belongsToSecondPartition(self[middle]) {
                count = half
            } else {
                low = index(after: middle)
                count -= half + 1
            }
        }
        return low
    }
}
