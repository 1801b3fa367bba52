import ArgumentParser
import Foundation
import WebImage

/// `--concurrency`, `--timeout` and `--header`: how `fetch` and `prefetch` download.
struct NetworkSettings: ParsableArguments {
    @Option(help: ArgumentHelp("Downloads at once (default 6).", valueName: "N"))
    var concurrency = 6

    @Option(help: ArgumentHelp("Seconds before a download gives up (default 15).", valueName: "S"))
    var timeout: Double = 15

    @Option(name: .customLong("header"),
            help: ArgumentHelp("An HTTP request header, repeatable.", valueName: "'NAME: VALUE'"))
    var headers: [String] = []

    /// Checks the numbers and every header up front, failing with one line naming the bad value.
    func downloaderConfiguration() throws -> ImageDownloader.Configuration {
        guard concurrency >= 1 else {
            throw CLIFailure(subject: "--concurrency", reason: "bad value \(concurrency): give 1 or more")
        }
        guard timeout > 0, timeout.isFinite else {
            throw CLIFailure(subject: "--timeout", reason: "bad value \(timeout): give a positive number of seconds")
        }
        var configuration = ImageDownloader.Configuration(maxConcurrentDownloads: concurrency,
                                                          downloadTimeout: .milliseconds(Int64(timeout * 1000)))
        for header in headers {
            let parts = header.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2, !parts[0].isEmpty, !parts[0].contains(" ") else {
                throw CLIFailure(subject: "--header", reason: "bad header '\(header)': give 'Name: value'")
            }
            configuration.httpHeaders.removeAll { $0.name.caseInsensitiveCompare(parts[0]) == .orderedSame }
            configuration.httpHeaders.append((parts[0], parts[1]))
        }
        return configuration
    }
}

/// The URLs a user typed, checked before any loading: only absolute http, https and file URLs pass.
enum URLArgument {
    /// The URL, or nil when `text` is not an absolute http(s) URL with a host or a file URL.
    static func parse(_ text: String) -> URL? {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased() else { return nil }
        switch scheme {
        case "http", "https": return (url.host?.isEmpty ?? true) ? nil : url
        case "file": return url.path.isEmpty ? nil : url
        default: return nil
        }
    }
}
