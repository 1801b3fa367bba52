import ArgumentParser
import Foundation
import WebImage

/// `--concurrency`, `--timeout` and `--header`: how `fetch` and `prefetch` download.
struct NetworkSettings: ParsableArguments {
    @Option(parsing: .unconditional, help: ArgumentHelp("Downloads at once.", valueName: "N"))
    var concurrency = OptionValue<Int>(argument: "6")

    @Option(parsing: .unconditional,
            help: ArgumentHelp("Seconds each download may take in all, from connecting to the last byte, however "
                               + "steadily bytes arrive (like curl's --max-time). Default: the library's, 300 s in "
                               + "all and 15 s without any byte.", valueName: "S"))
    var timeout: OptionValue<Double>?

    @Option(name: .customLong("header"),
            help: ArgumentHelp("An HTTP request header, repeatable.", valueName: "'NAME: VALUE'"))
    var headers: [String] = []

    /// Checks the numbers and every header up front, failing with one line naming the bad value.
    ///
    /// `--timeout S` sets the total timeout to S and the idle timeout to S or the library's 15 s, whichever
    /// is shorter (a stalled connection still fails early).
    func downloaderConfiguration() throws -> ImageDownloader.Configuration {
        let concurrency = try concurrency.value("--concurrency", hint: "give 1 or more") { $0 >= 1 }
        var configuration = ImageDownloader.Configuration(maxConcurrentDownloads: concurrency)
        if let timeout {
            let seconds = try timeout.value("--timeout", hint: "give a positive number of seconds, at most 1e9") {
                $0 > 0 && $0 <= 1e9
            }
            let total = Duration.milliseconds(Int64((seconds * 1000).rounded(.up)))
            configuration.totalDownloadTimeout = total
            configuration.downloadTimeout = min(total, configuration.downloadTimeout)
        }
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

/// The URLs a user typed, checked before any loading: only absolute http, https and file URLs pass, http(s) ones
/// through the library's ``URLValidation`` (host and port), the check the downloader makes too.
enum URLArgument {
    /// The URL, or 1000 invalidURL saying what is wrong with `text`.
    static func check(_ text: String) -> Result<URL, WebImageError> {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased() else {
            return .failure(.invalidURL(text))
        }
        switch scheme {
        case "http", "https":
            if let problem = URLValidation.problem(with: url) { return .failure(URLValidation.invalid(url, problem)) }
            return .success(url)
        case "file": return url.path.isEmpty ? .failure(.invalidURL(text)) : .success(url)
        default: return .failure(.invalidURL(text))
        }
    }
}
