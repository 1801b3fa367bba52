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
    ],
    targets: [
        .executableTarget(name: "Consumer", dependencies: [
            .product(name: "WebImage", package: "SwiftWebImage"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOHTTP1", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
        ]),
    ]
)
