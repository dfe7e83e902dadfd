/// Conversions from the 16-bit float formats checkpoints are stored in (IEEE half `F16` and
/// Google's `BF16`) to `Float`, on raw bit patterns so they work on every platform (Swift's
/// `Float16` is missing on Intel macOS) and vectorize.
///
///     HalfPrecision.float(fromFloat16Bits: 0x3C00)    // 1.0
///     HalfPrecision.float(fromBFloat16Bits: 0x3F80)   // 1.0
public enum HalfPrecision {
    /// The `Float` value of an IEEE 754 binary16 bit pattern (exact: every half is a float).
    @inlinable
    public static func float(fromFloat16Bits bits: UInt16) -> Float {
        // Rebias the exponent by shifting the 15 non-sign bits into float position; subnormal
        // halves are renormalized by a float subtraction, infinities/NaNs get the full exponent.
        let shiftedExponentMask: UInt32 = 0x7C00 << 13
        var magnitude = (UInt32(bits) & 0x7FFF) << 13
        let exponent = magnitude & shiftedExponentMask
        magnitude &+= (127 - 15) << 23
        if exponent == shiftedExponentMask {
            magnitude &+= (128 - 16) << 23
        } else if exponent == 0 {
            magnitude &+= 1 << 23
            magnitude = (Float(bitPattern: magnitude) - Float(bitPattern: 113 << 23)).bitPattern
        }
        return Float(bitPattern: magnitude | (UInt32(bits) & 0x8000) << 16)
    }

    /// The `Float` value of a bfloat16 bit pattern (the upper half of a float's bits).
    @inlinable
    public static func float(fromBFloat16Bits bits: UInt16) -> Float {
        Float(bitPattern: UInt32(bits) << 16)
    }

    /// The bfloat16 bit pattern nearest to `value` (round to nearest even; NaN stays NaN).
    @inlinable
    public static func bfloat16Bits(from value: Float) -> UInt16 {
        let bits = value.bitPattern
        if value.isNaN { return UInt16(truncatingIfNeeded: bits >> 16) | 0x0040 }
        let rounding = 0x7FFF &+ ((bits >> 16) & 1)
        return UInt16(truncatingIfNeeded: (bits &+ rounding) >> 16)
    }
}

extension Tensor where Scalar == Float {
    /// A tensor of `shape` from IEEE half-precision (`F16`) bit patterns in row-major order.
    ///
    ///     let t = Tensor(shape: [2], float16Bits: [0x3C00, 0xC000])   // [1, -2]
    /// - Precondition: `float16Bits.count` equals the product of `shape`.
    public init<C: Collection>(shape: [Int], float16Bits: C) where C.Element == UInt16 {
        self.init(shape: shape, scalars: float16Bits.map(HalfPrecision.float(fromFloat16Bits:)))
    }

    /// A tensor of `shape` from bfloat16 (`BF16`) bit patterns in row-major order.
    ///
    ///     let t = Tensor(shape: [1], bfloat16Bits: [0x3F80])   // [1]
    /// - Precondition: `bfloat16Bits.count` equals the product of `shape`.
    public init<C: Collection>(shape: [Int], bfloat16Bits: C) where C.Element == UInt16 {
        self.init(shape: shape, scalars: bfloat16Bits.map(HalfPrecision.float(fromBFloat16Bits:)))
    }

    #if !((os(macOS) || targetEnvironment(macCatalyst)) && arch(x86_64))
    /// A tensor of `shape` from `Float16` values in row-major order.
    ///
    ///     let t = Tensor(shape: [2], float16: [Float16(0.5), Float16(3)])
    /// - Precondition: `float16.count` equals the product of `shape`.
    @available(macOS 11.0, iOS 14.0, *)
    public init<C: Collection>(shape: [Int], float16: C) where C.Element == Float16 {
        self.init(shape: shape, scalars: float16.map { Float($0) })
    }
    #endif
}
