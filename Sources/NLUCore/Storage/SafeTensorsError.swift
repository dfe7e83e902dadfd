import Foundation

/// Why a safetensors file could not be read or written: names the file, the tensor when one is at
/// fault, and what was expected.
///
///     do { _ = try SafeTensors(contentsOf: url) }
///     catch let error as SafeTensorsError { print(error) }
///     // model.safetensors: tensor 'bert.pooler.dense.bias': data_offsets [0, 12] hold 12 bytes, but F32 [768] needs 3072
public struct SafeTensorsError: Error, Equatable, CustomStringConvertible, LocalizedError {
    /// The kind of fault, for callers that branch on it.
    public enum Kind: String, Sendable, Equatable {
        /// The file cannot be opened, mapped or written.
        case io
        /// The file ends before its 8-byte header length or its header.
        case truncated
        /// The header is not a valid JSON object of the expected form.
        case header
        /// A tensor's dtype is not one of the supported ones.
        case dtype
        /// A tensor's shape, byte size or data offsets are inconsistent.
        case layout
        /// No tensor of that name in the file.
        case missingTensor
        /// The tensor cannot be converted to the requested element type.
        case conversion
        /// A tensor that must hold finite numbers holds a NaN or an infinity.
        case nonFinite
        /// The tensors or metadata given to the writer cannot be stored.
        case invalidArgument
    }

    /// The file at fault.
    public var file: URL
    /// The tensor at fault, when one is.
    public var tensor: String?
    public var kind: Kind
    /// What is wrong, and what was expected.
    public var reason: String

    public init(file: URL, tensor: String? = nil, kind: Kind, _ reason: String) {
        self.file = file
        self.tensor = tensor
        self.kind = kind
        self.reason = reason
    }

    public var description: String {
        let subject = tensor.map { "tensor '\($0)': " } ?? ""
        return "\(file.path): \(subject)\(reason)"
    }

    public var errorDescription: String? { description }
}
