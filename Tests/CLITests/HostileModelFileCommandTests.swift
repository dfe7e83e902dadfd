import Foundation
import Testing

/// Model files crafted as an attacker would write them (scripts/fixtures/coreml_hostile.py): well-formed protobuf
/// whose values trapped `nlu` or made it allocate by a size in the file. Run as subprocesses, so that a regression
/// is one failed test and not the end of the test run: each must end by itself, exit 1 and name the problem.
@Suite struct HostileModelFileCommandTests {
    static func hostile(_ name: String) -> String {
        fixturesDirectory.appendingPathComponent("coreml/hostile/\(name).mlmodel").path
    }

    /// `nlu coreml predict` on `name` with input `x` of two values: how it ended.
    private func predict(_ name: String, x: String = "[0.25, 0.75]") throws -> BoundedRun {
        try runNLU(["coreml", "predict", Self.hostile(name), "--input", #"{"x": \#(x)}"#], timeout: 120)
    }

    /// `nlu coreml info` and `predict` on `name` under a 1.4 GB address-space limit (the runtime takes about 400 MB
    /// of it): a model that slipped past its load-time checks fails by running out of memory, not by taking the
    /// test machine's gigabytes.
    private func underMemoryLimit(_ name: String) throws -> [(command: String, run: NLURun)] {
        let limited = ["/bin/sh", "-c", "ulimit -v \(1_400 * 1024) && exec \"$0\" \"$@\""]
        return try [["coreml", "info", Self.hostile(name)], ["coreml", "predict", Self.hostile(name), "--input", #"{"x": [0.25, 0.75]}"#]]
            .map { (command: $0[1], run: try runNLU($0, environment: ["NLUKIT_THREADS": "1", "OPENBLAS_NUM_THREADS": "1"], launcher: limited)) }
    }

    @Test(arguments: [64, 65])
    func concatenationPastTheLayerBudgetIsRefusedAtLoadNamingTheLayer(copies: Int) throws {
        // Was: 64 × 2^22 values took 8 GB and 112 s to predict; 65 failed with an unclear message.
        for (command, run) in try underMemoryLimit("concat_\(copies)_of_2_22") {
            #expect(run.status == 1, "\(command): \(run.status) \(run.stderr)")
            #expect(run.stderr.contains("concat_\(copies)_of_2_22.mlmodel: layer 'cat' (concat): concatenating \(copies) inputs along axis 2: "
                + "its output 'cat' of shape [?, ?, \(copies << 22), 1, 1] would hold at least \(copies << 22) values, "
                + "over the 67108864 values (256 MiB of floats) one layer may make"), "\(command): \(run.stderr)")
        }
    }

    @Test func classifierWhoseLabelsOutnumberItsProbabilitiesIsRefusedAtLoad() throws {
        for (command, run) in try underMemoryLimit("classifier_label_count_mismatch") {
            #expect(run.status == 1, "\(command): \(run.status) \(run.stderr)")
            #expect(run.stderr.contains("classifier_label_count_mismatch.mlmodel: invalid model: the classifier has 3 class labels, "
                + "but layer 'softmax' (softmax) makes its probabilities 'probabilities' with 2 values a row"), "\(command): \(run.stderr)")
        }
    }

    @Test func gatherOfTwoToTheThirtyIndicesIsRefusedAtLoad() throws {
        for (command, run) in try underMemoryLimit("gather_2_30_indices") {
            #expect(run.status == 1, "\(command): \(run.status) \(run.stderr)")
            #expect(run.stderr.contains("gather_2_30_indices.mlmodel: layer 'gather' (gather): gathering 1073741824 indices "
                + "(shape [1073741824]) along axis 0 of [2]: its output 'rows' of shape [1073741824] would hold 1073741824 values"),
                "\(command): \(run.stderr)")
        }
    }

    @Test func repeatedClassLabelsAreRefusedAtLoad() throws {
        // Was: loaded, then trapped building the label → probability dictionary (SIGILL).
        let run = try predict("duplicate_class_labels")
        #expect(!run.signaled && run.status == 1, "\(run.status) \(run.stderr)")
        #expect(run.stderr.contains("duplicate_class_labels.mlmodel: invalid model: the classifier's stringClassLabels lists 'yes' twice (at 0 and 1)"),
                "\(run.stderr)")
    }

    @Test func splitSizesPastTheLimitAreRefusedAtLoad() throws {
        // Was: two sizes of 2^64 - 1 overflowed their sum at the first prediction (SIGILL).
        let run = try predict("split_sizes_overflow")
        #expect(!run.signaled && run.status == 1, "\(run.status) \(run.stderr)")
        #expect(run.stderr.contains("layer 'split' (splitND): splitSizes[0] is 18446744073709551615, expected 1 to 268435456"), "\(run.stderr)")
    }

    @Test func softmaxOfARankZeroBlobIsALayerError() throws {
        // Was: a slice that squeezes its only axis made a rank-0 blob, and softmax indexed axis -1 (SIGILL).
        let run = try predict("softmax_of_a_scalar")
        #expect(!run.signaled && run.status == 1, "\(run.status) \(run.stderr)")
        #expect(run.stderr.contains("layer 'softmax' (softmax) failed: input of shape [] has no axis, expected rank 1 or more"), "\(run.stderr)")
    }

    @Test func questionAnsweringModelWithMorePositionsThanAnEncoderIsRefused() throws {
        // Was: every window padded to the declared 2^21 positions (2^30 made each question allocate gigabytes).
        let vocabulary = fixturesDirectory.appendingPathComponent("coreml/bert_qa_converted/vocab.txt").path
        let run = try runNLU(["qa", "ask", "--model", Self.hostile("qa_2097152_positions"), "--vocab", vocabulary,
                              "--question", "who fed the cat ?", "--context", "alice fed the cat ."], timeout: 120)
        #expect(!run.signaled && run.status == 1, "\(run.status) \(run.stderr)")
        #expect(run.stderr.contains("qa_2097152_positions.mlmodel: input 'wordIDs' is a sequence of 2097152 positions (at most 1048576 are read)"),
                "\(run.stderr)")
    }

    @Test func aNaNOutputIsNamedInsteadOfFoundationsOperationFailed() throws {
        // Was: "the operation failed" (JSONSerialization's error for a NaN, mapped by the CLI's last line of defence).
        let run = try predict("logarithm", x: "[-1, 1]")
        #expect(!run.signaled && run.status == 1, "\(run.status) \(run.stderr)")
        #expect(run.stderr.contains("output 'y' holds NaN at flat index 0 of shape [2], which JSON cannot represent"), "\(run.stderr)")
        #expect(try predict("logarithm", x: "[1, 2]").status == 0)
    }
}
