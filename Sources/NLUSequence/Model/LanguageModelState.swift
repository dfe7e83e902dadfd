import Foundation
import NLUCore

/// The recurrent state a ``LanguageModel`` carries from one word to the next (the `MLState`):
/// `[layers, components, hidden]`, zeros at the start of a sequence.
///
///     let state = model.makeState()
///     _ = try model.prediction(from: DictionaryFeatureProvider(["previousWord": .string("the")]), using: state)
///     state.reset()   // a new sequence
public final class LanguageModelState: ModelState, @unchecked Sendable {
    // @unchecked: every access to `value` goes through `lock`.
    private let lock = NSLock()
    private var value: Tensor<Float>
    private let shape: [Int]

    init(shape: [Int]) {
        self.shape = shape
        self.value = Tensor(shape: shape)
    }

    /// The state tensor, `[layers, components, hidden]`.
    public var tensor: Tensor<Float> {
        lock.lock(); defer { lock.unlock() }
        return value
    }

    /// Replaces the state (e.g. with a `stateOut` saved earlier).
    /// - Throws: ``LanguageModelError/invalidState(expected:actual:)`` for the wrong shape.
    public func set(_ tensor: Tensor<Float>) throws {
        guard tensor.shape == shape else { throw LanguageModelError.invalidState(expected: shape, actual: tensor.shape) }
        lock.lock(); defer { lock.unlock() }
        value = tensor
    }

    /// Zeroes the state: the next prediction starts a new sequence.
    public func reset() {
        lock.lock(); defer { lock.unlock() }
        value = Tensor(shape: shape)
    }

    /// Runs `body` on the state with the lock held, so concurrent predictions on one state serialize.
    func update<R>(_ body: (inout Tensor<Float>) throws -> R) rethrows -> R {
        lock.lock(); defer { lock.unlock() }
        return try body(&value)
    }
}
