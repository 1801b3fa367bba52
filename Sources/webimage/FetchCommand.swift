import ArgumentParser
import Foundation
import WebImage

/// `webimage fetch URL...`: load images through `ImageManager` (cache, coalescing, decoding, transforms).
struct FetchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fetch",
        abstract: "Load images through the cache and downloader, optionally writing them to a directory.",
        discussion: """
            URLs come from the arguments and from --from FILE (one per line; '-' reads stdin; blank lines and \
            lines starting with # are ignored; use it for long lists). Every URL goes through one ImageManager: \
            duplicates share one download and the disk cache in --cache-dir persists between runs. --json prints one object per URL, in input order, with url, ok, \
            cacheType (none|memory|disk), width, height, frameCount, format, bytes, file, millis and, on failure, \
            error {code, message}. Exits 1 if any URL failed.
            """)

    @Option(help: ArgumentHelp("Read URLs from this file, one per line ('-': stdin).", valueName: "FILE"))
    var from: String?

    @Argument(help: ArgumentHelp("Image URLs (http, https or file).", valueName: "URL"))
    var urls: [String] = []

    @Option(name: [.customShort("o"), .customLong("output")],
            help: ArgumentHelp("Write each image into this directory.", valueName: "DIR"))
    var output: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("Decode as a thumbnail fitting this size.", valueName: "WxH"))
    var thumbnail: OptionValue<PixelSize>?

    @Flag(help: "With --thumbnail, stretch to exactly WxH instead of keeping the aspect ratio.")
    var stretch = false

    @Option(help: ArgumentHelp("Transformers, e.g. 'resize:200x200:fill;crop:0,0,100,100;round:20;flip:h;"
                               + "rotate:90;tint:#ff000080;blur:4'.", valueName: "SPEC"))
    var transform: String?

    @Option(help: ArgumentHelp("With -o, write this format: jpeg, png, gif, webp, avif, heic or jxl.", valueName: "FORMAT"))
    var format: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("With --format, lossy quality from 0 to 1.", valueName: "Q"))
    var quality: OptionValue<Double>?

    @Option(help: ArgumentHelp("WebImageOptions names, comma-separated (refreshCached,retryFailed,fromCacheOnly,…).",
                               valueName: "LIST"))
    var options: String?

    @OptionGroup var location: CacheLocation

    @Flag(help: "Neither read nor write the cache.")
    var noCache = false

    @OptionGroup var network: NetworkSettings

    @Flag(help: "Print one JSON object per URL (no progress bars).")
    var json = false

    @OptionGroup var logging: LoggingOptions

    func run() async throws {
        logging.bootstrap()
        let request: FetchRequest
        let all: [String]
        do {
            all = urls + (try from.map(URLList.read) ?? [])
            guard !all.isEmpty else { throw CLIFailure(subject: "fetch", reason: "no URLs: give URL arguments or --from FILE") }
            request = try makeRequest()
        } catch {
            Console.error(CLIFailure(subject: "fetch", error: error).description)
            throw ExitCode.failure
        }
        let records = await FetchRun(request: request, urls: all).run()
        let failed = records.filter { !$0.ok }.count
        if !json {
            print("\(records.count - failed) ok, \(failed) failed")
        }
        if failed > 0 { throw ExitCode.failure }
    }

    /// Every flag checked and turned into what the run needs; fails with one line naming the bad value.
    private func makeRequest() throws -> FetchRequest {
        var loadOptions: WebImageOptions = [.queryMemoryData, .waitStoreCache]
        if let options { loadOptions.formUnion(try WebImageOptions(parsing: options)) }
        var context = WebImageContext()
        context.transformer = try transform.map(TransformSpec.parse)
        if let thumbnail = try thumbnail?.value("--thumbnail", hint: OptionHint.size) {
            context.decodeOptions.thumbnailPixelSize = thumbnail
            context.decodeOptions.preserveAspectRatio = !stretch
        }
        if noCache {
            context.queryCacheType = .none
            context.storeCacheType = .none
            context.originalQueryCacheType = .none
            context.originalStoreCacheType = .none
        }
        let quality = try quality?.value("--quality", hint: OptionHint.quality) { (0...1).contains($0) }
        if output == nil, format != nil || quality != nil {
            throw CLIFailure(subject: format != nil ? "--format" : "--quality", reason: "only applies with -o DIR")
        }
        var writer: FetchOutput?
        if let output {
            let target = try format.map { name -> ImageFormat in
                guard let named = ImageFormat(fileExtension: name) else {
                    throw CLIFailure(subject: "--format",
                                     reason: "unknown format '\(name)': use \(OutputFormat.choices)")
                }
                try OutputFormat.requireEncoder(named, path: output)
                return named
            }
            try FileIO.makeDirectory(output)
            guard access(output, W_OK) == 0 else {
                throw CLIFailure(subject: output, reason: "cannot write: \(String(cString: strerror(errno)))")
            }
            writer = FetchOutput(directory: output, format: target, quality: quality,
                                 reshaped: thumbnail != nil || transform != nil)
        }
        let downloader = try network.downloaderConfiguration()
        return FetchRequest(options: loadOptions, context: context,
                            cache: noCache ? location.makeImageCache() : try location.openImageCache(),
                            downloader: downloader, output: writer, json: json)
    }
}
