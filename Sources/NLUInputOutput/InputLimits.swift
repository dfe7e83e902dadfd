#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// A number from a user, a file or a request that is outside the range the library accepts. Every
/// integer that sizes a loop or an allocation is checked against its stated range before use, so
/// that 9223372036854775807 is a clear error instead of an overflow trap or a hang.
///
///     try InputLimits.check(hidden, in: 1...8192, name: "hiddenSize")
///     // hiddenSize must be between 1 and 8192, got 100000
public struct OutOfRangeError: Error, Equatable, CustomStringConvertible, LocalizedError {
    /// The option or field (`hiddenSize`, `config.layers`).
    public var name: String
    public var value: String
    public var expected: String
    /// The file the value came from, when it came from one.
    public var file: String?

    public init(name: String, value: String, expected: String, file: String? = nil) {
        self.name = name
        self.value = value
        self.expected = expected
        self.file = file
    }

    public var description: String {
        (file.map { "\($0): field " } ?? "") + "\(name) must be \(expected), got \(value)"
    }
    public var errorDescription: String? { description }
}

/// Range checks and the memory budget shared by every reader and option parser.
public enum InputLimits {
    /// Throws ``OutOfRangeError`` unless `range` contains `value`.
    public static func check(_ value: Int, in range: ClosedRange<Int>, name: String, file: String? = nil) throws {
        guard range.contains(value) else {
            throw OutOfRangeError(name: name, value: "\(value)", expected: "between \(range.lowerBound) and \(range.upperBound)", file: file)
        }
    }

    /// Throws ``OutOfRangeError`` unless `value` is finite and in `range`.
    public static func check(_ value: Double, in range: ClosedRange<Double>, name: String, file: String? = nil) throws {
        guard value.isFinite, range.contains(value) else {
            throw OutOfRangeError(name: name, value: "\(value)", expected: "between \(range.lowerBound) and \(range.upperBound)", file: file)
        }
    }

    /// The machine's physical memory in bytes.
    public static var physicalMemory: Int {
        let pages = sysconf(Int32(_SC_PHYS_PAGES)), pageSize = sysconf(Int32(_SC_PAGESIZE))
        guard pages > 0, pageSize > 0 else { return Int.max }
        return pages.multipliedReportingOverflow(by: pageSize).overflow ? Int.max : pages * pageSize
    }

    /// The product of `factors` (sizes from options or files), or nil when it overflows `Int`.
    public static func product(_ factors: [Int]) -> Int? {
        var result = 1
        for factor in factors {
            guard factor >= 0 else { return nil }
            let (next, overflow) = result.multipliedReportingOverflow(by: factor)
            if overflow { return nil }
            result = next
        }
        return result
    }

    /// Checks that `elements` values of `bytesPerElement` bytes (computed from sizes a user chose) fit
    /// in half of the physical memory, before anything is allocated.
    /// - Throws: ``OutOfRangeError`` naming `what` and the sizes in bytes.
    public static func checkMemory(elements: Int?, bytesPerElement: Int = 4, what: String) throws {
        let budget = physicalMemory / 2
        guard let elements, let bytes = product([elements, bytesPerElement]), bytes <= budget else {
            let shown = elements.flatMap { product([$0, bytesPerElement]) }.map { "\($0 >> 20) MiB" } ?? "more than \(Int.max >> 20) MiB"
            throw OutOfRangeError(name: what, value: shown, expected: "at most \(budget >> 20) MiB (half of this machine's memory)")
        }
    }
}
