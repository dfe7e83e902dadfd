import NLUIntents
import NLUTransformers
import Testing

/// A refused `--resume` names the settings that differ, by their path in `checkpoint.json`, with both values.
@Suite struct SettingDifferencesTests {
    @Test func namesEachDifferingSettingWithBothValues() {
        var saved = JointIntentSlotOptions()
        saved.wordShapes = false
        var current = JointIntentSlotOptions()
        current.training.learningRate = 1e-4
        #expect(SettingDifferences.between(saved: saved, current: current, path: "joint") == [
            "joint.training.learningRate: 5e-05 in the checkpoint, 0.0001 in this run",
            "joint.wordShapes: false in the checkpoint, true in this run",
        ])
        #expect(SettingDifferences.between(saved: current, current: current, path: "joint").isEmpty)
    }

    @Test func optionalSettingsReadAsAbsentOrTheirValue() {
        var saved = IntentFineTuningOptions()
        saved.headLearningRate = nil
        saved.maxSequenceLength = 64
        let current = IntentFineTuningOptions()
        #expect(SettingDifferences.between(saved: saved, current: current, path: "options") == [
            "options.headLearningRate: absent in the checkpoint, 0.01 in this run",
            "options.maxSequenceLength: 64 in the checkpoint, absent in this run",
        ])
        let none: IntentFineTuningOptions? = nil
        #expect(SettingDifferences.between(saved: none, current: none, path: "options").isEmpty)
        #expect(SettingDifferences.between(saved: Optional(saved), current: none, path: "options").count == 1)
    }
}
