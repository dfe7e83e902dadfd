// Keeps this test target buildable from a clean clone; the NLUSequence tests live beside it.
import NLUSequence
