import NLUText

/// The training windows of a SQuAD dataset, built exactly as transformers' `run_qa.py`
/// (`prepare_train_features`, 4.57) builds them: the question left-stripped and first, the context
/// second, `truncation="only_second"` into windows of `maxSequenceLength` tokens overlapping by `stride`,
/// and for each window the token positions of the first answer's first and last token, or `[CLS]`'s when
/// the answer is not wholly inside the window or the question has none (SQuAD 2.0). Checked against
/// `run_qa`'s own code on `Tests/Fixtures/qa/squad-train.json` (`scripts/fixtures/qa_finetune.py`).
///
/// Two checks `run_qa` leaves out: a question whose first answer's text is not the context's at its
/// `answer_start` is skipped and listed in ``skippedQuestionIDs`` (or refused with `strict`), as the
/// older SQuAD processor of transformers did; and a question without an answer is an error in a SQuAD
/// v1.1 file, where every question has one, unless `allowsUnanswerable`.
///
///     let set = try QuestionAnsweringTrainingSet(dataset: squad, tokenizer: tokenizer, maxSequenceLength: 384, stride: 128)
///     if !set.skippedQuestionIDs.isEmpty { print("skipped:", set.skippedQuestionIDs) }
public struct QuestionAnsweringTrainingSet: Sendable {
    /// Every window of every question kept, in file order.
    public var windows: [QuestionAnsweringTrainingWindow]
    /// Questions whose first answer's text is not the context's at its `answer_start` (not trained on).
    public var skippedQuestionIDs: [String]
    /// Questions trained on.
    public var questionCount: Int
    /// Of those, the questions without an answer (SQuAD 2.0's `is_impossible`).
    public var unanswerableCount: Int

    /// Builds the windows of `dataset` with `tokenizer`.
    /// - Parameters:
    ///   - allowsUnanswerable: whether a question may have no answer (nil: when the file is SQuAD 2.0,
    ///     ``SQuADDataset/isVersion2``); run_qa's `--version_2_with_negative`.
    ///   - strict: refuse the dataset when an answer's text is not the context's at its start, instead of
    ///     skipping the question.
    /// - Throws: ``QuestionAnsweringTrainingError`` naming the question at fault;
    ///   ``QuestionAnsweringError/question(id:reason:)`` for a question that leaves no room for its context.
    public init(dataset: SQuADDataset, tokenizer: BertTokenizer, maxSequenceLength: Int = 384, stride: Int = 128,
                allowsUnanswerable: Bool? = nil, strict: Bool = false) throws {
        let unanswerableAllowed = allowsUnanswerable ?? dataset.isVersion2
        var windows: [QuestionAnsweringTrainingWindow] = []
        var skipped: [String] = [], questions = 0, unanswerable = 0
        for item in dataset.questions {
            var answer: (start: Int, end: Int)?
            if let text = item.answers.first {
                guard let start = item.answerStarts.first ?? nil else {
                    throw QuestionAnsweringTrainingError.answerWithoutStart(questionID: item.id)
                }
                let answerScalars = Array(text.unicodeScalars), context = item.context.unicodeScalars
                let matches = start >= 0 && start + answerScalars.count <= context.count
                    && context.dropFirst(start).prefix(answerScalars.count).elementsEqual(answerScalars)
                guard matches else {
                    skipped.append(item.id)
                    continue
                }
                answer = (start, start + answerScalars.count)
            } else if !unanswerableAllowed {
                throw QuestionAnsweringTrainingError.unanswerableInVersion1(questionID: item.id)
            }
            let question = String(String.UnicodeScalarView(item.question.unicodeScalars.drop(while: \.properties.isWhitespace)))
            let encodings: [Encoding]
            do {
                encodings = try tokenizer.encodePair(question, item.context, maxLength: maxSequenceLength, stride: stride)
            } catch let error as BertTokenizerError {
                throw QuestionAnsweringError.question(id: item.id, reason: "\(error): give a larger max sequence length or a smaller document stride")
            }
            questions += 1
            if answer == nil { unanswerable += 1 }
            for encoding in encodings {
                let (startPosition, endPosition) = Self.positions(of: answer, in: encoding, clsID: tokenizer.clsID)
                windows.append(QuestionAnsweringTrainingWindow(questionID: item.id, tokenIDs: encoding.ids,
                                                               tokenTypeIDs: encoding.typeIDs,
                                                               startPosition: startPosition, endPosition: endPosition))
            }
        }
        if strict, !skipped.isEmpty {
            throw QuestionAnsweringTrainingError.answersNotInContext(questionIDs: skipped)
        }
        self.windows = windows
        skippedQuestionIDs = skipped
        questionCount = questions
        unanswerableCount = unanswerable
    }

    /// run_qa's start and end positions of the answer spanning scalars `answer` of the context in `encoding`,
    /// its loops kept as they are (special tokens' offsets are `0..<0` there too, so an answer in the last
    /// context token of a window starts where that loop stops).
    static func positions(of answer: (start: Int, end: Int)?, in encoding: Encoding, clsID: Int32) -> (Int, Int) {
        let cls = encoding.ids.firstIndex(of: clsID) ?? 0
        guard let (startCharacter, endCharacter) = answer,
              let contextStart = encoding.sequenceIDs.firstIndex(of: 1),
              let contextEnd = encoding.sequenceIDs.lastIndex(of: 1) else { return (cls, cls) }
        let offsets = encoding.offsets
        guard offsets[contextStart].lowerBound <= startCharacter, offsets[contextEnd].upperBound >= endCharacter else {
            return (cls, cls)
        }
        var start = contextStart
        while start < offsets.count, offsets[start].lowerBound <= startCharacter { start += 1 }
        var end = contextEnd
        while end >= 0, offsets[end].upperBound >= endCharacter { end -= 1 }
        return (start - 1, end + 1)
    }
}
