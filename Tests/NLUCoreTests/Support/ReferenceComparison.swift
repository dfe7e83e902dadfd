/// The first element where `actual` and `expected` differ by more than `absolute + relative × |expected|`
/// (numpy's `allclose` rule), described with its index and both values; nil when every element agrees.
/// Tests pass it to `#expect(... == nil, "what is compared")`, so a failure names the value.
func firstMismatch(_ actual: [Float], _ expected: [Float], relative: Float = 1e-5, absolute: Float = 1e-6) -> String? {
    guard actual.count == expected.count else { return "\(actual.count) values, expected \(expected.count)" }
    for (index, (a, e)) in zip(actual, expected).enumerated() where !(abs(a - e) <= absolute + relative * abs(e)) {
        return "element \(index): \(a), expected \(e)"
    }
    return nil
}
