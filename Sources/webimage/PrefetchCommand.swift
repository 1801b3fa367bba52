import ArgumentParser
import Foundation
import Synchronization
import WebImage

/// `webimage prefetch`: warm the disk cache with many URLs through `ImagePrefetcher`.
struct PrefetchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "prefetch",
        abstract: "Warm the disk cache with URLs, at low priority, through the prefetcher.",
        discussion: """
            URLs come from the arguments and from --from FILE (one per line; '-' reads stdin; blank lines and \
            lines starting with # are ignored). Ends with 'prefetched N, skipped M' (with --json: {"total", \
            "prefetched", "skipped"}). Exits 1 if any URL was skipped.
            """)

    @Option(help: ArgumentHelp("Read URLs from this file, one per line ('-': stdin).", valueName: "FILE"))
    var from: String?

    @Argument(help: ArgumentHelp("Image URLs.", valueName: "URL"))
    var urls: [String] = []

    @OptionGroup var location: CacheLocation

    @OptionGroup var network: NetworkSettings

    @Flag(help: "Print the summary as JSON (no progress bar).")
    var json = false

    @OptionGroup var logging: LoggingOptions

    func run() async throws {
        logging.bootstrap()
        let all: [String]
        let configuration: ImageDownloader.Configuration
        let cache: ImageCache
        do {
            all = urls + (try from.map(URLList.read) ?? [])
            configuration = try network.downloaderConfiguration()
            cache = try location.openImageCache()
        } catch {
            Console.error(CLIFailure(subject: "prefetch", error: error).description)
            throw ExitCode.failure
        }
        let summary = await prefetch(all, configuration: configuration, cache: cache)
        if json {
            print((try? JSONOutput.text(summary)) ?? "{}")
        } else {
            print("prefetched \(summary.prefetched), skipped \(summary.skipped)")
        }
        if summary.skipped > 0 { throw ExitCode.failure }
    }

    /// What `prefetch --json` prints.
    struct Summary: Encodable {
        var total: Int
        var prefetched: Int
        var skipped: Int
    }

    /// Runs one prefetcher batch and waits for it; invalid URLs are reported and counted as skipped.
    private func prefetch(_ all: [String], configuration: ImageDownloader.Configuration,
                          cache: ImageCache) async -> Summary {
        var valid: [URL] = []
        for text in all {
            switch URLArgument.check(text) {
            case .success(let url): valid.append(url)
            case .failure(let error): Console.error("webimage: \(text): \(error.description)")
            }
        }
        let downloader = ImageDownloader(configuration: configuration)
        let prefetcher = ImagePrefetcher(manager: ImageManager(cache: cache, loader: downloader))
        prefetcher.maxConcurrentPrefetchCount = configuration.maxConcurrentDownloads
        prefetcher.options = [.lowPriority, .waitStoreCache]
        let display = ProgressDisplay(total: all.count, overallLabel: "prefetched", enabled: !json)
        for index in 0..<(all.count - valid.count) { display.finish(index, skipped: true) }
        let watcher = PrefetchWatcher(display: display, offset: all.count - valid.count)
        prefetcher.delegate = watcher
        let skipped = await withCheckedContinuation { continuation in
            prefetcher.prefetch(valid, completed: { _, skipped in continuation.resume(returning: skipped) })
        }
        display.clear()
        try? await downloader.shutdown()
        let totalSkipped = skipped + all.count - valid.count
        return Summary(total: all.count, prefetched: all.count - totalSkipped, skipped: totalSkipped)
    }
}

/// Moves the progress bar as the prefetcher deals with each URL, counting the skipped ones.
final class PrefetchWatcher: ImagePrefetcherDelegate {
    private let display: ProgressDisplay
    private let next: Mutex<Int>

    init(display: ProgressDisplay, offset: Int) {
        self.display = display
        next = Mutex(offset)
    }

    func prefetcher(_ prefetcher: ImagePrefetcher, didPrefetch url: URL, image: Image?, finished: Int, total: Int) {
        let index = next.withLock { value in
            defer { value += 1 }
            return value
        }
        display.finish(index, skipped: image == nil)
    }
}
