// swift-tools-version:6.1
import PackageDescription

// The OpenAPI generator, pinned, on its own: `scripts/generate-client.sh` builds its command-line tool from here and
// regenerates `Generated/PipelineOpenAPI/` from docs/openapi.yaml. Kept out of the main package so that normal
// builds never compile the generator (OpenAPIKit, Yams); the generated code is committed.
let package = Package(
    name: "openapi-gen",
    dependencies: [
        .package(url: "https://github.com/apple/swift-openapi-generator", exact: "1.14.3")
    ]
)
