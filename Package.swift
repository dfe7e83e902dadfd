// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "NLUKit",
    platforms: [.macOS(.v13), .iOS(.v16)],
    products: [
        .library(name: "NLUKit", targets: ["NLUKit"]),
        .library(name: "NLUInputOutput", targets: ["NLUInputOutput"]),
        .library(name: "NLUCore", targets: ["NLUCore"]),
        .library(name: "NLUText", targets: ["NLUText"]),
        .library(name: "NLUBuiltins", targets: ["NLUBuiltins"]),
        .library(name: "NLUTransformers", targets: ["NLUTransformers"]),
        .library(name: "NLUEmbeddings", targets: ["NLUEmbeddings"]),
        .library(name: "NLUHub", targets: ["NLUHub"]),
        .library(name: "NLUQuestionAnswering", targets: ["NLUQuestionAnswering"]),
        .library(name: "NLUIntents", targets: ["NLUIntents"]),
        .library(name: "NLUSequence", targets: ["NLUSequence"]),
        .library(name: "NLUDialogue", targets: ["NLUDialogue"]),
        .library(name: "NLUDialogueSQLite", targets: ["NLUDialogueSQLite"]),
        .library(name: "NLUDialoguePostgres", targets: ["NLUDialoguePostgres"]),
        .library(name: "NLUSearch", targets: ["NLUSearch"]),
        .library(name: "NLUSearchPostgres", targets: ["NLUSearchPostgres"]),
        .library(name: "NLUCoreML", targets: ["NLUCoreML"]),
        .library(name: "NLUPipelines", targets: ["NLUPipelines"]),
        .library(name: "NLUServer", targets: ["NLUServer"]),
        .executable(name: "nlu", targets: ["nlu"]),
        .executable(name: "nlu-bench", targets: ["NLUBench"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "5.0.1"),
        .package(url: "https://github.com/weichsel/ZIPFoundation", from: "0.9.19"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-protobuf", from: "1.39.0"),
        // The HTTP server (`nlu serve`): Hummingbird's HTTP/1 server only (not its TLS, HTTP/2, router DSL or
        // testing products), the NIO pieces it is built on, and Prometheus metrics.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        // The PostgreSQL index backend (NLUSearchPostgres) only.
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        // HMAC-SHA256 for signed conversation states (NLUDialogue); CryptoKit itself on Apple platforms. Already
        // in the graph through postgres-nio, whose range (3.9 ..< 6) this one stays inside.
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.0.0"),
    ],
    targets: [
        // BLAS: OpenBLAS's cblas.h on Linux; Accelerate is imported directly on Apple platforms.
        .systemLibrary(
            name: "CBLAS",
            pkgConfig: "openblas",
            providers: [.apt(["libopenblas-dev", "pkg-config"])]
        ),
        // Element-wise kernels in C, compiled per CPU level (AVX-512 / AVX2 / baseline) and
        // picked at run time; Swift itself only targets baseline x86-64.
        .target(name: "CKernels", linkerSettings: [.linkedLibrary("m", .when(platforms: [.linux]))]),
        // Files and policy, apart from the tensor core: inputs read with limits (files, standard input, lines),
        // outputs written atomically and never over what nlu did not write, interruption, JSON problems by line
        // and column, range checks on numbers a user or file supplies.
        .target(name: "NLUInputOutput"),
        .target(
            name: "NLUCore",
            dependencies: [
                "NLUInputOutput", "CKernels",
                .target(name: "CBLAS", condition: .when(platforms: [.linux])),
            ]
        ),
        .target(name: "NLUText", dependencies: ["NLUInputOutput"]),
        // Downloads from the Hugging Face Hub into its cache (URLSession: FoundationNetworking on Linux).
        // Apart from NLUCore so that only what downloads links the HTTP stack.
        .target(name: "NLUHub", dependencies: ["NLUInputOutput", "NLUCore"]),
        // Built-in entities (numbers, money, dates…) found and resolved; the Text layer's recognizers.
        .target(name: "NLUBuiltins", dependencies: ["NLUInputOutput", "NLUText"]),
        // The one BERT-family encoder (configuration, checkpoint names, packed weights, masked
        // attention) that every task needing a transformer builds on.
        .target(name: "NLUTransformers", dependencies: ["NLUInputOutput", "NLUCore"]),
        // sentence-transformers models as on disk (pooling, dense, normalize) and batched embedding.
        .target(name: "NLUEmbeddings", dependencies: ["NLUInputOutput", "NLUCore", "NLUText", "NLUTransformers"]),
        // Retrieval: the document index (SQLite through GRDB: FTS5 keyword search, exact vectors, fusion).
        .target(
            name: "NLUSearch",
            dependencies: ["NLUInputOutput", "NLUCore", "NLUText", .product(name: "GRDB", package: "GRDB.swift")]
        ),
        // The same index on PostgreSQL with pgvector (postgres://...); apart so that only what opens such
        // URLs (the nlu CLI) builds and links postgres-nio.
        .target(
            name: "NLUSearchPostgres",
            dependencies: [
                "NLUSearch",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .target(name: "NLUQuestionAnswering", dependencies: ["NLUInputOutput", "NLUCore", "NLUText", "NLUTransformers", "NLUSearch"]),
        .target(
            name: "NLUIntents",
            dependencies: [
                "NLUInputOutput", "NLUCore", "NLUText", "NLUBuiltins", "NLUTransformers", "NLUEmbeddings",
                .product(name: "Yams", package: "Yams"),
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
            ]
        ),
        .target(name: "NLUSequence", dependencies: ["NLUInputOutput", "NLUCore", "NLUText"]),
        // Conversations: the dialogue model (nodes, conditions, slots, responses), its runtime with Codable
        // state (signed with HMAC when it leaves the application), and importers of platforms' dialogues.
        // Messages arrive already parsed, so no classifier here.
        .target(
            name: "NLUDialogue",
            dependencies: ["NLUInputOutput", .product(name: "Yams", package: "Yams"), .product(name: "Crypto", package: "swift-crypto")]
        ),
        // Conversation stores beside NLUDialogue's in-memory one, each apart so that only what keeps
        // conversations there links its database: a SQLite file (GRDB), PostgreSQL shared by replicas
        // (postgres-nio; its URL syntax and error texts are the PostgreSQL index's).
        .target(name: "NLUDialogueSQLite", dependencies: ["NLUDialogue", .product(name: "GRDB", package: "GRDB.swift")]),
        .target(
            name: "NLUDialoguePostgres",
            dependencies: [
                "NLUDialogue", "NLUSearch", "NLUSearchPostgres",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Core ML .mlmodel files: the protobuf code is generated once (scripts/generate-coreml-proto.sh) and
        // committed, so only the SwiftProtobuf runtime library is built, not its code-generating plugin.
        .target(
            name: "NLUCoreML",
            dependencies: ["NLUInputOutput", "NLUCore", .product(name: "SwiftProtobuf", package: "swift-protobuf")],
            exclude: ["Proto"]
        ),
        // The composition layer under both fronts: a model reference (directory, Hub id, .mlmodel) or an index
        // location (file or postgres:// URL) resolved once into a task object, its embedders and featurizers attached.
        .target(
            name: "NLUPipelines",
            dependencies: [
                "NLUInputOutput", "NLUCore", "NLUText", "NLUHub", "NLUTransformers", "NLUEmbeddings", "NLUSearch", "NLUSearchPostgres",
                "NLUQuestionAnswering", "NLUIntents", "NLUCoreML", "NLUBuiltins", "NLUDialogue", "NLUDialogueSQLite", "NLUDialoguePostgres",
            ]
        ),
        // Re-exports only: `import NLUKit` brings every capability.
        .target(
            name: "NLUKit",
            dependencies: [
                "NLUInputOutput", "NLUCore", "NLUText", "NLUBuiltins", "NLUHub", "NLUTransformers", "NLUEmbeddings", "NLUSearch",
                "NLUQuestionAnswering", "NLUIntents", "NLUSequence", "NLUDialogue", "NLUCoreML", "NLUPipelines",
            ]
        ),
        // Hummingbird 2 needs macOS 14 / iOS 17: the server's types are marked @available for those,
        // so the package's platforms stay as they are for every other module.
        .target(
            name: "NLUServer",
            dependencies: [
                "NLUInputOutput", "NLUCore", "NLUBuiltins", "NLUHub", "NLUIntents", "NLUQuestionAnswering", "NLUEmbeddings",
                "NLUPipelines", "NLUDialogue", .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ]
        ),
        .executableTarget(
            name: "nlu",
            dependencies: [
                "NLUKit", "NLUServer",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(
            name: "NLUBench",
            dependencies: [
                "NLUKit",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // Test support only: the deterministic input mutator and the rules every fuzz test checks.
        .target(name: "NLUFuzzSupport", dependencies: ["NLUCore"], path: "Tests/FuzzSupport"),
        .target(name: "NLUTestSupport", path: "Tests/TestSupport"),
        .testTarget(name: "NLUInputOutputTests", dependencies: ["NLUInputOutput", "NLUTestSupport"]),
        // docs/architecture.md's module map against Package.swift and the sources' imports.
        .testTarget(name: "RepositoryTests"),
        .testTarget(name: "NLUCoreTests", dependencies: ["NLUCore", "NLUInputOutput", "NLUFuzzSupport", "NLUTestSupport"]),
        .testTarget(name: "NLUTextTests", dependencies: ["NLUText", "NLUTestSupport"]),
        .testTarget(name: "NLUBuiltinsTests", dependencies: ["NLUBuiltins", "NLUInputOutput", "NLUTestSupport"]),
        .testTarget(name: "NLUEmbeddingsTests", dependencies: ["NLUEmbeddings", "NLUTestSupport"]),
        .testTarget(name: "NLUTransformersTests", dependencies: ["NLUTransformers", "NLUTestSupport"]),
        // The Hub client against a Hub-shaped server on loopback in the test process.
        .testTarget(
            name: "NLUHubTests",
            dependencies: [
                "NLUHub", "NLUTestSupport", .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"), .product(name: "NIOCore", package: "swift-nio"),
            ]
        ),
        .testTarget(name: "NLUQuestionAnsweringTests", dependencies: ["NLUQuestionAnswering", "NLUFuzzSupport", "NLUTestSupport"]),
        .testTarget(name: "NLUIntentsTests", dependencies: ["NLUIntents", "NLUInputOutput", "NLUBuiltins", "NLUFuzzSupport", "NLUTestSupport"]),
        .testTarget(name: "NLUSequenceTests", dependencies: ["NLUSequence", "NLUInputOutput", "NLUFuzzSupport", "NLUTestSupport"]),
        .testTarget(name: "NLUDialogueTests", dependencies: ["NLUDialogue", "NLUInputOutput", "NLUPipelines", "NLUTestSupport"]),
        .testTarget(name: "NLUSearchTests", dependencies: ["NLUSearch", "NLUFuzzSupport", "NLUTestSupport", .product(name: "GRDB", package: "GRDB.swift")]),
        // Against a real server when NLUKIT_TEST_POSTGRES_URL is set (scripts/test.sh starts one); skipped otherwise.
        .testTarget(name: "NLUSearchPostgresTests", dependencies: ["NLUSearchPostgres", "NLUSearch", "NLUCore", "NLUTestSupport"]),
        .testTarget(name: "NLUCoreMLTests", dependencies: ["NLUCoreML", "NLUInputOutput", "NLUFuzzSupport", "NLUTestSupport"]),
        // NIOEmbedded: the batcher's window timer on a test event loop whose clock the test advances.
        .testTarget(name: "NLUServerTests", dependencies: ["NLUServer", "NLUBuiltins", "NLUIntents", "NLUEmbeddings", "NLUDialogue", "NLUFuzzSupport", "NLUTestSupport",
                                                         .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOEmbedded", package: "swift-nio")]),
        // The conversation stores; the PostgreSQL one against a real server when NLUKIT_TEST_POSTGRES_URL is set.
        .testTarget(name: "NLUDialogueStoreTests", dependencies: ["NLUDialogue", "NLUDialogueSQLite", "NLUDialoguePostgres", "NLUTestSupport"]),
        // GRDB: to damage an index file the way a hand edit or a bad disk would, then run nlu on it.
        .testTarget(name: "CLITests", dependencies: ["nlu", "NLUFuzzSupport", "NLUTestSupport", .product(name: "GRDB", package: "GRDB.swift")]),
    ],
    swiftLanguageModes: [.v6]
)
