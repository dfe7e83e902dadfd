import HTTPTypes

extension APIError {
    /// 500 for a model that computed something it cannot answer with (a NaN or an infinity from
    /// finite weights that overflow Float arithmetic). Whatever the task, this is the served model's
    /// fault, not the request's: the client cannot fix it by changing its input, and a 5xx is what
    /// alerts the operator. The message names the task and what was computed, not the model's path
    /// (the log has the whole error).
    ///
    ///     throw APIError.modelFault(task: "embeddings", detail: "element 3 of an embedding is nan")
    static func modelFault(task: String, detail: String) -> APIError {
        APIError(status: .internalServerError, error: "model_fault",
                 message: "the \(task) model computed a non-finite number (\(detail)): its weights overflow Float arithmetic; "
                     + "this is a fault of the served model, not of the request")
    }
}
