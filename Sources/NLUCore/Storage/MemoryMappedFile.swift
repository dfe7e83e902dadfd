#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// A whole file mapped read-only into memory, unmapped when the last reference goes away.
///
/// Tensors that borrow the mapping (``TensorStorage/init(borrowing:count:owner:)``) keep it alive,
/// so weights are read straight from the page cache without a copy.
///
///     let file = try MemoryMappedFile(url: weightsURL)
///     print(file.count)   // bytes
final class MemoryMappedFile: @unchecked Sendable {
    // @unchecked: the mapping is read-only (PROT_READ) and immutable after init.
    /// The first byte of the mapping; nil for an empty file (which cannot be mapped).
    let baseAddress: UnsafeRawPointer?
    /// The file's size in bytes.
    let count: Int

    /// Maps the file at `url`.
    /// - Throws: ``SafeTensorsError`` when the file cannot be opened, is not a regular file, or cannot be mapped.
    init(url: URL) throws {
        let path = url.path
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw SafeTensorsError(file: url, kind: .io, "cannot open the file: \(Self.systemError())")
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            throw SafeTensorsError(file: url, kind: .io, "cannot read the file's size: \(Self.systemError())")
        }
        guard (status.st_mode & S_IFMT) == S_IFREG else {
            throw SafeTensorsError(file: url, kind: .io, "not a regular file")
        }
        count = Int(status.st_size)
        if count == 0 {
            baseAddress = nil
            return
        }
        guard let address = mmap(nil, count, PROT_READ, MAP_PRIVATE, descriptor, 0),
              address != UnsafeMutableRawPointer(bitPattern: -1)  // MAP_FAILED
        else {
            throw SafeTensorsError(file: url, kind: .io, "cannot memory-map the file: \(Self.systemError())")
        }
        baseAddress = UnsafeRawPointer(address)
    }

    deinit {
        if let baseAddress { munmap(UnsafeMutableRawPointer(mutating: baseAddress), count) }
    }

    private static func systemError() -> String {
        String(cString: strerror(errno))
    }
}
