import Foundation

/// A safetensors file (the Hugging Face weights format), memory-mapped and fully validated.
///
/// The file is an 8-byte little-endian header length `N`, `N` bytes of JSON header (an object
/// mapping each tensor name to `dtype`, `shape` and `data_offsets`, plus an optional
/// `__metadata__` string→string object), then the byte buffer holding every tensor, row-major,
/// little-endian. Opening checks everything the format requires; reading an `F32` tensor is a
/// zero-copy view into the mapping, other dtypes are converted. Replacing the file (as
/// ``write(_:metadata:to:)`` does, by rename) is safe while it is mapped; truncating it in place
/// is not, as with any memory map.
///
///     let weights = try SafeTensors(contentsOf: modelDirectory.appendingPathComponent("model.safetensors"))
///     let embeddings = try weights.floatTensor("bert.embeddings.word_embeddings.weight")
///     try SafeTensors.write(["w": embeddings], metadata: ["format": "pt"], to: outputURL)
public struct SafeTensors: Sendable {
    /// The element types of the format (`F32`, `F16`, `BF16`, `F64`, `I64`, `I32`, `I16`, `I8`, `U8`, `BOOL`).
    public enum DType: String, Sendable, CaseIterable, Equatable {
        case F32, F16, BF16, F64, I64, I32, I16, I8, U8, BOOL

        /// Bytes per element.
        public var byteSize: Int {
            switch self {
            case .F64, .I64: return 8
            case .F32, .I32: return 4
            case .F16, .BF16, .I16: return 2
            case .I8, .U8, .BOOL: return 1
            }
        }
    }

    /// What the header says about one tensor.
    public struct TensorInfo: Sendable, Equatable {
        public var dtype: DType
        public var shape: [Int]
        /// The tensor's bytes, relative to the start of the byte buffer (the header's `data_offsets`).
        public var dataOffsets: Range<Int>
    }

    /// The largest header accepted (as the reference implementation: 100 MB).
    public static let maximumHeaderLength = 100_000_000

    /// The file this was read from.
    public let url: URL
    /// The tensor names, sorted.
    public let names: [String]
    /// The header's `__metadata__` (empty when absent).
    public let metadata: [String: String]
    private let entries: [String: TensorInfo]
    private let file: MemoryMappedFile
    /// Where the byte buffer starts in the file (8 + header length).
    private let bufferStart: Int

    /// Maps and validates the file at `url`.
    /// - Throws: ``SafeTensorsError`` naming the file and, where one is at fault, the tensor.
    public init(contentsOf url: URL) throws {
        let file = try MemoryMappedFile(url: url)
        guard file.count >= 8, let base = file.baseAddress else {
            throw SafeTensorsError(file: url, kind: .truncated,
                                   "the file has \(file.count) bytes, fewer than the 8-byte header length")
        }
        let headerLength = UInt64(littleEndian: base.loadUnaligned(as: UInt64.self))
        guard headerLength <= UInt64(Self.maximumHeaderLength) else {
            throw SafeTensorsError(file: url, kind: .header,
                                   "header length \(headerLength) exceeds the limit of \(Self.maximumHeaderLength) bytes")
        }
        guard headerLength <= UInt64(file.count - 8) else {
            throw SafeTensorsError(file: url, kind: .truncated,
                                   "header length \(headerLength) runs past the end of the file (\(file.count) bytes)")
        }
        let headerBytes = UnsafeRawBufferPointer(start: base + 8, count: Int(headerLength))
        let header = try SafeTensorsHeader(parsing: headerBytes, file: url)
        let bufferStart = 8 + Int(headerLength)
        try Self.validateLayout(header.tensors, bufferSize: file.count - bufferStart, file: url)

        self.url = url
        self.file = file
        self.bufferStart = bufferStart
        self.entries = header.tensors
        self.metadata = header.metadata
        self.names = header.tensors.keys.sorted()
    }

    /// The dtype, shape and offsets of tensor `name`, or nil when the file has no such tensor.
    public func info(_ name: String) -> TensorInfo? { entries[name] }

