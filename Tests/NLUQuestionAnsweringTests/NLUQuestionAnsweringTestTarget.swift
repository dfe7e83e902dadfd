// Keeps this test target buildable from a clean clone; the NLUQuestionAnswering tests live beside it.
import NLUQuestionAnswering
