import Foundation
import NLUEmbeddings
import NLUQuestionAnswering
import NLUTestSupport
@testable import NLUServer

/// Copies of the fixture models whose weights are finite but so large that every model call
/// overflows (a NaN or an infinity comes out): a model fault the client cannot cause. Also the proof
/// that a limit is checked before the model runs: with these, running it would answer 500.
enum DamagedModels {
    /// The QA fixture with every `qa_outputs.weight` at 3e38: the start and end logits overflow.
    static func questionAnswering() throws -> ServedModels {
        let copy = try temporaryCopy(of: Fixtures.qaDirectory)
        defer { try? FileManager.default.removeItem(at: copy.deletingLastPathComponent()) }
        try SafeTensorsPatch.set("qa_outputs.weight", in: copy.appendingPathComponent("model.safetensors"), to: 3e38, count: nil)
        return ServedModels(questionAnswering: try QuestionAnswerer(modelDirectory: copy))
    }

    /// The embeddings fixture with every word embedding at 3e38: the layer norm's sums overflow.
    static func embeddings() throws -> ServedModels {
        let copy = try temporaryCopy(of: Fixtures.embeddingsDirectory)
        defer { try? FileManager.default.removeItem(at: copy.deletingLastPathComponent()) }
        try SafeTensorsPatch.set("embeddings.word_embeddings.weight", in: copy.appendingPathComponent("model.safetensors"),
                                 to: 3e38, count: nil)
        return ServedModels(embeddings: try SentenceEmbedder(modelDirectory: copy), embeddingsPath: copy.path)
    }

    /// `directory` copied into a fresh temporary directory (the models are read whole at load, so
    /// the copy can go once they are loaded).
    private static func temporaryCopy(of directory: URL) throws -> URL {
        let parent = try TestScratch.folder("nlukit-server")
        let copy = parent.appendingPathComponent(directory.lastPathComponent)
        try FileManager.default.copyItem(at: directory, to: copy)
        return copy
    }
}