    /// Tensor `name` as `Float`: a zero-copy view of the mapping for `F32` (copied only if the
    /// file misaligns it), converted from the other dtypes (`BOOL` as 0/1).
    /// - Throws: ``SafeTensorsError`` when there is no such tensor.
    public func floatTensor(_ name: String) throws -> Tensor<Float> {
        let (info, bytes) = try lookup(name)
        let count = bytes.count / info.dtype.byteSize
        if info.dtype == .F32, count > 0, let start = bytes.baseAddress,
           Int(bitPattern: start) % MemoryLayout<Float>.alignment == 0 {
            let scalars = start.bindMemory(to: Float.self, capacity: count)
            return Tensor(storage: TensorStorage(borrowing: scalars, count: count, owner: file), shape: info.shape)
        }
        let storage = TensorStorage<Float>(count: count)
        let output = UnsafeMutableBufferPointer(start: storage.baseAddress, count: count)
        // One tight loop per dtype; the loads are unaligned because offsets need not be.
        switch info.dtype {
        case .F32: convert(bytes, into: output, as: Float.self) { $0 }
        case .F16: convert(bytes, into: output, as: UInt16.self) { HalfPrecision.float(fromFloat16Bits: $0) }
        case .BF16: convert(bytes, into: output, as: UInt16.self) { HalfPrecision.float(fromBFloat16Bits: $0) }
        case .F64: convert(bytes, into: output, as: Double.self) { Float($0) }
        case .I64: convert(bytes, into: output, as: Int64.self) { Float($0) }
        case .I32: convert(bytes, into: output, as: Int32.self) { Float($0) }
        case .I16: convert(bytes, into: output, as: Int16.self) { Float($0) }
        case .I8: convert(bytes, into: output, as: Int8.self) { Float($0) }
        case .U8: convert(bytes, into: output, as: UInt8.self) { Float($0) }
        case .BOOL: convert(bytes, into: output, as: UInt8.self) { $0 == 0 ? 0 : 1 }
        }
        return Tensor(storage: storage, shape: info.shape)
    }

    /// Tensor `name` as `Float` (``floatTensor(_:)``), refused when it holds a NaN or an infinity:
    /// one such weight makes every output of a model NaN, printed as `nan` in JSON that no reader
    /// accepts, so model loaders take their weights through here and name the file and the tensor.
    /// - Throws: ``SafeTensorsError`` of kind `.nonFinite` naming the first bad element.
    public func finiteFloatTensor(_ name: String) throws -> Tensor<Float> {
        let tensor = try floatTensor(name)
        if let (index, value) = tensor.firstNonFinite() {
            throw SafeTensorsError(file: url, tensor: name, kind: .nonFinite,
                                   "holds a non-finite value (\(value) at flat index \(index) of shape \(tensor.shape)); expected finite numbers "
                                   + "(a damaged file, or weights saved from a training run that diverged)")
        }
        return tensor
    }

    /// Tensor `name` as `Int32` (e.g. token ids or position ids), from any integer or `BOOL` dtype.
    /// - Throws: ``SafeTensorsError`` when there is no such tensor, it holds floats, or an `I64`
    ///   value does not fit in `Int32`.
    public func int32Tensor(_ name: String) throws -> Tensor<Int32> {
        let (info, bytes) = try lookup(name)
        let count = bytes.count / info.dtype.byteSize
        let storage = TensorStorage<Int32>(count: count)
        let output = UnsafeMutableBufferPointer(start: storage.baseAddress, count: count)
        switch info.dtype {
        case .I32: convert(bytes, into: output, as: Int32.self) { $0 }
        case .I16: convert(bytes, into: output, as: Int16.self) { Int32($0) }
        case .I8: convert(bytes, into: output, as: Int8.self) { Int32($0) }
        case .U8: convert(bytes, into: output, as: UInt8.self) { Int32($0) }
        case .BOOL: convert(bytes, into: output, as: UInt8.self) { $0 == 0 ? 0 : 1 }
        case .I64:
            for index in 0..<count {
                let value = Int64(littleEndian: bytes.loadUnaligned(fromByteOffset: index * 8, as: Int64.self))
                guard let narrowed = Int32(exactly: value) else {
                    throw SafeTensorsError(file: url, tensor: name, kind: .conversion,
                                           "element \(index) = \(value) does not fit in Int32")
                }
                output[index] = narrowed
            }
        case .F32, .F16, .BF16, .F64:
            throw SafeTensorsError(file: url, tensor: name, kind: .conversion,
                                   "holds \(info.dtype.rawValue) values, expected an integer dtype")
        }
        return Tensor(storage: storage, shape: info.shape)
    }

