import ArgumentParser
import Foundation
import WebImage

/// `webimage cache path|stats|ls|clear|trim`: look at and tidy the disk cache `fetch` and `prefetch` fill.
struct CacheCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cache",
        abstract: "Show, list, clear or trim the disk cache.",
        discussion: """
            path: the cache directory. stats: entry count, total bytes, oldest and newest access. \
            ls: one line per entry (file, bytes, last access), most recent first. clear: remove every entry. \
            trim: remove entries not used for --max-age seconds (default one week; negative keeps all), then, \
            if the rest exceed --max-size bytes, the least recently used until half of it is used (as the \
            cache itself does on write).
            """)

    /// What to do with the cache.
    enum Action: String, CaseIterable, ExpressibleByArgument {
        case path, stats, ls, clear, trim
    }

    @Argument(help: ArgumentHelp("path, stats, ls, clear or trim.", valueName: "ACTION"))
    var action: Action

    @OptionGroup var location: CacheLocation

    @Option(parsing: .unconditional,
            help: ArgumentHelp("trim: the size limit in bytes (default: none).", valueName: "BYTES"))
    var maxSize: OptionValue<Int>?

    @Option(parsing: .unconditional,
            help: ArgumentHelp("trim: the age limit in seconds since last use (default 604800).", valueName: "SECONDS"))
    var maxAge: OptionValue<Double>?

    @Flag(help: "Print JSON (ls: one object per line).")
    var json = false

    @OptionGroup var logging: LoggingOptions

    func run() throws {
        logging.bootstrap()
        let path = location.path
        try reportingFailures(subject: path) {
            let maxSize = try maxSize?.value("--max-size", about: path, hint: "give a byte count of 0 or more") {
                $0 >= 0
            }
            let maxAge = try maxAge?.value("--max-age", about: path, hint: "give a number of seconds") { $0.isFinite }
            if (maxSize != nil || maxAge != nil) && action != .trim {
                throw CLIFailure(subject: path, reason: "--max-size and --max-age only apply to 'trim'")
            }
            switch action {
            case .path: try emit(["path": path], text: path)
            case .stats:
                let stats = CacheStats(path: path, entries: CacheEntry.list(path))
                try emit(stats, text: stats.text)
            case .ls: try list(path)
            case .clear: try remove(in: path, maxSize: nil, maxAge: nil) { $0.removeAll() }
            case .trim: try remove(in: path, maxSize: maxSize, maxAge: maxAge) { $0.removeExpiredData() }
            }
        }
    }

    /// `ls`: one line per entry.
    private func list(_ path: String) throws {
        for entry in CacheEntry.list(path) {
            let accessed = Timestamp.text(entry.accessed)
            if json {
                try print(JSONOutput.text(ListedEntry(file: entry.name, bytes: entry.bytes, accessed: accessed)))
            } else {
                print("\(accessed)  \(String(entry.bytes).leftPadded(to: 10))  \(entry.name)")
            }
        }
    }

    /// Runs `body` on the cache (configured with the trim limits) and reports what it removed.
    private func remove(in path: String, maxSize: Int?, maxAge: Double?, _ body: (DiskCache) -> Void) throws {
        let before = CacheEntry.list(path)
        // Not made by looking: a missing cache stays missing.
        guard FileManager.default.fileExists(atPath: path) else {
            return try emit(CacheRemoval(before: [], after: []), text: CacheRemoval(before: [], after: []).text)
        }
        var configuration = DiskCache.Configuration()
        if let maxAge { configuration.maxDiskAge = maxAge }
        if let maxSize { configuration.maxDiskSize = maxSize }
        body(DiskCache(directory: URL(fileURLWithPath: path), configuration: configuration))
        let removal = CacheRemoval(before: before, after: CacheEntry.list(path))
        try emit(removal, text: removal.text)
    }

    /// Prints `value` as one JSON line with `--json`, else `text`.
    private func emit<Value: Encodable>(_ value: Value, text: String) throws {
        print(json ? try JSONOutput.text(value) : text)
    }

    /// One `ls --json` line.
    private struct ListedEntry: Encodable {
        var file: String
        var bytes: Int
        var accessed: String
    }
}

extension String {
    /// The string right-aligned in `width` columns (unchanged when already wider).
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
