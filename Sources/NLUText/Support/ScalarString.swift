extension String {
    /// The text of `scalars`, encoded to UTF-8 in one pass. `String(String.UnicodeScalarView(scalars))` says the same
    /// but goes through the standard library's generic transcoding (an array of `UInt32`, then a slow path per
    /// scalar): the built-in recognizers build a string per token and per entity from their scalar arrays, and that
    /// path was a sixth of reading Chinese phone numbers.
    ///
    ///     String(scalars: Array("两千 km".unicodeScalars)[0..<2]) // "两千"
    @inlinable
    public init(scalars: some Collection<Unicode.Scalar>) {
        var byteCount = 0
        for scalar in scalars { byteCount += UTF8.width(scalar) }
        self.init(unsafeUninitializedCapacity: byteCount) { buffer in
            var offset = 0
            for scalar in scalars {
                let value = scalar.value
                switch value {
                case ..<0x80:
                    buffer[offset] = UInt8(value)
                    offset += 1
                case ..<0x800:
                    buffer[offset] = UInt8(0xC0 | value >> 6)
                    buffer[offset + 1] = UInt8(0x80 | value & 0x3F)
                    offset += 2
                case ..<0x10000:
                    buffer[offset] = UInt8(0xE0 | value >> 12)
                    buffer[offset + 1] = UInt8(0x80 | value >> 6 & 0x3F)
                    buffer[offset + 2] = UInt8(0x80 | value & 0x3F)
                    offset += 3
                default:
                    buffer[offset] = UInt8(0xF0 | value >> 18)
                    buffer[offset + 1] = UInt8(0x80 | value >> 12 & 0x3F)
                    buffer[offset + 2] = UInt8(0x80 | value >> 6 & 0x3F)
                    buffer[offset + 3] = UInt8(0x80 | value & 0x3F)
                    offset += 4
                }
            }
            return offset
        }
    }
}
