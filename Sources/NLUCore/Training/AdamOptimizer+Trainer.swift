extension AdamOptimizer {
    /// AdamW as Hugging Face `Trainer` (transformers 4.57) builds it by default: learning rate 5e-5,
    /// betas (0.9, 0.999), epsilon 1e-8, weight decay 0, decoupled, and two parameter groups: weight
    /// decay applies to every parameter except those ``trainerDecays(parameterNamed:insideLayerNorm:)``
    /// exempts (biases, layer norms). `parameterNames` are in the order the parameters will be passed
    /// to ``step(_:gradients:)``; `layerNormParameters` names those that sit in a LayerNorm module
    /// whatever their name says. Pair it with ``LinearWarmupSchedule``, ``GradientClipping`` (Trainer's
    /// `max_grad_norm` is 1) and ``GradientAccumulator`` for Trainer's whole step.
    ///
    ///     let adamW = try AdamOptimizer.trainerAdamW(parameterNames: ["classifier.weight", "classifier.bias"],
    ///                                                weightDecay: 0.01)
    ///     adamW.decayedParameters   // [true, false]
    ///
    /// `learningRateScales` (one per parameter name) gives parameters a rate of their own as a multiple of
    /// the schedule's: Trainer's optimizer with a third parameter group, as SetFit gives its head.
    /// - Throws: ``TrainingSettingError`` when the learning rate or the weight decay is negative or not
    ///   finite, or a scale is not a finite number above 0 (or the scales are not one per name).
    public static func trainerAdamW(parameterNames: [String], layerNormParameters: Set<String> = [],
                                    learningRate: Float = 5e-5, weightDecay: Float = 0,
                                    learningRateScales: [Float]? = nil) throws -> AdamOptimizer {
        guard learningRate.isFinite, learningRate >= 0 else {
            throw TrainingSettingError(setting: "learningRate", value: "\(learningRate)", requirement: "a finite number ≥ 0")
        }
        guard weightDecay.isFinite, weightDecay >= 0 else {
            throw TrainingSettingError(setting: "weightDecay", value: "\(weightDecay)", requirement: "a finite number ≥ 0")
        }
        if let scales = learningRateScales {
            guard scales.count == parameterNames.count else {
                throw TrainingSettingError(setting: "learningRateScales", value: "\(scales.count) scales",
                                           requirement: "one per parameter (\(parameterNames.count))")
            }
            if let bad = scales.first(where: { !$0.isFinite || $0 <= 0 }) {
                throw TrainingSettingError(setting: "learningRateScales", value: "\(bad)", requirement: "a finite number above 0")
            }
        }
        let decays = parameterNames.map { trainerDecays(parameterNamed: $0, insideLayerNorm: layerNormParameters.contains($0)) }
        return AdamOptimizer(learningRate: learningRate, beta1: 0.9, beta2: 0.999, epsilon: 1e-8, weightDecay: weightDecay,
                             decoupledWeightDecay: true, decayedParameters: decays, learningRateScales: learningRateScales)
    }

    /// Whether `Trainer.get_decay_parameter_names` puts the parameter `name` (dotted, as PyTorch's
    /// `named_parameters()` spells it) in the weight-decay group: not when it belongs to a LayerNorm
    /// module, nor when its lower-cased name matches `bias`, `layernorm`, `rmsnorm`,
    /// `(?:^|\.)norm(?:$|\.)` or `_norm(?:$|\.)`.
    ///
    ///     AdamOptimizer.trainerDecays(parameterNamed: "encoder.layer.0.output.dense.weight")       // true
    ///     AdamOptimizer.trainerDecays(parameterNamed: "encoder.layer.0.output.LayerNorm.weight")   // false
    ///     AdamOptimizer.trainerDecays(parameterNamed: "transformer.layer.0.sa_layer_norm.weight")  // false
    public static func trainerDecays(parameterNamed name: String, insideLayerNorm: Bool = false) -> Bool {
        if insideLayerNorm { return false }
        let lowered = name.lowercased()
        if ["bias", "layernorm", "rmsnorm"].contains(where: lowered.contains) { return false }
        // The two anchored patterns, component by component: `norm` whole, or a component ending in `_norm`.
        let components = lowered.split(separator: ".", omittingEmptySubsequences: false)
        return !components.contains { $0 == "norm" || $0.hasSuffix("_norm") }
    }
}
