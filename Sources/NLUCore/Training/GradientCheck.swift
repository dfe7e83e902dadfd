/// Numerical gradients by central differences, to check hand-written backward passes in tests.
///
///     let numeric = GradientCheck.numericalGradient(of: { x in loss(x) }, at: x)
///     // compare with the analytic gradient, e.g. within 1e-2 relative
public enum GradientCheck {
    /// `(f(x + ε·eᵢ) - f(x - ε·eᵢ)) / 2ε` for every element `i` of `x`; shape of `x`.
    public static func numericalGradient(of f: (Tensor<Float>) -> Float, at x: Tensor<Float>,
                                         epsilon: Float = 1e-3) -> Tensor<Float> {
        var point = x.contiguous().reshaped(x.shape)
        var gradient = Tensor<Float>(shape: x.shape)
        let values = point.scalars
        for index in 0..<values.count {
            point.withUnsafeMutableBufferPointer { $0[index] = values[index] + epsilon }
            let plus = f(point)
            point.withUnsafeMutableBufferPointer { $0[index] = values[index] - epsilon }
            let minus = f(point)
            point.withUnsafeMutableBufferPointer { $0[index] = values[index] }
            gradient.withUnsafeMutableBufferPointer { $0[index] = (plus - minus) / (2 * epsilon) }
        }
        return gradient
    }
}
