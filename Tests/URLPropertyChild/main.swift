import Foundation
import TestSupport
import WebImage
import WebImageServer

// Child process of the URL property test (WebImageServerTests' `URLPropertyTests`): feeds generated URLs
// through ImageDownloader, ImageManager and the image service, and prints one line per URL with what each
// answered. A trap anywhere ends this process with a signal, which the parent reports with the last URL printed.
// The parent runs it in a network namespace that has nothing but loopback.
//
// Usage: URLPropertyChild SEED COUNT

let arguments = CommandLine.arguments
guard arguments.count == 3, let seed = UInt64(arguments[1]), let count = Int(arguments[2]) else {
    FileHandle.standardError.write(Data("usage: URLPropertyChild SEED COUNT\n".utf8))
    exit(2)
}

/// One line to stdout, unbuffered: after a trap the parent still sees the URL that caused it.
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

let origin = try await TestHTTPServer.start()
origin.route("/img.png", TestResponse(body: URLGenerator.png))
origin.route("/redirect", TestResponse(status: 302, headers: [("Location", "/img.png")]))

var downloaderConfiguration = ImageDownloader.Configuration(downloadTimeout: .seconds(2), totalDownloadTimeout: .seconds(4))
downloaderConfiguration.redirectLimit = 3
let downloader = ImageDownloader(configuration: downloaderConfiguration)
let cacheDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("url-property-\(getpid())")
let manager = ImageManager(cache: ImageCache(namespace: "url-property", directory: cacheDirectory), loader: downloader)
let proxy = ImageProxy(configuration: ImageProxyConfiguration(
    signing: .init(allowsUnsigned: true), sources: .init(policy: SourcePolicy(allowsPrivateAddresses: true)),
    timeouts: .init(download: .seconds(2))))

/// What a download of `url` ended with: "ok" or the error's code.
func download(_ url: URL) async -> String {
    await withCheckedContinuation { continuation in
        downloader.downloadImage(with: ImageDownloadRequest(url: url)) { result in
            switch result {
            case .success: continuation.resume(returning: "ok")
            case .failure(let error): continuation.resume(returning: "\(error.code)")
            }
        }
    }
}

/// The service's status for a plain source URL.
func serve(_ source: String) async -> Int {
    let encoded = source.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
    return await proxy.image(ProxyRequest(target: "/unsafe/rs:fit:8:8/plain/\(encoded)@png")).status
}

var generator = URLGenerator(seed: seed, originPort: origin.port)
for index in 0..<count {
    let text = generator.next()
    let verdict = URL(string: text).map { URLValidation.problem(with: $0) == nil ? "valid" : "invalid" } ?? "unparsed"
    say("url \(index) \(verdict) \(text.debugDescription)")
    let downloaded = if let url = URL(string: text) { await download(url) } else { "unparsed" }
    let loaded = await withCheckedContinuation { continuation in
        manager.loadImage(with: text, options: [.retryFailed]) { _, _, error, _, finished, _ in
            if finished { continuation.resume(returning: error.map { "\($0.code)" } ?? "ok") }
        }
    }
    let served = await serve(text)
    say("answered \(index) downloader=\(downloaded) manager=\(loaded) service=\(served)")
    // The same URL as a redirect target (a header value cannot hold control characters).
    guard !text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else { continue }
    origin.route("/r\(index)", TestResponse(status: 302, headers: [("Location", text)]))
    let redirected = await download(origin.url("/r\(index)"))
    let redirectServed = await serve(origin.url("/r\(index)").absoluteString)
    say("redirected \(index) downloader=\(redirected) service=\(redirectServed)")
}
await proxy.shutdown()
try await downloader.shutdown()
try await origin.shutdown()
try? FileManager.default.removeItem(at: cacheDirectory)
say("done \(count)")
