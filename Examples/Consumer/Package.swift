// swift-tools-version:6.0
import PackageDescription

// A user's package, depending on SwiftWebImage the way every Swift package is added: by URL and version.
// Scripts/consumer-check.sh puts a tagged clone of the checkout at `.build-upstream/SwiftWebImage`; a real
// app writes the repository's URL instead.
let package = Package(
    name: "Consumer",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(url: "file://\(Context.packageDirectory)/.build-upstream/SwiftWebImage", from: "0.1.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        // The service consumer's own Hummingbird application, its HTTP client, service group and logger.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    ],
    targets: [
        // The library: decode, thumbnail, load through ImageManager.
        .executableTarget(name: "Consumer", dependencies: [
            .product(name: "WebImage", package: "SwiftWebImage"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOHTTP1", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
        ]),
        // Video poster frames: VideoThumbnailCoder in this process and in a bounded child of its own executable.
        .executableTarget(name: "VideoConsumer", dependencies: [
            .product(name: "WebImage", package: "SwiftWebImage"),
            .product(name: "WebImageVideo", package: "SwiftWebImage"),
        ]),
        // The image service mounted in the app's own Hummingbird application, and the Redis tier in a
        // CachesManager.
        .executableTarget(name: "ServiceConsumer", dependencies: [
            .product(name: "WebImage", package: "SwiftWebImage"),
            .product(name: "WebImageServer", package: "SwiftWebImage"),
            .product(name: "WebImageRedis", package: "SwiftWebImage"),
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "AsyncHTTPClient", package: "async-http-client"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            .product(name: "Logging", package: "swift-log"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
        ]),
    ]
)
