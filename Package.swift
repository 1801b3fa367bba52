// swift-tools-version:6.2
import PackageDescription

// Warnings are errors in our own builds through `-Xswiftc -warnings-as-errors` in the Makefile and CI, not
// here: SwiftPM refuses unsafe build settings in a package depended on by version.

let package = Package(
    name: "SwiftWebImage",
    platforms: [.macOS(.v15)],
    products: [
        // What a depending package may import (SwiftPM exposes products, not targets): the pipeline, the image
        // service as a library (mount `ImageProxy.addRoutes(to:)` in any Hummingbird app) and the Redis tier.
        .library(name: "WebImage", targets: ["WebImage"]),
        .library(name: "WebImageServer", targets: ["WebImageServer"]),
        .library(name: "WebImageRedis", targets: ["WebImageRedis"]),
        // Video poster frames (FFmpeg), a coder apps add: not part of `WebImage`, so apps without it link no FFmpeg.
        .library(name: "WebImageVideo", targets: ["WebImageVideo"]),
        .executable(name: "webimage", targets: ["webimage"]),
        .executable(name: "webimage-demo", targets: ["WebImageDemo"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        // TLS settings of the https transport (trust roots); already in AsyncHTTPClient's graph.
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        // Hummingbird's header types (already in its graph), with the traits Hummingbird asks for.
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0", traits: []),
        // Spans of the service's stages (the API only: a no-op tracer unless an executable bootstraps one).
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.7.3"),
        // The OTLP/HTTP exporter of `webimage serve`; without its default gRPC trait (a much longer build).
        .package(url: "https://github.com/swift-otel/swift-otel", from: "1.6.0", traits: ["OTLPHTTP"]),
    ],
    targets: [
        // System libraries (Debian -dev packages, found through pkg-config).
        .systemLibrary(name: "CTurboJPEG", pkgConfig: "libturbojpeg",
                       providers: [.apt(["libturbojpeg0-dev"])]),
        .systemLibrary(name: "CPNG", pkgConfig: "libpng16", providers: [.apt(["libpng-dev"])]),
        .systemLibrary(name: "CWebP", pkgConfig: "libwebp libwebpdemux libwebpmux",
                       providers: [.apt(["libwebp-dev"])]),
        .systemLibrary(name: "CGIF", providers: [.apt(["libgif-dev"])]),
        // No pkg-config: libavif.pc adds -DAVIF_DLL (Windows-only), a flag SwiftPM refuses with a warning.
        .systemLibrary(name: "CAVIF", providers: [.apt(["libavif-dev"])]),
        .systemLibrary(name: "CHEIF", pkgConfig: "libheif", providers: [.apt(["libheif-dev"])]),
        // No pkg-config: libjxl's flags carry a define SwiftPM refuses (and warns about); the headers and
        // libraries are in the default paths.
        .systemLibrary(name: "CJXL", providers: [.apt(["libjxl-dev"])]),
        // Little CMS: ICC colour conversion for every decoder (the default sRGB output).
        .systemLibrary(name: "CLCMS2", pkgConfig: "lcms2", providers: [.apt(["liblcms2-dev"])]),
        // zlib, streamed: SVGZ inflated within its limits, and the loopback server's gzip and deflate response bodies.
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        // Whole-buffer deflate, about twice zlib's speed at level 1: the PNG writer's fast setting.
        .systemLibrary(name: "CDeflate", pkgConfig: "libdeflate", providers: [.apt(["libdeflate-dev"])]),
        .systemLibrary(name: "CImageQuant", pkgConfig: "imagequant", providers: [.apt(["libimagequant-dev"])]),
        // libtiff 4.5: TIFF decoding and encoding from memory, with per-handle error handlers and allocation bounds.
        .systemLibrary(name: "CTIFF", pkgConfig: "libtiff-4", providers: [.apt(["libtiff-dev"])]),
        // libxml2: XML read as librsvg reads it (`XMLEventReader`): the SVG text check, XMP, the service's SVG
        // sanitiser.
        .systemLibrary(name: "CLibXML2", pkgConfig: "libxml-2.0", providers: [.apt(["libxml2-dev"])]),
        // librsvg 2.54 (with cairo and GLib): SVG rasterising, the library libvips and imgproxy use. Its flags
        // carry -pthread, which SwiftPM drops with a warning (no header needs it).
        .systemLibrary(name: "CRSVG", pkgConfig: "librsvg-2.0", providers: [.apt(["librsvg2-dev"])]),
        // poppler 22 through its GLib interface (with cairo, which it renders on): PDF pages from memory.
        .systemLibrary(name: "CPoppler", pkgConfig: "poppler-glib", providers: [.apt(["libpoppler-glib-dev"])]),
        // pango 1.50 on cairo: the service's text watermarks (Pango markup). Its flags carry -pthread too.
        .systemLibrary(name: "CPango", pkgConfig: "pangocairo", providers: [.apt(["libpango1.0-dev"])]),
        // libexif 0.6: the service's `/info` names EXIF tags and writes their values as libexif does (imgproxy's
        // answers show its titles and texts).
        .systemLibrary(name: "CExif", pkgConfig: "libexif", providers: [.apt(["libexif-dev"])]),
        // FFmpeg 5.1: video containers read from memory (libavformat), their frames decoded (libavcodec) and
        // converted to RGBA (libswscale).
        .systemLibrary(name: "CFFmpeg", pkgConfig: "libavformat libavcodec libswscale libavutil",
                       providers: [.apt(["libavformat-dev", "libavcodec-dev", "libswscale-dev"])]),
        // libjpeg behind a setjmp error handler (incremental decoding).
        .target(name: "CJPEGShim", linkerSettings: [.linkedLibrary("jpeg")]),
        // libpng's full and progressive readers report errors by longjmp, which Swift cannot catch.
        .target(name: "CPNGShim", linkerSettings: [.linkedLibrary("png16")]),
        // What glibc declares only under _GNU_SOURCE: sched_getcpu (the memory cache's per-CPU reader slots), and
        // posix_spawn's close-from and chdir actions (child processes, started without Foundation's Process).
        .target(name: "CSystemShim"),
        // The colour conversion's per-pixel loop for matrix-shaper profiles.
        .target(name: "CColorShim"),

        // The resampler's inner loops, compiled for AVX2 beside the baseline.
        .target(name: "CResample"),
        // Model and protocols; the resampler's loops are its only C.
        .target(name: "WebImageCore", dependencies: ["CResample"]),
        // One coder per format over the C libraries.
        .target(name: "WebImageCodecs",
                dependencies: ["WebImageCore", "CTurboJPEG", "CPNG", "CWebP", "CGIF", "CJPEGShim", "CPNGShim",
                               "CColorShim", "CDeflate", "CImageQuant", "CZlib", "CAVIF", "CHEIF", "CJXL", "CLCMS2", "CTIFF", "CRSVG",
                               "CPoppler", "CLibXML2"]),
        // What users import: the pipeline, re-exporting the model and registering every codec.
        .target(name: "WebImage", dependencies: ["WebImageCore", "WebImageCodecs", "CSystemShim",
                                                 .product(name: "Crypto", package: "swift-crypto"),
                                                 .product(name: "AsyncHTTPClient", package: "async-http-client"),
                                                 .product(name: "NIOCore", package: "swift-nio"),
                                                 .product(name: "NIOHTTP1", package: "swift-nio"),
                                                 .product(name: "NIOPosix", package: "swift-nio"),
                                                 .product(name: "NIOSSL", package: "swift-nio-ssl"),
                                                 .product(name: "Logging", package: "swift-log"),
                                                 .product(name: "Metrics", package: "swift-metrics")]),
        // VideoThumbnailCoder: one frame of a video, in this process or in a bounded child (`VideoFrameChild`).
        .target(name: "WebImageVideo", dependencies: ["WebImage", "WebImageCore", "CFFmpeg", "Spawning"]),
        // The shared cache tier: an ImageCaching over a small RESP client on SwiftNIO.
        .target(name: "WebImageRedis", dependencies: ["WebImage",
                                                      .product(name: "Crypto", package: "swift-crypto"),
                                                      .product(name: "Tracing", package: "swift-distributed-tracing"),
                                                      .product(name: "NIOCore", package: "swift-nio"),
                                                      .product(name: "NIOPosix", package: "swift-nio"),
                                                      .product(name: "NIOTLS", package: "swift-nio"),
                                                      .product(name: "NIOSSL", package: "swift-nio-ssl")]),
        // AWS Signature Version 4 for S3-compatible stores: small, ours (no AWS package is available), behind
        // `RequestSigning`.
        .target(name: "AWSSigV4", dependencies: [.product(name: "Crypto", package: "swift-crypto")]),
        // Child processes started with posix_spawn and reaped: the service's PDF renderer, the tests' children.
        .target(name: "Spawning", dependencies: ["CSystemShim"]),
        // The log handlers that keep every value on its line (escaped text, JSON): the service's and the command
        // line's, without the service. WebImage for `StandardErrorOutput`, the stream the JSON lines go to.
        .target(name: "WebImageLogging",
                dependencies: ["WebImage", .product(name: "Logging", package: "swift-log")]),
        // The image service as a library: URL parsing, signatures, source policy, the processing pipeline and a
        // Hummingbird router any Hummingbird app can mount.
        .target(name: "WebImageServer",
                dependencies: ["AWSSigV4", "WebImage", "WebImageCodecs", "WebImageRedis", "WebImageLogging", "CSystemShim",
                               "Spawning", "CPango", "WebImageVideo", "CExif", "CImageQuant", "CDeflate",
                               .product(name: "Crypto", package: "swift-crypto"),
                               .product(name: "Hummingbird", package: "hummingbird"),
                               // Its HTTP/1 child channel, wrapped to check the Host header.
                               .product(name: "HummingbirdCore", package: "hummingbird"),
                               .product(name: "Logging", package: "swift-log"),
                               .product(name: "Metrics", package: "swift-metrics"),
                               .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                               .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                               .product(name: "Prometheus", package: "swift-prometheus"),
                               .product(name: "Tracing", package: "swift-distributed-tracing"),
                               // `Extractor` and `Injector`, which the trace-context carriers implement.
                               .product(name: "Instrumentation", package: "swift-distributed-tracing"),
                               .product(name: "HTTPTypes", package: "swift-http-types"),
                               .product(name: "AsyncHTTPClient", package: "async-http-client"),
                               .product(name: "NIOPosix", package: "swift-nio"),
                               .product(name: "NIOCore", package: "swift-nio"),
                               .product(name: "NIOHTTP1", package: "swift-nio")]),
        // What the two executables share: one-line failures, file I/O, JSON, logging, `--transform`. Not a
        // product: its declarations are `package`, for this package's targets only.
        .target(name: "WebImageCLISupport",
                dependencies: ["WebImage", "WebImageLogging",
                               .product(name: "Logging", package: "swift-log"),
                               .product(name: "ArgumentParser", package: "swift-argument-parser")]),
        // The command-line tool: the libraries only.
        .executableTarget(name: "webimage",
                          dependencies: ["WebImage", "WebImageServer", "WebImageRedis", "WebImageCLISupport", "WebImageVideo",
                                         // `--use-s3`: its credentials are AWSSigV4's type.
                                         "AWSSigV4",
                                         .product(name: "Logging", package: "swift-log"),
                                         .product(name: "ArgumentParser", package: "swift-argument-parser"),
                                         .product(name: "Metrics", package: "swift-metrics"),
                                         .product(name: "Prometheus", package: "swift-prometheus"),
                                         .product(name: "Tracing", package: "swift-distributed-tracing"),
                                         .product(name: "OTel", package: "swift-otel"),
                                         .product(name: "ServiceLifecycle", package: "swift-service-lifecycle")]),
        // The offline demo: TurboJPEG for its progressive JPEGs, the loopback server as its origin.
        .executableTarget(name: "WebImageDemo",
                          dependencies: ["WebImage", "WebImageServer", "WebImageCLISupport", "LoopbackServer",
                                         "CTurboJPEG",
                                         .product(name: "ArgumentParser", package: "swift-argument-parser"),
                                         .product(name: "AsyncHTTPClient", package: "async-http-client"),
                                         .product(name: "NIOCore", package: "swift-nio")]),

        .executableTarget(name: "webimage-benchmarks",
                          dependencies: ["WebImage", "CTurboJPEG", "CPNG", "CWebP", "CGIF", "CLCMS2", "CAVIF", "CHEIF", "CJXL", "CTIFF",
                                         "CRSVG", "CPoppler", .product(name: "AsyncHTTPClient", package: "async-http-client"), "TestSupport",
                                         "WebImageServer", "WebImageRedis", "RedisTestSupport", "S3TestSupport",
                                         "AWSSigV4", "WebImageVideo", "PeakRSS",
                                         .product(name: "NIOCore", package: "swift-nio"),
                                         .product(name: "Tracing", package: "swift-distributed-tracing"),
                                         .product(name: "Hummingbird", package: "hummingbird")],
                          path: "Benchmarks/WebImageBenchmarks"),

        // An in-process HTTP server on 127.0.0.1: the demo's image server, and the tests' and benchmarks'.
        .target(name: "LoopbackServer",
                dependencies: ["CZlib",
                               .product(name: "NIOCore", package: "swift-nio"),
                               .product(name: "NIOHTTP1", package: "swift-nio"),
                               .product(name: "NIOPosix", package: "swift-nio")]),
        // Test helpers shared by test targets and benchmarks: re-exports the loopback server; a recording log handler.
        .target(name: "TestSupport", dependencies: ["LoopbackServer", "CLCMS2", "CSystemShim", "CZlib", "Spawning", .product(name: "Logging", package: "swift-log")],
                path: "Tests/Support"),
        // A real redis-server started on a free loopback port, and fake servers that answer junk or nothing:
        // the Redis tests', the proxy's shared-tier tests' and the benchmarks'.
        .target(name: "RedisTestSupport",
                dependencies: ["WebImageRedis", "TestSupport", .product(name: "NIOCore", package: "swift-nio"),
                               .product(name: "NIOPosix", package: "swift-nio")],
                path: "Tests/RedisSupport"),

        // A real S3-compatible server (`moto_server`) on a free loopback port: the S3 source tests' and the benchmarks'.
        .target(name: "S3TestSupport",
                dependencies: ["RedisTestSupport", "TestSupport", "AWSSigV4",
                               .product(name: "AsyncHTTPClient", package: "async-http-client"),
                               .product(name: "NIOCore", package: "swift-nio"),
                               .product(name: "NIOHTTP1", package: "swift-nio")],
                path: "Tests/S3Support"),

        .testTarget(name: "WebImageCoreTests", dependencies: ["WebImageCore"]),
        // Videos made by Debian's ffmpeg in the tests; `webimage` as the video child (`video-frame`).
        .testTarget(name: "WebImageVideoTests", dependencies: ["WebImageVideo", "WebImage", "TestSupport", "webimage"]),
        .testTarget(name: "WebImageCachingTests", dependencies: ["WebImage", "CacheCrashWriter", "TestSupport"]),
        // Child process for the cache crash test: writes entries until it is killed.
        .executableTarget(name: "CacheCrashWriter", dependencies: ["WebImage", "TestSupport"],
                          path: "Tests/CacheCrashWriter"),
        .testTarget(name: "WebImageAnimatedTests", dependencies: ["WebImage", "TestSupport"]),
        .testTarget(name: "WebImageTransformingTests", dependencies: ["WebImage"]),
        // CHEIF: the HEIF tests build files with embedded thumbnails through libheif itself; lcms2 directly
        // too: the colour tests build their P3 and Adobe RGB profiles with it; CTIFF: the TIFF tests compare with
        // libtiff's own RGBA reader and write files with tags the encoder never writes; TurboJPEG for the large
        // progressive JPEGs the cancellation tests stop mid-decode.
        .testTarget(name: "WebImageCodecsTests",
                    dependencies: ["WebImage", "WebImageCore", "WebImageCodecs", "TestSupport", "CHEIF", "CLCMS2",
                                   "CTIFF", "CTurboJPEG"],
                    exclude: ["Fixtures"]),
        // The executables as dependencies: built next to the test bundle, where the tests run them.
        .testTarget(name: "WebImageCLITests", dependencies: ["WebImage", "WebImageServer", "WebImageRedis", "webimage",
                                                           "WebImageDemo", "WebImageCLISupport", "PeakRSS",
                                                           "TestSupport", "RedisTestSupport", "S3TestSupport"]),
        // Child process for the CLI memory tests: runs a command and reports the command's own peak RSS.
        .executableTarget(name: "PeakRSS", path: "Tests/PeakRSS"),
        .testTarget(name: "WebImageLoadingTests", dependencies: ["WebImage", "TestSupport"]),
        .testTarget(name: "WebImageManagerTests", dependencies: ["WebImage", "TestSupport"]),
        .testTarget(name: "WebImageServerTests",
                    dependencies: ["WebImageServer", "WebImage", "WebImageRedis", "AWSSigV4", "TestSupport",
                                   "RedisTestSupport", "S3TestSupport", "URLPropertyChild",
                                   "SSRFNamespaceChild",
                                   .product(name: "Logging", package: "swift-log"),
                                   .product(name: "MetricsTestKit", package: "swift-metrics"),
                                   .product(name: "Prometheus", package: "swift-prometheus"),
                                   .product(name: "Crypto", package: "swift-crypto"),
                                   .product(name: "Tracing", package: "swift-distributed-tracing"),
                                   .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
                                   .product(name: "NIOSSL", package: "swift-nio-ssl"),
                                   .product(name: "Hummingbird", package: "hummingbird"),
                                   .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                                   .product(name: "AsyncHTTPClient", package: "async-http-client"),
                                   .product(name: "NIOCore", package: "swift-nio"),
                                   .product(name: "NIOHTTP1", package: "swift-nio"),
                                   .product(name: "NIOPosix", package: "swift-nio")]),
        // Child process of the URL property test: generated URLs through the downloader, the manager and the
        // service, where a trap ends the child instead of the test runner.
        .executableTarget(name: "URLPropertyChild", dependencies: ["WebImage", "WebImageServer", "TestSupport"],
                          path: "Tests/URLPropertyChild"),
        // Child process of the SSRF namespace test: the service with the default policy, asked for IPv6 forms
        // that embed loopback, inside a network namespace with nothing but loopback.
        .executableTarget(name: "SSRFNamespaceChild",
                          dependencies: ["WebImage", "WebImageServer", "TestSupport",
                                         .product(name: "AsyncHTTPClient", package: "async-http-client")],
                          path: "Tests/SSRFNamespaceChild"),
        // TestSupport for the package's root: the fuzz seeds are read as values.
        .testTarget(name: "WebImageRedisTests",
                    dependencies: ["WebImageRedis", "WebImage", "RedisTestSupport", "TestSupport"]),
        // AWS's published SigV4 test suite (Tests/Corpus/sigv4).
        .testTarget(name: "AWSSigV4Tests", dependencies: ["AWSSigV4", "TestSupport"]),
        // Logs and metrics of real loads, through a recording log handler and MetricsTestKit's factory; the log
        // handlers of WebImageLogging.
        .testTarget(name: "WebImageObservabilityTests",
                    dependencies: ["WebImage", "WebImageLogging", "TestSupport",
                                   .product(name: "Logging", package: "swift-log"),
                                   .product(name: "Metrics", package: "swift-metrics"),
                                   .product(name: "MetricsTestKit", package: "swift-metrics")]),
        // Extension points used as an app would: plain `import WebImage`, never `@testable`.
        .testTarget(name: "WebImagePublicAPITests", dependencies: ["WebImage", "TestSupport"]),
    ]
)
