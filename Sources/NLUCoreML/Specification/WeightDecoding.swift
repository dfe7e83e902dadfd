import Foundation
import NLUCore

/// Turns a `WeightParams` into floats, whatever form the file stores it in: FP32 (`floatValue`), FP16
/// (`float16Value`, as Apple's BERT-SQuAD ships), linear-quantized (`rawValue` of 1-8-bit codes with a scale and
/// bias per output channel) or lookup-table-quantized (`rawValue` codes into a table of 2^bits floats).
/// Every size is checked against the layer's declared shape, and every decoded array against the load's
/// ``WeightBudget``, before anything is allocated from it.
struct WeightDecoder {
    let layer: String
    let kind: String
    let budget: WeightBudget

    private func invalid(_ reason: String) -> CoreMLError {
        .invalidLayer(name: layer, kind: kind, reason: reason)
    }

    /// The `count` floats of `weights`; `channels` is the size of the first (output-channel) axis, the axis
    /// along which linear quantization has its scales and biases.
    func floats(_ weights: CoreML_Specification_WeightParams, field: String, count: Int, channels: Int = 1) throws -> [Float] {
        let values = try decoded(weights, field: field, count: count, channels: channels)
        // One NaN or infinite weight makes every output NaN, which `coreml predict` cannot print as JSON: refused here,
        // as safetensors weights are, naming the layer, the field and the element.
        // (NLUCore's C scan: a closure over the array runs scalar, about 140 ms for BERT-base's 433 MB of floats.)
        if let (index, value) = values.firstNonFinite() {
            throw invalid("\(field) holds a non-finite value (\(nonFiniteName(Double(value))) at index \(index)); expected finite numbers")
        }
        return values
    }

    private func decoded(_ weights: CoreML_Specification_WeightParams, field: String, count: Int, channels: Int) throws -> [Float] {
        guard count >= 0 else { throw invalid("\(field): negative size \(count)") }
        if !weights.floatValue.isEmpty || (count == 0 && weights.float16Value.isEmpty && weights.rawValue.isEmpty) {
            guard weights.floatValue.count == count else {
                throw invalid("\(field) has \(weights.floatValue.count) values, expected \(count)")
            }
            return weights.floatValue
        }
        if !weights.float16Value.isEmpty {
            guard weights.float16Value.count == 2 * count else {
                throw invalid("\(field) has \(weights.float16Value.count) bytes of FP16, expected \(2 * count) (\(count) values)")
            }
            try budget.reserve(count, field: field, layer: layer, kind: kind)
            return weights.float16Value.withUnsafeBytes { raw in
                (0..<count).map { index in
                    let bits = UInt16(raw[2 * index]) | UInt16(raw[2 * index + 1]) << 8   // little-endian
                    return HalfPrecision.float(fromFloat16Bits: bits)
                }
            }
        }
        if !weights.rawValue.isEmpty {
            return try quantized(weights, field: field, count: count, channels: channels)
        }
        if !weights.int8RawValue.isEmpty {
            throw CoreMLError.unsupportedLayerOption(name: layer, kind: kind, option: "\(field) in int8RawValue form")
        }
        throw invalid("\(field) has no values, expected \(count)")
    }

    private func quantized(_ weights: CoreML_Specification_WeightParams, field: String, count: Int, channels: Int) throws -> [Float] {
        guard weights.hasQuantization else {
            throw invalid("\(field) has raw bytes but no quantization parameters")
        }
        let quantization = weights.quantization
        guard (1...8).contains(quantization.numberOfBits) else {
            throw invalid("\(field): \(quantization.numberOfBits)-bit quantization, expected 1 to 8 bits")
        }
        let bits = Int(quantization.numberOfBits)
        let expectedBytes = (count * bits + 7) / 8
        guard weights.rawValue.count == expectedBytes else {
            throw invalid("\(field) has \(weights.rawValue.count) bytes of \(bits)-bit codes, expected \(expectedBytes) (\(count) values)")
        }
        // The float of each code, decoded straight from the packed bits (no array of codes in between).
        let value: (Int, Int) -> Float   // (index, code)
        switch quantization.quantizationType {
        case .linearQuantization(let linear):
            guard channels > 0, count % channels == 0 else { throw invalid("\(field): \(count) values in \(channels) channels") }
            for (name, vector) in [("scale", linear.scale), ("bias", linear.bias)] where vector.count != 1 && vector.count != channels {
                throw invalid("\(field): linear quantization has \(vector.count) \(name) values, expected 1 or \(channels)")
            }
            let perChannel = count / channels
            let (scales, biases) = (linear.scale, linear.bias)
            value = { index, code in
                let channel = index / perChannel
                let scale = scales.count == 1 ? scales[0] : scales[channel]
                let bias = biases.count == 1 ? biases[0] : biases[channel]
                return scale * Float(code) + bias
            }
        case .lookupTableQuantization(let table):
            guard table.floatValue.count == 1 << bits else {
                throw invalid("\(field): lookup table has \(table.floatValue.count) entries, expected \(1 << bits) for \(bits)-bit codes")
            }
            let entries = table.floatValue
            value = { _, code in entries[code] }
        case nil:
            throw invalid("\(field): quantization parameters name no type (linear or lookup table)")
        }
        try budget.reserve(count, field: field, layer: layer, kind: kind)
        return weights.rawValue.withUnsafeBytes { raw in
            (0..<count).map { index in value(index, Self.code(at: index, bits: bits, in: raw)) }
        }
    }

    /// Code `index` of `bits` bits in `raw`, the codes packed most significant bit first (as coremltools writes them).
    static func code(at index: Int, bits: Int, in raw: UnsafeRawBufferPointer) -> Int {
        if bits == 8 { return Int(raw[index]) }
        var code = 0
        for bit in 0..<bits {
            let position = index * bits + bit
            code = code << 1 | Int((raw[position / 8] >> (7 - UInt8(position % 8))) & 1)
        }
        return code
    }
}
