/// The query pipeline of every index backend, over its ``SearchBackend`` primitives: one place
/// decides what a search checks, in which order, and how keyword and vector rankings combine.
extension SearchBackend {
    /// The `options.k` chunks that best match `query`, best first (ties by document id, then chunk).
    ///
    /// - Parameter embedding: the query's vector when the caller has computed it already (a batch
    ///   of queries embedded at once); otherwise the index's embedder embeds `query`.
    /// - Throws: ``SearchError/invalidArgument(_:)`` (empty query, k out of range),
    ///   ``SearchError/noVectors(path:)``, ``SearchError/embedderRequired(_:)``.
    public func search(_ query: String, embedding: [Float]? = nil, options: SearchOptions = .init()) throws -> [SearchResult] {
        try options.validate()
        guard query.contains(where: { !$0.isWhitespace }) else { throw SearchError.invalidArgument("the query is empty") }
        try KeywordQuery.checkLength(query)
        let found: [Hit]
        switch options.mode {
        case .keyword:
            found = try keywordHits(try KeywordQuery(query, analyzer: keywordAnalyzer), limit: options.k, filter: options.filter)
        case .vector:
            found = try vectorHits(try queryVector(query, embedding), limit: options.k, filter: options.filter)
        case .hybrid:
            let depth = max(options.k, options.fusion.candidateDepth)
            // Checked before the query is embedded: a query over the limits costs nothing.
            let terms = try KeywordQuery(query, analyzer: keywordAnalyzer)
            let vector = try queryVector(query, embedding)
            let keyword = try keywordHits(terms, limit: depth, filter: options.filter)
            let semantic = try vectorHits(vector, limit: depth, filter: options.filter)
            found = HybridFusion.fuse(keyword: keyword, vector: semantic, options: options, key: \.key, score: \.score) { hit, score in
                var fused = hit
                fused.score = score
                return fused
            }
        }
        return try results(for: found)
    }

    /// Embeds a batch of queries with the index's embedder (for ``search(_:embedding:options:)``).
    public func embedQueries(_ queries: [String]) throws -> [[Float]] {
        let (model, embedder) = try checkedEmbedder()
        return try embedder.checkedVectors(for: queries, model: model)
    }

    /// The model and its embedder, or why vector search is impossible.
    func checkedEmbedder() throws -> (EmbedderIdentity, any TextEmbedder) {
        guard let model else { throw SearchError.noVectors(path: location) }
        guard let embedder else { throw SearchError.embedderRequired("\(location): vector and hybrid search need the embedder of \(model)") }
        return (model, embedder)
    }

    /// `embedding` checked against the model, or `query` embedded.
    func queryVector(_ query: String, _ embedding: [Float]?) throws -> [Float] {
        let (model, embedder) = try checkedEmbedder()
        if let embedding {
            guard embedding.count == model.dimension, embedding.allSatisfy(\.isFinite) else {
                throw SearchError.badEmbedding("a query vector of \(embedding.count) numbers (finite) expected \(model.dimension)")
            }
            return embedding
        }
        return try embedder.checkedVectors(for: [query], model: model).first ?? []
    }
}