    private func lookup(_ name: String) throws -> (TensorInfo, UnsafeRawBufferPointer) {
        guard let info = entries[name] else {
            throw SafeTensorsError(file: url, tensor: name, kind: .missingTensor,
                                   "no such tensor (the file has \(names.count): \(names.prefix(5).joined(separator: ", "))\(names.count > 5 ? ", ..." : ""))")
        }
        let start = file.baseAddress.map { $0 + bufferStart + info.dataOffsets.lowerBound }
        return (info, UnsafeRawBufferPointer(start: start, count: info.dataOffsets.count))
    }

    // Little-endian hosts only (x86-64, arm64), so a native load is a little-endian load.
    private func convert<Stored, Output>(
        _ bytes: UnsafeRawBufferPointer, into output: UnsafeMutableBufferPointer<Output>,
        as stored: Stored.Type, _ transform: (Stored) -> Output
    ) {
        let stride = MemoryLayout<Stored>.size
        for index in 0..<output.count {
            output[index] = transform(bytes.loadUnaligned(fromByteOffset: index * stride, as: Stored.self))
        }
    }

    /// Checks every tensor's byte size against its shape and dtype, and that the tensors tile the
    /// byte buffer exactly: in bounds, contiguous, non-overlapping, covering it to the end.
    private static func validateLayout(_ tensors: [String: TensorInfo], bufferSize: Int, file: URL) throws {
        for (name, info) in tensors {
            var elements = 1
            for dimension in info.shape {
                guard dimension >= 0 else {
                    throw SafeTensorsError(file: file, tensor: name, kind: .layout, "negative dimension in shape \(info.shape)")
                }
                let (product, overflow) = elements.multipliedReportingOverflow(by: dimension)
                guard !overflow else {
                    throw SafeTensorsError(file: file, tensor: name, kind: .layout, "shape \(info.shape) has too many elements")
                }
                elements = product
            }
            let (byteCount, overflow) = elements.multipliedReportingOverflow(by: info.dtype.byteSize)
            guard !overflow else {
                throw SafeTensorsError(file: file, tensor: name, kind: .layout, "shape \(info.shape) has too many bytes")
            }
            let offsets = info.dataOffsets
            guard offsets.upperBound <= bufferSize else {
                throw SafeTensorsError(file: file, tensor: name, kind: .layout,
                    "data_offsets [\(offsets.lowerBound), \(offsets.upperBound)] run past the end of the \(bufferSize)-byte buffer")
            }
            guard offsets.count == byteCount else {
                throw SafeTensorsError(file: file, tensor: name, kind: .layout,
                    "data_offsets [\(offsets.lowerBound), \(offsets.upperBound)] hold \(offsets.count) bytes, but \(info.dtype.rawValue) \(info.shape) needs \(byteCount)")
            }
        }
        // Sorted by start (then end, so empty tensors come before a tensor at the same start).
        let ordered = tensors.sorted {
            ($0.value.dataOffsets.lowerBound, $0.value.dataOffsets.upperBound, $0.key)
                < ($1.value.dataOffsets.lowerBound, $1.value.dataOffsets.upperBound, $1.key)
        }
        var end = 0
        var previous: String?
        for (name, info) in ordered {
            let start = info.dataOffsets.lowerBound
            if start != end {
                let context = previous.map { "the previous tensor '\($0)' ends at byte \(end)" } ?? "the buffer starts at byte 0"
                let problem = start < end ? "overlaps: it starts at byte \(start) but" : "leaves a gap: it starts at byte \(start) but"
                throw SafeTensorsError(file: file, tensor: name, kind: .layout,
                                       "\(problem) \(context) (tensors must tile the buffer contiguously)")
            }
            end = info.dataOffsets.upperBound
            previous = name
        }
        guard end == bufferSize else {
            throw SafeTensorsError(file: file, tensor: previous, kind: .layout,
                "the tensors end at byte \(end) of the \(bufferSize)-byte buffer; the remaining \(bufferSize - end) bytes belong to no tensor")
        }
    }
}
