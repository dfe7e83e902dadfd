import Foundation
import NLUCore

/// Turns a `WeightParams` into floats, whatever form the file stores it in: FP32 (`floatValue`), FP16
/// (`float16Value`, as Apple's BERT-SQuAD ships), linear-quantized (`rawValue` of 1-8-bit codes with a scale and
/// bias per output channel) or lookup-table-quantized (`rawValue` codes into a table of 2^bits floats).
/// Every size is checked against the layer's declared shape before anything is allocated from it.
struct WeightDecoder {
    let layer: String
    let kind: String

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
        let codes = Self.unpack(weights.rawValue, bits: bits, count: count)
        switch quantization.quantizationType {
        case .linearQuantization(let linear):
            guard channels > 0, count % channels == 0 else { throw invalid("\(field): \(count) values in \(channels) channels") }
            for (name, vector) in [("scale", linear.scale), ("bias", linear.bias)] where vector.count != 1 && vector.count != channels {
                throw invalid("\(field): linear quantization has \(vector.count) \(name) values, expected 1 or \(channels)")
            }
            let perChannel = count / channels
            return codes.enumerated().map { index, code in
                let channel = index / perChannel
                let scale = linear.scale.count == 1 ? linear.scale[0] : linear.scale[channel]
                let bias = linear.bias.count == 1 ? linear.bias[0] : linear.bias[channel]
                return scale * Float(code) + bias
            }
        case .lookupTableQuantization(let table):
            guard table.floatValue.count == 1 << bits else {
                throw invalid("\(field): lookup table has \(table.floatValue.count) entries, expected \(1 << bits) for \(bits)-bit codes")
            }
            return codes.map { table.floatValue[Int($0)] }
        case nil:
            throw invalid("\(field): quantization parameters name no type (linear or lookup table)")
        }
    }

    /// The `count` codes of `bits` bits each, packed most significant bit first (as coremltools writes them).
    static func unpack(_ bytes: Data, bits: Int, count: Int) -> [UInt8] {
        if bits == 8 { return [UInt8](bytes.prefix(count)) }
        return bytes.withUnsafeBytes { raw in
            (0..<count).map { index in
                var code: UInt8 = 0
                for bit in 0..<bits {
                    let position = index * bits + bit
                    let value = (raw[position / 8] >> (7 - UInt8(position % 8))) & 1
                    code = code << 1 | value
                }
                return code
            }
        }
    }
}
