// QA's public API speaks the encoder's types (`BertConfiguration`, `EncoderBatch`, `TransformerEncoder`,
// `CheckpointError`), so `import NLUQuestionAnswering` brings them along, as it did before the encoder
// moved to its own module.
@_exported import NLUTransformers
