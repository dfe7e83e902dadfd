#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// The memory behind one or more ``Tensor`` values: either a buffer the storage owns, or a
/// read-only region of a memory-mapped file kept alive by `owner`.
///
/// Tensors share a storage for views (reshape, slices); writing through a tensor whose storage
/// is shared or read-only copies it first (copy-on-write), so tensors keep value semantics.
public final class TensorStorage<Scalar: TensorScalar>: @unchecked Sendable {
    // @unchecked: the buffer is only written through a uniquely referenced, writable storage
    // (see Tensor's copy-on-write), so no two threads ever write or read-while-write it.
    public let baseAddress: UnsafeMutablePointer<Scalar>
    public let count: Int
    /// False for storage that points into a read-only memory map.
    public let isWritable: Bool
    private let owner: AnyObject?
    private let ownsMemory: Bool

    /// Allocates `count` elements, all set to `value`.
    public init(count: Int, repeating value: Scalar = .zero) {
        let capacity = max(count, 1)
        baseAddress = UnsafeMutablePointer<Scalar>.allocate(capacity: capacity)
        baseAddress.initialize(repeating: value, count: capacity)
        self.count = count
        isWritable = true
        owner = nil
        ownsMemory = true
    }

    /// Copies `elements` into a new buffer (a memory copy for arrays and buffers).
    public init<C: Collection>(copying elements: C) where C.Element == Scalar {
        let count = elements.count
        baseAddress = UnsafeMutablePointer<Scalar>.allocate(capacity: max(count, 1))
        self.count = count
        isWritable = true
        owner = nil
        ownsMemory = true
        if count == 0 {
            baseAddress.initialize(to: .zero)
        } else {
            _ = UnsafeMutableBufferPointer(start: baseAddress, count: count).initialize(from: elements)
        }
    }

    /// Allocates `count` elements without setting them, for outputs a kernel (e.g. BLAS with
    /// beta = 0) overwrites entirely before anyone reads them.
    init(uninitializedCount count: Int) {
        baseAddress = UnsafeMutablePointer<Scalar>.allocate(capacity: max(count, 1))
        self.count = count
        isWritable = true
        owner = nil
        ownsMemory = true
    }

    /// Copies `count` elements from `source` (a plain memory copy).
    public convenience init(copying source: UnsafePointer<Scalar>, count: Int) {
        self.init(copying: UnsafeBufferPointer(start: source, count: count))
    }

    /// Wraps memory owned by `owner` (e.g. a memory-mapped file) without copying.
    /// The memory must stay valid as long as `owner` lives.
    public init(borrowing address: UnsafePointer<Scalar>, count: Int, owner: AnyObject) {
        baseAddress = UnsafeMutablePointer(mutating: address)
        self.count = count
        isWritable = false
        self.owner = owner
        ownsMemory = false
    }

    /// Drops the pages of a storage that points into a memory-mapped file from the process's
    /// resident memory, for weights that were copied elsewhere (e.g. repacked for a kernel) and
    /// will not be read here again: resident memory then holds the copy only. If the storage is
    /// read again, the OS brings the pages back from the file. Does nothing for owned memory.
    ///
    ///     let packed = PackedMatrix(linearWeight: weight)
    ///     weight.storage.releaseResidentPages()
    public func releaseResidentPages() {
        guard owner is MemoryMappedFile, count > 0 else { return }
        // Only whole pages inside the storage: the partial pages at its ends may hold neighbours.
        let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))
        let start = Int(bitPattern: baseAddress), end = start + count * MemoryLayout<Scalar>.stride
        let first = (start + pageSize - 1) / pageSize * pageSize, last = end / pageSize * pageSize
        guard pageSize > 0, last > first, let address = UnsafeMutableRawPointer(bitPattern: first) else { return }
        // The mapping is read-only and private, so its pages are never dirty: dropping them loses nothing.
        _ = madvise(address, last - first, MADV_DONTNEED)
    }

    deinit {
        if ownsMemory {
            baseAddress.deinitialize(count: max(count, 1))
            baseAddress.deallocate()
        }
    }
}
