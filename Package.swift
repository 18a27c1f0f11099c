// swift-tools-version:6.1
import PackageDescription

// Dependency direction (bottom → top):
//   CBLAS, CZlib, CZstd, CLZ4, FTMSDecode, PlanEngine, Cache, TaskManager, Store   (pure: bytes, maths, value types)
//   SessionAssembly (FTMSDecode)                                (pure: the 1 Hz series of a recording)
//   FTMSRender (FTMSDecode, CivilDate)                          (pure: `pipeline decode`'s contract fields and JSON)
//   WorkoutMetrics (CBLAS)                                      (pure maths)
//   StoreSQLite (GRDB) · StorePostgres (postgres-nio) · Ingest   (storage and input edges)
//   SyntheticData (Ingest wire types, FTMSDecode writer)
//   Pipeline (everything above, no concrete store) · HTTPAPI (Hummingbird)
//   PipelineCLI → executable `pipeline`
//   PipelineOpenAPI (Generated/: what docs/openapi.yaml generates; OpenAPIRuntime)
//   PipelineClient (PipelineOpenAPI re-exported, a transport) · PipelineSync (PipelineClient)
//                                                               (what an app links; nothing of the server)
let package = Package(
    name: "workout-pipeline",
    // iOS: the apps' client (PipelineClient, PipelineSync); the rest of the package is built on Linux and macOS.
    platforms: [.macOS(.v14), .iOS(.v17)],
    products: [
        .executable(name: "pipeline", targets: ["PipelineCLI"]),
        .executable(name: "pipeline-bench", targets: ["PipelineBench"]),
        .library(name: "FTMSDecode", targets: ["FTMSDecode"]),
        .library(name: "FTMSRender", targets: ["FTMSRender"]),
        .library(name: "SessionAssembly", targets: ["SessionAssembly"]),
        .library(name: "WorkoutMetrics", targets: ["WorkoutMetrics"]),
        .library(name: "PlanEngine", targets: ["PlanEngine"]),
        // What an app links (docs/client.md): the client generated from docs/openapi.yaml and the delta sync on top of it.
        .library(name: "PipelineClient", targets: ["PipelineClient"]),
        .library(name: "PipelineSync", targets: ["PipelineSync"]),
        // For the opt-in benchmark package (Benchmarks/package), which depends on this one by path and can
        // only name products; nothing here is built differently for them.
        .library(name: "WorkoutFiles", targets: ["WorkoutFiles"]),
        .library(name: "Ingest", targets: ["Ingest"]),
        .library(name: "Store", targets: ["Store"]),
        .library(name: "StoreSQLite", targets: ["StoreSQLite"]),
        .library(name: "SyntheticData", targets: ["SyntheticData"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        // Already in the graph through hummingbird and postgres-nio; named here because the API's deadline handler and
        // the client use their modules directly (scripts/check-deps.py holds every target to what it imports).
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.3"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        // Property tests with shrinking: the plan engine, the same activity from several sources (docs/workout-files.md),
        // the sync log, the session assembler's channels; linked by test targets only.
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
        // `swift package generate-documentation` for the library products' DocC catalogues (scripts/docs.sh); a command
        // plugin only: nothing of it is compiled into the targets.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
        // The apps' client (docs/client.md): the generated code's runtime, and one transport per platform (URLSession on
        // Apple platforms, AsyncHTTPClient on Linux). The generator itself is not a dependency: Tools/openapi-gen.
        .package(url: "https://github.com/apple/swift-openapi-runtime", from: "1.13.4"),
        .package(url: "https://github.com/apple/swift-openapi-urlsession", from: "1.4.0"),
        .package(url: "https://github.com/swift-server/swift-openapi-async-http-client", from: "1.5.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CBLAS", path: "Sources/CBLAS", pkgConfig: "openblas",
            providers: [.apt(["libopenblas-dev"])]),
        .systemLibrary(name: "CZlib", path: "Sources/CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        // zstd and LZ4: session recordings and workout samples are stored compressed (`Store/StoredRecording.swift`,
        // `Store/StoredSamples.swift`).
        .systemLibrary(
            name: "CZstd", path: "Sources/CZstd", pkgConfig: "libzstd", providers: [.apt(["libzstd-dev"])]),
        .systemLibrary(name: "CLZ4", path: "Sources/CLZ4", pkgConfig: "liblz4", providers: [.apt(["liblz4-dev"])]),
        .systemLibrary(
            name: "CXXHash", path: "Sources/CXXHash", pkgConfig: "libxxhash", providers: [.apt(["libxxhash-dev"])]),
        // The bulk of the recordings' Base64 decoded with AVX2 when the processor has it (`Ingest/Base64.swift`).
        .target(name: "CBase64"),
        .target(name: "FTMSDecode"),
        // The 1 Hz session series from a decoded recording: merging, gaps, counters, pauses (a client of FTMSDecode).
        .target(name: "SessionAssembly", dependencies: ["FTMSDecode"]),
        // A decoded value as the contract's named fields and `pipeline decode`'s JSON lines (a client of FTMSDecode).
        .target(name: "FTMSRender", dependencies: ["FTMSDecode", "CivilDate"]),
        // The one calendar: local dates and weekdays, shared by everything that speaks of days; and the one
        // `PlanState`, which the store (a plan version's state) and the plan engine (the plan screen) share.
        .target(name: "CivilDate"),
        .target(name: "WorkoutMetrics", dependencies: ["CBLAS", "CivilDate"]),
        .target(name: "PlanEngine", dependencies: ["CivilDate"]),
        .target(name: "Cache", dependencies: [.product(name: "Logging", package: "swift-log")]),
        .target(name: "TaskManager", dependencies: [.product(name: "Logging", package: "swift-log")]),
        .target(
            name: "Store",
            dependencies: ["CivilDate", "CZstd", "CLZ4", .product(name: "Crypto", package: "swift-crypto")]),
        // The version and the git revision of the build (`pipeline --version`, the upstream client's User-Agent); the
        // revision is read at build time by the plugin, never from git at run time.
        .target(name: "PipelineVersion", plugins: ["GitRevisionPlugin"]),
        .plugin(name: "GitRevisionPlugin", capability: .buildTool()),
        // The training report's HTML and SVG: pure rendering of plain values, no I/O.
        .target(name: "Report", dependencies: ["CivilDate"]),
        // Workout files (docs/workout-files.md): FIT, TCX, GPX and the Apple Health export read into typed activities; pure, no store.
        .target(name: "WorkoutFiles", dependencies: ["CZlib", "CivilDate"]),
        .target(
            name: "StoreSQLite",
            dependencies: [
                "Store", .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]),
        .target(
            name: "StorePostgres",
            dependencies: [
                "Store", .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]),
        .target(
            name: "Ingest",
            dependencies: [
                "Store", "CXXHash", "CBase64", "CivilDate", "FTMSDecode", "WorkoutFiles", "PipelineVersion",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]),
        .target(name: "SyntheticData", dependencies: ["Ingest", "FTMSDecode", "Store"]),
        .target(
            name: "Pipeline",
            dependencies: [
                "Store", "Ingest", "Report", "FTMSDecode", "SessionAssembly", "WorkoutMetrics", "PlanEngine",
                "CivilDate",
                .product(name: "Logging", package: "swift-log"),
            ]),
        .target(
            name: "HTTPAPI",
            dependencies: [
                "Pipeline", "Ingest", "Store", "Cache", "TaskManager", "WorkoutMetrics", "CZlib",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ]),
        .executableTarget(
            name: "PipelineCLI",
            dependencies: [
                "HTTPAPI", "StorePostgres",
                "Pipeline", "StoreSQLite", "SyntheticData", "FTMSDecode", "FTMSRender", "WorkoutMetrics", "PlanEngine",
                "PipelineVersion", "Ingest", "Store", "CivilDate",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]),
        // The code swift-openapi-generator writes for docs/openapi.yaml (types and the client), committed in Generated/
        // apart from the hand-written code and kept in step by `scripts/generate-client.sh --check` (.ci/run).
        .target(
            name: "PipelineOpenAPI",
            dependencies: [
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            path: "Generated/PipelineOpenAPI"),
        // The apps' client: PipelineOpenAPI (re-exported) with the convenience initialiser and middlewares.
        .target(
            name: "PipelineClient",
            dependencies: [
                "PipelineOpenAPI", "PipelineVersion",
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(
                    name: "OpenAPIURLSession", package: "swift-openapi-urlsession",
                    condition: .when(platforms: [.macOS, .iOS, .tvOS, .watchOS, .visionOS, .macCatalyst])),
                .product(
                    name: "OpenAPIAsyncHTTPClient", package: "swift-openapi-async-http-client",
                    condition: .when(platforms: [.linux])),
            ]),
        // The apps' delta sync over PipelineClient: upload, page the changes feed, apply to the app's store, resume.
        .target(
            name: "PipelineSync",
            dependencies: ["PipelineClient", .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime")]),
        // Release-mode benchmarks: `swift run -c release pipeline-bench <suite>` (see BENCHMARKS.md).
        .executableTarget(
            name: "PipelineBench",
            dependencies: [
                "FTMSDecode", "SessionAssembly", "WorkoutMetrics", "Cache", "TaskManager", "WorkoutFiles", "Pipeline",
                "Store",
                "StoreSQLite", "StorePostgres",
                "Ingest", "SyntheticData",
                .product(name: "GRDB", package: "GRDB.swift"), .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]),
        // Helpers the test targets share (seeded generator, gate, counter, log capture, child processes, a manual cache
        // clock); linked only by tests.
        .target(
            name: "TestKit", dependencies: ["Cache", .product(name: "Logging", package: "swift-log")],
            path: "Tests/TestKit"),
        // The plan tests' judges, linked only by tests: the engine's own rule checker (`PlanRules`, moved out of the
        // product) and the bridge to the coaching rubric's reference checker (`RubricChecker`: the rubric's `check_plan.py`, outside the repository; docs/plan-engine.md).
        .target(name: "PlanCheckKit", dependencies: ["PlanEngine", "TestKit"], path: "Tests/PlanCheckKit"),
        // The tests' token signer, written apart from the API's verifier; linked only by tests.
        .target(
            name: "APITestKit",
            dependencies: ["HTTPAPI", .product(name: "Crypto", package: "swift-crypto")], path: "Tests/APITestKit"),
        // The decoders and their rendering (FTMSRender), and two checks from bytes through to the series (the stream
        // split anywhere, a real rower's record parts).
        .testTarget(name: "FTMSDecodeTests", dependencies: ["FTMSDecode", "FTMSRender", "SessionAssembly", "TestKit"]),
        .testTarget(
            name: "SessionAssemblyTests",
            dependencies: [
                "SessionAssembly", "FTMSDecode", "TestKit",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]),
        .testTarget(name: "CivilDateTests", dependencies: ["CivilDate"]),
        .testTarget(
            name: "WorkoutMetricsTests",
            dependencies: [
                "WorkoutMetrics", "TestKit", .product(name: "PropertyBased", package: "swift-property-based"),
            ]),
        .testTarget(
            name: "PlanEngineTests",
            dependencies: [
                "PlanEngine", "PlanCheckKit", "TestKit",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]),
        .testTarget(name: "CacheTests", dependencies: ["Cache", "TestKit"]),
        .testTarget(
            name: "TaskManagerTests",
            dependencies: ["TaskManager", "TestKit", .product(name: "Logging", package: "swift-log")]),
        .testTarget(
            name: "StoreTests",
            dependencies: [
                "Store", "StoreSQLite", "StorePostgres", "TestKit",
                .product(name: "PropertyBased", package: "swift-property-based"),
                .product(name: "Crypto", package: "swift-crypto"), .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"), .product(name: "PostgresNIO", package: "postgres-nio"),
            ]),
        .testTarget(
            name: "APITests",
            dependencies: [
                "HTTPAPI", "Store", "StoreSQLite", "Pipeline", "Ingest", "TestKit", "FTMSDecode", "CZlib", "Cache",
                "TaskManager", "APITestKit",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Crypto", package: "swift-crypto"), .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]),
        .testTarget(
            name: "IngestTests",
            dependencies: [
                "Ingest", "CBase64", "Store", "StoreSQLite", "FTMSDecode", "SyntheticData", "PipelineVersion",
                "TestKit", "WorkoutFiles",
            ]),
        .testTarget(
            name: "PipelineTests",
            dependencies: [
                "Pipeline", "StoreSQLite", "SyntheticData", "WorkoutMetrics", "SessionAssembly", "TestKit",
                "PlanCheckKit", "PipelineVersion", "FTMSDecode", "Ingest", "PlanEngine", "Store",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]),
        .testTarget(name: "ReportTests", dependencies: ["Report", "CivilDate"]),
        .testTarget(
            name: "WorkoutFilesTests", dependencies: ["WorkoutFiles", "CZlib"], resources: [.copy("Fixtures")]),
        // The client and the sync against the live server in-process (a phone's day, end to end; docs/client.md).
        .testTarget(
            name: "PipelineClientTests",
            dependencies: [
                "PipelineClient", "PipelineSync", "PipelineVersion", "HTTPAPI", "Pipeline", "Store", "StoreSQLite",
                "Ingest", "SyntheticData", "APITestKit",
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ]),
        // Several workers over one store, user locks, cross-process cache invalidation (both backends).
        .testTarget(
            name: "ScaleOutTests",
            dependencies: [
                "Pipeline", "Store", "StoreSQLite", "StorePostgres", "SyntheticData", "Ingest", "HTTPAPI", "Cache",
                "Report", "WorkoutMetrics", "CivilDate", "TestKit", "FTMSDecode",
                .product(name: "PostgresNIO", package: "postgres-nio"), .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
            ]),
    ],
    swiftLanguageModes: [.v6]
)
