// Side-by-side benchmarks: each suite prints the library beside the raw C library or a peer, measured in
// the same run. `swift run -c release webimage-benchmarks [suite…]` (all suites when none is named);
// `--smartcrop CASES` is smart gravity's side of Benchmarks/smart_crop.sh (see SmartCropProbe); `--bare-server PORT
// FILE` is serve_bench's bare Hummingbird handler (see BareServer); `--video-frame …` and `--video-child` are the
// video suite's children (see VideoBenchmarkChild).
let suites: [(name: String, run: () throws -> Void)] = [
    ("jpeg", JPEGBenchmarks.run),
    ("png", PNGBenchmarks.run),
    ("webp", WebPBenchmarks.run),
    ("gif", GIFBenchmarks.run),
    ("tiff", TIFFBenchmarks.run),
    ("pdf", PDFBenchmark.run),
    ("svg", SVGBenchmarks.run),
    ("modern-decode", ModernDecodeBenchmarks.run),
    ("modern-encode", ModernEncodeBenchmarks.run),
    ("color", ColorBenchmark.run),
    ("store-encode", StoreEncodeBenchmark.run),
    ("animated-memory", AnimatedMemoryBenchmark.run),
    ("thumbnail-rss", ThumbnailRSSBenchmark.run),
    ("memory-cache", CacheBenchmarks.runMemory),
    ("disk-cache", CacheBenchmarks.runDisk),
    ("loader", LoaderBenchmarks.run),
    ("manager", ManagerBenchmarks.run),
    ("end-to-end", EndToEndBenchmark.run),
    ("fetch-rss", FetchRSSBenchmark.run),
    ("shared-tier", SharedTierBenchmark.run),
    ("deadline", DeadlineBenchmark.run),
    ("s3", S3Benchmark.run),
    ("tracing", TracingBenchmark.run),
    ("library-logs", LibraryLogsBenchmark.run),
    ("serve-limit", ServeLimitBenchmark.run),
    ("autoquality", AutoQualityBenchmark.run),
    ("best-format", BestFormatBenchmark.run),
    ("video", VideoBenchmark.run),
]

let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == "--smartcrop", arguments.count == 2 {
    try SmartCropProbe.run(casesPath: arguments[1])
} else if arguments.first == "--bare-server", arguments.count == 3, let port = Int(arguments[1]) {
    try await BareServer.run(port: port, file: arguments[2])
} else if arguments == VideoBenchmarkChild.childArguments {
    VideoBenchmarkChild.runFrameChild()
} else if arguments.first == "--video-frame", arguments.count == 5, let second = Double(arguments[3]),
          let keyframes = Bool(arguments[4]) {
    try VideoBenchmarkChild.run(mode: arguments[1], path: arguments[2], second: second, keyframes: keyframes)
} else if arguments.first == "--child", arguments.count == 3 {
    if ThumbnailRSSBenchmark.childModes.contains(arguments[1]) {
        try ThumbnailRSSBenchmark.runChild(mode: arguments[1], path: arguments[2])
    } else {
        try AnimatedMemoryBenchmark.runChild(mode: arguments[1], path: arguments[2])
    }
} else {
    let wanted = Set(arguments)
    for suite in suites where wanted.isEmpty || wanted.contains(suite.name) {
        print("== \(suite.name)")
        try suite.run()
    }
}
