// swift-tools-version:6.2
import PackageDescription

// libFuzzer targets, one executable per entry point. A package of their own: they are built with
// `-sanitize=fuzzer,address -parse-as-library` (passed by `make fuzz`, see run.sh), flags the main
// package's products must not need, and nothing depends on this one.
let package = Package(
    name: "SwiftWebImageFuzz",
    platforms: [.macOS(.v15)],
    // Named: a path dependency is otherwise known by its folder, which differs between clones.
    dependencies: [.package(name: "SwiftWebImage", path: "..")],
    targets: [
        // libFuzzer's driver, declared for Swift; each target's `main` hands it the test function.
        .systemLibrary(name: "CLibFuzzer"),
        .target(name: "FuzzSupport", dependencies: ["CLibFuzzer"]),
        .executableTarget(name: "FuzzProxyPath",
                          dependencies: ["FuzzSupport", .product(name: "WebImageServer", package: "SwiftWebImage")]),
        .executableTarget(name: "FuzzImageHeader",
                          dependencies: ["FuzzSupport", .product(name: "WebImage", package: "SwiftWebImage")]),
        .executableTarget(name: "FuzzImageDecode",
                          dependencies: ["FuzzSupport", .product(name: "WebImage", package: "SwiftWebImage")]),
        .executableTarget(name: "FuzzRESPParser",
                          dependencies: ["FuzzSupport", .product(name: "WebImageRedis", package: "SwiftWebImage")]),
        .executableTarget(name: "FuzzSharedCacheEntry",
                          dependencies: ["FuzzSupport", .product(name: "WebImageRedis", package: "SwiftWebImage")]),
    ]
)
