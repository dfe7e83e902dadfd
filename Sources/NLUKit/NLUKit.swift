// The umbrella module: `import NLUKit` brings every capability. It holds re-exports only; what turns a model
// reference into a running task lives in NLUPipelines.
@_exported import NLUBuiltins
@_exported import NLUCore
@_exported import NLUCoreML
@_exported import NLUDialogue
@_exported import NLUEmbeddings
@_exported import NLUHub
@_exported import NLUInputOutput
@_exported import NLUIntents
@_exported import NLUPipelines
@_exported import NLUQuestionAnswering
@_exported import NLUSearch
@_exported import NLUSequence
@_exported import NLUText
@_exported import NLUTransformers
