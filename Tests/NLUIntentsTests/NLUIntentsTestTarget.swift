// Keeps this test target buildable from a clean clone; the NLUIntents tests live beside it.
import NLUIntents
