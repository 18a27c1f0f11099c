// swift-tools-version:6.1
import PackageDescription

// The benchmarks CI holds (issue 42): package-benchmark targets over the pipeline's own libraries, with thresholds on
// instructions and mallocs committed in Thresholds/ and checked by scripts/benchmark-thresholds.sh (.ci/run). A
// package of its own, depending on the pipeline by path, so that the main package's builds never compile it (as
// hummingbird keeps its benchmarks). BENCHMARKS.md keeps the wall-time ratios; these counts guard against regressions.
let package = Package(
    name: "pipeline-benchmarks",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(name: "workout-pipeline", path: "../.."),
        // MallocInterposer only: the default traits add the Swift runtime interposer on Linux with Swift 6.3, a
        // package the local mirror does not hold (and ARC counts are not measured here).
        .package(url: "https://github.com/ordo-one/benchmark", exact: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        // The stages and their fixed inputs, shared by the benchmarks and the instruction counter.
        .target(
            name: "PipelineWorkloads",
            dependencies: [
                .product(name: "FTMSDecode", package: "workout-pipeline"),
                .product(name: "SessionAssembly", package: "workout-pipeline"),
                .product(name: "WorkoutMetrics", package: "workout-pipeline"),
                .product(name: "WorkoutFiles", package: "workout-pipeline"),
                .product(name: "Ingest", package: "workout-pipeline"),
                .product(name: "Store", package: "workout-pipeline"),
                .product(name: "StoreSQLite", package: "workout-pipeline"),
                .product(name: "SyntheticData", package: "workout-pipeline"),
                .product(name: "PlanEngine", package: "workout-pipeline"),
            ]),
        // The package-benchmark target: mallocs (and instructions where perf events exist) against Thresholds/.
        .executableTarget(
            name: "PipelineBenchmarks",
            dependencies: ["PipelineWorkloads", .product(name: "Benchmark", package: "benchmark")],
            path: "Benchmarks/PipelineBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // One stage run once for valgrind's instruction count, with callgrind's client requests (valgrind's header,
        // from Debian's valgrind) around its call: no harness, since valgrind 3.19 crashes on package-benchmark's
        // malloc interposer. Built in .build-count by scripts/benchmark-thresholds.sh.
        .target(name: "CCallgrind"),
        .executableTarget(name: "pipeline-workload", dependencies: ["PipelineWorkloads", "CCallgrind"]),
    ],
    swiftLanguageModes: [.v6]
)
