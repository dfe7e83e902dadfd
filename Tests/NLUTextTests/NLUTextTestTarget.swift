// Keeps this test target buildable from a clean clone; the NLUText tests live beside it.
import NLUText
